/* SPDX-License-Identifier: MIT */
/*
 * Linux: /proc/PID/task/TID/schedstat gives each thread's time on a CPU
 * and its time ready on a run queue, in ns.  A thread whose policy is
 * changed to SCHED_OTHER and back is queued at the tail of its real-time
 * priority's list (sched(7)).  Elsewhere: nothing to sample.
 */
#include "config.h"
#include "platform/threads.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __linux__
static int read_schedstat(pid_t pid, long tid, unsigned long long *run, unsigned long long *ready)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", (long)pid, tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;                    /* it ended meanwhile */
	int got = fscanf(f, "%llu %llu", run, ready);
	fclose(f);
	return got == 2 ? 0 : -1;
}

/* The state letter of /proc/PID/task/TID/stat, after the name in
 * parentheses (which may hold any byte, a parenthesis too). */
static int read_state(pid_t pid, long tid, char *state)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/stat", (long)pid, tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	size_t n = fread(line, 1, sizeof line - 1, f);
	fclose(f);
	line[n] = 0;
	char *close = strrchr(line, ')');
	if (!close || close[1] != ' ' || !close[2])
		return -1;
	*state = close[2];
	return 0;
}

int ptb_threads_sample(pid_t pid, struct ptb_thread_time *out, size_t max)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task", (long)pid);
	DIR *d = opendir(path);
	if (!d)
		return -1;
	size_t n = 0;
	struct dirent *e;
	while (n < max && (e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);
		if (tid <= 0)
			continue;
		unsigned long long run, ready;
		char state;
		if (read_schedstat(pid, tid, &run, &ready) == 0 && read_state(pid, tid, &state) == 0)
			out[n++] = (struct ptb_thread_time){ (pid_t)tid, run, ready, state == 'R' };
	}
	closedir(d);
	return (int)n;
}

int ptb_thread_to_tail(pid_t tid)
{
	struct sched_param other = { 0 }, own;
	if (sched_getscheduler(tid) != SCHED_FIFO || sched_getparam(tid, &own) != 0 ||
	    sched_setscheduler(tid, SCHED_OTHER, &other) != 0)
		return -1;
	return sched_setscheduler(tid, SCHED_FIFO, &own) != 0 ? -1 : 0;
}
#else
int ptb_threads_sample(pid_t pid, struct ptb_thread_time *out, size_t max)
{
	(void)pid, (void)out, (void)max;
	return -1;
}

int ptb_thread_to_tail(pid_t tid)
{
	(void)tid;
	return -1;
}
#endif
