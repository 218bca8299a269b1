/* SPDX-License-Identifier: MIT */
/*
 * Programs that keep the recording's one PU from a thread that is ready,
 * for tests/trace-spin.sh: under SCHED_FIFO a thread runs until it
 * blocks, so each of these would hold the PU for ever, or for long, but
 * for `ptbench record`'s watch (harness/cli/record-hog.c).
 *
 *   trace-spin spin       the main thread waits by spinning on a flag,
 *                         without a call, for a thread that works 20 ms
 *                         and sets it; prints "spun"
 *   trace-spin burst      the main thread starts a thread that would work
 *                         1 ms, works 3 s itself, and joins it: work, not
 *                         a spin
 *   trace-spin pollchild  a forked child works 20 ms while its parent
 *                         polls for its end (waitpid with WNOHANG);
 *                         prints "reaped" and the child's status
 *   trace-spin forkwork   a forked child would work 20 ms while its parent
 *                         works 3 s and then waits for it: work, not a
 *                         poll, though most of its time is in system
 *                         calls (pread of its own executable, cached, in
 *                         4 KiB pieces, summed)
 *   trace-spin spinwork   the main thread waits for a flag that a thread
 *                         sets after 20 ms of work, doing 1 ms of work of
 *                         its own between looks at the flag: a spin that
 *                         looks like work; prints "spun"
 *
 * The main thread's work in burst and spinwork is half the loop of
 * trace-work.h and half the C library's formatting of numbers, so that
 * the watch's samples of it span kilobytes of code.  The loop alone is a
 * few hundred bytes, and the clock call beside it held 2.8 % of its
 * samples: a look once judged the spin of spinwork a plain spin (CI,
 * 2026-11-27; docs/design.md, section 12).
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace-work.h"

static _Atomic int flag;

static void *work_then_flag(void *arg)
{
	work_for_ns(20e6);
	flag = 1;
	return arg;
}

/* ns of this thread's CPU time, half in the loop, half formatting numbers. */
static void busy_for_ns(double ns)
{
	char buf[64];
	double t0 = work_cpu_ns();
	for (int i = 0; work_cpu_ns() - t0 < ns; i++) {
		work_spin(500);
		for (int k = 0; k < 8; k++)
			snprintf(buf, sizeof buf, "%.17g %d", work_sink * (i + k), i ^ k);
	}
}

static void *work_1ms(void *arg)
{
	work_for_ns(1e6);
	return arg;
}

static int burst(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, work_1ms, NULL))
		return 1;
	busy_for_ns(3e9);        /* the thread it started stands ready meanwhile */
	pthread_join(t, NULL);
	return 0;
}

static int spin(int with_work)
{
	pthread_t t;
	if (pthread_create(&t, NULL, work_then_flag, NULL))
		return 1;
	while (!flag)
		if (with_work)
			busy_for_ns(1e6);
	pthread_join(t, NULL);
	puts("spun");
	return 0;
}

/* A forked child that works 20 ms and exits with status; its pid, -1. */
static pid_t child_working(int status)
{
	pid_t child = fork();
	if (child == 0) {
		work_for_ns(20e6);
		_exit(status);
	}
	return child;
}

static int pollchild(void)
{
	pid_t child = child_working(3), got;
	int status;
	if (child < 0)
		return 1;
	while ((got = waitpid(child, &status, WNOHANG)) == 0)
		;
	printf("reaped %d\n", got == child && WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

/* ns of this thread's CPU time reading a cached file in short pieces:
 * work whose time is mostly the kernel's, as a poll's is. */
static void pread_for_ns(double ns)
{
	static unsigned char block[4096];
	int fd = open("/proc/self/exe", O_RDONLY);
	off_t size = fd < 0 ? 0 : lseek(fd, 0, SEEK_END), off = 0;
	double t0 = work_cpu_ns();
	unsigned long sum = 0;
	while (size > 0 && work_cpu_ns() - t0 < ns) {
		ssize_t got = pread(fd, block, sizeof block, off);
		for (ssize_t i = 0; i < got; i += 64)
			sum += block[i];
		off = got > 0 && off + got < size ? off + got : 0;
	}
	if (fd >= 0)
		close(fd);
	work_sink = (double)sum;
	if (size <= 0)                          /* no file: the same time in plain work */
		work_for_ns(ns);
}

static int forkwork(void)
{
	pid_t child = child_working(0);
	int status;
	if (child < 0)
		return 1;
	pread_for_ns(3e9);
	return waitpid(child, &status, 0) == child && WIFEXITED(status) ? 0 : 1;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "spin"))
		return spin(0);
	if (!strcmp(m, "burst"))
		return burst();
	if (!strcmp(m, "pollchild"))
		return pollchild();
	if (!strcmp(m, "spinwork"))
		return spin(1);
	if (!strcmp(m, "forkwork"))
		return forkwork();
	fprintf(stderr, "usage: trace-spin spin | burst | pollchild | forkwork | spinwork\n");
	return 2;
}
