/* SPDX-License-Identifier: MIT */
/*
 * `ptbench corun [-o FILE] [--copies LIST] [--rounds N] [--input FILE]
 * [--sched fifo|other] [--format table|json] -- PROGRAM [ARGS...]`: what
 * PROGRAM's CPU work costs more on this machine when k copies of it run
 * at once, one per core -- the shared cache and the memory bus, which a
 * recording on one PU cannot see and `predict --corun FILE` applies.
 * Each round runs one copy alone, then k copies at once for each k; the
 * round's factor is the copies' mean CPU time over the lone copy's, and
 * the file gives the median over rounds with its range (cli/corun-file.h).
 * Under SCHED_FIFO each round also runs the lone copy under the normal
 * policy, whose time slices among its threads cost it their caches: the
 * "sliced" factor, which `predict` charges while threads outnumber CPUs.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/corun-copies.h"
#include "cli/corun-file.h"
#include "cli/error.h"
#include "cli/options.h"
#include "cli/record-exec.h"
#include "platform/topology.h"
#include "record/cleanup.h"
#include "record/target.h"
#include "stats/stats.h"
#include "text/text.h"

static const char usage[] =
	"usage: ptbench corun [-o FILE] [--copies LIST] [--rounds N] [--input FILE]\n"
	"                     [--sched fifo|other] [--format table|json] -- PROGRAM [ARGS...]\n"
	"\n"
	"Measure how much more CPU time PROGRAM takes on this machine while copies of it\n"
	"run at once, one per core, for 'ptbench predict --corun FILE'; under SCHED_FIFO,\n"
	"also how much more one copy takes under the normal policy (its time slices).\n"
	"  -o, --output FILE    write the figures as JSON (ptbench-corun/1) to FILE\n"
	"  --copies LIST        the numbers of copies at once (default 2,4,8: those the\n"
	"                       allowed cores take)\n"
	"  --rounds N           rounds of each count (and of the copy under the normal\n"
	"                       policy) between two runs of one copy alone (default 5)\n"
	"  --input FILE         each copy's stdin (default: stdin where it is a file, else\n"
	"                       /dev/null); each copy reads it from the start\n"
	"  --sched fifo|other   SCHED_FIFO (default, where permitted) or the normal policy\n"
	"  --format table|json  what goes to stdout (default table)\n"
	"PROGRAM's output is discarded; it must exit with status 0.\n";

static const struct option corun_options[] = {
	/* name       has_arg            flag  val */
	{ "output",   required_argument, NULL, 'o' },
	{ "copies",   required_argument, NULL, 'k' },
	{ "rounds",   required_argument, NULL, 'r' },
	{ "input",    required_argument, NULL, 'i' },
	{ "sched",    required_argument, NULL, 's' },
	{ "format",   required_argument, NULL, 'f' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 },
};

#define MAX_COUNTS 16
#define MAX_ROUNDS 100
/* Less CPU than this alone and a slowdown of a few per cent is lost in
 * the start of the process (its exec and loading take about 1 ms). */
#define MIN_CPU_S 0.05

struct corun_args {
	const char *out, *input;
	int counts[MAX_COUNTS], ncounts;
	int rounds, fifo, json;
};

/* The measured figures: alone[r], the mean of the lone copy's runs that
 * open and close round r (drift[r]: the second's CPU time over the
 * first's), and at[c][r] the mean over the copies of count c
 * in round r.  The lone copy runs on both sides of the counts so that a
 * drift of the machine's speed within the round (a guest's clock, a
 * neighbour) falls on both sides of the ratio: a lent 16-vCPU guest gave
 * factors of 0.83-1.11 with the lone copy first only.  sliced[r]: the
 * lone copy under the normal policy, between the counts and the second
 * lone run, where the lone copies are under SCHED_FIFO (a->fifo, as
 * pick_sched() left it). */
struct corun_figures {
	int pus[PTB_COPIES_MAX], npus;
	int rounds;
	double alone[MAX_ROUNDS], drift[MAX_ROUNDS];
	double at[MAX_COUNTS][MAX_ROUNDS];
	double sliced[MAX_ROUNDS];
};

