/* SPDX-License-Identifier: MIT */
/*
 * The kinds of `ptbench plot` (report/plot.h), one module each: each
 * finds its data in the run files, writes it as a gnuplot data file and
 * writes the script that draws it.  Text read from a file (a host, a row's
 * label) reaches the script only through ptb_gp_string, so a file cannot
 * inject gnuplot commands.  The helpers every kind shares live in
 * plot-kinds.c.
 */
#ifndef PTB_REPORT_PLOT_KINDS_H
#define PTB_REPORT_PLOT_KINDS_H

#include <stdbool.h>
#include <stdio.h>

#include "record/model.h"
#include "report/flow.h"
#include "report/plot.h"
#include "report/rows.h"

struct ptb_plot_ctx {
	struct ptb_runfile *const *runs;
	size_t nruns;
	const char *kind;               /* the files are KIND.dat and KIND.gp */
	enum ptb_plot_term term;
	char (*names)[96];              /* per run: what its bars and curves are called */
	const struct ptb_flow *flow;    /* a simulated run (flow, parallelism); NULL */
	const json_t *profile;          /* a ptbench-profile/1 document (profile); NULL */
};

/* Write the data on dat and the script on gp: 0; 1 when the files hold
 * none of the kind's data (nothing written); -1 out of memory. */
typedef int ptb_plot_fn(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp);

ptb_plot_fn ptb_plot_table, ptb_plot_trials, ptb_plot_c2c, ptb_plot_cache, ptb_plot_scaling,
	ptb_plot_flow, ptb_plot_parallelism, ptb_plot_profile;

/* A kind: its name, what the files lack when they cannot give it, and
 * its writer.  The table is in plot-kinds.c, in ptb_plot_kinds' order. */
struct ptb_plot_kind {
	const char *name;
	const char *lacking;
	ptb_plot_fn *write;
};
/* NULL when there is no such kind. */
const struct ptb_plot_kind *ptb_plot_kind_find(const char *name);

/* ---- shared by the kinds (plot-kinds.c) ---------------------------------- */

/* A Table-1 row and each run's record in it (NULL: the run has none). */
struct ptb_plot_row {
	struct ptb_row row;
	const struct ptb_record **rec;
};
/* The rows of the records `take` accepts, in table order; their count
 * (*out malloc'd), or -1 out of memory.  A point twice in a file keeps its
 * first record. */
int ptb_plot_rows(const struct ptb_plot_ctx *c, bool (*take)(const struct ptb_record *),
		  struct ptb_plot_row **out);
void ptb_plot_rows_free(struct ptb_plot_row *rows, int n);
/* "Group: label", or the label of a row without a group. */
void ptb_plot_row_name(const struct ptb_plot_row *r, char *buf, size_t len);
/* The axes of a plot of rows (table, trials): log x over [from, to] in
 * µs with its label, one y tic per row named by it, row 0 at the top, and
 * the key of nruns entries in one column above. */
void ptb_plot_row_axes(FILE *gp, const struct ptb_plot_row *rows, int n, size_t nruns,
		       double from, double to, const char *xlabel);

/* s as a double-quoted gnuplot string in which each character gnuplot
 * could read as more than itself -- the quotes, the backslash, the
 * backquote of its command substitution, the @ of its macros, '$' -- is
 * an octal escape, and a control character is '?'.  (Single quotes would
 * not do: gnuplot reads '''a' as '' followed by 'a'.) */
void ptb_gp_string(FILE *gp, const char *s);
/* The script's head: what it draws, how to run it, the terminal. */
void ptb_gp_head(FILE *gp, const struct ptb_plot_ctx *c, int width, int height,
		 const char *what);
/* Powers of ten around [lo, hi] (lo > 0), for a log axis. */
void ptb_gp_log_range(double lo, double hi, double *from, double *to);
/* A figure for the data file: "%.6g", "NaN" when not finite. */
void ptb_gp_num(FILE *dat, double v);
/* End a block of the data file begun with `lines` lines of data: an
 * empty one gets a line of ncols NaNs, so that gnuplot does not merge it
 * with the next and every `index` stays the block it names. */
void ptb_gp_end_block(FILE *dat, int lines, int ncols);
/* Sizes in bytes as people read them: "32 KiB", "1.5 MiB". */
void ptb_gp_bytes(char *buf, size_t len, double bytes);
/* Line colours by index, the same in every kind. */
const char *ptb_gp_color(size_t i);

#endif
