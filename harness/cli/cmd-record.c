/* SPDX-License-Identifier: MIT */
/*
 * `ptbench record [-o TRACE] [--cpu N] [--sched fifo|other] -- PROGRAM
 * [ARGS...]`: run PROGRAM once on one PU with the interposer preloaded
 * (trace/interpose.c), so that its threads' Pthreads calls become a trace
 * for `ptbench predict`.  SCHED_FIFO by default: threads then switch only
 * when they block, and each thread's bursts are its own (docs/design.md,
 * "record and predict").  The program's output is its own; ptbench
 * returns its exit status.  The trace is written under a temporary name
 * and renamed once it has been read back whole.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "cli/record-exec.h"
#include "cli/record-hog.h"
#include "cli/record-wake.h"
#include "platform/cgroup.h"
#include "platform/process.h"
#include "platform/threads.h"
#include "platform/topology.h"
#include "record/target.h"
#include "trace/format.h"
#include "trace/mark.h"
#include "trace/reader.h"

static const char usage[] =
	"usage: ptbench record [-o TRACE] [--cpu N] [--sched fifo|other] -- PROGRAM [ARGS...]\n"
	"\n"
	"Run PROGRAM once on one PU with its Pthreads calls recorded, for 'ptbench predict'.\n"
	"  -o, --output TRACE   the trace file (default ptbench.trace)\n"
	"  --cpu N              the PU to run on (default: the first allowed)\n"
	"  --sched fifo|other   SCHED_FIFO (default, where permitted) or the normal policy\n"
	"PROGRAM's output and exit status pass through unchanged.\n";

static const struct option record_options[] = {
	/* name       has_arg            flag  val */
	{ "output",   required_argument, NULL, 'o' },
	{ "cpu",      required_argument, NULL, 'c' },
	{ "sched",    required_argument, NULL, 's' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 },
};

struct record_args {
	const char *out;
	int cpu;                 /* -1: the first allowed */
	int fifo;
};

static int record_option(void *ctx, int opt, const char *arg)
{
	struct record_args *a = ctx;
	switch (opt) {
	case 'o':
		a->out = arg;
		return *arg ? 0 : ptb_bad_input("record", "-o needs a file name");
	case 'c':
		return ptb_parse_int("record", "--cpu", arg, 0, 1 << 20, &a->cpu);
	case 's':
		if (strcmp(arg, "fifo") && strcmp(arg, "other"))
			return ptb_bad_input("record", "--sched: '%s' is neither fifo nor other", arg);
		a->fifo = !strcmp(arg, "fifo");
		return 0;
	}
	return 2;
}

/* The interposer: beside this ptbench in a build tree, else installed. */
static int find_library(char *buf, size_t len)
{
	char exe[2048];
	const char *env = getenv("PTB_TRACE_LIB");
	if (env && *env)
		return snprintf(buf, len, "%s", env), access(buf, R_OK);
	if (ptb_self_exe(ptb_invoked_as, exe, sizeof exe) == 0) {
		char *slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(buf, len, "%s/trace/.libs/libptbtrace.so", exe);
			if (access(buf, R_OK) == 0)
				return 0;
		}
	}
	snprintf(buf, len, "%s/libptbtrace.so", PTB_PKGLIBDIR);
	return access(buf, R_OK);
}

/* Whether the trace's folder takes files: asked before the program runs. */
static int writable_dir(const char *out)
{
	char dir[4096];
	snprintf(dir, sizeof dir, "%s", out);
	char *slash = strrchr(dir, '/');
	if (!slash)
		return access(".", W_OK) == 0;
	slash[slash == dir] = '\0';
	return access(dir, W_OK) == 0;
}

/* The machine's cost of waking a thread on another PU and the woken
 * thread's latency there, for the trace's header (PTB_TRACE_REMOTE_WAKE_NS,
 * "COST,LATENCY" in ns, read by the interposer); a figure from an
 * enclosing ptbench is not this one's, so none is passed when it cannot
 * be measured. */
