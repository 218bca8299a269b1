/* SPDX-License-Identifier: MIT */
/*
 * The command line.  Commands and options are tables; every value is
 * parsed strictly, and bad input gets one line on stderr and exit status 2
 * before anything runs or is written.  The texts of --help follow
 * man/ptbench.1, which is the reference.
 */
#include "config.h"

#include "cli/cli.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/error.h"
#include "machine/info.h"
#include "report/report.h"
#include "record/result.h"
#include "run/runner.h"
#include "tools/tools.h"

#define PTB_MAX_ARGS 64

static const char run_usage[] =
	"usage: ptbench run [-b PATTERN]... [-p VAR=V1,V2]... [--stop sd|se|ci]\n"
	"                   [--max-sd PCT] [--min-timings N] [--max-timings N]\n"
	"                   [--budget S] [--timeout S] [--quick] [-o FILE]\n"
	"                   [--format table|csv|json|gbench]\n"
	"\n"
	"Measure the selected benchmarks (default: the whole suite) and save every\n"
	"run to a JSON file (default ptbench-HOST-DATE.json).\n"
	"\n"
	"  -b, --bench PATTERN    benchmark name, family (\"mutex\") or glob (\"cond.*\")\n"
	"  -p, --param VAR=V,..   values of an independent variable; numeric LO..HI\n"
	"                         sweeps the range with adaptive refinement\n"
	"  --stop RULE            sd: sd <= PCT % of the mean (default, the paper's rule)\n"
	"                         se: standard error <= PCT % of the mean (SKaMPI's)\n"
	"                         ci: 95 % CI of the median within +-PCT % of it\n"
	"  --max-sd PCT           the rule's PCT (default 2)\n"
	"  --min-timings N        timings before the rule is tried (default 8)\n"
	"  --max-timings N        give up, status unstable, after N timings (default 100)\n"
	"  --budget S             give up after S seconds per point (default 2)\n"
	"  --timeout S            kill a benchmark whose point gives no result\n"
	"                         within S s (default 60)\n"
	"  --quick                few short timings: a smoke test, not a measurement\n"
	"  -o, --output FILE      where to save the run\n"
	"  --format FMT           what to print on stdout (default table)\n";

static const char main_usage[] =
	"usage: ptbench [COMMAND] [OPTIONS]\n"
	"\n"
	"A Pthreads microbenchmark suite after de Supinski & May (1999).\n"
	"\n"
	"commands:\n"
	"  run       measure benchmarks (the default command; see 'ptbench run --help')\n"
	"  list      benchmarks, their variables and domains\n"
	"  info      this machine: CPU, caches, topology, clock, OS  [--json]\n"
	"  report    print a saved run again: report FILE [--format FMT]\n"
	"  table     cross-platform table: table FILE... [--format md|csv|html]\n"
	"            [--stat mean|median|min]\n"
	"  compare   regression gate: compare BASE NEW [--alpha A] [--threshold PCT]\n"
	"            [--format md|json]; exit 0 none, 1 regression, 2 error\n"
	"\n"
	"  -h, --help       this text     --version   the version\n"
	"\n"
	"exit status: 0 success, 1 a point failed (timeout, crash, error) or a\n"
	"regression, 2 bad input, 130 interrupted.  See ptbench(1).\n";

static int parse_double(const char *opt, const char *s, double lo, double hi, double *out)
{
	char *end;
	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v < lo || v > hi)
		return ptb_bad_input(NULL, "%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
	*out = v;
	return 0;
}

static int parse_int(const char *opt, const char *s, long lo, long hi, int *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return ptb_bad_input(NULL, "%s: '%s' is not an integer in [%ld, %ld]", opt, s, lo, hi);
	*out = (int)v;
	return 0;
}

/* The command line as typed, for the result's context. */
static char typed_command[4096];

static void join_args(int argc, char **argv, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
}

/* ---- run ---------------------------------------------------------------- */

enum run_opt {
	OPT_STOP = 256, OPT_MAX_SD, OPT_MIN_T, OPT_MAX_T, OPT_BUDGET, OPT_TIMEOUT, OPT_QUICK,
	OPT_FORMAT, OPT_JSON, OPT_STAT, OPT_ALPHA, OPT_THRESHOLD, OPT_VERSION
};