static int parse_counts(struct corun_args *a, const char *arg)
{
	char buf[256];
	if (strlen(arg) >= sizeof buf || !*arg)
		return ptb_bad_input("corun", "--copies: '%s' is not a list of counts", arg);
	snprintf(buf, sizeof buf, "%s", arg);
	a->ncounts = 0;
	for (char *tok = buf, *comma; tok; tok = comma ? comma + 1 : NULL) {
		if ((comma = strchr(tok, ',')))
			*comma = '\0';
		if (a->ncounts == MAX_COUNTS)
			return ptb_bad_input("corun", "--copies: at most %d counts", MAX_COUNTS);
		int k;
		if (ptb_parse_int("corun", "--copies", tok, 2, PTB_COPIES_MAX, &k))
			return 2;
		if (a->ncounts && k <= a->counts[a->ncounts - 1])
			return ptb_bad_input("corun", "--copies: '%s' is not ascending", arg);
		a->counts[a->ncounts++] = k;
	}
	return 0;
}

static int corun_option(void *ctx, int opt, const char *arg)
{
	struct corun_args *a = ctx;
	switch (opt) {
	case 'o':
		a->out = arg;
		return *arg ? 0 : ptb_bad_input("corun", "-o needs a file name");
	case 'k':
		return parse_counts(a, arg);
	case 'r':
		return ptb_parse_int("corun", "--rounds", arg, 1, MAX_ROUNDS, &a->rounds);
	case 'i':
		a->input = arg;
		return *arg ? 0 : ptb_bad_input("corun", "--input needs a file name");
	case 's':
		if (strcmp(arg, "fifo") && strcmp(arg, "other"))
			return ptb_bad_input("corun", "--sched: '%s' is neither fifo nor other", arg);
		a->fifo = !strcmp(arg, "fifo");
		return 0;
	case 'f':
		if (strcmp(arg, "table") && strcmp(arg, "json"))
			return ptb_bad_input("corun", "--format: '%s' is neither table nor json", arg);
		a->json = !strcmp(arg, "json");
		return 0;
	}
	return 2;
}

/* One PU of each allowed core, in the spread order; the default counts
 * are those of 2, 4, 8 that fit, and a count asked for must fit. */
static int pick_pus(const struct ptb_topology *t, struct corun_args *a, struct corun_figures *f)
{
	struct ptb_topo_counts c;
	ptb_topology_counts(t, &c);
	int all[PTB_COPIES_MAX * 8];
	int n = ptb_topology_order(t, PTB_ORDER_SPREAD, all, (int)(sizeof all / sizeof all[0]));
	f->npus = c.cores < n ? c.cores : n;
	if (f->npus > PTB_COPIES_MAX)
		f->npus = PTB_COPIES_MAX;
	memcpy(f->pus, all, (size_t)(f->npus > 0 ? f->npus : 0) * sizeof all[0]);
	if (!a->ncounts)
		for (int k = 2; k <= 8 && k <= f->npus; k *= 2)
			a->counts[a->ncounts++] = k;
	if (!a->ncounts)
		return ptb_bad_input("corun", "%d core allowed (%s): no copies to run beside one "
				     "another", f->npus, c.allowed);
	if (a->counts[a->ncounts - 1] > f->npus)
		return ptb_bad_input("corun", "--copies %d: only %d core%s allowed (%s), one copy "
				     "each", a->counts[a->ncounts - 1], f->npus, f->npus == 1 ? "" : "s",
				     c.allowed);
	return 0;
}

/* What each copy reads: --input, or a regular file on stdin re-opened by
 * each (its own offset), or /dev/null; a pipe cannot be read by several. */
static int pick_input(struct corun_args *a)
{
	struct stat st;
	if (a->input) {
		if (stat(a->input, &st) || !S_ISREG(st.st_mode) || access(a->input, R_OK))
			return ptb_bad_input("corun", "--input %s: not a file that can be read",
					     a->input);
		return 0;
	}
	if (fstat(0, &st))
		return 0;                                   /* no stdin: /dev/null */
	if (S_ISREG(st.st_mode))
		a->input = "/proc/self/fd/0";
	else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		return ptb_bad_input("corun", "stdin is a pipe, which the copies cannot each read "
				     "from the start: give the file (--input FILE or < FILE)");
	return 0;
}