static void remote_wake(const struct ptb_topology *t, int pu, int fifo)
{
	double latency = -1, ns = pu < 0 ? -1 : ptb_record_remote_wake_ns(t, pu, fifo, &latency);
	char v[64];
	snprintf(v, sizeof v, "%.0f,%.0f", ns, latency);         /* trace/interpose-cost.c */
	if (ns >= 0)
		setenv("PTB_TRACE_REMOTE_WAKE_NS", v, 1);
	else
		unsetenv("PTB_TRACE_REMOTE_WAKE_NS");
}

/* Why SCHED_FIFO was refused, and what would permit it.  Root refused
 * is a cgroup with no real-time time (real-time group scheduling, as on a
 * 16-vCPU guest whose jobs ran in cgroups of their own), where the root
 * cgroup has it. */
static void warn_no_fifo(int e)
{
	char cg[256] = "", why[512] = "";
	if (e == EPERM && geteuid() != 0)
		snprintf(why, sizeof why, ": it needs root, CAP_SYS_NICE or a real-time "
			 "priority limit (ulimit -r) of at least 1");
	else if (e == EPERM && ptb_cpu_cgroup("", cg, sizeof cg) == 0 && strcmp(cg, "/"))
		snprintf(why, sizeof why, ": as root in cgroup %s, which may have no "
			 "real-time time; the root cgroup has (write a shell's pid to its "
			 "cgroup.procs and record from that shell)", cg);
	else if (e == EPERM)
		snprintf(why, sizeof why, ": as root, the cgroup may have no real-time time");
	fprintf(stderr, "ptbench record: warning: SCHED_FIFO not permitted (%s%s); "
		"recording under the normal policy, where threads on one PU may preempt "
		"each other, and with no remote wake-up figure\n", strerror(e), why);
}

/* One PU, and SCHED_FIFO where permitted: both inherited by the child. */
/* The CPUs the program would have had unrecorded, ptbench's own before it
 * binds itself, as a list ("0-3,6") for the interposer to tell it
 * (trace/interpose-affinity.c). */
static cpu_set_t seen;

static void seen_cpus(void)
{
	char list[8192];
	if (sched_getaffinity(0, sizeof seen, &seen) == 0 && ptb_trace_cpu_list(&seen, list, sizeof list) == 0)
		setenv("PTB_TRACE_SEEN_CPUS", list, 1);
}

/* ptbench, once the program runs on its PU under SCHED_FIFO: under the
 * normal policy, and on the other CPUs it had where there are any, from
 * where it watches for a thread that keeps the PU from the others
 * (cli/record-hog.c). */
static void watch_from_aside(void)
{
	int fifo = sched_getscheduler(0) == SCHED_FIFO;
	struct sched_param sp = { 0 };
	sched_setscheduler(0, SCHED_OTHER, &sp);   /* only the program runs first */
	cpu_set_t pu, rest;
	if (sched_getaffinity(0, sizeof pu, &pu) == 0) {
		CPU_XOR(&rest, &seen, &pu);
		CPU_AND(&rest, &rest, &seen);
		if (CPU_COUNT(&rest) > 0)
			sched_setaffinity(0, sizeof rest, &rest);
	}
	if (fifo)
		ptb_record_hog_start();
}

static int place(const struct record_args *a)
{
	seen_cpus();
	char err[256];
	struct ptb_topology *t = ptb_topology_load(NULL, err, sizeof err);
	if (!t)
		return ptb_bad_input("record", "%s", err);
	int pu = a->cpu;
	if (pu < 0 && ptb_topology_order(t, PTB_ORDER_COMPACT, &pu, 1) < 1)
		pu = -1;
	remote_wake(t, pu, a->fifo);
	int rc = ptb_bind_self(t, pu, err, sizeof err);
	ptb_topology_free(t);
	if (rc)
		return ptb_bad_input("record", "%s", err);
	struct sched_param sp = { .sched_priority = 1 };
	if (a->fifo && sched_setscheduler(0, SCHED_FIFO, &sp) != 0)
		warn_no_fifo(errno);
	return 0;
}