static const struct option run_options[] = {
	/* name           has_arg            flag  val */
	{ "bench",        required_argument, NULL, 'b' },
	{ "param",        required_argument, NULL, 'p' },
	{ "stop",         required_argument, NULL, OPT_STOP },
	{ "max-sd",       required_argument, NULL, OPT_MAX_SD },
	{ "min-timings",  required_argument, NULL, OPT_MIN_T },
	{ "max-timings",  required_argument, NULL, OPT_MAX_T },
	{ "budget",       required_argument, NULL, OPT_BUDGET },
	{ "timeout",      required_argument, NULL, OPT_TIMEOUT },
	{ "quick",        no_argument,       NULL, OPT_QUICK },
	{ "output",       required_argument, NULL, 'o' },
	{ "format",       required_argument, NULL, OPT_FORMAT },
	{ "help",         no_argument,       NULL, 'h' },
	{ NULL,           0,                 NULL, 0 }
};

/* --quick: enough timings to see that a benchmark works, not to trust it. */
static void quick_limits(struct ptb_limits *l)
{
	l->min_timings = 4;
	l->max_timings = 12;
	l->budget_s = 0.25;
	l->target_s = 0.0005;
}

static int run_option(struct ptb_run_opts *o, int c, const char *arg,
		      const char **patterns, const char **assign)
{
	struct ptb_limits *l = &o->limits;
	int rule;
	switch (c) {
	case 'b':
		if (o->npatterns == PTB_MAX_ARGS)
			return ptb_bad_input(NULL, "-b: too many patterns");
		patterns[o->npatterns++] = arg;
		return 0;
	case 'p':
		if (o->nassign == PTB_MAX_ARGS)
			return ptb_bad_input(NULL, "-p: too many assignments");
		if (!strchr(arg, '=') || arg[0] == '=')
			return ptb_bad_input(NULL, "-p: '%s' is not VAR=VALUE[,VALUE...]", arg);
		assign[o->nassign++] = arg;
		return 0;
	case OPT_STOP:
		if ((rule = ptb_stop_rule_from_name(arg)) < 0)
			return ptb_bad_input(NULL, "--stop: '%s' is not one of sd, se, ci", arg);
		l->rule = rule;
		return 0;
	case OPT_MAX_SD:  return parse_double("--max-sd", arg, 0.001, 100, &l->max_sd_pct);
	case OPT_MIN_T:   return parse_int("--min-timings", arg, 2, 100000, &l->min_timings);
	case OPT_MAX_T:   return parse_int("--max-timings", arg, 2, 100000, &l->max_timings);
	case OPT_BUDGET:  return parse_double("--budget", arg, 0.001, 86400, &l->budget_s);
	case OPT_TIMEOUT: return parse_double("--timeout", arg, 0.1, 86400, &o->timeout_s);
	case OPT_QUICK:   return 0;   /* applied before the other options */
	case 'o':
		if (!*arg)
			return ptb_bad_input(NULL, "-o: empty file name");
		o->out_path = arg;
		return 0;
	case OPT_FORMAT:
		if ((rule = ptb_format_from_name(arg)) < 0)
			return ptb_bad_input(NULL, "--format: '%s' is not one of table, csv, json, gbench", arg);
		o->format = rule;
		return 0;
	case 'h':
		fputs(run_usage, stdout);
		exit(0);
	default:
		return 2;   /* getopt already said what was wrong */
	}
}

static int cmd_run(int argc, char **argv)
{
	static const char *patterns[PTB_MAX_ARGS], *assign[PTB_MAX_ARGS];
	struct ptb_run_opts o = { .patterns = patterns, .assign = assign, .timeout_s = 60,
				  .format = PTB_FMT_TABLE, .command = typed_command };
	int c;
	ptb_limits_default(&o.limits);
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--quick"))
			o.quick = true;
	if (o.quick)
		quick_limits(&o.limits);
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":b:p:o:h", run_options, NULL)) != -1) {
		if (c == '?')
			return ptb_bad_input(NULL, "run: unknown option '%s' (see 'ptbench run --help')",
					 argv[optind - 1]);
		if (c == ':')
			return ptb_bad_input(NULL, "run: option '%s' needs a value", argv[optind - 1]);
		if (run_option(&o, c, optarg, patterns, assign))
			return 2;
	}
	if (optind < argc)
		return ptb_bad_input(NULL, "run: unexpected argument '%s'", argv[optind]);
	if (o.limits.min_timings > o.limits.max_timings)
		return ptb_bad_input(NULL, "--min-timings %d exceeds --max-timings %d",
				 o.limits.min_timings, o.limits.max_timings);
	return ptb_run_suite(&o);
}

