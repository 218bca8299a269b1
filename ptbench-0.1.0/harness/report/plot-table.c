/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot --kind table`: the paper's Table-1 rows (report/rows.c) as
 * grouped horizontal bars, one bar per run in every row, on a log scale of
 * µs, each with its 95 % CI as an error bar; a point the run has but could
 * not measure (na, failed) reads "N/A" where its bar would be, unless the
 * machine lacks its placement (report/absent.h): such a point is left out,
 * and a row of nothing else with it, as the tables do.
 *
 * The data file has one block per run (y, value, CI low, CI high in µs),
 * then one block of the N/A places (y, run).  Row 0 is at the top.  A CI
 * bound below the axis (the drift widening can make the low one negative)
 * is drawn to the axis.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>

#include "ptbench.h"
#include "report/absent.h"
#include "report/plot-kinds.h"

/* Of a row's height, what the bars take together; the rest separates rows. */
#define BAND 0.8

static bool in_table(const struct ptb_record *rec)
{
	const struct ptb_bench *b = ptb_bench_find(rec->bench);
	return !rec->is_derived && b && b->section == PTB_SECTION_PAPER;
}

/* Where run i's bar of row r is drawn. */
static double bar_y(int r, size_t i, size_t n)
{
	return r - BAND / 2 + (i + 0.5) * BAND / n;
}

static void range(const struct ptb_plot_row *rows, int n, size_t nruns, double *from, double *to)
{
	double lo = INFINITY, hi = 0;
	for (int r = 0; r < n; r++)
		for (size_t i = 0; i < nruns; i++) {
			const struct ptb_record *rec = rows[r].rec[i];
			if (!rec || !rec->has_value)
				continue;
			double v[3] = { rec->value, rec->ci_lo, rec->ci_hi };
			for (int k = 0; k < 3; k++)
				if (v[k] > 0 && isfinite(v[k])) {
					lo = fmin(lo, v[k] / 1e3);
					hi = fmax(hi, v[k] / 1e3);
				}
		}
	ptb_gp_log_range(lo, hi, from, to);
}

static double clamp(double us, double from)
{
	return isfinite(us) && us < from ? from : us;
}

/* Whether run i has a figure in some row. */
static bool has_bars(const struct ptb_plot_row *rows, int n, size_t i)
{
	for (int r = 0; r < n; r++)
		if (rows[r].rec[i] && rows[r].rec[i]->has_value)
			return true;
	return false;
}

static void data(FILE *dat, const struct ptb_plot_ctx *c, const struct ptb_plot_row *rows,
		 int n, double from)
{
	int lines;
	for (size_t i = 0; i < c->nruns; i++) {
		fprintf(dat, "# run %zu: y, value, CI low, CI high (us)\n", i + 1);
		lines = 0;
		for (int r = 0; r < n; r++) {
			const struct ptb_record *rec = rows[r].rec[i];
			if (!rec || !rec->has_value)
				continue;
			fprintf(dat, "%.4f ", bar_y(r, i, c->nruns));
			ptb_gp_num(dat, rec->value / 1e3);
			fputc(' ', dat);
			ptb_gp_num(dat, clamp(rec->ci_lo / 1e3, from));
			fputc(' ', dat);
			ptb_gp_num(dat, clamp(rec->ci_hi / 1e3, from));
			fputc('\n', dat);
			lines++;
		}
		ptb_gp_end_block(dat, lines, 4);
	}
	fputs("# N/A: y, run\n", dat);
	lines = 0;
	for (int r = 0; r < n; r++)
		for (size_t i = 0; i < c->nruns; i++)
			if (rows[r].rec[i] && !rows[r].rec[i]->has_value) {
				fprintf(dat, "%.4f %zu\n", bar_y(r, i, c->nruns), i + 1);
				lines++;
			}
	ptb_gp_end_block(dat, lines, 2);
}

static void script(FILE *gp, const struct ptb_plot_ctx *c, const struct ptb_plot_row *rows,
		   int n, double from, double to)
{
	double h = BAND / c->nruns / 2 * 0.85;
	int per_row = c->nruns < 2 ? 22 : 12 * (int)c->nruns;
	ptb_gp_head(gp, c, 960, 140 + n * per_row, "the Table-1 rows, one bar per run");
	ptb_plot_row_axes(gp, rows, n, c->nruns, from, to, "µs (log scale); error bars: the 95 % CI");
	fputs("plot \\\n", gp);
	for (size_t i = 0; i < c->nruns; i++) {
		if (!has_bars(rows, n, i))
			continue;   /* a run without a Table-1 figure has no bar to name */
		fprintf(gp, "  '%s.dat' index %zu using (%g):1:(%g):2:($1-%.4f):($1+%.4f) "
			"with boxxyerror fs solid 0.8 noborder lc rgb '%s' title ", c->kind, i, from,
			from, h, h, ptb_gp_color(i));
		ptb_gp_string(gp, c->names[i]);
		fprintf(gp, ", \\\n  '%s.dat' index %zu using 2:1:3:4 with xerrorbars pt -1 "
			"lc rgb '#333333' notitle, \\\n", c->kind, i);
	}
	fprintf(gp, "  '%s.dat' index %zu using (%g):1:('N/A') with labels left offset 0.5,0 "
		"font ',8' notitle\n", c->kind, c->nruns, from);
}

/* Leave out the points at placements their machine lacks, and the rows
 * left empty; the count of rows kept. */
static int fold_absent(const struct ptb_plot_ctx *c, struct ptb_plot_row *rows, int n)
{
	int kept = 0;
	for (int r = 0; r < n; r++) {
		bool any = false;
		for (size_t i = 0; i < c->nruns; i++) {
			if (rows[r].rec[i] && ptb_absent_placement(c->runs[i], rows[r].rec[i]) >= 0)
				rows[r].rec[i] = NULL;
			any |= rows[r].rec[i] != NULL;
		}
		if (any)
			rows[kept++] = rows[r];
		else
			free(rows[r].rec);
	}
	return kept;
}

int ptb_plot_table(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	struct ptb_plot_row *rows;
	double from, to;
	int n = ptb_plot_rows(c, in_table, &rows);
	if (n > 0 && (n = fold_absent(c, rows, n)) == 0)
		free(rows);
	if (n <= 0)
		return n < 0 ? -1 : 1;
	range(rows, n, c->nruns, &from, &to);
	data(dat, c, rows, n, from);
	script(gp, c, rows, n, from, to);
	ptb_plot_rows_free(rows, n);
	return 0;
}
