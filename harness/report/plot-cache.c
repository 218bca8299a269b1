/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot --kind cache`: the load latency over the working set's
 * size -- the curve of the benchmark whose descriptor gives it the latency
 * role of the cache levels (struct ptb_levels_role) -- on log scales, one
 * curve per run, with the levels the derived record found marked by solid
 * lines and the data caches hwloc reported (the run's
 * context.topology.caches) by dashed ones, in the run's colour.
 *
 * The data file has one block per run: (bytes, ns, CI low, CI high),
 * sorted by size.  The marks are in the script.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ptbench.h"
#include "record/levels.h"
#include "report/plot-kinds.h"

struct point {
	double bytes, ns, lo, hi;
};

/* The variable a record's benchmark draws its latency curve over, or NULL. */
static const char *latency_var(const struct ptb_record *rec)
{
	const struct ptb_bench *b = ptb_bench_find(rec->bench);
	return b && b->levels.param == PTB_LEVELS_LATENCY ? b->levels.var : NULL;
}

static int by_size(const void *a, const void *b)
{
	double x = ((const struct point *)a)->bytes, y = ((const struct point *)b)->bytes;
	return (x > y) - (x < y);
}

/* Run i's curve, sorted; its length (*out malloc'd) or -1. */
static int curve(const struct ptb_runfile *run, struct point **out)
{
	struct point *p = calloc(run->n + 1, sizeof *p);
	int n = 0;
	if (!p)
		return -1;
	for (size_t k = 0; k < run->n; k++) {
		const struct ptb_record *rec = &run->rec[k];
		const char *var = rec->has_value ? latency_var(rec) : NULL;
		double size = var ? ptb_param_num(rec, var) : NAN;
		if (size > 0)
			p[n++] = (struct point){ size, rec->value, rec->ci_lo, rec->ci_hi };
	}
	qsort(p, (size_t)n, sizeof *p, by_size);
	*out = p;
	return n;
}

/* A vertical mark at `bytes`: solid for a measured level, dashed for hwloc's. */
static void mark(FILE *gp, double bytes, const char *color, bool measured, const char *text)
{
	fprintf(gp, "set arrow from %g, graph 0 to %g, graph 1 nohead lc rgb '%s' dt %d\n",
		bytes, bytes, color, measured ? 1 : 2);
	fprintf(gp, "set label '%s' at %g, graph %s rotate by 90 right offset -0.5,-0.5 "
		"font ',8' tc rgb '%s'\n", text, bytes, measured ? "1" : "0.35", color);
}

/* The marks of run i; the smallest and largest size marked widen *lo, *hi. */
static void marks(FILE *gp, const struct ptb_runfile *run, size_t i, double *lo, double *hi)
{
	char text[96], size[32];
	const json_t *caches = json_object_get(json_object_get(run->context, "topology"), "caches");
	const json_t *c;
	size_t k;
	for (size_t r = 0; r < run->n; r++) {
		if (!ptb_levels_is_record(&run->rec[r]))
			continue;
		json_array_foreach(json_object_get(run->rec[r].json, "levels"), k, c) {
			double bytes = ptb_jnum(c, "size_bytes");
			if (!(bytes > 0))
				continue;
			ptb_gp_bytes(size, sizeof size, bytes);
			snprintf(text, sizeof text, "L%d measured: %s", (int)ptb_jnum(c, "level"), size);
			mark(gp, bytes, ptb_gp_color(i), true, text);
			*lo = fmin(*lo, bytes);
			*hi = fmax(*hi, bytes);
		}
	}
	json_array_foreach(caches, k, c) {
		double bytes = ptb_jnum(c, "bytes");
		if (!(bytes > 0))
			continue;
		ptb_gp_bytes(size, sizeof size, bytes);
		snprintf(text, sizeof text, "L%d hwloc: %s", (int)ptb_jnum(c, "level"), size);
		mark(gp, bytes, ptb_gp_color(i), false, text);
		*lo = fmin(*lo, bytes);
		*hi = fmax(*hi, bytes);
	}
}

/* Tics at powers of four, labelled as sizes. */
static void size_tics(FILE *gp, double lo, double hi)
{
	char size[32];
	fputs("set xtics (", gp);
	bool first = true;
	for (double b = 1024; b <= hi * 4; b *= 4)
		if (b >= lo / 4) {
			ptb_gp_bytes(size, sizeof size, b);
			fprintf(gp, "%s'%s' %g", first ? "" : ", ", size, b);
			first = false;
		}
	fputs(")\n", gp);
}

static void block(FILE *dat, size_t i, const struct point *p, int n)
{
	fprintf(dat, "# run %zu: bytes, ns, CI low, CI high\n", i + 1);
	for (int k = 0; k < n; k++) {
		fprintf(dat, "%.0f ", p[k].bytes);
		ptb_gp_num(dat, p[k].ns);
		fputc(' ', dat);
		ptb_gp_num(dat, p[k].lo > 0 ? p[k].lo : p[k].ns);
		fputc(' ', dat);
		ptb_gp_num(dat, p[k].hi);
		fputc('\n', dat);
	}
	ptb_gp_end_block(dat, n, 4);
}

int ptb_plot_cache(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	double lo = INFINITY, hi = 0;
	int total = 0, *len = calloc(c->nruns + 1, sizeof *len);
	if (!len)
		return -1;
	ptb_gp_head(gp, c, 960, 560, "load latency over the working set, cache levels marked");
	fputs("set logscale xy\nset xlabel 'working set (log scale)'\n"
	      "set ylabel 'ns per load (log scale)'\nset grid lc rgb '#dddddd'\n"
	      "set key top left\n"
	      "# solid lines: levels found in the curve; dashed: hwloc's data caches\n", gp);
	for (size_t i = 0; i < c->nruns; i++) {
		struct point *p;
		int n = len[i] = curve(c->runs[i], &p);
		if (n < 0) {
			free(len);
			return -1;
		}
		block(dat, i, p, n);
		if (n) {
			lo = fmin(lo, p[0].bytes);
			hi = fmax(hi, p[n - 1].bytes);
			marks(gp, c->runs[i], i, &lo, &hi);
		}
		total += n;
		free(p);
	}
	if (!total) {
		free(len);
		return 1;
	}
	fprintf(gp, "set xrange [%g:%g]\n", lo / 1.5, hi * 1.5);
	size_tics(gp, lo, hi);
	fputs("plot \\\n", gp);
	const char *sep = "";
	for (size_t i = 0; i < c->nruns; i++) {
		if (!len[i])
			continue;
		fprintf(gp, "%s  '%s.dat' index %zu using 1:2:3:4 with yerrorlines pt 7 ps 0.6 "
			"lc rgb '%s' title ", sep, c->kind, i, ptb_gp_color(i));
		ptb_gp_string(gp, c->names[i]);
		sep = ", \\\n";
	}
	fputc('\n', gp);
	free(len);
	return 0;
}