/* ---- list, info, report ------------------------------------------------- */

static int no_extra_args(const char *cmd, int argc, char **argv, int from)
{
	if (argc > from)
		return ptb_bad_input(NULL, "%s: unexpected argument '%s'", cmd, argv[from]);
	return 0;
}

static void list_param(const struct ptb_param *pp)
{
	if (pp->domain)
		printf("      %-12s %s (default %s)%s%s\n", pp->name, pp->domain, pp->defaults,
		       pp->help ? ": " : "", pp->help ? pp->help : "");
	else
		printf("      %-12s integer %ld..%ld (default %s)%s%s\n", pp->name, pp->min,
		       pp->max, pp->defaults, pp->help ? ": " : "", pp->help ? pp->help : "");
}

static int cmd_list(int argc, char **argv)
{
	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		puts("usage: ptbench list\n\nThe benchmarks, what one reported unit is, their variables and domains.");
		return 0;
	}
	if (no_extra_args("list", argc, argv, 1))
		return 2;
	for (int i = 0; i < ptb_registry_count; i++) {
		const struct ptb_bench *b = ptb_registry[i];
		if (b->hidden)
			continue;
		printf("%-20s %s [per %s]\n", b->name, b->summary, b->per);
		for (const struct ptb_param *pp = b->params; pp && pp->name; pp++)
			list_param(pp);
	}
	return 0;
}

static int cmd_info(int argc, char **argv)
{
	struct ptb_system sys;
	char err[512];
	bool json = false;
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--json"))
			json = true;
		else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help"))
			return puts("usage: ptbench info [--json]\n\nThis machine as ptbench sees it; --json prints the context object of a result file."), 0;
		else
			return ptb_bad_input(NULL, "info: unexpected argument '%s'", argv[i]);
	}
	if (ptb_system_init(&sys, err, sizeof err) < 0) {
		fprintf(stderr, "ptbench: %s\n", err);
		return 1;
	}
	int rc = ptb_info_print(stdout, &sys, json);
	ptb_system_fini(&sys);
	return rc ? 1 : 0;
}

static const struct option report_options[] = {
	/* name      has_arg            flag  val */
	{ "format",  required_argument, NULL, OPT_FORMAT },
	{ "help",    no_argument,       NULL, 'h' },
	{ NULL,      0,                 NULL, 0 }
};

static int cmd_report(int argc, char **argv)
{
	int fmt = PTB_FMT_TABLE, c;
	char err[512];
	opterr = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, ":h", report_options, NULL)) != -1) {
		if (c == 'h')
			return puts("usage: ptbench report FILE [--format table|csv|json|gbench]"), 0;
		if (c == ':')
			return ptb_bad_input(NULL, "report: option '%s' needs a value", argv[optind - 1]);
		if (c == '?')
			return ptb_bad_input(NULL, "report: unknown option '%s'", argv[optind - 1]);
		if ((fmt = ptb_format_from_name(optarg)) < 0)
			return ptb_bad_input(NULL, "--format: '%s' is not one of table, csv, json, gbench",
					     optarg);
	}
	if (optind >= argc)
		return ptb_bad_input(NULL, "report: which file? (ptbench report FILE)");
	if (optind + 1 < argc)
		return ptb_bad_input(NULL, "report: unexpected argument '%s'", argv[optind + 1]);
	json_t *run = ptb_run_load(argv[optind], err, sizeof err);
	if (!run)
		return ptb_bad_input(NULL, "%s", err);
	int rc = ptb_report(stdout, run, fmt);
	json_decref(run);
	return rc ? 1 : 0;
}

/* ---- dispatch ----------------------------------------------------------- */

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	/* name       handler */
	{ "run",      cmd_run },
	{ "list",     cmd_list },
	{ "info",     cmd_info },
	{ "report",   cmd_report },
	{ "table",    ptb_table_main },
	{ "compare",  ptb_compare_main },
};

int ptb_cli_main(int argc, char **argv)
{
	argv[0] = "ptbench";
	join_args(argc, argv, typed_command, sizeof typed_command);
	if (argc < 2 || argv[1][0] == '-') {
		if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
			return fputs(main_usage, stdout), 0;
		if (argc >= 2 && !strcmp(argv[1], "--version"))
			return puts(PACKAGE_STRING), 0;
		argv[0] = "run";
		return cmd_run(argc, argv);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return ptb_bad_input(NULL, "unknown command '%s' (see 'ptbench --help')", argv[1]);
}