/* SCHED_FIFO where asked and permitted: tried on ptbench itself, then
 * its own policy given back, so that a refusal is found once rather than
 * by each copy.  The errno of a refusal, said once the figures are in (a
 * run that fails says that alone), or 0. */
static int pick_sched(struct corun_args *a)
{
	struct sched_param fifo = { .sched_priority = 1 }, was;
	int policy = sched_getscheduler(0);
	if (!a->fifo || policy < 0 || sched_getparam(0, &was))
		return 0;
	if (sched_setscheduler(0, SCHED_FIFO, &fifo) == 0) {
		sched_setscheduler(0, policy, &was);
		return 0;
	}
	a->fifo = 0;
	return errno;
}

static double mean(const double *x, int n)
{
	double s = 0;
	for (int i = 0; i < n; i++)
		s += x[i];
	return s / n;
}

static int measure(const struct ptb_topology *t, const struct corun_args *a, char **argv,
		   struct corun_figures *f)
{
	struct ptb_copies c = { argv, a->input, a->fifo, t }, sliced = c;
	double cpu[PTB_COPIES_MAX];
	sliced.fifo = 0;
	char err[512];
	for (int r = 0; r < a->rounds; r++) {
		if (ptb_copies_run(&c, f->pus, 1, cpu, err, sizeof err))
			return ptb_bad_input("corun", "%s", err);
		if (cpu[0] < MIN_CPU_S)
			return ptb_bad_input("corun", "%s used %.3f s of CPU alone: too little to "
					     "measure (at least %.2f s)", argv[0], cpu[0], MIN_CPU_S);
		double first = cpu[0];
		for (int i = 0; i < a->ncounts; i++) {
			if (ptb_copies_run(&c, f->pus, a->counts[i], cpu, err, sizeof err))
				return ptb_bad_input("corun", "%s", err);
			f->at[i][r] = mean(cpu, a->counts[i]);
		}
		if (a->fifo && ptb_copies_run(&sliced, f->pus, 1, &f->sliced[r], err, sizeof err))
			return ptb_bad_input("corun", "%s (the lone copy under the normal policy, "
					     "for the time slices' cost)", err);
		if (ptb_copies_run(&c, f->pus, 1, cpu, err, sizeof err))
			return ptb_bad_input("corun", "%s", err);
		f->alone[r] = (first + cpu[0]) / 2;
		f->drift[r] = cpu[0] / first;
		f->rounds = r + 1;
	}
	return 0;
}

/* A spread of the rounds past this (greatest over least factor) is said:
 * the machine's speed, not the copies, may be what was measured. */
#define SPREAD_WARN 1.10

/* The median, least and greatest over the rounds of a factor: the CPU
 * time cpu[r] of round r over the lone copy's (f->at[i] for count i,
 * f->sliced for the lone copy under the normal policy). */