/* The signals a person or another program sends to end or poke a
 * process (kill, timeout, a closed terminal): sent to ptbench, they are
 * passed to the program, which ends by them with its trace written (or
 * handles them); ptbench then keeps the trace and ends as the program did,
 * rather than leave it running and a temporary file behind.  Each reaches
 * the program once:
 *  - in a terminal's foreground, the program shares ptbench's process
 *    group, so that the terminal's ^C, ^\ and hang-up reach it directly
 *    (the kernel's, not passed on);
 *  - elsewhere (a script, timeout, a supervisor) it has a group of its
 *    own, so that a signal to ptbench's group is passed on once rather
 *    than delivered twice, and it dies with ptbench (PR_SET_PDEATHSIG);
 *  - one the program sent ptbench, its parent, is not sent back to it;
 *  - one sent twice at once, to ptbench and its group (timeout does), is
 *    passed on once: the same signal from the same sender within ONCE_NS;
 *  - one ptbench ignored when it started (nohup) stays ignored;
 *  - one that comes once the program has ended ends ptbench by it after
 *    the trace is kept. */
static const int passed_on[] = { SIGTERM, SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM };
static volatile sig_atomic_t program_pid, late_signal;
#define ONCE_NS 5000000ll          /* 5 ms: 200 ms lost a shell's kills 50 ms apart */
/* The last signal passed on: its number, its sender, when (the handlers
 * do not nest: each blocks the others, sa_mask below) */
static struct { int sig; pid_t from; long long at_ns; } last;

static void pass_on(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	pid_t p = (pid_t)program_pid;
	if (si->si_code == SI_KERNEL || (p > 0 && si->si_code <= 0 && si->si_pid == p))
		return;
	struct timespec ts;                        /* (async-signal-safe) */
	clock_gettime(CLOCK_MONOTONIC, &ts);
	long long now = ts.tv_sec * 1000000000ll + ts.tv_nsec;
	if (si->si_code <= 0 && sig == last.sig && si->si_pid == last.from && now - last.at_ns < ONCE_NS)
		return;                            /* the same request, by two routes */
	last.sig = sig, last.from = si->si_code <= 0 ? si->si_pid : 0, last.at_ns = now;
	if (p > 0)
		kill(p, sig);
	else
		late_signal = sig;
}

/* Whether ptbench runs in the foreground of a terminal. */
static int in_terminal_foreground(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (isatty(fd) && tcgetpgrp(fd) == getpgrp())
			return 1;
	return 0;
}

/* Those signals held from before the fork -- the program, under
 * SCHED_FIFO on ptbench's PU, may keep ptbench from running for most of a
 * second -- so that one sent meanwhile waits to be passed on rather than
 * end ptbench alone.  The child lets them go before the exec. */
static void hold_kills(sigset_t *old)
{
	sigset_t s;
	sigemptyset(&s);
	for (size_t i = 0; i < sizeof passed_on / sizeof passed_on[0]; i++)
		sigaddset(&s, passed_on[i]);
	sigprocmask(SIG_BLOCK, &s, old);
}

static void forward_to(pid_t pid, const sigset_t *old)
{
	program_pid = pid;
	struct sigaction sa = { 0 }, was;
	sa.sa_sigaction = pass_on;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof passed_on / sizeof passed_on[0]; i++)
		sigaddset(&sa.sa_mask, passed_on[i]);   /* one handler at a time */
	for (size_t i = 0; i < sizeof passed_on / sizeof passed_on[0]; i++)
		if (sigaction(passed_on[i], NULL, &was) == 0 && was.sa_handler != SIG_IGN)
			sigaction(passed_on[i], &sa, NULL);
	signal(SIGPIPE, SIG_IGN);                  /* ptbench's own stderr, never the program's */
	sigprocmask(SIG_SETMASK, old, NULL);
}

/* A program a signal ended: ptbench ends by the same signal, so that a
 * shell or a script sees what it would have seen (no core of ptbench's
 * own: the program left its own). */
