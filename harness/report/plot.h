/* SPDX-License-Identifier: MIT */
/*
 * Pictures of result files, drawn by gnuplot: ptbench writes the data and a
 * gnuplot script for a kind of plot (the Table-1 rows as bars, each point's
 * trials, the c2c matrix as a heat map, cache latency over size, contention
 * over thread count; of a trace's simulated run, each thread over time
 * and the running and ready threads; of a profile, each object's misses
 * per thread and its true and false sharing) and runs gnuplot on them.  gnuplot is an optional
 * run-time dependency: without it these functions say so and draw nothing.
 * Used by `ptbench plot` and by the HTML report, which embeds the SVG.
 */
#ifndef PTB_REPORT_PLOT_H
#define PTB_REPORT_PLOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "record/model.h"
#include "report/flow.h"

/* The kinds, in the order a default `ptbench plot` tries them;
 * NULL-terminated. */
extern const char *const ptb_plot_kinds[];

/* gnuplot found on PATH. */
bool ptb_plot_available(void);

/* Draw plot KIND ("table", "trials", "c2c", "cache", "scaling") of the
 * NRUNS loaded run files as SVG text on OUT.  Returns 0 drawn, 1 when the
 * files lack the kind's data (a one-line reason in ERR), -1 on failure
 * (gnuplot missing or failing: reason in ERR). */
int ptb_plot_svg(const char *kind, struct ptb_runfile *const *runs, size_t nruns, FILE *out,
		 char *err, size_t errlen);

/* What gnuplot is asked to draw: the terminal the script sets. */
enum ptb_plot_term { PTB_PLOT_SVG, PTB_PLOT_PNG };

/* The first kind whose data the files hold, or NULL when none. */
const char *ptb_plot_default_kind(struct ptb_runfile *const *runs, size_t nruns);

/* Write KIND.dat and KIND.gp (the data and the gnuplot script that draws
 * them, run in that folder) into the folder DIR, without gnuplot.  Return
 * values as ptb_plot_svg's. */
int ptb_plot_write(const char *kind, struct ptb_runfile *const *runs, size_t nruns,
		   enum ptb_plot_term term, const char *dir, char *err, size_t errlen);

/* Draw as ptb_plot_svg does, in TERM's format; when KEEP_DIR is not NULL
 * the data and script are also left there (ptb_plot_write). */
int ptb_plot_draw(const char *kind, struct ptb_runfile *const *runs, size_t nruns,
		  enum ptb_plot_term term, const char *keep_dir, FILE *out, char *err,
		  size_t errlen);

/* ptb_plot_write and ptb_plot_draw for the kinds of a simulated run
 * ("flow", "parallelism"); the kinds of result files find no data in it. */
int ptb_plot_write_flow(const char *kind, const struct ptb_flow *flow, enum ptb_plot_term term,
			const char *dir, char *err, size_t errlen);
int ptb_plot_draw_flow(const char *kind, const struct ptb_flow *flow, enum ptb_plot_term term,
		       const char *keep_dir, FILE *out, char *err, size_t errlen);
/* ptb_plot_write and ptb_plot_draw for the kind of a profile ("profile"):
 * a ptbench-profile/1 document (docs/design.md, "The profiler"). */
int ptb_plot_write_profile(const char *kind, const json_t *profile, enum ptb_plot_term term,
			   const char *dir, char *err, size_t errlen);
int ptb_plot_draw_profile(const char *kind, const json_t *profile, enum ptb_plot_term term,
			  const char *keep_dir, FILE *out, char *err, size_t errlen);
/* ptb_plot_svg of any: each kind finds its data in the files, in flow or
 * in profile (NULL: none), as the report page draws every kind it can. */
int ptb_plot_svg_of(const char *kind, struct ptb_runfile *const *runs, size_t nruns,
		    const struct ptb_flow *flow, const json_t *profile, FILE *out, char *err,
		    size_t errlen);

#endif