static void factor_of(const struct corun_figures *f, const double *cpu, double *med, double *lo,
		      double *hi)
{
	double x[MAX_ROUNDS] = { 0 };              /* rounds >= 1: measure() */
	for (int r = 0; r < f->rounds; r++)
		x[r] = cpu[r] / f->alone[r];
	*lo = *hi = x[0];
	for (int r = 1; r < f->rounds; r++)
		*lo = x[r] < *lo ? x[r] : *lo, *hi = x[r] > *hi ? x[r] : *hi;
	*med = ptb_median_inplace(x, f->rounds);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* A factor's median, range and rounds (its CPU times cpu[r]), with `key`
 * and `value` first where key is not NULL. */
static json_t *factor_json(const struct corun_figures *f, const double *cpu, const char *key,
			   int value)
{
	double med, lo, hi;
	factor_of(f, cpu, &med, &lo, &hi);
	json_t *each = json_array(), *o = json_object();
	for (int r = 0; r < f->rounds; r++)
		json_array_append_new(each, json_real(cpu[r] / f->alone[r]));
	if (key)
		json_object_set_new(o, key, json_integer(value));
	json_object_set_new(o, "factor", json_real(med));
	json_object_set_new(o, "min", json_real(lo));
	json_object_set_new(o, "max", json_real(hi));
	json_object_set_new(o, "rounds", each);
	return o;
}

static json_t *to_json(const struct corun_args *a, char **argv, int argc,
		       const struct corun_figures *f)
{
	json_t *args = json_array(), *pus = json_array(), *alone = json_array();
	json_t *slow = json_array(), *drift = json_array();
	char buf[4096];
	for (int i = 0; i < argc; i++) {
		snprintf(buf, sizeof buf, "%s", argv[i]);
		ptb_utf8_fix(buf, sizeof buf);                /* arguments are bytes */
		json_array_append_new(args, json_string(buf));
	}
	for (int i = 0; i < a->counts[a->ncounts - 1]; i++)
		json_array_append_new(pus, json_integer(f->pus[i]));
	for (int r = 0; r < f->rounds; r++) {
		json_array_append_new(alone, json_real(f->alone[r]));
		json_array_append_new(drift, json_real(f->drift[r]));
	}
	json_array_append_new(slow, json_pack("{s:i, s:f}", "copies", 1, "factor", 1.0));
	for (int i = 0; i < a->ncounts; i++)
		json_array_append_new(slow, factor_json(f, f->at[i], "copies", a->counts[i]));
	snprintf(buf, sizeof buf, "%s", base_name(argv[0]));
	ptb_utf8_fix(buf, sizeof buf);
	return json_pack("{s:s, s:s, s:o, s:s, s:o, s:i, s:o, s:o, s:o, s:o}", "schema",
			 PTB_CORUN_SCHEMA, "program", buf, "argv", args, "sched",
			 a->fifo ? "fifo" : "other", "pus", pus, "rounds", f->rounds, "alone_cpu_s",
			 alone, "alone_drift", drift, "slowdown", slow, "sliced", a->fifo ?
			 factor_json(f, f->sliced, NULL, 0) : json_null());
}

static void print_table(const struct corun_args *a, char **argv, const struct corun_figures *f)
{
	double x[MAX_ROUNDS];
	memcpy(x, f->alone, (size_t)f->rounds * sizeof x[0]);
	printf("%s: %d round%s on PUs", base_name(argv[0]), f->rounds, f->rounds == 1 ? "" : "s");
	for (int i = 0; i < a->counts[a->ncounts - 1]; i++)
		printf("%s%d", i ? "," : " ", f->pus[i]);
	printf(" (%s), %.3f s of CPU alone (median)\n\n", a->fifo ? "SCHED_FIFO" : "normal policy",
	       ptb_median_inplace(x, f->rounds));
	printf("  copies  slowdown       min       max\n");
	for (int i = 0; i < a->ncounts; i++) {
		double med, lo, hi;
		factor_of(f, f->at[i], &med, &lo, &hi);
		printf("  %6d  %8.3f  %8.3f  %8.3f\n", a->counts[i], med, lo, hi);
	}
	if (!a->fifo)
		return;
	double med, lo, hi;
	factor_of(f, f->sliced, &med, &lo, &hi);
	printf("\n  one copy under the normal policy, its threads in time slices:\n");
	printf("  %6d  %8.3f  %8.3f  %8.3f\n", 1, med, lo, hi);
}

/* The JSON to a.out through a temporary file: a kill leaves no half. */
static int write_file(const char *path, json_t *doc)
{
	char tmp[4200];
	if (ptb_run_tmp_name(path, getpid(), tmp, sizeof tmp))
		return ptb_bad_input("corun", "cannot write %s: the name is too long", path);
	int handle = ptb_cleanup_add(tmp, false);
	int rc = json_dump_file(doc, tmp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) || rename(tmp, path);
	if (rc)
		unlink(tmp);
	ptb_cleanup_forget(handle);
	return rc ? ptb_bad_input("corun", "cannot write %s", path) : 0;
}

/* Whether the rounds of one factor (CPU times cpu[]) spread past
 * SPREAD_WARN; if so the warning, naming `what`, is said. */
static int warned(const struct corun_figures *f, const double *cpu, const char *what)
{
	double med, lo, hi;
	factor_of(f, cpu, &med, &lo, &hi);
	if (hi <= lo * SPREAD_WARN)
		return 0;
	fprintf(stderr, "ptbench corun: warning: %s the rounds gave %.3f to %.3f: this machine's "
		"speed changed under the measurement (other load, a guest's clock); more --rounds "
		"or a quieter machine\n", what, lo, hi);
	return 1;
}

/* Whether the lone copy's two runs of some round differ past SPREAD_WARN
 * (the round whose differ most); if so the warning is said.  Rounds that
 * agree with each other can still each have drifted, and one round has
 * no other to disagree with: a lent 16-vCPU guest whose speed moved by
 * half gave single-round factors of 0.84 to 1.42 without a word. */
static int warned_drift(const struct corun_figures *f)
{
	int worst = 0;
	double far = 1;
	for (int r = 0; r < f->rounds; r++) {
		double d = f->drift[r] < 1 ? 1 / f->drift[r] : f->drift[r];
		if (d > far)
			far = d, worst = r;
	}
	if (far <= SPREAD_WARN)
		return 0;
	double first = 2 * f->alone[worst] / (1 + f->drift[worst]);     /* alone: their mean */
	fprintf(stderr, "ptbench corun: warning: in round %d the lone copy took %.3f s of CPU, "
		"then %.3f: this machine's speed changed within the round (other load, a guest's "
		"clock); more --rounds or a quieter machine\n", worst + 1, first,
		first * f->drift[worst]);
	return 1;
}

/* One warning at most: a round whose lone runs disagree, else the first
 * factor whose rounds spread. */
static void warn_spread(const struct corun_args *a, const struct corun_figures *f)
{
	char what[64];
	if (warned_drift(f))
		return;
	for (int i = 0; i < a->ncounts; i++) {
		snprintf(what, sizeof what, "at %d copies", a->counts[i]);
		if (warned(f, f->at[i], what))
			return;
	}
	if (a->fifo)
		warned(f, f->sliced, "under the normal policy");
}

/* What the copies inherit is the program's, not what ptbench was given:
 * fds 0-2 open (a closed one would be the start line's pipe, and the
 * copies released at once) and SIGCHLD at its default (ignored, the
 * copies' CPU time could not be waited for). */
static void sane_inheritance(void)
{
	for (int fd = 0; fd <= 2; fd++)
		if (fcntl(fd, F_GETFD) < 0 && open("/dev/null", fd ? O_WRONLY : O_RDONLY) != fd)
			break;
	signal(SIGCHLD, SIG_DFL);
}

/* Measure and write, on the PUs of t. */
static int corun_on(const struct ptb_topology *t, struct corun_args *a, char **argv, int argc)
{
	static struct corun_figures f;
	int rc = pick_pus(t, a, &f);
	if (rc || (rc = pick_input(a)))
		return rc;
	int refused = pick_sched(a);
	if ((rc = measure(t, a, argv, &f)))
		return rc;
	if (refused)
		fprintf(stderr, "ptbench corun: warning: SCHED_FIFO not permitted (%s); the copies "
			"ran under the normal policy, where other load shares their PUs\n",
			strerror(refused));
	warn_spread(a, &f);
	json_t *doc = to_json(a, argv, argc, &f);
	if (!doc)
		return ptb_bad_input("corun", "out of memory");
	rc = a->out ? write_file(a->out, doc) : 0;
	if (!rc && a->json)
		rc = json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) ? 2 : (printf("\n"), 0);
	else if (!rc)
		print_table(a, argv, &f);
	json_decref(doc);
	return rc;
}

int ptb_cmd_corun(int argc, char **argv)
{
	struct corun_args a = { .rounds = 5, .fifo = 1 };
	char err[512];
	int first, rc = ptb_options("corun", argc, argv, "+:ho:", corun_options, usage,
				    corun_option, &a, &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first >= argc)
		return ptb_bad_input("corun", "no program given (ptbench corun -- PROGRAM [ARGS...])");
	if (!ptb_program_findable(argv[first]))
		return ptb_bad_input("corun", "%s: %s", argv[first], strchr(argv[first], '/') &&
				     access(argv[first], F_OK) == 0 ? "not executable" : "no such program");
	if (a.out && ptb_run_check_target_of("-o", a.out, err, sizeof err))
		return ptb_bad_input("corun", "%s", err);
	sane_inheritance();
	struct ptb_topology *t = ptb_topology_load(NULL, err, sizeof err);
	if (!t)
		return ptb_bad_input("corun", "%s", err);
	rc = corun_on(t, &a, argv + first, argc - first);
	ptb_topology_free(t);
	return rc;
}