static int end_as(int sig)
{
	fflush(NULL);
	ptb_run_release_targets();                 /* no atexit after the signal */
	struct rlimit none = { 0, 0 };
	setrlimit(RLIMIT_CORE, &none);
	signal(sig, SIG_DFL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, sig);
	sigprocmask(SIG_UNBLOCK, &s, NULL);
	raise(sig);
	return 128 + sig;                          /* one whose default does not end a process */
}

/* The program's status as a shell would give it. */
static int status_of(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : WIFSIGNALED(st) ? 128 + WTERMSIG(st) : 1;
}

static double seconds_of(struct timeval tv) { return (double)tv.tv_sec + tv.tv_usec * 1e-6; }

/* The CPU time the program's process and the processes it waited for used
 * (wait4) beyond what its recorded threads did: processes it started, an
 * image it exec'd once it had threads.  Their work is not in the trace --
 * the replay takes a wait for them as a fixed delay, on any count of CPUs
 * (openssl speed -multi 2 was predicted no faster on 2 CPUs) -- so a share
 * over a tenth is said. */
static int warn_untraced_cpu(const struct ptb_trace *t, const struct rusage *ru)
{
	double traced = 0;                 /* each thread's last CPU-clock reading: the */
	for (uint32_t i = 0; i < t->nthreads; i++) {      /* recorder's own cost in it too */
		uint64_t last = 0;
		for (size_t k = 0; k < t->th[i].n; k++)
			if (t->th[i].ev[k].kind == PTB_EV_CPU && t->th[i].ev[k].obj > last)
				last = t->th[i].ev[k].obj;
		traced += (double)last * 1e-9;
	}
	double whole = seconds_of(ru->ru_utime) + seconds_of(ru->ru_stime);
	/* up to 1 ms a thread's end (20,000 threads created were 39 % "not in it") */
	double allowed = 0.001 * t->nthreads;
	if (!(whole - traced - allowed > 0.05 && whole - traced - allowed > 0.1 * whole))
		return 0;
	fprintf(stderr, "ptbench record: warning: %.2f s of the %.2f s of CPU time the program used "
		"(%.0f %%) is not in the trace: processes it started, a program it exec'd once it had "
		"threads, or threads started unseen (C11's thrd_create, clone); predict takes waits "
		"for them for fixed delays\n", whole - traced, whole, 100 * (whole - traced) / whole);
	return 1;
}

static int finish(const char *tmp, const char *out, int st, const struct rusage *ru, unsigned moved)
{
	struct ptb_trace t;
	char err[512];
	if (ptb_trace_load(tmp, &t, err, sizeof err)) {
		unlink(tmp);
		if (WIFEXITED(st) && WEXITSTATUS(st) == 127)
			return 2;                 /* the child said why */
		char how[64];
		if (WIFSIGNALED(st))
			snprintf(how, sizeof how, "was killed by signal %d", WTERMSIG(st));
		else
			snprintf(how, sizeof how, "ended with status %d", status_of(st));
		return ptb_bad_input("record", "no complete trace (%s; the program %s): is it "
				     "linked dynamically against the C library, or was it killed by "
				     "SIGKILL?", err, how);
	}
	uint32_t marks = (moved ? PTB_SCHED_PUT_BEHIND : 0) |
			 (warn_untraced_cpu(&t, ru) ? PTB_SCHED_UNTRACED_CPU : 0);
	ptb_trace_free(&t);
	if (marks && ptb_trace_mark_sched(tmp, marks) != 0) {   /* for predict */
		int e = errno;
		unlink(tmp);
		return ptb_bad_input("record", "cannot mark the trace %s: %s", tmp, strerror(e));
	}
	if (rename(tmp, out)) {
		int e = errno;
		unlink(tmp);
		return ptb_bad_input("record", "cannot write %s: %s", out, strerror(e));
	}
	return WIFSIGNALED(st) ? end_as(WTERMSIG(st)) : status_of(st);
}

/* Until the program has ended, not yet reaped (the watch then stops while
 * its number is still its own).  The orphans it leaves are ptbench's
 * (ptb_adopt_orphans): each is reaped as it ends, or they would pile up. */
