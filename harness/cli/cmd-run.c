/* SPDX-License-Identifier: MIT */
/*
 * `ptbench run` (and `ptbench` alone): its options, checked strictly before
 * anything runs, then the suite (run/runner.c).
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "engine/measure.h"
#include "platform/process.h"
#include "report/report.h"
#include "run/runner.h"

#define PTB_MAX_ARGS 64

static const char run_usage[] =
	"usage: ptbench run [-b PATTERN]... [--suite NAME] [-p VAR=V1,V2]...\n"
	"                   [--target PCT] [--min-trials N] [--trials N]\n"
	"                   [--point-budget S] [--run-budget S] [--seed N]\n"
	"                   [--layout varied|fixed]\n"
	"                   [--stop sd|se|ci]\n"
	"                   [--max-sd PCT] [--min-timings N] [--max-timings N]\n"
	"                   [--budget S] [--timeout S] [--quick] [-o FILE]\n"
	"                   [--format table|csv|json|gbench] [--round-gate FD]\n"
	"\n"
	"Measure the selected benchmarks (default: the default suite) and save every\n"
	"run to a JSON file (default ptbench-HOST-DATE.json).  Each point is\n"
	"measured as independent trials in fresh worker processes, interleaved\n"
	"with the other points' trials in randomized rounds; its value is the\n"
	"median of its trials and its 95 % CI comes from their spread.\n"
	"\n"
	"  -b, --bench PATTERN    benchmark name, family (\"mutex\") or glob (\"cond.*\")\n"
	"  --suite NAME           default: the paper's Table 1 and LogP; extended: the\n"
	"                         families the paper promised (broadcast, cancel,\n"
	"                         semaphores, barriers, rwlocks, spin locks); all\n"
	"  -p, --param VAR=V,..   values of an independent variable (repeated: they\n"
	"                         add up); numeric LO..HI sweeps the range with\n"
	"                         adaptive refinement\n"
	"Trials of a point:\n"
	"  --target PCT           stop when the CI is within +-PCT % (default 2)\n"
	"  --min-trials N         trials before a point may stop (default 10)\n"
	"  --trials N             exactly N trials per point\n"
	"  --point-budget S       the run's time is S s per point (default 2.5),\n"
	"                         shared: points that need more trials get the\n"
	"                         time that points meeting the target leave\n"
	"  --run-budget S         the run's time is S s instead\n"
	"  --seed N               the rounds' random order (default: drawn, recorded)\n"
	"  --layout MODE          varied: each trial runs one of 8 copies of the\n"
	"                         benchmark's code at other offsets, its stack moved,\n"
	"                         so that the figure holds for any build (default);\n"
	"                         fixed: this build's own layout only\n"
	"One trial (a SKaMPI measurement):\n"
	"  --stop RULE            sd: sd <= PCT % of the mean (default, the paper's rule)\n"
	"                         se: standard error <= PCT % of the mean (SKaMPI's)\n"
	"                         ci: 95 % CI of the median within +-PCT % of it\n"
	"  --max-sd PCT           the rule's PCT (default 2)\n"
	"  --min-timings N        timings before the rule is tried (default 8)\n"
	"  --max-timings N        stop after N timings (default 30)\n"
	"  --budget S             stop after S seconds (default 0.5)\n"
	"  --timeout S            kill a worker whose trial gives no result\n"
	"                         within S s (default 60)\n"
	"  --quick                few short timings: a smoke test, not a measurement\n"
	"  -o, --output FILE      where to save the run\n"
	"  --format FMT           what to print on stdout (default table)\n"
	"  --round-gate FD        start each round when the program on descriptor FD\n"
	"                         says so (ptbench-mpi: rounds together on all nodes)\n";

enum run_opt {
	OPT_STOP = 256, OPT_MAX_SD, OPT_MIN_T, OPT_MAX_T, OPT_BUDGET, OPT_TIMEOUT, OPT_QUICK,
	OPT_FORMAT, OPT_TARGET, OPT_MIN_TRIALS, OPT_TRIALS, OPT_POINT_BUDGET, OPT_RUN_BUDGET,
	OPT_SEED, OPT_SUITE, OPT_LAYOUT, OPT_GATE
};

static const struct option run_options[] = {
	/* name           has_arg            flag  val */
	{ "bench",        required_argument, NULL, 'b' },
	{ "param",        required_argument, NULL, 'p' },
	{ "suite",        required_argument, NULL, OPT_SUITE },
	{ "target",       required_argument, NULL, OPT_TARGET },
	{ "min-trials",   required_argument, NULL, OPT_MIN_TRIALS },
	{ "trials",       required_argument, NULL, OPT_TRIALS },
	{ "point-budget", required_argument, NULL, OPT_POINT_BUDGET },
	{ "run-budget",   required_argument, NULL, OPT_RUN_BUDGET },
	{ "seed",         required_argument, NULL, OPT_SEED },
	{ "layout",       required_argument, NULL, OPT_LAYOUT },
	{ "stop",         required_argument, NULL, OPT_STOP },
	{ "max-sd",       required_argument, NULL, OPT_MAX_SD },
	{ "min-timings",  required_argument, NULL, OPT_MIN_T },
	{ "max-timings",  required_argument, NULL, OPT_MAX_T },
	{ "budget",       required_argument, NULL, OPT_BUDGET },
	{ "timeout",      required_argument, NULL, OPT_TIMEOUT },
	{ "quick",        no_argument,       NULL, OPT_QUICK },
	{ "output",       required_argument, NULL, 'o' },
	{ "format",       required_argument, NULL, OPT_FORMAT },
	{ "round-gate",   required_argument, NULL, OPT_GATE },
	{ "help",         no_argument,       NULL, 'h' },
	{ NULL,           0,                 NULL, 0 }
};

