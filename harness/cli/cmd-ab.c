/* SPDX-License-Identifier: MIT */
/*
 * `ptbench ab [OPTIONS] BASE HEAD [RUN-OPTION...]`: its own options before
 * the two programs, `run`'s options (selection, trial limits) after them;
 * then the comparison (run/ab.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "run/ab.h"

#define MAX_ENV 32

extern char **environ;

static const char ab_usage[] =
	"usage: ptbench ab [--base-env VAR=VAL]... [--head-env VAR=VAL]...\n"
	"                  [--threshold PCT] [--alpha A] [--time S] [--min-pairs N]\n"
	"                  [--format md|csv|json] [-o FILE] BASE HEAD [RUN-OPTION...]\n"
	"\n"
	"Compare two programs in one sitting: BASE and HEAD are ptbench binaries, or\n"
	"wrappers that exec one (with LD_PRELOAD or LD_LIBRARY_PATH naming another\n"
	"threads library; a wrapper passes its arguments on).  The points that the\n"
	"RUN-OPTIONs (-b, -p, --quick, trial limits; see 'ptbench run --help') select\n"
	"are measured as pairs of trials, one of each side back to back in a random\n"
	"order, so that a drift of the host hits both alike.\n"
	"\n"
	"  --base-env VAR=VAL   set VAR for BASE's workers (repeatable)\n"
	"  --head-env VAR=VAL   set VAR for HEAD's workers (repeatable)\n"
	"  --threshold PCT      the smallest change that counts (default 5)\n"
	"  --alpha A            the chance of any false verdict in the comparison\n"
	"                       (default 0.05, Bonferroni over the points)\n"
	"  --time S             the comparison's deadline: no trial runs past it\n"
	"                       (default: 45 s, longer if a point needs it to\n"
	"                       have pairs enough for a verdict)\n"
	"  --min-pairs N        pairs before a point may be decided (default 12)\n"
	"  --format FMT         md (default), csv or json\n"
	"  -o FILE              write the report to FILE, whole or not at all\n"
	"                       (-o and --format may also follow HEAD)\n"
	"\n"
	"Points at a placement this machine cannot have (smt without two PUs in a\n"
	"core, cross_package on one package ...) are left out, said in one line.\n"
	"\n"
	"exit status: 0 no regression, 1 a regression, 2 bad input or a point not\n"
	"compared (a side failed, too few pairs within --time, or the comparison\n"
	"was interrupted).\n";

enum ab_opt { OPT_BASE_ENV = 256, OPT_HEAD_ENV, OPT_THRESHOLD, OPT_ALPHA, OPT_TIME,
	      OPT_MIN_PAIRS, OPT_FORMAT };

static const struct option ab_options[] = {
	/* name          has_arg            flag  val */
	{ "base-env",    required_argument, NULL, OPT_BASE_ENV },
	{ "head-env",    required_argument, NULL, OPT_HEAD_ENV },
	{ "threshold",   required_argument, NULL, OPT_THRESHOLD },
	{ "alpha",       required_argument, NULL, OPT_ALPHA },
	{ "time",        required_argument, NULL, OPT_TIME },
	{ "min-pairs",   required_argument, NULL, OPT_MIN_PAIRS },
	{ "format",      required_argument, NULL, OPT_FORMAT },
	{ "output",      required_argument, NULL, 'o' },
	{ "help",        no_argument,       NULL, 'h' },
	{ NULL,          0,                 NULL, 0 }
};

struct ab_args {
	struct ptb_ab_opts o;
	bool format_given;
	const char *env[2][MAX_ENV];
	int nenv[2];
};

static int out_path(const char **path, const char *arg)
{
	if (*path)
		return ptb_bad_input("ab", "-o given twice");
	if (!*arg)
		return ptb_bad_input("ab", "-o: empty file name");
	if (arg[0] == '-')
		return ptb_bad_input("ab", "-o: '%s' looks like an option, not a file name "
				     "(write ./%s for a file so named)", arg, arg);
	*path = arg;
	return 0;
}

