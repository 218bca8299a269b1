/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot FILE... [-o OUT.svg|OUT.png|-] [--kind KIND] [--script DIR]`:
 * a picture of result files, drawn by gnuplot (report/plot.h); or of one
 * trace of `ptbench record`, replayed on --cpus N CPUs (cli/trace-flow.h):
 * `--kind flow` (each thread over time) or `parallelism`; or of one
 * profile of `ptbench profile --format json` (`--kind profile`).  Without
 * --kind, the first kind whose data the files hold; without -o, KIND.svg.
 * The picture is written through a temporary file and renamed, so a
 * failed plot leaves no half-written file; --script DIR keeps the data
 * and the gnuplot script, even when gnuplot is missing.  Bad input, files
 * without the kind's data and a missing gnuplot: one line, exit 2.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "cli/options.h"
#include "cli/trace-flow.h"
#include "record/cleanup.h"
#include "record/model.h"
#include "record/target.h"
#include "report/plot.h"
#include "text/text.h"
#include "tools/profile.h"

static const char usage[] =
	"usage: ptbench plot FILE... [-o OUT.svg|OUT.png|-] [--kind KIND] [--script DIR]\n"
	"       ptbench plot TRACE [--kind flow|parallelism] [--cpus N] [-o ...] [--script DIR]\n"
	"       ptbench plot PROFILE [--kind profile] [-o ...] [--script DIR]\n"
	"\n"
	"Draw result files with gnuplot.  KIND: table (the Table-1 rows as bars, one\n"
	"per file), trials (each point's trials), c2c (the core-to-core matrix as a\n"
	"heat map), cache (load latency over the working set), scaling (cost over\n"
	"threads, compact and spread).  Default: the first of these the files hold,\n"
	"written to KIND.svg; -o - writes SVG on stdout.  --script DIR keeps the\n"
	"data and the gnuplot script there, to restyle the plot.\n"
	"Of a trace of 'ptbench record', replayed on N CPUs (--cpus, default 2): flow\n"
	"(each thread over time: running, ready, blocked, sleeping; wake-up arrows,\n"
	"the default) or parallelism (running and ready threads over time).\n"
	"Of a profile of 'ptbench profile --format json': profile (per object, each\n"
	"thread's read and write misses, and true against false sharing).\n";

static const struct option plot_options[] = {
	/* name       has_arg            flag  val */
	{ "output",   required_argument, NULL, 'o' },
	{ "kind",     required_argument, NULL, 'k' },
	{ "script",   required_argument, NULL, 's' },
	{ "cpus",     required_argument, NULL, 'c' },
	{ "help",     no_argument,       NULL, 'h' },
	{ NULL,       0,                 NULL, 0 },
};

struct plot_args {
	const char *out, *kind, *script;
	enum ptb_plot_term term;
	int cpus;                        /* 0: not given */
	const struct ptb_flow *flow;     /* a trace's replay, or NULL */
	const json_t *profile;           /* a profile's document, or NULL */
};

/* The kinds drawn from a trace rather than from result files. */
static bool trace_kind(const char *kind)
{
	return kind && (!strcmp(kind, "flow") || !strcmp(kind, "parallelism"));
}

static bool profile_kind(const char *kind)
{
	return kind && !strcmp(kind, "profile");
}

/* The picture formats by the output's extension. */
static const struct {
	const char *ext;
	enum ptb_plot_term term;
} formats[] = {
	{ ".svg", PTB_PLOT_SVG },
	{ ".png", PTB_PLOT_PNG },
};

static void kind_list(char *buf, size_t len)
{
	buf[0] = 0;
	for (int i = 0; ptb_plot_kinds[i]; i++)
		ptb_appendf(buf, len, "%s%s", i ? ", " : "", ptb_plot_kinds[i]);
}

static int plot_option(void *ctx, int c, const char *arg)
{
	struct plot_args *a = ctx;
	char kinds[128];
	size_t n = strlen(arg);
	if (c == 'o' && strcmp(arg, "-")) {
		for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
			if (n > 4 && !strcasecmp(arg + n - 4, formats[i].ext)) {
				a->out = arg;
				a->term = formats[i].term;
				return 0;
			}
		return ptb_bad_input("plot", "-o %s: the name must end in .svg or .png", arg);
	}
	if (c == 'o')
		a->out = arg;
	if (c == 'k') {
		for (int i = 0; ptb_plot_kinds[i]; i++)
			if (!strcmp(arg, ptb_plot_kinds[i]))
				return a->kind = ptb_plot_kinds[i], 0;
		kind_list(kinds, sizeof kinds);
		return ptb_bad_input("plot", "--kind: '%s' is not one of %s", arg, kinds);
	}
	if (c == 's')
		a->script = arg;
	if (c == 'c')
		return ptb_parse_int("plot", "--cpus", arg, 1, 4096, &a->cpus);
	return 0;
}

/* The folder --script names: made when absent.  Like -o, it writes
 * nothing through a symbolic link: not the folder's name, and not the
 * files in it (report/plot.c opens them so). */
static int script_dir(const char *dir)
{
	struct stat st;
	if (!*dir)
		return ptb_bad_input("plot", "--script: an empty folder name");
	if (mkdir(dir, 0777) && errno != EEXIST)
		return ptb_bad_input("plot", "--script %s: %s", dir, strerror(errno));
	if (lstat(dir, &st) == 0 && S_ISLNK(st.st_mode))
		return ptb_bad_input("plot", "--script %s: is a symbolic link; --script writes "
				     "only into a folder itself", dir);
	if (stat(dir, &st) || !S_ISDIR(st.st_mode))
		return ptb_bad_input("plot", "--script %s: not a folder", dir);
	return 0;
}

/* Draw into PATH.tmp.PID, then rename it over path. */
static int draw_to(const char *path, const char *kind, struct ptb_runfile **runs, size_t n,
		   const struct plot_args *a, char *err, size_t errlen)
{
	char tmp[4096];
	if (ptb_run_check_target(path, err, errlen) ||
	    ptb_run_tmp_name(path, getpid(), tmp, sizeof tmp))
		return -1;
	int handle = ptb_cleanup_add(tmp, false);   /* before it exists: no window */
	FILE *f = fopen(tmp, "w");
	if (!f) {
		ptb_cleanup_forget(handle);
		ptb_errf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	int rc = a->flow ? ptb_plot_draw_flow(kind, a->flow, a->term, a->script, f, err, errlen)
		 : a->profile ? ptb_plot_draw_profile(kind, a->profile, a->term, a->script, f, err,
						      errlen)
			      : ptb_plot_draw(kind, runs, n, a->term, a->script, f, err, errlen);
	if (fflush(f) || fsync(fileno(f)))
		rc = rc ? rc : (ptb_errf(err, errlen, "%s: %s", path, strerror(errno)), -1);
	if (fclose(f) && !rc)
		rc = (ptb_errf(err, errlen, "%s: %s", path, strerror(errno)), -1);
	if (!rc && rename(tmp, path))
		rc = (ptb_errf(err, errlen, "%s: %s", path, strerror(errno)), -1);
	if (rc)
		unlink(tmp);
	ptb_cleanup_forget(handle);
	return rc;
}

static int plot(struct ptb_runfile **runs, size_t n, struct plot_args *a)
{
	char err[1024], kinds[128], out[64];
	const char *kind = a->kind ? a->kind : a->flow ? "flow" : a->profile ? "profile"
			   : ptb_plot_default_kind(runs, n);
	int rc;
	if (!kind) {
		kind_list(kinds, sizeof kinds);
		return ptb_bad_input("plot", "the files hold the data of no plot (%s)", kinds);
	}
	if (a->script && (rc = script_dir(a->script)))   /* made once the input is known good */
		return rc;
	if (!a->out)
		snprintf(out, sizeof out, "%s.svg", kind);
	if (a->out && !strcmp(a->out, "-") && a->flow)
		rc = ptb_plot_draw_flow(kind, a->flow, a->term, a->script, stdout, err, sizeof err);
	else if (a->out && !strcmp(a->out, "-") && a->profile)
		rc = ptb_plot_draw_profile(kind, a->profile, a->term, a->script, stdout, err,
					   sizeof err);
	else if (a->out && !strcmp(a->out, "-"))
		rc = ptb_plot_draw(kind, runs, n, a->term, a->script, stdout, err, sizeof err);
	else
		rc = draw_to(a->out ? a->out : out, kind, runs, n, a, err, sizeof err);
	if (rc && a->script && (a->flow ? ptb_plot_write_flow(kind, a->flow, a->term, a->script,
							      NULL, 0)
				: a->profile ? ptb_plot_write_profile(kind, a->profile, a->term,
								      a->script, NULL, 0)
				 : ptb_plot_write(kind, runs, n, a->term, a->script, NULL, 0)) == 0)
		ptb_appendf(err, sizeof err, "; the data and script are in %s", a->script);
	if (rc)
		return ptb_bad_input("plot", "%s", err);
	if (!a->out)
		fprintf(stderr, "ptbench plot: wrote %s\n", out);
	return 0;
}

/* A trace, replayed on --cpus CPUs and drawn as a flow kind. */
static int plot_trace(const char *path, struct plot_args *a)
{
	struct ptb_flow f;
	char err[512];
	if (a->kind && !trace_kind(a->kind))
		return ptb_bad_input("plot", "%s is a trace: --kind flow or parallelism", path);
	if (ptb_trace_flow(path, a->cpus ? a->cpus : 2, &f, err, sizeof err))
		return ptb_bad_input("plot", "%s", err);
	a->flow = &f;
	int rc = plot(NULL, 0, a);
	ptb_flow_free(&f);
	return rc;
}

/* A profile's document, drawn as --kind profile. */
static int plot_profile(const char *path, struct plot_args *a)
{
	char err[512];
	json_t *doc;
	if (a->kind && !profile_kind(a->kind))
		return ptb_bad_input("plot", "%s is a profile: --kind profile", path);
	if (a->cpus)
		return ptb_bad_input("plot", "--cpus is for a trace (--kind flow or parallelism)");
	if (!(doc = ptb_profile_load(path, err, sizeof err)))
		return ptb_bad_input("plot", "%s", err);
	a->profile = doc;
	int rc = plot(NULL, 0, a);
	json_decref(doc);
	return rc;
}

int ptb_cmd_plot(int argc, char **argv)
{
	struct plot_args a = { NULL, NULL, NULL, PTB_PLOT_SVG, 0, NULL, NULL };
	struct ptb_runfile **runs;
	char err[512];
	int first, rc;
	size_t n = 0;
	rc = ptb_options("plot", argc, argv, ":ho:", plot_options, usage, plot_option, &a, &first);
	if (rc)
		return rc < 0 ? 0 : rc;
	if (first >= argc)
		return ptb_bad_input("plot", "which files? (ptbench plot FILE...)");
	if (argc - first == 1 && ptb_is_trace_file(argv[first]))
		return plot_trace(argv[first], &a);
	if (argc - first == 1 && (profile_kind(a.kind) || ptb_profile_is_file(argv[first])))
		return plot_profile(argv[first], &a);
	if (profile_kind(a.kind))
		return ptb_bad_input("plot", "--kind profile draws one profile of 'ptbench profile'");
	if (trace_kind(a.kind) && argc - first > 1)
		return ptb_bad_input("plot", "--kind %s draws one trace of 'ptbench record' (got %d "
				     "files)", a.kind, argc - first);
	if (trace_kind(a.kind))
		return ptb_bad_input("plot", "--kind %s draws one trace of 'ptbench record'; %s is not "
				     "one", a.kind, argv[first]);
	if (a.cpus)
		return ptb_bad_input("plot", "--cpus is for a trace (--kind flow or parallelism)");
	if (!(runs = calloc((size_t)(argc - first), sizeof *runs)))
		return ptb_bad_input("plot", "out of memory");
	for (; first + (int)n < argc; n++)
		if (!(runs[n] = ptb_runfile_load(argv[first + n], err, sizeof err))) {
			rc = ptb_bad_input("plot", "%s", err);
			break;
		}
	if (!rc)
		rc = plot(runs, n, &a);
	for (size_t i = 0; i < n; i++)
		ptb_runfile_free(runs[i]);
	free(runs);
	return rc;
}