/* --quick: enough to see that a benchmark works, not to trust it: three
 * short trials, each from its own process. */
static void quick_limits(struct ptb_run_opts *o)
{
	struct ptb_limits *l = &o->limits;
	l->min_timings = 4;
	l->max_timings = 12;
	l->budget_s = 0.25;
	l->target_s = 0.0005;
	o->trials = 3;
}

/* --round-gate FD: an open stream socket from the program that starts the
 * rounds, kept from the run's worker processes. */
static int gate_option(struct ptb_run_opts *o, const char *arg)
{
	int fd, type = 0, rc;
	socklen_t len = sizeof type;
	if ((rc = ptb_parse_int("run", "--round-gate", arg, 3, 1 << 20, &fd)))
		return rc;
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) != 0 || type != SOCK_STREAM)
		return ptb_bad_input("run", "--round-gate: descriptor %d is not an open stream "
				     "socket", fd);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	o->gate_fd = fd;
	return 0;
}

/* Where -b and -p values are kept while the options are read. */
struct run_args {
	struct ptb_run_opts o;
	const char *patterns[PTB_MAX_ARGS], *assign[PTB_MAX_ARGS];
};

static int run_option(void *ctx, int c, const char *arg)
{
	struct run_args *a = ctx;
	struct ptb_run_opts *o = &a->o;
	struct ptb_limits *l = &o->limits;
	int rule;
	switch (c) {
	case 'b':
		if (o->npatterns == PTB_MAX_ARGS)
			return ptb_bad_input("run", "-b: too many patterns");
		a->patterns[o->npatterns++] = arg;
		return 0;
	case 'p':
		if (o->nassign == PTB_MAX_ARGS)
			return ptb_bad_input("run", "-p: too many assignments");
		if (!strchr(arg, '=') || arg[0] == '=')
			return ptb_bad_input("run", "-p: '%s' is not VAR=VALUE[,VALUE...]", arg);
		a->assign[o->nassign++] = arg;
		return 0;
	case OPT_SUITE:
		o->suite = arg;
		return 0;
	case OPT_STOP:
		if ((rule = ptb_stop_rule_from_name(arg)) < 0)
			return ptb_bad_input("run", "--stop: '%s' is not one of sd, se, ci", arg);
		l->rule = rule;
		return 0;
	case OPT_MAX_SD:  return ptb_parse_double("run", "--max-sd", arg, 0.001, 100, &l->max_sd_pct);
	case OPT_MIN_T:   return ptb_parse_int("run", "--min-timings", arg, 2, 100000, &l->min_timings);
	case OPT_MAX_T:   return ptb_parse_int("run", "--max-timings", arg, 2, 100000, &l->max_timings);
	case OPT_BUDGET:  return ptb_parse_double("run", "--budget", arg, 0.001, 86400, &l->budget_s);
	case OPT_TIMEOUT: return ptb_parse_double("run", "--timeout", arg, 0.1, 86400, &o->timeout_s);
	case OPT_TARGET:  return ptb_parse_double("run", "--target", arg, 0.001, 1000, &o->target_pct);
	case OPT_MIN_TRIALS:
		return ptb_parse_int("run", "--min-trials", arg, 3, 1000, &o->min_trials);
	case OPT_TRIALS:  return ptb_parse_int("run", "--trials", arg, 3, 1000, &o->trials);
	case OPT_POINT_BUDGET:
		return ptb_parse_double("run", "--point-budget", arg, 0, 86400, &o->point_budget_s);
	case OPT_RUN_BUDGET:
		return ptb_parse_double("run", "--run-budget", arg, 0.001, 864000, &o->run_budget_s);
	case OPT_SEED:    return ptb_parse_seed("run", "--seed", arg, &o->seed);
	case OPT_LAYOUT:
		if ((rule = ptb_layout_mode_from_name(arg)) < 0)
			return ptb_bad_input("run", "--layout: '%s' is not one of varied, fixed", arg);
		o->layout = rule;
		return 0;
	case OPT_GATE:    return gate_option(o, arg);
	case OPT_QUICK:   return 0;   /* applied before the other options */
	case 'o':
		if (!*arg)
			return ptb_bad_input("run", "-o: empty file name");
		if (arg[0] == '-')
			return ptb_bad_input("run", "-o: '%s' looks like an option, not a file name "
					     "(write ./%s for a file so named)", arg, arg);
		o->out_path = arg;
		return 0;
	case OPT_FORMAT:
		if ((rule = ptb_format_from_name(arg)) < 0)
			return ptb_bad_input("run", "--format: '%s' is not one of table, csv, json, gbench",
					     arg);
		o->format = rule;
		return 0;
	default:
		return 2;
	}
}

