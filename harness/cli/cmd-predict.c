/* SPDX-License-Identifier: MIT */
/*
 * `ptbench predict TRACE [--cpus LIST] [--machine RESULT.json]
 * [--format table|json]`: the wall
 * time and speed-up of a recorded program on each number of CPUs, by
 * replaying its trace (trace/sim.h), and what bounds it: the objects
 * that pass the critical path from thread to thread on the largest machine
 * asked for, with the share of the path that ran up to a release of each.
 * The speed-up is against the replay on one CPU.  --machine charges the
 * wake-up, hand-off, creation and spin hand-off costs of a target
 * machine, from its result file (cli/machine-costs.h), in every replay,
 * and with --working-set its co-running slowdown.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/machine-costs.h"
#include "cli/options.h"
#include "cli/predict-out.h"
#include "record/cleanup.h"
#include "record/target.h"
#include "trace/ops.h"
#include "trace/reader.h"
#include "trace/sim.h"


static const char usage[] =
	"usage: ptbench predict TRACE [--cpus LIST] [--machine RESULT.json]\n"
	"                       [--working-set BYTES] [--corun FILE] [--sched other|fifo]\n"
	"                       [--remote-wake US] [--remote-latency US]\n"
	"                       [--format table|json] [--check]\n"
	"                       [--chrome-trace FILE]\n"
	"                       [-v|--verbose]\n"
	"\n"
	"Predict the wall time and speed-up of a program recorded by 'ptbench record'\n"
	"on each number of CPUs in LIST (default 1,2,4,8), and name the objects whose\n"
	"waits bound it.  --check: refuse a trace whose threads spent more than 10 % of\n"
	"their time off the CPU outside traced calls (raw futexes, atomics).\n"
	"--machine RESULT.json: charge the wake-up, hand-off, creation and spin hand-off\n"
	"costs of the machine that ran it (its condition, mutex and spin lock ping-pongs,\n"
	"halved, and its thread creation) where a thread is woken, a lock changes hands,\n"
	"a thread starts.\n"
	"--working-set BYTES (K, M, G: binary multiples; with --machine): stretch CPU\n"
	"work by the machine's co-running slowdown for the threads running at once, from\n"
	"its corun points at the table size nearest BYTES (a working set per thread).\n"
	"--corun FILE: stretch CPU work by the program's own co-running slowdown for the\n"
	"threads running at once, as 'ptbench corun' measured it on the target machine,\n"
	"and while threads outnumber CPUs, the cost of the time slices it measured.\n"
	"--sched other|fifo: the policy the program will run under (default other, the\n"
	"normal policy; fifo: threads switch only where they block, no time slices).\n"
	"--remote-wake US: what waking a thread onto an idle CPU costs the waker (default:\n"
	"as 'ptbench record' measured it on the machine it ran on; 0: nothing).\n"
	"--remote-latency US: how long a thread so woken takes to run on its idle CPU\n"
	"(default: as 'ptbench record' measured it; 0: at once).\n"
	"--chrome-trace FILE: the replay on the last count of CPUs, for Perfetto or\n"
	"chrome://tracing (each thread's life and its waits).\n"
	"-v, --verbose: the simulator's speed on stderr.\n";

static const struct option predict_options[] = {
	/* name       has_arg            flag  val */
	{ "cpus",     required_argument, NULL, 'c' },
	{ "format",   required_argument, NULL, 'f' },
	{ "verbose",  no_argument,       NULL, 'v' },
	{ "check",    no_argument,       NULL, 'k' },
	{ "chrome-trace", required_argument, NULL, 't' },
	{ "machine",  required_argument, NULL, 'm' },
	{ "working-set", required_argument, NULL, 'w' },
	{ "corun",    required_argument, NULL, 'C' },
	{ "sched",    required_argument, NULL, 's' },
	{ "remote-wake", required_argument, NULL, 'r' },
	{ "remote-latency", required_argument, NULL, 'L' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 },
};

/* struct ptb_predict_args: cli/predict-out.h */

/* A Chrome trace stays small enough to open: at most this many waits. */
#define CHROME_MAX_WAITS 200000


static int parse_cpus(struct ptb_predict_args *a, const char *arg)
{
	char buf[512];
	if (strlen(arg) >= sizeof buf)
		return ptb_bad_input("predict", "--cpus: the list is too long");
	snprintf(buf, sizeof buf, "%s", arg);
	a->ncpus = 0;
	if (!*buf)
		return ptb_bad_input("predict", "--cpus: an empty list");
	for (char *tok = buf, *comma; tok; tok = comma ? comma + 1 : NULL) {
		if ((comma = strchr(tok, ',')))
			*comma = '\0';
		if (!*tok)              /* "1,,2", ",1", "1,": a number left out */
			return ptb_bad_input("predict", "--cpus: '%s' has an empty field", arg);
		if (a->ncpus == PTB_PREDICT_MAX_CPUS)
			return ptb_bad_input("predict", "--cpus: at most %d numbers", PTB_PREDICT_MAX_CPUS);
		if (ptb_parse_int("predict", "--cpus", tok, 1, 4096, &a->cpus[a->ncpus++]))
			return 2;
	}
	return 0;
}

