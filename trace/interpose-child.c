/* SPDX-License-Identifier: MIT */
/*
 * Waits for other processes under the interposer: wait, waitpid, wait3,
 * wait4, waitid, and system and pclose, whose waits inside the C library
 * no wrapper sees.  Another process's work is not in the trace, so such a
 * wait is a delay (PTB_EV_IO on no descriptor): predict keeps it on any
 * number of CPUs, as record's warning about other processes says.  Left
 * out, it counted for nothing: `perl -e 'system("sleep", "0.5")'`,
 * recorded in 0.5 s, was predicted to take 3 ms.  And daemon, whose
 * parent ends where no wrapper sees it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace/interpose.h"

#define LONG_NS 20000u               /* shorter: the call did not wait to speak of */

/* The wait that began at t0, with the run-queue time q0 before it. */
static void waited(uint64_t t0, uint64_t q0, int failed, const void *site)
{
	uint64_t t1 = ptb_tr_now();
	ptb_tr_io_end();
	if (t1 - t0 < LONG_NS)
		return;
	uint64_t q1 = q0 == UINT64_MAX ? UINT64_MAX : ptb_tr_runq_ns();
	uint64_t runq = q1 == UINT64_MAX || q1 < q0 ? UINT64_MAX : q1 - q0;
	ptb_tr_span(PTB_EV_IO, t0, t1, NULL, 0, PTB_FD_OTHER | (failed ? PTB_IO_FAILED : 0), site, runq);
}

/* The body of a wrapper: the real call, timed. */
#define CHILD_WAIT(type, call, failed) \
	do { \
		if (!ptb_tr_recording()) \
			return (call); \
		const void *site_ = PTB_SITE; \
		uint64_t q0_ = ptb_tr_runq_ns(), t0_ = ptb_tr_io_begin(); \
		type rc_ = (call); \
		int errno_ = errno; \
		waited(t0_, q0_, failed, site_); \
		errno = errno_; \
		return rc_; \
	} while (0)

pid_t wait(int *st)
{
	PTB_REAL(pid_t, "wait", (int *));
	CHILD_WAIT(pid_t, real_fn(st), rc_ < 0);
}

pid_t waitpid(pid_t pid, int *st, int opt)
{
	PTB_REAL(pid_t, "waitpid", (pid_t, int *, int));
	if (opt & WNOHANG)                   /* no wait: not even a look at the run queue */
		return real_fn(pid, st, opt);  /* (7 us a call; 200,000 polls took 1.4 s) */
	CHILD_WAIT(pid_t, real_fn(pid, st, opt), rc_ < 0);
}

pid_t wait3(int *st, int opt, struct rusage *ru)
{
	PTB_REAL(pid_t, "wait3", (int *, int, struct rusage *));
	if (opt & WNOHANG)
		return real_fn(st, opt, ru);
	CHILD_WAIT(pid_t, real_fn(st, opt, ru), rc_ < 0);
}

pid_t wait4(pid_t pid, int *st, int opt, struct rusage *ru)
{
	PTB_REAL(pid_t, "wait4", (pid_t, int *, int, struct rusage *));
	if (opt & WNOHANG)
		return real_fn(pid, st, opt, ru);
	CHILD_WAIT(pid_t, real_fn(pid, st, opt, ru), rc_ < 0);
}

int waitid(idtype_t type, id_t id, siginfo_t *si, int opt)
{
	PTB_REAL(int, "waitid", (idtype_t, id_t, siginfo_t *, int));
	if (opt & WNOHANG)
		return real_fn(type, id, si, opt);
	CHILD_WAIT(int, real_fn(type, id, si, opt), rc_ < 0);
}

int system(const char *cmd)
{
	PTB_REAL(int, "system", (const char *));
	CHILD_WAIT(int, real_fn(cmd), rc_ < 0);
}

int pclose(FILE *f)
{
	PTB_REAL(int, "pclose", (FILE *));
	if (f)                              /* closed inside: what was cached */
		ptb_tr_fd_new(fileno(f));   /* under its number goes */
	CHILD_WAIT(int, real_fn(f), rc_ < 0);
}

/* glibc's daemon ends the parent by an _exit inside the C library, which
 * no wrapper sees, and the trace was never written: record said "no
 * complete trace" and exited 2 where the program had exited 0.  So the
 * fork is made here first: the parent ends through the _exit wrapper,
 * which writes the trace, and the child, recording nothing (as any child),
 * becomes the daemon by the real call -- one fork more, whose parent ends
 * as daemon's does. */
int daemon(int nochdir, int noclose)
{
	PTB_REAL(int, "daemon", (int, int));
	if (!ptb_tr_recording())
		return real_fn(nochdir, noclose);
	pid_t child = fork();
	if (child < 0)
		return -1;
	if (child > 0)
		_exit(0);
	return real_fn(nochdir, noclose);
}