/* The first pass only looks for --quick, whose limits the other options
 * then override wherever they appear. */
static int find_quick(void *ctx, int c, const char *arg)
{
	(void)arg;
	if (c == OPT_QUICK)
		*(bool *)ctx = true;
	return 0;
}

/* A seed nobody chose: different for every run, recorded in its file. */
static uint64_t drawn_seed(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_nsec * 2654435761u ^ (uint64_t)ts.tv_sec ^
		(uint64_t)getpid() << 20) & PTB_SEED_MAX;
}

int ptb_run_parse(const char *cmd, int argc, char **argv, struct ptb_run_opts **out)
{
	static char program[4096];
	static struct run_args a;
	struct ptb_run_opts *o = &a.o;
	int first, rc;
	*o = (struct ptb_run_opts){ .patterns = a.patterns, .assign = a.assign, .timeout_s = 60,
				    .format = PTB_FMT_TABLE, .command = ptb_typed_command,
				    .min_trials = 10, .target_pct = 2, .point_budget_s = 2.5,
				    .seed = drawn_seed() };
	ptb_limits_default(&o->limits);
	/* A trial is one of several: it need not take a lone point's time,
	 * and more, shorter trials beat fewer long ones when processes
	 * differ more than timings do. */
	o->limits.budget_s = 0.5;
	o->limits.max_timings = 30;
	*out = o;
	rc = ptb_options(cmd, argc, argv, ":b:p:o:h", run_options, run_usage, find_quick,
			 &o->quick, &first);
	if (rc)
		return rc;
	if (o->quick)
		quick_limits(o);
	rc = ptb_options(cmd, argc, argv, ":b:p:o:h", run_options, run_usage, run_option, &a,
			 &first);
	if (rc)
		return rc;
	if (first < argc)
		return ptb_bad_input(cmd, "unexpected argument '%s'", argv[first]);
	if (o->limits.min_timings > o->limits.max_timings)
		return ptb_bad_input(cmd, "--min-timings %d exceeds --max-timings %d",
				     o->limits.min_timings, o->limits.max_timings);
	if (ptb_self_exe(ptb_invoked_as, program, sizeof program) < 0)
		return ptb_bad_input(cmd, "cannot find this program's path to start workers");
	o->program = program;
	return 0;
}

int ptb_cmd_run(int argc, char **argv)
{
	struct ptb_run_opts *o;
	int rc = ptb_run_parse("run", argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	return ptb_run_suite(o);
}