/* BYTES with an optional binary multiple: 512K, 8M, 1.5G, 64MiB. */
static int parse_bytes(const char *arg, double *out)
{
	static const struct { const char *suffix; double times; } units[] = {
		{ "", 1 }, { "K", 1024 }, { "KiB", 1024 }, { "M", 1048576 }, { "MiB", 1048576 },
		{ "G", 1073741824 }, { "GiB", 1073741824 },
	};
	char num[64];
	size_t n = strcspn(arg, "KkMmGgIiBb");          /* the number before its unit */
	if (n >= sizeof num)
		return -1;
	memcpy(num, arg, n), num[n] = '\0';
	if (!ptb_is_decimal(num))                       /* not " 5", "0x10", "inf" */
		return -1;
	const char *end = arg + n;
	double v = strtod(num, NULL);
	if (!(v > 0) || !isfinite(v))
		return -1;
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
		if (!strcasecmp(end, units[i].suffix) && v * units[i].times <= 0x1p50) {
			*out = v * units[i].times;
			return *out >= 1 ? 0 : -1;
		}
	return -1;
}

/* A time in us, 0 to 1 s, for option `name`: its ns in *ns. */
static int parse_us(const char *name, const char *arg, double *ns, int *given)
{
	char *end;
	errno = 0;
	double us = strtod(arg, &end);
	if (errno || !ptb_is_decimal(arg) || !(us >= 0 && us <= 1e6))
		return ptb_bad_input("predict", "%s: '%s' is not a time in us (0 to 1000000)",
				     name, arg);
	*ns = us * 1e3, *given = 1;
	return 0;
}

static int predict_option(void *ctx, int opt, const char *arg)
{
	struct ptb_predict_args *a = ctx;
	switch (opt) {
	case 'c':
		return parse_cpus(a, arg);
	case 'f':
		if (strcmp(arg, "table") && strcmp(arg, "json"))
			return ptb_bad_input("predict", "--format: '%s' is neither table nor json", arg);
		a->json = !strcmp(arg, "json");
		return 0;
	case 'v':
		a->verbose = 1;
		return 0;
	case 'k':
		a->check = 1;
		return 0;
	case 'm':
		a->machine_file = arg;
		return *arg ? 0 : ptb_bad_input("predict", "--machine needs a result file");
	case 'w':
		return parse_bytes(arg, &a->working_set) == 0 ? 0 : ptb_bad_input("predict",
			"--working-set: '%s' is not a size in bytes (1 to 2^50; K, M, G: binary "
			"multiples)", arg);
	case 'r':
		return parse_us("--remote-wake", arg, &a->remote_wake_ns, &a->remote_wake_given);
	case 'L':
		return parse_us("--remote-latency", arg, &a->remote_latency_ns,
				&a->remote_latency_given);
	case 'C':
		a->corun_file = arg;
		return *arg ? 0 : ptb_bad_input("predict", "--corun needs a file of ptbench corun");
	case 's':
		if (strcmp(arg, "fifo") && strcmp(arg, "other"))
			return ptb_bad_input("predict", "--sched: '%s' is neither other nor fifo", arg);
		a->target_fifo = !strcmp(arg, "fifo");
		return 0;
	case 't':
		a->chrome = arg;
		return *arg ? 0 : ptb_bad_input("predict", "--chrome-trace needs a file name");
	}
	return 2;
}

static double seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}


/* The Chrome trace's writer: complete events ("X"), microseconds, one
 * track per thread; a thread's waits nest in its life. */
struct chrome {
	FILE *f;
	int first;
	long waits;
};

static void chrome_event(struct chrome *c, int tid, const char *name, double from, double to)
{
	fprintf(c->f, "%s\n{\"name\":\"%s\",\"ph\":\"X\",\"pid\":1,\"tid\":%d,"
		"\"ts\":%.3f,\"dur\":%.3f}", c->first ? "" : ",", name, tid, from / 1e3, (to - from) / 1e3);
	c->first = 0;
}

static void chrome_thread(void *ctx, int tid, double born, double ended)
{
	char name[32];
	snprintf(name, sizeof name, "thread %d", tid);
	chrome_event(ctx, tid, name, born, ended);
}

