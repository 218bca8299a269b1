/* SPDX-License-Identifier: MIT */
/*
 * The program's signal dispositions under the interposer.  Where a signal
 * whose default action ends the process is at its default, the
 * interposer's stand-in (trace/interpose.c) is installed instead: it writes
 * the trace, then lets the signal act.  So a program that asks for SIG_DFL
 * (a shell does, explicitly) gets the stand-in, and one that asks what is
 * installed is told SIG_DFL.
 *
 * A handler installed for one delivery only (SA_RESETHAND, and System V's
 * signal) would be reset by the kernel to the real default, and a crash
 * handler that then raises its signal again would end the process without
 * its trace.  So such a handler is installed behind a trampoline that, at
 * the first delivery, does the reset itself -- to the stand-in -- and then
 * calls it; asked, the program is told its own handler and flags.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>

#include "trace/interpose.h"

typedef int (*sigaction_fn)(int, const struct sigaction *, struct sigaction *);

/* The C library's sigaction, looked up at the start: not in a handler,
 * where dlsym may find its lock held. */
static sigaction_fn real_sa;
static struct sigaction users[_NSIG];      /* the one-shot handlers as the program set them */
static _Atomic int armed[_NSIG];           /* not yet delivered */

static void stand_in(int sig)
{
	ptb_tr_finish_in_handler();
	struct sigaction dfl = { 0 };
	dfl.sa_handler = SIG_DFL;         /* the real default now, not the stand-in */
	real_sa(sig, &dfl, NULL);
	raise(sig);
}

/* Every signal whose default action ends the process (signal(7)), the
 * real-time ones included; not SIGKILL or SIGSTOP, which no handler sees. */
static const int fatal[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTERM, SIGINT,
			     SIGHUP, SIGQUIT, SIGPIPE, SIGXCPU, SIGXFSZ, SIGALRM, SIGUSR1,
			     SIGUSR2, SIGPROF, SIGVTALRM, SIGIO, SIGSYS, SIGTRAP,
#ifdef SIGSTKFLT
			     SIGSTKFLT,
#endif
#ifdef SIGPWR
			     SIGPWR,
#endif
};

static int ends_process(int sig)
{
	for (size_t i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
		if (fatal[i] == sig)
			return 1;
	return sig >= SIGRTMIN && sig <= SIGRTMAX;
}

static int fatal_here(int sig) { return ptb_tr_on && ends_process(sig); }

static int is_stand_in(const struct sigaction *sa)
{
	return !(sa->sa_flags & SA_SIGINFO) && sa->sa_handler == stand_in;
}

/* The default action of a fatal signal, with the trace written first:
 * what the program gets when it asks for SIG_DFL. */
static int install_stand_in(int sig)
{
	struct sigaction sa = { 0 };
	sa.sa_handler = stand_in;
	sa.sa_flags = SA_RESETHAND;
	return real_sa(sig, &sa, NULL);
}

void ptb_tr_signals_init(void)
{
	real_sa = (sigaction_fn)ptb_tr_real("sigaction");
	for (int sig = 1; sig <= SIGRTMAX; sig++) {
		struct sigaction old;
		if (ends_process(sig) && real_sa(sig, NULL, &old) == 0 &&
		    !(old.sa_flags & SA_SIGINFO) && old.sa_handler == SIG_DFL)
			install_stand_in(sig);
	}
}

/* The C library's sigaction when the trace is off (a child after a fork
 * keeps the parent's pointer; a program not recorded never set it). */
static sigaction_fn real_sigaction(void)
{
	if (!real_sa)
		real_sa = (sigaction_fn)ptb_tr_real("sigaction");
	return real_sa;
}

/* The first delivery: the disposition goes to what the kernel's reset
 * would have left, the stand-in, and the program's handler runs.  A second
 * delivery before that (SA_NODEFER, another thread) finds the trampoline
 * disarmed and takes the default action, as it would have. */
static void once_then_default(int sig, siginfo_t *si, void *uc)
{
	if (sig <= 0 || sig >= _NSIG || !atomic_exchange(&armed[sig], 0)) {
		stand_in(sig);
		return;
	}
	struct sigaction user = users[sig];
	install_stand_in(sig);
	if (user.sa_flags & SA_SIGINFO)
		user.sa_sigaction(sig, si, uc);
	else
		user.sa_handler(sig);
}

static int is_trampoline(const struct sigaction *sa)
{
	return (sa->sa_flags & SA_SIGINFO) && sa->sa_sigaction == once_then_default;
}

/* What the program would see installed: SIG_DFL for the stand-in, its own
 * one-shot handler for the trampoline (SIG_DFL once that has fired). */
static void as_program_sees(int sig, struct sigaction *old)
{
	if (is_stand_in(old) || (is_trampoline(old) && !atomic_load(&armed[sig]))) {
		old->sa_handler = SIG_DFL;
		old->sa_flags = 0;
	} else if (is_trampoline(old)) {
		*old = users[sig];
	}
}

static int one_shot_handler(int sig, const struct sigaction *act)
{
	return act && (act->sa_flags & SA_RESETHAND) && act->sa_handler != SIG_DFL &&
	       act->sa_handler != SIG_IGN && fatal_here(sig);
}

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	sigaction_fn real_fn = real_sigaction();
	int rc;
	if (one_shot_handler(sig, act)) {
		/* what it replaces, read as the program sees it before the new
		 * handler is kept (a library that chains to a one-shot handler
		 * it replaced was handed itself, and recursed) */
		struct sigaction given = *act, was, t = *act;   /* act may be old */
		if (real_fn(sig, NULL, &was))
			return -1;
		as_program_sees(sig, &was);
		t.sa_flags = (given.sa_flags & ~SA_RESETHAND) | SA_SIGINFO;
		t.sa_sigaction = once_then_default;
		users[sig] = given;
		atomic_store(&armed[sig], 1);
		rc = real_fn(sig, &t, NULL);
		if (!rc && old)
			*old = was;
		return rc;
	} else if (!act || act->sa_handler != SIG_DFL || (act->sa_flags & SA_SIGINFO) ||
		   !fatal_here(sig)) {
		rc = real_fn(sig, act, old);
	} else if (old && real_fn(sig, NULL, old)) {
		return -1;
	} else {
		rc = install_stand_in(sig);
	}
	if (!rc && old)
		as_program_sees(sig, old);
	return rc;
}

