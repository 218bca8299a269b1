/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot --kind trials`: every point's trials as a strip of dots,
 * one strip per run in the point's row, with the point's figure as a
 * stroke across it -- so that a wide or two-humped point shows at once.
 * Points are in table order (report/rows.c), every measured benchmark's,
 * on a log scale of µs.  A ptbench/1 file has no trials: its strip is the
 * timings of the point's one measurement, and its legend says so.
 *
 * The data file has two blocks per run: the dots (y, µs) -- spread over
 * five lanes of the strip in turn so that equal values stay visible --
 * and the strokes (y, µs).
 */
#include <config.h>

#include <math.h>

#include "report/plot-kinds.h"

#define BAND 0.8
#define LANES 5

static bool has_samples(const struct ptb_record *rec)
{
	return !rec->is_derived && rec->has_value && rec->nsamples > 0;
}

static double strip_y(int r, size_t i, size_t n)
{
	return r - BAND / 2 + (i + 0.5) * BAND / n;
}

static void range(const struct ptb_plot_row *rows, int n, size_t nruns, double *from, double *to)
{
	double lo = INFINITY, hi = 0;
	for (int r = 0; r < n; r++)
		for (size_t i = 0; i < nruns; i++)
			for (int k = 0; rows[r].rec[i] && k < rows[r].rec[i]->nsamples; k++) {
				double us = rows[r].rec[i]->samples[k] / 1e3;
				if (us > 0 && isfinite(us)) {
					lo = fmin(lo, us);
					hi = fmax(hi, us);
				}
			}
	ptb_gp_log_range(lo, hi, from, to);
}

static void data(FILE *dat, const struct ptb_plot_ctx *c, const struct ptb_plot_row *rows,
		 int n)
{
	double lane = BAND / c->nruns / (LANES + 1);
	int lines;
	for (size_t i = 0; i < c->nruns; i++) {
		fprintf(dat, "# run %zu: trials: y, us\n", i + 1);
		lines = 0;
		for (int r = 0; r < n; r++)
			for (int k = 0; rows[r].rec[i] && k < rows[r].rec[i]->nsamples; k++) {
				fprintf(dat, "%.4f ",
					strip_y(r, i, c->nruns) + (k % LANES - LANES / 2) * lane);
				ptb_gp_num(dat, rows[r].rec[i]->samples[k] / 1e3);
				fputc('\n', dat);
				lines++;
			}
		ptb_gp_end_block(dat, lines, 2);
		fprintf(dat, "# run %zu: the points' figures: y, us\n", i + 1);
		lines = 0;
		for (int r = 0; r < n; r++)
			if (rows[r].rec[i]) {
				fprintf(dat, "%.4f ", strip_y(r, i, c->nruns));
				ptb_gp_num(dat, rows[r].rec[i]->value / 1e3);
				fputc('\n', dat);
				lines++;
			}
		ptb_gp_end_block(dat, lines, 2);
	}
}

/* Whether run i has a point in some row. */
static bool has_strips(const struct ptb_plot_row *rows, int n, size_t i)
{
	for (int r = 0; r < n; r++)
		if (rows[r].rec[i])
			return true;
	return false;
}

/* Whether every record of run i holds per-timing values, not trials. */
static bool timings_only(const struct ptb_plot_row *rows, int n, size_t i)
{
	for (int r = 0; r < n; r++)
		if (rows[r].rec[i] && rows[r].rec[i]->samples_are_trials)
			return false;
	return true;
}

static void script(FILE *gp, const struct ptb_plot_ctx *c, const struct ptb_plot_row *rows,
		   int n, double from, double to)
{
	char name[256];
	double h = BAND / c->nruns / 2;
	int per_row = c->nruns < 2 ? 22 : 14 * (int)c->nruns;
	ptb_gp_head(gp, c, 960, 140 + n * per_row, "each point's trials, one strip per run");
	ptb_plot_row_axes(gp, rows, n, c->nruns, from, to, "µs (log scale); dots: trials; stroke: the point''s figure");
	fputs("plot \\\n", gp);
	const char *sep = "";
	for (size_t i = 0; i < c->nruns; i++) {
		if (!has_strips(rows, n, i))
			continue;
		snprintf(name, sizeof name, "%s%s", c->names[i],
			 timings_only(rows, n, i) ? " (timings of one measurement)" : "");
		fprintf(gp, "%s  '%s.dat' index %zu using 2:1 with points pt 7 ps 0.4 "
			"lc rgb '%s' title ", sep, c->kind, 2 * i, ptb_gp_color(i));
		ptb_gp_string(gp, name);
		fprintf(gp, ", \\\n  '%s.dat' index %zu using 2:($1-%.4f):(0):(%.4f) "
			"with vectors nohead lw 2 lc rgb '#333333' notitle", c->kind, 2 * i + 1,
			h, 2 * h);
		sep = ", \\\n";
	}
	fputc('\n', gp);
}

int ptb_plot_trials(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	struct ptb_plot_row *rows;
	double from, to;
	int n = ptb_plot_rows(c, has_samples, &rows);
	if (n <= 0)
		return n < 0 ? -1 : 1;
	range(rows, n, c->nruns, &from, &to);
	data(dat, c, rows, n);
	script(gp, c, rows, n, from, to);
	ptb_plot_rows_free(rows, n);
	return 0;
}
