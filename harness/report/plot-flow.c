/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot TRACE --kind flow [--cpus N]`: each thread of a simulated
 * run over time, one row each (thread 0 on top), coloured by what it does:
 * running, ready (runnable while more threads can run than there are
 * CPUs: they share them, each running N/runnable of the time), blocked
 * (waiting for another thread) or sleeping (a delay of its own); an arrow
 * from the thread that released a wait to the one it woke.
 *
 * The file stays small whatever the trace: each row is cut into at most
 * COLUMNS columns of equal time, each column takes the state that held
 * most of it, and a run of equal columns is one segment -- so a row has at
 * most COLUMNS segments, and slices shorter than a column merge into their
 * neighbours.  Only waits of at least a column get an arrow, at most
 * MAX_ARROWS of them (every k-th when there are more; the title says so).
 *
 * The data file: blocks 0-3 the segments of each state (row, from, to),
 * block 4 the arrows (time, from row, to row); times in ms, or s when the
 * run takes 10 s or more.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/flow.h"
#include "report/plot-kinds.h"
#include "text/size.h"
#include "text/text.h"

/* Columns of a row: fewer when there are many threads, so that the file
 * holds at most about TOTAL_SEGMENTS segments. */
#define COLUMNS 1000
#define MIN_COLUMNS 50
#define TOTAL_SEGMENTS 50000
#define MAX_ARROWS 500

enum { S_RUN, S_READY, S_BLOCKED, S_SLEEP, S_COUNT };

static const struct {
	const char *title, *color;
} states[S_COUNT] = {
	[S_RUN]     = { "running",                       "#009e73" },
	[S_READY]   = { "ready (sharing the CPUs)",      "#e69f00" },
	[S_BLOCKED] = { "blocked (waiting for a thread)", "#cc79a7" },
	[S_SLEEP]   = { "sleeping (its own delay)",      "#56b4e9" },
};

struct grid {
	const struct ptb_flow *f;
	const struct ptb_flow_step *steps;
	long nsteps;
	int columns;
	double q;                    /* ns per column */
	double (*acc)[S_COUNT];      /* one row's time per column and state */
};

/* Add [from, to) in state s to the row's columns. */
static void add_span(struct grid *g, int s, double from, double to)
{
	if (!(to > from))
		return;
	long k = (long)(from / g->q), last = (long)(to / g->q);
	if (k < 0)
		k = 0;
	if (last >= g->columns)
		last = g->columns - 1;
	for (; k <= last; k++) {
		double a = fmax(from, k * g->q), b = fmin(to, (k + 1) * g->q);
		if (b > a)
			g->acc[k][s] += b - a;
	}
}

/* The last step that began at or before t (binary search), else 0. */
static long step_at(const struct grid *g, double t)
{
	long lo = 0, hi = g->nsteps - 1;
	while (lo < hi) {
		long mid = (lo + hi + 1) / 2;
		if (g->steps[mid].t <= t)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* A runnable stretch [a, b): running, or ready while the CPUs are shared. */
static void add_runnable(struct grid *g, double a, double b)
{
	for (long i = step_at(g, a); a < b && i < g->nsteps; i++) {
		double end = i + 1 < g->nsteps ? fmin(b, g->steps[i + 1].t) : b;
		add_span(g, g->steps[i].runnable > g->f->cpus ? S_READY : S_RUN, a, end);
		a = end;
	}
}

static void fill_row(struct grid *g, const struct ptb_flow_thread *th)
{
	double at = th->born;
	memset(g->acc, 0, (size_t)g->columns * sizeof *g->acc);
	for (size_t j = 0; j < th->n; j++) {
		add_runnable(g, at, th->off[j].from);
		add_span(g, th->off[j].sleep ? S_SLEEP : S_BLOCKED, th->off[j].from, th->off[j].to);
		at = th->off[j].to;
	}
	add_runnable(g, at, th->ended);
}

/* The state of column k: the one that held most of it; -1 when the thread
 * lived less than half of it. */
static int column_state(const struct grid *g, int k)
{
	int best = 0;
	double sum = 0;
	for (int s = 0; s < S_COUNT; s++) {
		sum += g->acc[k][s];
		if (g->acc[k][s] > g->acc[k][best])
			best = s;
	}
	return sum * 2 >= g->q ? best : -1;
}

static double unit_of(const struct ptb_flow *f) { return f->wall_ns >= 1e10 ? 1e9 : 1e6; }

/* Write every row's segments of state s as one block. */
static void segments(struct grid *g, FILE *dat, int s, double unit, int *states_of)
{
	int lines = 0;
	for (int t = 0; t < g->f->nthreads; t++) {
		const int *col = states_of + (size_t)t * (size_t)g->columns;
		for (int k = 0; k < g->columns;) {
			int j = k;
			while (j < g->columns && col[j] == col[k])
				j++;
			if (col[k] == s) {
				fprintf(dat, "%d ", t);
				ptb_gp_num(dat, k * g->q / unit);
				fputc(' ', dat);
				ptb_gp_num(dat, j * g->q / unit);
				fputc('\n', dat);
				lines++;
			}
			k = j;
		}
	}
	ptb_gp_end_block(dat, lines, 3);
}

/* Waits released by another thread that last a column or more. */
static bool arrow(const struct grid *g, int t, const struct ptb_flow_off *o)
{
	return o->by >= 0 && o->by != t && o->by < g->f->nthreads && !o->sleep &&
	       o->to - o->from >= g->q;
}

/* The arrows, every k-th: returns k. */
static long arrows(const struct grid *g, FILE *dat, double unit)
{
	long n = 0, k, i = 0, lines = 0;
	for (int t = 0; t < g->f->nthreads; t++)
		for (size_t j = 0; j < g->f->th[t].n; j++)
			n += arrow(g, t, &g->f->th[t].off[j]);
	k = n > MAX_ARROWS ? (n + MAX_ARROWS - 1) / MAX_ARROWS : 1;
	for (int t = 0; t < g->f->nthreads; t++)
		for (size_t j = 0; j < g->f->th[t].n; j++) {
			const struct ptb_flow_off *o = &g->f->th[t].off[j];
			if (!arrow(g, t, o) || i++ % k)
				continue;
			ptb_gp_num(dat, o->to / unit);
			fprintf(dat, " %d %d\n", o->by, t);
			lines++;
		}
	ptb_gp_end_block(dat, (int)lines, 3);
	return k;
}

static void script(const struct ptb_plot_ctx *c, FILE *gp, long every)
{
	const struct ptb_flow *f = c->flow;
	int n = f->nthreads, height = 140 + 22 * (n < 40 ? n : 40);
	double lw = fmax(1, fmin(14, 360.0 / (n ? n : 1)));
	char title[160];
	ptb_gp_head(gp, c, 900, height, "each thread of a simulated run over time");
	ptb_textf(title, sizeof title, "%s on %d CPU%s: what each thread does%s", f->program,
		  f->cpus, f->cpus == 1 ? "" : "s", every > 1 ? " (one wake-up arrow in " : "");
	if (every > 1)
		ptb_appendf(title, sizeof title, "%ld)", every);
	fputs("set title ", gp);
	ptb_gp_string(gp, title);
	fprintf(gp, "\nset xlabel 'time in the simulated run (%s)'\n",
		unit_of(f) == 1e9 ? "s" : "ms");
	fputs("set xrange [0:*]\n", gp);
	fprintf(gp, "set yrange [%g:%g]\n", n - 0.5, -0.5);
	fputs("set key outside above center horizontal\nset grid xtics lc rgb '#dddddd'\n", gp);
	if (n <= 40) {
		fputs("set ytics scale 0 ()\n", gp);
		for (int t = 0; t < n; t++)
			fprintf(gp, "set ytics add ('thread %d' %d)\n", t, t);
	} else {
		fputs("set ylabel 'thread'\n", gp);
	}
	fputs("plot", gp);
	for (int s = 0; s < S_COUNT; s++)
		fprintf(gp, "%s '%s.dat' index %d using 2:1:($3-$2):(0) with vectors nohead "
			"lw %.3g lc rgb '%s' title '%s'", s ? ", \\\n    " : " ", c->kind, s, lw,
			states[s].color, states[s].title);
	fprintf(gp, ", \\\n    '%s.dat' index %d using 1:2:(0):($3-$2) with vectors head filled "
		"size screen 0.006,20 lw 0.6 lc rgb '#000000' title 'wake-up'\n", c->kind, S_COUNT);
}

int ptb_plot_flow(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	const struct ptb_flow *f = c->flow;
	if (!f || f->nthreads <= 0 || !(f->wall_ns > 0))
		return 1;
	struct grid g = { .f = f };
	g.columns = TOTAL_SEGMENTS / f->nthreads;
	g.columns = g.columns > COLUMNS ? COLUMNS : g.columns < MIN_COLUMNS ? MIN_COLUMNS : g.columns;
	g.q = f->wall_ns / g.columns;
	struct ptb_flow_step *steps = NULL;
	int *col = ptb_array_realloc(NULL, (size_t)f->nthreads * (size_t)g.columns, sizeof *col);
	g.acc = ptb_array_realloc(NULL, (size_t)g.columns, sizeof *g.acc);
	g.nsteps = ptb_flow_steps(f, &steps);
	g.steps = steps;
	if (!col || !g.acc || g.nsteps < 0) {
		free(col), free(g.acc), free(steps);
		return -1;
	}
	for (int t = 0; t < f->nthreads; t++) {
		int *row = col + (size_t)t * (size_t)g.columns;
		if (f->th[t].born < 0) {
			for (int k = 0; k < g.columns; k++)
				row[k] = -1;
			continue;
		}
		fill_row(&g, &f->th[t]);
		for (int k = 0; k < g.columns; k++)
			row[k] = column_state(&g, k);
	}
	double unit = unit_of(f);
	fprintf(dat, "# ptbench plot --kind flow: %s on %d CPUs, %d columns of %.6g ns a row\n",
		f->program, f->cpus, g.columns, g.q);
	for (int s = 0; s < S_COUNT; s++) {
		fprintf(dat, "# block %d: %s (thread, from, to)\n", s, states[s].title);
		segments(&g, dat, s, unit, col);
	}
	fprintf(dat, "# block %d: wake-ups (time, from thread, to thread)\n", S_COUNT);
	long every = arrows(&g, dat, unit);
	script(c, gp, every);
	free(col), free(g.acc), free(steps);
	return 0;
}
