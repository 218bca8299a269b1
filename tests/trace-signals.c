/* SPDX-License-Identifier: MIT */
/*
 * Signal handlers a recorder must leave as the program set them, for
 * tests/trace-odd.sh: each is recorded by `ptbench record` and must come
 * out as it does unrecorded (output, exit status) with a complete trace.
 *
 *   trace-signals resethand HOW  a handler for one delivery, which says what
 *                                is installed before and inside it and
 *                                raises its signal again (a crash handler):
 *                                HOW sigaction (SA_RESETHAND, SA_SIGINFO,
 *                                SIGTERM) or sysv (System V's signal, SIGUSR1)
 *   trace-signals chain          an application's one-shot handler for
 *                                SIGTERM, then a library's, which calls the
 *                                one it replaced; the application's exits 3
 *   trace-signals count          waits for SIGTERM, then 0.3 s more, and
 *                                prints how many it got
 *   trace-signals parent         sends SIGUSR1 to its parent, waits 0.3 s
 *                                and prints how many SIGUSR1 it got
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "trace-work.h"

static void say(const char *s)
{
	ssize_t r = write(1, s, strlen(s));
	(void)r;
}

static void again(int sig)
{
	struct sigaction now;
	sigaction(sig, NULL, &now);
	say(now.sa_handler == SIG_DFL ? "inside: the default\n" : "inside: still handled\n");
	raise(sig);
}

static void again_info(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si->si_signo == sig)
		again(sig);
}

static int resethand(const char *how)
{
	work_two_threads_50ms();
	int sysv = !strcmp(how, "sysv"), sig = sysv ? SIGUSR1 : SIGTERM;
	struct sigaction sa = { 0 }, old;
	if (sysv) {
		__sysv_signal(sig, again);
	} else {
		sa.sa_sigaction = again_info;
		sa.sa_flags = SA_SIGINFO | SA_RESETHAND;
		sigaction(sig, &sa, NULL);
	}
	sigaction(sig, NULL, &old);
	int mine = sysv ? old.sa_handler == again && (old.sa_flags & SA_NODEFER)
			: old.sa_sigaction == again_info && (old.sa_flags & SA_SIGINFO);
	say(mine && (old.sa_flags & SA_RESETHAND) ? "before: its handler, once\n" : "before: other\n");
	raise(sig);
	return 1;
}

static struct sigaction replaced;
static int depth;

static void application(int sig)
{
	(void)sig;
	say("application's handler\n");
	_exit(3);
}

static void library(int sig)
{
	if (++depth > 3) {
		say("the library's handler was handed itself\n");
		_exit(99);
	}
	say("library's handler\n");
	if (replaced.sa_handler != SIG_DFL && replaced.sa_handler != SIG_IGN)
		replaced.sa_handler(sig);
}

static int chain(void)
{
	work_two_threads_50ms();
	struct sigaction sa = { 0 };
	sa.sa_handler = application;
	sa.sa_flags = SA_RESETHAND;
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = library;
	sigaction(SIGTERM, &sa, &replaced);
	raise(SIGTERM);
	return 1;
}

static volatile sig_atomic_t got;

static void counted(int sig)
{
	(void)sig;
	got++;
}

static void nap_300ms(void)
{
	struct timespec ts = { 0, 300000000 };
	while (nanosleep(&ts, &ts))
		;
}

/* how many of signal sig arrive: after the first (wait) or after it was
 * sent to the parent */
static int count(int sig, int wait)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = counted;
	sigaction(sig, &sa, NULL);
	if (!wait)
		kill(getppid(), sig);
	while (wait && !got)
		pause();
	nap_300ms();
	printf("%d %s\n", (int)got, sig == SIGTERM ? "TERM" : "USR1");
	return 0;
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	if (!strcmp(m, "resethand") && argc == 3)
		return resethand(argv[2]);
	if (!strcmp(m, "chain"))
		return chain();
	if (!strcmp(m, "count"))
		return count(SIGTERM, 1);
	if (!strcmp(m, "parent"))
		return count(SIGUSR1, 0);
	fprintf(stderr, "usage: trace-signals resethand sigaction|sysv | chain | count | parent\n");
	return 2;
}
