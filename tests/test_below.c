/* SPDX-License-Identifier: MIT */
/*
 * The threads of every process below this one (ptb_threads_sample_below,
 * platform/threads.c), which `ptbench record`'s watch samples: found by
 * the children files of /proc from this process down, and by a scan of
 * all of /proc where those files are not there (PTB_TEST_SCAN_PROC forces
 * it).  A tree of known shape -- two children, one with a second thread,
 * each with a child of its own -- must be found whole and alone by both.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "platform/threads.h"
#include "tap.h"

static void *nap(void *arg)
{
	pause();
	return arg;
}

/* A child that starts `threads` more threads and a grandchild, then waits
 * to be killed; each writes a byte to the pipe once it is there. */
static pid_t child(int threads, int ready)
{
	pid_t p = fork();
	if (p)
		return p;
	pid_t parent = getpid(), g = fork();
	char c = 1;
	if (g == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);    /* gone with its parent, however it ends */
		if (getppid() != parent || write(ready, &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	pthread_t t;
	for (int i = 0; i < threads; i++)
		pthread_create(&t, NULL, nap, NULL);
	if (write(ready, &c, 1) != 1)
		_exit(1);
	pause();
	_exit(0);
}

static int count_pid(const struct ptb_thread_time *t, int n, pid_t pid)
{
	int k = 0;
	for (int i = 0; i < n; i++)
		k += t[i].pid == pid;
	return k;
}

int main(void)
{
	static struct ptb_thread_time out[256];
	int fds[2];
	if (ptb_threads_sample_below(out, 256) < 0)
		tap_skip_all("this system cannot list the threads below a process");
	/* orphans come back here, to be reaped.  qemu's user mode refuses it
	 * (and its forked child never started its thread there) */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1))
		tap_skip_all("no subreaper here (an emulator's user mode?): the tree cannot be kept");
	if (pipe(fds))
		return 1;
	pid_t a = child(0, fds[1]), b = child(1, fds[1]);
	char c;
	for (int i = 0; i < 4; i++)     /* a byte from each child and grandchild */
		if (read(fds[0], &c, 1) != 1)
			return 1;
	for (int scan = 0; scan < 2; scan++) {
		const char *how = scan ? "a scan of /proc" : "the children files";
		if (scan)
			setenv("PTB_TEST_SCAN_PROC", "1", 1);
		int n = ptb_threads_sample_below(out, 256);
		tap_ok(n == 5, "%s: 5 threads below (2 children, one of 2 threads; 2 grandchildren; "
		       "none of this process's): %d", how, n);
		tap_ok(count_pid(out, n, a) == 1 && count_pid(out, n, b) == 2,
		       "%s: each child's threads under its own number (%d, %d)", how,
		       count_pid(out, n, a), count_pid(out, n, b));
		tap_ok(count_pid(out, n, getpid()) == 0, "%s: not this process", how);
		tap_ok(ptb_threads_sample_below(out, 3) == 3, "%s: no more than asked for", how);
	}
	kill(a, SIGTERM), kill(b, SIGTERM);
	while (waitpid(-1, NULL, 0) > 0)   /* the children, and the grandchildren they left */
		;
	unsetenv("PTB_TEST_SCAN_PROC");
	tap_ok(ptb_threads_sample_below(out, 256) == 0, "once they end, none below");
	tap_done();
	return tap_exit();
}
