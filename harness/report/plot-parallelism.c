/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot TRACE --kind parallelism [--cpus N]`: how many threads of
 * a simulated run are running and how many are ready (runnable, but every
 * CPU is taken) over time, stacked, with the machine's N CPUs as a line.
 * The curve is exact, a step at each change, up to MAX_STEPS changes;
 * beyond that the run is cut into BINS equal bins, each drawn at the mean
 * over its time (the title says so), so the file stays small.
 *
 * The data file: (time, running, ready), times in ms, or s when the run
 * takes 10 s or more.
 */
#include <config.h>

#include <stdlib.h>

#include "report/flow.h"
#include "report/plot-kinds.h"
#include "text/text.h"

#define MAX_STEPS 4000
#define BINS 1000

static void point(FILE *dat, double t, double running, double ready)
{
	ptb_gp_num(dat, t);
	fputc(' ', dat);
	ptb_gp_num(dat, running);
	fputc(' ', dat);
	ptb_gp_num(dat, ready);
	fputc('\n', dat);
}

static double running_of(int runnable, int cpus) { return runnable < cpus ? runnable : cpus; }

static void exact(const struct ptb_flow *f, const struct ptb_flow_step *s, long n, FILE *dat,
		  double unit)
{
	for (long i = 0; i < n; i++) {
		double run = running_of(s[i].runnable, f->cpus);
		point(dat, s[i].t / unit, run, s[i].runnable - run);
	}
}

/* The time-weighted mean of running and ready in each of BINS bins. */
static void binned(const struct ptb_flow *f, const struct ptb_flow_step *s, long n, FILE *dat,
		   double unit)
{
	double q = f->wall_ns / BINS;
	long i = 0;
	for (int b = 0; b < BINS; b++) {
		double lo = b * q, hi = (b + 1) * q, run = 0, ready = 0;
		for (; i + 1 < n && s[i + 1].t <= lo; i++)
			;
		for (long j = i; j + 1 < n && s[j].t < hi; j++) {
			double a = s[j].t > lo ? s[j].t : lo, e = s[j + 1].t < hi ? s[j + 1].t : hi;
			double r = running_of(s[j].runnable, f->cpus);
			if (e > a)
				run += r * (e - a), ready += (s[j].runnable - r) * (e - a);
		}
		point(dat, lo / unit, run / q, ready / q);
	}
	point(dat, f->wall_ns / unit, 0, 0);
}

int ptb_plot_parallelism(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	const struct ptb_flow *f = c->flow;
	struct ptb_flow_step *s;
	if (!f || f->nthreads <= 0 || !(f->wall_ns > 0))
		return 1;
	long n = ptb_flow_steps(f, &s);
	if (n < 0)
		return -1;
	double unit = f->wall_ns >= 1e10 ? 1e9 : 1e6;
	bool bin = n > MAX_STEPS;
	char title[160];
	fprintf(dat, "# ptbench plot --kind parallelism: %s on %d CPUs (time, running, ready)%s\n",
		f->program, f->cpus, bin ? ", means over equal bins" : "");
	(bin ? binned : exact)(f, s, n, dat, unit);
	free(s);
	ptb_gp_head(gp, c, 900, 420, "running and ready threads of a simulated run over time");
	ptb_textf(title, sizeof title, "%s on %d CPU%s: running and ready threads%s", f->program,
		  f->cpus, f->cpus == 1 ? "" : "s", bin ? " (means over 1000 bins)" : "");
	fputs("set title ", gp);
	ptb_gp_string(gp, title);
	fprintf(gp, "\nset xlabel 'time in the simulated run (%s)'\n", unit == 1e9 ? "s" : "ms");
	fputs("set ylabel 'threads'\nset xrange [0:*]\nset yrange [0:*]\n"
	      "set key outside above center horizontal\nset grid lc rgb '#dddddd'\n", gp);
	fprintf(gp, "plot '%s.dat' using 1:($2+$3) with fillsteps fs solid 0.6 noborder "
		"lc rgb '#e69f00' title 'ready', \\\n"
		"    '%s.dat' using 1:2 with fillsteps fs solid 0.8 noborder lc rgb '#009e73' "
		"title 'running', \\\n"
		"    %d with lines dt 2 lw 1.5 lc rgb '#000000' title '%d CPU%s'\n", c->kind, c->kind,
		f->cpus, f->cpus, f->cpus == 1 ? "" : "s");
	return 0;
}