static void wait_for_end(pid_t pid)
{
	siginfo_t end;
	for (;;) {
		end.si_pid = 0;
		if (waitid(P_ALL, 0, &end, WEXITED | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			return;                    /* (no child: wait4 below says so) */
		}
		if (end.si_pid == pid)
			return;
		waitpid(end.si_pid, NULL, 0);      /* an orphan of the program's */
	}
}

int ptb_cmd_record(int argc, char **argv)
{
	struct record_args a = { "ptbench.trace", -1, 1 };
	int first, rc = ptb_options("record", argc, argv, "+:ho:", record_options, usage,
				    record_option, &a, &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first >= argc)
		return ptb_bad_input("record", "no program to record (ptbench record -- PROGRAM [ARGS...])");
	if (!ptb_program_findable(argv[first]))    /* a path to a file that will not run: why */
		return ptb_bad_input("record", "%s: %s", argv[first], strchr(argv[first], '/') &&
				     access(argv[first], F_OK) == 0 ? "not executable" : "no such program");
	char lib[4096], tmp[8400];
	if (find_library(lib, sizeof lib) || strchr(lib, ':') || strchr(lib, ' '))
		return ptb_bad_input("record", "the interposer %s is missing or unusable "
				     "(build or install ptbench)", lib);
	if (!writable_dir(a.out))
		return ptb_bad_input("record", "cannot write %s: %s", a.out, strerror(errno));
	char err[512];   /* a regular file only (the rename would replace a device), locked */
	if (ptb_run_check_target(a.out, err, sizeof err))
		return ptb_bad_input("record", "%s", err);
	char cwd[4096] = "", out[8300];            /* absolute: the program may change directory */
	if (a.out[0] != '/' && !getcwd(cwd, sizeof cwd))
		return ptb_bad_input("record", "cannot tell the current directory: %s", strerror(errno));
	snprintf(out, sizeof out, "%s%s%s", cwd, *cwd ? "/" : "", a.out);
	if (ptb_run_tmp_name(out, getpid(), tmp, sizeof tmp))
		return ptb_bad_input("record", "cannot write %s: %s", a.out, strerror(ENAMETOOLONG));
	ptb_run_clean_stale(a.out);                /* what a record killed by SIGKILL left */
	if ((rc = place(&a)))
		return rc;
	fflush(NULL);
	ptb_adopt_orphans();                       /* to free what outlives the program */
	sigset_t mask;
	hold_kills(&mask);
	/* the child waits until ptbench has left its PU (which it kept for a second) */
	int aside[2] = { -1, -1 };
	if (pipe2(aside, O_CLOEXEC))
		aside[0] = aside[1] = -1;
	pid_t pid = fork();
	if (pid < 0)
		return ptb_bad_input("record", "cannot start a process: %s", strerror(errno));
	int own_group = !in_terminal_foreground();
	if (pid == 0) {
		if (own_group) {
			setpgid(0, 0);
			ptb_die_with_parent();
		}
		char c;
		close(aside[1]);
		while (aside[0] >= 0 && read(aside[0], &c, 1) < 0 && errno == EINTR)
			;                          /* until the end of the pipe */
		sigprocmask(SIG_SETMASK, &mask, NULL);
		ptb_record_exec(argv + first, lib, tmp);
	}
	if (own_group)
		setpgid(pid, pid);                 /* whichever runs first */
	forward_to(pid, &mask);                    /* a kill of ptbench reaches the program */
	close(aside[0]);
	watch_from_aside();
	close(aside[1]);                           /* the program may start */
	int st;
	struct rusage ru;
	wait_for_end(pid);
	unsigned moved = ptb_record_hog_stop();
	while (wait4(pid, &st, 0, &ru) < 0)
		if (errno != EINTR)
			return ptb_bad_input("record", "lost the program: %s", strerror(errno));
	program_pid = 0;                           /* reaped: its number may be another's */
	/* what it left running (a daemon it started) runs on as if unrecorded */
	ptb_descendants_release(&seen, sizeof seen);
	rc = finish(tmp, a.out, st, &ru, moved);
	return late_signal ? end_as(late_signal) : rc;
}