static void chrome_wait(void *ctx, int tid, double from, double to, int kind, uint64_t obj,
			int by)
{
	struct chrome *c = ctx;
	char name[64];
	if (c->waits++ >= CHROME_MAX_WAITS)
		return;
	snprintf(name, sizeof name, "%s 0x%llx", ptb_op_object_name(kind), (unsigned long long)obj);
	chrome_event(c, tid, name, from, to);
}

/* Replay on `cpus` once more, written to path through a temporary file. */
static int write_chrome(const struct ptb_ops *o, int cpus, const struct ptb_sim_costs *costs,
			const char *path)
{
	char tmp[4200];
	struct ptb_sim_result r;
	if (ptb_run_tmp_name(path, getpid(), tmp, sizeof tmp))
		return ptb_bad_input("predict", "cannot write %s: the name is too long", path);
	int handle = ptb_cleanup_add(tmp, false);     /* a kill leaves no half-written file */
	struct chrome c = { fopen(tmp, "w"), 1, 0 };
	if (!c.f) {
		ptb_cleanup_forget(handle);
		return ptb_bad_input("predict", "cannot write %s: %s", path, strerror(errno));
	}
	struct ptb_sim_visitor v = { &c, chrome_thread, chrome_wait };
	fputs("{\"displayTimeUnit\":\"ms\",\"traceEvents\":[", c.f);
	int rc = ptb_sim_run(o, cpus, costs, &r, &v);
	fprintf(c.f, "\n],\"otherData\":{\"cpus\":%d,\"waits_left_out\":%ld}}\n", cpus,
		c.waits > CHROME_MAX_WAITS ? c.waits - CHROME_MAX_WAITS : 0);
	if (fclose(c.f) || rc || rename(tmp, path)) {
		unlink(tmp);
		ptb_cleanup_forget(handle);
		return ptb_bad_input("predict", "cannot write %s", path);
	}
	ptb_cleanup_forget(handle);
	return 0;
}

/* The time slices' cost (struct ptb_sim_costs), from corun's lone copy
 * on one PU: its CPU time under the normal policy over under SCHED_FIFO,
 * less 1, is what the slices cost it, and the 1-CPU replay without them
 * says how many threads beyond the one CPU took turns, for how long
 * (excess_ns).  A ratio under 1 is noise: slices save nothing.  A trace
 * recorded under the normal policy has the slices in its bursts already. */
static void slice_cost(struct ptb_predict_args *a, const struct ptb_trace *t,
		       const struct ptb_sim_result *one)
{
	a->slice_cost = 0;
	a->sliced_share = one->wall_ns > 0 ? one->shared_ns / one->wall_ns : 0;
	if (!a->corun || a->target_fifo || !(a->corun->sliced > 1) ||
	    ptb_trace_policy(t->h.sched) != PTB_SCHED_FIFO)
		return;
	if (a->sliced_share >= PTB_PREDICT_SLICED_MIN)
		a->slice_cost = (a->corun->sliced - 1) * one->cpu_ns / one->excess_ns;
}