static int ab_option(void *ctx, int c, const char *arg)
{
	struct ab_args *a = ctx;
	int side = c == OPT_HEAD_ENV;
	switch (c) {
	case OPT_BASE_ENV:
	case OPT_HEAD_ENV:
		if (!strchr(arg, '=') || arg[0] == '=')
			return ptb_bad_input("ab", "--%s-env: '%s' is not VAR=VALUE",
					     side ? "head" : "base", arg);
		if (a->nenv[side] == MAX_ENV)
			return ptb_bad_input("ab", "too many --%s-env", side ? "head" : "base");
		a->env[side][a->nenv[side]++] = arg;
		return 0;
	case OPT_THRESHOLD:
		return ptb_parse_double("ab", "--threshold", arg, 0.01, 1000, &a->o.threshold_pct);
	case OPT_ALPHA:   return ptb_parse_double("ab", "--alpha", arg, 1e-6, 0.5, &a->o.alpha);
	case OPT_TIME:
		a->o.budget_given = true;
		return ptb_parse_double("ab", "--time", arg, 0.1, 86400, &a->o.budget_s);
	case OPT_MIN_PAIRS:
		return ptb_parse_int("ab", "--min-pairs", arg, 3, 100000, &a->o.min_pairs);
	case OPT_FORMAT: {
		int f = ptb_ab_format_from_name(arg);
		if (f < 0)
			return ptb_bad_input("ab", "--format: '%s' is not one of " PTB_AB_FORMAT_NAMES,
					     arg);
		a->o.format = f;
		a->format_given = true;
		return 0;
	}
	case 'o':
		return out_path(&a->o.out_path, arg);
	default:
		return 2;
	}
}

/* Our environment with VAR=VAL settings replacing or joining it. */
static char **environment(const char *const *set, int nset)
{
	int n = 0;
	while (environ[n])
		n++;
	char **env = calloc((size_t)(n + nset + 1), sizeof *env);
	int k = 0;
	if (!env)
		return NULL;
	for (int i = 0; i < n; i++) {
		bool replaced = false;
		for (int j = 0; j < nset; j++) {
			size_t len = (size_t)(strchr(set[j], '=') - set[j]);
			replaced |= !strncmp(environ[i], set[j], len + 1);
		}
		if (!replaced)
			env[k++] = environ[i];
	}
	for (int j = 0; j < nset; j++)
		env[k++] = (char *)set[j];
	return env;
}

/* A program as exec needs it: a path, or a name found on PATH. */
static int resolve(const char *prog, char *buf, size_t len)
{
	const char *path = getenv("PATH");
	if (strchr(prog, '/')) {
		snprintf(buf, len, "%s", prog);
		return access(buf, X_OK);
	}
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(buf, len, "%.*s/%s", (int)n, n ? p : ".", prog);
		if (access(buf, X_OK) == 0)
			return 0;
		p += n + (p[n] == ':');
	}
	return -1;
}

/* -o and --format among the RUN-OPTIONs are the report's too: run's
 * parser read them (its default format, table, is the Markdown table). */
static int run_outputs(struct ab_args *a, const struct ptb_run_opts *run)
{
	static const int from_run[PTB_FMT_COUNT] = {
		[PTB_FMT_TABLE] = -1, [PTB_FMT_CSV] = PTB_AB_CSV, [PTB_FMT_JSON] = PTB_AB_JSON,
		[PTB_FMT_GBENCH] = -2,
	};
	int f = from_run[run->format];
	if (f == -2)
		return ptb_bad_input("ab", "--format: '%s' is not one of " PTB_AB_FORMAT_NAMES,
				     ptb_format_name(run->format));
	if (f >= 0 && a->format_given && (int)a->o.format != f)
		return ptb_bad_input("ab", "--format given twice");
	if (f >= 0)
		a->o.format = f;
	return run->out_path ? out_path(&a->o.out_path, run->out_path) : 0;
}

int ptb_cmd_ab(int argc, char **argv)
{
	static struct ab_args a;
	static char programs[2][4096];
	struct ptb_run_opts *run;
	int first, rc;
	a.o = (struct ptb_ab_opts){ .threshold_pct = 5, .alpha = 0.05, .budget_s = 45,
				    .min_pairs = 12, .format = PTB_AB_MD };
	/* "+": the options end at BASE; the rest are run's. */
	rc = ptb_options("ab", argc, argv, "+:o:h", ab_options, ab_usage, ab_option, &a, &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (argc - first < 2)
		return ptb_bad_input("ab", "needs BASE and HEAD (see 'ptbench ab --help')");
	for (int s = 0; s < 2; s++) {
		if (resolve(argv[first + s], programs[s], sizeof programs[s]) < 0)
			return ptb_bad_input("ab", "%s: %s is not an executable program",
					     s ? "HEAD" : "BASE", argv[first + s]);
		a.o.program[s] = programs[s];
		if (!(a.o.env[s] = environment(a.env[s], a.nenv[s])))
			return ptb_bad_input("ab", "out of memory");
	}
	/* run's parser sees "ab RUN-OPTION...". */
	argv[first + 1] = argv[0];
	rc = ptb_run_parse("ab", argc - first - 1, argv + first + 1, &run);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (run->gate_fd)   /* ab's rounds are its own pairs */
		return ptb_bad_input("ab", "--round-gate is an option of run only");
	a.o.run = *run;
	rc = run_outputs(&a, run);
	return rc ? rc : ptb_ab_run(&a.o);
}