/* signal and its BSD relatives through the C library's own; what they
 * replace reads as the program would see it. */
static sighandler_t set_handler(int sig, sighandler_t h, sighandler_t (*real_fn)(int, sighandler_t))
{
	sigaction_fn sa = real_sigaction();
	struct sigaction old;
	if (h != SIG_DFL || !fatal_here(sig)) {
		if (sig > 0 && sig < _NSIG && sa(sig, NULL, &old) == 0 &&
		    (is_stand_in(&old) || is_trampoline(&old))) {
			sighandler_t r = real_fn(sig, h);
			if (r == SIG_ERR)
				return r;
			as_program_sees(sig, &old);
			return old.sa_handler;
		}
		return real_fn(sig, h);
	}
	if (sa(sig, NULL, &old) || install_stand_in(sig))
		return SIG_ERR;
	as_program_sees(sig, &old);
	return old.sa_handler;
}

sighandler_t signal(int sig, sighandler_t h)
{
	PTB_REAL(sighandler_t, "signal", (int, sighandler_t));
	return set_handler(sig, h, real_fn);
}

sighandler_t bsd_signal(int sig, sighandler_t h)
{
	PTB_REAL(sighandler_t, "bsd_signal", (int, sighandler_t));
	return set_handler(sig, h, real_fn);
}

sighandler_t sigset(int sig, sighandler_t h)
{
	PTB_REAL(sighandler_t, "sigset", (int, sighandler_t));
	return set_handler(sig, h, real_fn);
}

/* System V's signal, which a program built for strict ISO C calls for
 * signal(): reset at delivery and not blocked in the handler, as the C
 * library does it, but through the wrapper above. */
static sighandler_t system_v_signal(int sig, sighandler_t h)
{
	if (h == SIG_ERR || sig <= 0 || sig >= _NSIG) {
		errno = EINVAL;
		return SIG_ERR;
	}
	struct sigaction act = { 0 }, old;
	act.sa_handler = h;
	sigemptyset(&act.sa_mask);
	act.sa_flags = SA_RESETHAND | SA_NODEFER;
	return sigaction(sig, &act, &old) ? SIG_ERR : old.sa_handler;
}

sighandler_t sysv_signal(int sig, sighandler_t h) { return system_v_signal(sig, h); }
sighandler_t __sysv_signal(int sig, sighandler_t h) { return system_v_signal(sig, h); }