static int simulate(const struct ptb_trace *t, struct ptb_predict_args *a)
{
	struct ptb_ops o;
	struct ptb_sim_result r[PTB_PREDICT_MAX_CPUS], one;
	if (ptb_ops_build(t, &o))
		return ptb_bad_input("predict", "out of memory");
	struct ptb_predict_unseen u = { ptb_ops_untraced_share(&o), ptb_ops_wake_share(&o),
					 ptb_ops_wakes(&o) };
	if (a->check && ptb_trace_policy(t->h.sched) != PTB_SCHED_FIFO) {
		ptb_ops_free(&o);
		return ptb_bad_input("predict", "--check needs a trace recorded under SCHED_FIFO "
				     "(under the normal policy, preemption looks like untraced waits)");
	}
	if (a->check && (t->h.sched & PTB_SCHED_UNTRACED_CPU)) {
		ptb_ops_free(&o);
		return ptb_bad_input("predict", "--check: over a tenth of the program's CPU time was "
				     "outside the trace (processes it started, a program it exec'd "
				     "once it had threads, or threads started unseen): no prediction");
	}
	if (a->check && (t->h.sched & PTB_SCHED_PUT_BEHIND)) {
		ptb_ops_free(&o);
		return ptb_bad_input("predict", "--check: record put a thread that ran 2 s on end "
				     "behind another that stood ready; if it waited by spinning, its "
				     "spin is in its work: no prediction");
	}
	if (a->check && u.untraced > PTB_PREDICT_UNTRACED_LIMIT) {
		ptb_ops_free(&o);
		return ptb_bad_input("predict", "--check: the threads spent %.0f %% of their time off "
				     "the CPU outside traced calls (raw futexes, atomics): no prediction",
				     100 * u.untraced);
	}
	if (a->check && ptb_predict_wakes_unmodelled(&u)) {
		ptb_ops_free(&o);
		return ptb_bad_input("predict", "--check: the threads woke each other through eventfd, "
				     "signalfd or epoll (%.0f %% of their time waiting on them, %llu "
				     "calls), which predict does not replay: no prediction",
				     100 * u.wake, (unsigned long long)u.wakes);
	}
	double t0 = seconds();
	uint64_t ops = 0;
	static struct ptb_sim_costs charged;
	const struct ptb_sim_costs *costs = &charged;
	if (a->machine)
		charged = a->machine->costs;
	if (a->corun)
		ptb_corun_curve_apply(&a->corun->curve, &charged);
	charged.remote_wake_ns = a->remote_wake_ns;
	charged.remote_latency_ns = a->remote_latency_ns;
	int rc = ptb_sim_run(&o, 1, costs, &one, NULL);
	if (!rc && a->corun) {
		slice_cost(a, t, &one);
		charged.slice_cost = a->slice_cost;
		if (a->slice_cost > 0)
			rc = ptb_sim_run(&o, 1, costs, &one, NULL);
	}
	for (int i = 0; !rc && i < a->ncpus; i++)
		rc = ptb_sim_run(&o, a->cpus[i], costs, &r[i], NULL), ops += r[i].ops;
	double dt = seconds() - t0;
	if (!rc && !(one.wall_ns > 0)) {      /* a speed-up of 0/0 */
		ptb_ops_free(&o);
		return ptb_bad_input("predict", "the trace spans no time: no speed-up to predict");
	}
	if (!rc && a->chrome && write_chrome(&o, a->cpus[a->ncpus - 1], costs, a->chrome)) {
		ptb_ops_free(&o);
		return 2;
	}
	ptb_ops_free(&o);
	if (rc)
		return ptb_bad_input("predict", "out of memory");
	if (a->verbose)
		fprintf(stderr, "ptbench predict: %llu operations replayed in %.3f s (%.0f per s)\n",
			(unsigned long long)(ops + one.ops), dt, (ops + one.ops) / (dt > 0 ? dt : 1e-9));
	if (a->json)
		return ptb_predict_print_json(t, r, a->ncpus, one.wall_ns, &u, a);
	ptb_predict_print_table(t, r, a->ncpus, one.wall_ns, &u, a);
	return 0;
}

int ptb_cmd_predict(int argc, char **argv)
{
	struct ptb_predict_args a = { .cpus = { 1, 2, 4, 8 }, .ncpus = 4, .target_fifo = -1 };
	struct ptb_machine_costs m;
	int first, rc = ptb_options("predict", argc, argv, ":hv", predict_options, usage,
				    predict_option, &a, &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first != argc - 1)
		return ptb_bad_input("predict", first >= argc ? "no trace given (ptbench predict TRACE)"
				     : "one trace at a time");
	struct ptb_trace t;
	char err[512];
	if (a.machine_file && ptb_machine_costs_load(a.machine_file, &m, err, sizeof err))
		return ptb_bad_input("predict", "--machine %s", err);
	if (a.working_set > 0 && !a.machine_file)
		return ptb_bad_input("predict", "--working-set needs --machine (the machine whose "
				     "co-running slowdown to apply)");
	if (a.working_set > 0 &&
	    ptb_machine_corun_pick(&m, a.working_set, a.machine_file, err, sizeof err))
		return ptb_bad_input("predict", "--machine %s", err);
	a.machine = a.machine_file ? &m : NULL;
	static struct ptb_program_corun pc;
	if (a.corun_file && a.working_set > 0)
		return ptb_bad_input("predict", "--corun and --working-set both name a co-running "
				     "slowdown: one at a time");
	if (a.corun_file && ptb_corun_file_load(a.corun_file, &pc, err, sizeof err))
		return ptb_bad_input("predict", "--corun %s", err);
	a.corun = a.corun_file ? &pc : NULL;
	if (a.target_fifo >= 0 && !a.corun)
		return ptb_bad_input("predict", "--sched needs --corun (the file that holds what "
				     "time slices cost the program)");
	a.target_fifo = a.target_fifo == 1;
	/* a regular file only (the rename would replace a device), locked */
	if (a.chrome && ptb_run_check_target_of("--chrome-trace", a.chrome, err, sizeof err))
		return ptb_bad_input("predict", "%s", err);
	if (ptb_trace_load(argv[first], &t, err, sizeof err))
		return ptb_bad_input("predict", "%s", err);
	if (!a.remote_wake_given)
		a.remote_wake_ns = t.h.remote_wake ? t.h.remote_wake - 1.0 : 0;
	if (!a.remote_latency_given)
		a.remote_latency_ns = t.h.remote_latency ? t.h.remote_latency - 1.0 : 0;
	rc = simulate(&t, &a);
	ptb_trace_free(&t);
	return rc;
}
