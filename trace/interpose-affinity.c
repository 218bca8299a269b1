/* SPDX-License-Identifier: MIT */
/*
 * The CPUs the program sees.  `ptbench record` binds it to one PU, but a
 * program that sizes its pool by the CPUs it may use (xz -T0, sort,
 * `nproc`, an OpenMP runtime) would then start one worker where it starts
 * one per CPU unrecorded, and the prediction would be of another program.
 * So the affinity it asks for is the set ptbench had before it bound
 * itself (PTB_TRACE_SEEN_CPUS, a list such as "0-3,6"), and a program that
 * binds its threads is answered as if it had, while they stay on the
 * recording's PU.  Other processes' affinity is theirs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace/interpose.h"

static cpu_set_t allowed, seen;   /* what it would have had; what it asked for since */
static int have_seen;

/* "0-3,6" into seen; nothing on a malformed list (the program then sees
 * its real affinity, the one PU), nor once read (the first ask, before
 * the constructor, may have read it: what was bound since stays). */
void ptb_tr_affinity_init(const char *list)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	if (!list || !*list || have_seen)
		return;
	for (const char *p = list; *p;) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;
		if (end == p)
			return;
		if (*end == '-') {
			const char *q = end + 1;
			b = strtoul(q, &end, 10);
			if (end == q)
				return;
		}
		if (a > b || b >= CPU_SETSIZE)
			return;
		for (unsigned long c = a; c <= b; c++)
			CPU_SET(c, &set);
		if (*end && *end != ',')
			return;
		p = *end ? end + 1 : end;
	}
	allowed = seen = set;
	have_seen = CPU_COUNT(&set) > 0;
}

/* Whether the program's asks are answered with the set it would have
 * had: while it records, and before the interposer's constructor has run
 * in a process that will record.  A library whose constructor runs first
 * may size itself there: libgomp read the one PU and made every team of
 * one thread (an OpenMP program printed "team 1" recorded, "team 2" not).
 * Until the constructor takes them out, ptbench's variables are in the
 * environment. */
static int answered(void)
{
	if (ptb_tr_on)
		return have_seen;
	const char *trace = getenv("PTB_TRACE_FILE");
	if (!trace || !*trace)
		return 0;
	if (!have_seen)
		ptb_tr_affinity_init(getenv("PTB_TRACE_SEEN_CPUS"));
	return have_seen;
}

/* The process itself or any of its threads (by its number in
 * /proc/self/task: binding a sibling by its tid moved it off the PU). */
static int own(pid_t pid)
{
	char task[64];
	if (pid == 0 || pid == getpid() || pid == (pid_t)syscall(SYS_gettid))
		return 1;
	snprintf(task, sizeof task, "/proc/self/task/%d", (int)pid);
	return pid > 0 && access(task, F_OK) == 0;
}

/* After the real call, which checks what the kernel checks (a size too
 * small for the machine's mask, a bad address, a thread that has ended),
 * the set it would have had. */
static void answer(size_t size, cpu_set_t *set)
{
	memset(set, 0, size);
	memcpy(set, &seen, size < sizeof seen ? size : sizeof seen);
}

int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *set)
{
	PTB_REAL(int, "sched_getaffinity", (pid_t, size_t, cpu_set_t *));
	int rc = real_fn(pid, size, set);
	if (!rc && answered() && own(pid))
		answer(size, set);
	return rc;
}

int pthread_getaffinity_np(pthread_t th, size_t size, cpu_set_t *set)
{
	PTB_REAL(int, "pthread_getaffinity_np", (pthread_t, size_t, cpu_set_t *));
	int rc = real_fn(th, size, set);
	if (!rc && answered())
		answer(size, set);
	return rc;
}

/* Binding a thread of its own: done as far as the program can tell (what
 * it asks for next is what it set, for the whole process), and the thread
 * stays on the recording's PU. */
static int bound(size_t size, const cpu_set_t *set)
{
	if (!set && size)
		return EFAULT;
	cpu_set_t s;
	CPU_ZERO(&s);
	memcpy(&s, set, size < sizeof s ? size : sizeof s);
	CPU_AND(&s, &s, &allowed);       /* as the kernel: none of those it may use is refused */
	if (!CPU_COUNT(&s))
		return EINVAL;
	seen = s;
	return 0;
}

int sched_setaffinity(pid_t pid, size_t size, const cpu_set_t *set)
{
	PTB_REAL(int, "sched_setaffinity", (pid_t, size_t, const cpu_set_t *));
	if (!answered() || !own(pid))
		return real_fn(pid, size, set);
	int rc = bound(size, set);
	return rc ? (errno = rc, -1) : 0;
}

int pthread_setaffinity_np(pthread_t th, size_t size, const cpu_set_t *set)
{
	PTB_REAL(int, "pthread_setaffinity_np", (pthread_t, size_t, const cpu_set_t *));
	if (!answered())
		return real_fn(th, size, set);
	return bound(size, set);
}

/* For an exec that keeps the trace: what the new image sees. */
int ptb_tr_affinity_list(char *buf, size_t len)
{
	return have_seen ? ptb_trace_cpu_list(&seen, buf, len) : -1;
}
