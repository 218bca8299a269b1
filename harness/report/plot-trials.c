/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot --kind trials`: every point's trials as a strip of dots,
 * one strip per run in the point's row, with the point's figure as a
 * stroke across it -- so that a wide or two-humped point shows at once.
 * Points are in table order (report/rows.c), every measured benchmark's,
 * on a log scale of µs, in one panel per family (the benchmark name's part
 * before the dot: mutex, cond, cache, ...), each with its own range, so
 * that a whole suite is a column of readable panels rather than one strip
 * of a hundred rows.  A ptbench/1 file has no trials: its strip is the
 * timings of the point's one measurement, and its legend says so.
 *
 * The data file has two blocks per panel and run, panel by panel: the
 * dots (y, µs) -- spread over five lanes of the strip in turn so that
 * equal values stay visible -- and the strokes (y, µs); y counts the
 * panel's rows from 0.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot-kinds.h"

#define BAND 0.8
#define LANES 5
#define PANEL_PX 56      /* a panel's title, x tics and gaps */
#define LABEL_PX 150     /* the x label under the last panel */

/* A panel: the rows [first, first + n) of the rows sorted by family. */
struct panel {
	int first, n;
	double from, to;
};

static bool has_samples(const struct ptb_record *rec)
{
	return !rec->is_derived && rec->has_value && rec->nsamples > 0;
}

static double strip_y(int r, size_t i, size_t n)
{
	return r - BAND / 2 + (i + 0.5) * BAND / n;
}

/* The family of a row: its first record's benchmark up to the dot. */
static void family(const struct ptb_plot_row *row, size_t nruns, char *buf, size_t len)
{
	const char *bench = "?";
	for (size_t i = 0; i < nruns; i++)
		if (row->rec[i] && row->rec[i]->bench) {
			bench = row->rec[i]->bench;
			break;
		}
	snprintf(buf, len, "%.*s", (int)strcspn(bench, "."), bench);
}

/* Rows regrouped by family, the families in the order they first appear
 * and each family's rows in table order; the panels' count, or -1. */
static int by_family(const struct ptb_plot_ctx *c, struct ptb_plot_row *rows, int n,
		     struct panel **out)
{
	struct ptb_plot_row *sorted = malloc(((size_t)n + 1) * sizeof *sorted);
	struct panel *p = calloc((size_t)n + 1, sizeof *p);
	bool *used = calloc((size_t)n + 1, sizeof *used);
	char a[64], b[64];
	int np = 0, k = 0;
	if (!sorted || !p || !used) {
		free(sorted);
		free(p);
		free(used);
		return -1;
	}
	for (int r = 0; r < n; r++) {
		if (used[r])
			continue;
		family(&rows[r], c->nruns, a, sizeof a);
		p[np].first = k;
		for (int s = r; s < n; s++) {
			family(&rows[s], c->nruns, b, sizeof b);
			if (!used[s] && !strcmp(a, b)) {
				sorted[k++] = rows[s];
				used[s] = true;
			}
		}
		p[np].n = k - p[np].first;
		np++;
	}
	memcpy(rows, sorted, (size_t)n * sizeof *rows);
	free(sorted);
	free(used);
	*out = p;
	return np;
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
		 const struct panel *p)
{
	double lane = BAND / c->nruns / (LANES + 1);
	int lines;
	for (size_t i = 0; i < c->nruns; i++) {
		fprintf(dat, "# panel of row %d, run %zu: trials: y, us\n", p->first + 1, i + 1);
		lines = 0;
		for (int r = 0; r < p->n; r++) {
			const struct ptb_record *rec = rows[p->first + r].rec[i];
			for (int k = 0; rec && k < rec->nsamples; k++) {
				fprintf(dat, "%.4f ",
					strip_y(r, i, c->nruns) + (k % LANES - LANES / 2) * lane);
				ptb_gp_num(dat, rec->samples[k] / 1e3);
				fputc('\n', dat);
				lines++;
			}
		}
		ptb_gp_end_block(dat, lines, 2);
		fprintf(dat, "# panel of row %d, run %zu: the points' figures: y, us\n",
			p->first + 1, i + 1);
		lines = 0;
		for (int r = 0; r < p->n; r++)
			if (rows[p->first + r].rec[i]) {
				fprintf(dat, "%.4f ", strip_y(r, i, c->nruns));
				ptb_gp_num(dat, rows[p->first + r].rec[i]->value / 1e3);
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

/* The widest row name, in characters, for one left margin in every panel
 * so that the panels' plots line up. */
static int widest_name(const struct ptb_plot_row *rows, int n)
{
	char name[256];
	int w = 10;
	for (int r = 0; r < n; r++) {
		ptb_plot_row_name(&rows[r], name, sizeof name);
		w = (int)strlen(name) > w ? (int)strlen(name) : w;
	}
	return w;
}

/* One panel: its place on the page, its axes, its strips; the key (every
 * run's name) in the first panel only. */
static void panel_script(FILE *gp, const struct ptb_plot_ctx *c, const struct ptb_plot_row *rows,
			 int nrows, const struct panel *p, int idx, bool last, double y, double h)
{
	char name[256], title[64];
	double half = BAND / c->nruns / 2;
	fprintf(gp, "\n# panel %d\nset origin 0,%.5f\nset size 1,%.5f\n", idx + 1, y, h);
	ptb_plot_row_axes(gp, rows + p->first, p->n, c->nruns, p->from, p->to,
			  "µs (log scale); dots: trials; stroke: the point''s figure");
	if (idx > 0)
		fputs("unset key\nset tmargin 2\n", gp);
	else   /* the key above the first panel's title */
		fprintf(gp, "set tmargin %zu\n", 3 + c->nruns);
	if (!last)
		fputs("unset xlabel\n", gp);
	family(&rows[p->first], c->nruns, title, sizeof title);
	fputs("set title ", gp);
	ptb_gp_string(gp, title);
	fputs(" font ',10'\nplot \\\n", gp);
	const char *sep = "";
	for (size_t i = 0; i < c->nruns; i++) {
		size_t block = 2 * ((size_t)idx * c->nruns + i);
		if (!has_strips(rows, nrows, i))
			continue;
		snprintf(name, sizeof name, "%s%s", c->names[i],
			 timings_only(rows, nrows, i) ? " (timings of one measurement)" : "");
		/* the key's entry of a run: drawn by a curve of no points, as a
		 * run without rows in the first panel would otherwise miss it */
		if (idx == 0) {
			fprintf(gp, "%s  NaN with points pt 7 ps 0.4 lc rgb '%s' title ", sep,
				ptb_gp_color(i));
			ptb_gp_string(gp, name);
			sep = ", \\\n";
		}
		fprintf(gp, "%s  '%s.dat' index %zu using 2:1 with points pt 7 ps 0.4 "
			"lc rgb '%s' notitle", sep, c->kind, block, ptb_gp_color(i));
		fprintf(gp, ", \\\n  '%s.dat' index %zu using 2:($1-%.4f):(0):(%.4f) "
			"with vectors nohead lw 2 lc rgb '#333333' notitle", c->kind, block + 1,
			half, 2 * half);
		sep = ", \\\n";
	}
	fputc('\n', gp);
}

static void script(FILE *gp, const struct ptb_plot_ctx *c, const struct ptb_plot_row *rows,
		   int n, const struct panel *p, int np)
{
	int per_row = c->nruns < 2 ? 22 : 14 * (int)c->nruns;
	int key_px = 30 + 16 * (int)c->nruns, height = key_px + LABEL_PX / 3;
	for (int k = 0; k < np; k++)
		height += PANEL_PX + p[k].n * per_row;
	ptb_gp_head(gp, c, 960, height, "each point's trials, one strip per run, a panel per family");
	/* the tics' font is 9 of the default 11: a character of a name is
	 * about 0.8 of the margin's unit */
	fprintf(gp, "set lmargin %d\nset multiplot\n", 3 + widest_name(rows, n) * 8 / 10);
	for (int k = 0, top = 0; k < np; k++) {
		int px = PANEL_PX + p[k].n * per_row + (k == 0 ? key_px : 0) +
			 (k == np - 1 ? LABEL_PX / 3 : 0);
		panel_script(gp, c, rows, n, &p[k], k, k == np - 1,
			     (double)(height - top - px) / height, (double)px / height);
		top += px;
	}
	fputs("unset multiplot\n", gp);
}

int ptb_plot_trials(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	struct ptb_plot_row *rows;
	struct panel *p;
	int n = ptb_plot_rows(c, has_samples, &rows), np;
	if (n <= 0)
		return n < 0 ? -1 : 1;
	if ((np = by_family(c, rows, n, &p)) < 0) {
		ptb_plot_rows_free(rows, n);
		return -1;
	}
	for (int k = 0; k < np; k++) {
		range(rows + p[k].first, p[k].n, c->nruns, &p[k].from, &p[k].to);
		data(dat, c, rows, &p[k]);
	}
	script(gp, c, rows, n, p, np);
	free(p);
	ptb_plot_rows_free(rows, n);
	return 0;
}
