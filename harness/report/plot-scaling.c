/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot --kind scaling`: the cost of a contended lock or a barrier
 * over the number of threads, compact and spread -- every benchmark whose
 * points vary over a `threads` count and an `order` (PTB_ORDERS), so that
 * a new family of that shape is drawn with no edit here.  One curve per
 * run, benchmark, other variables' values and order; compact solid,
 * spread dashed, a colour per benchmark and run.  Log scales on both axes.
 *
 * The data file has one block per curve: (threads, ns, CI low, CI high),
 * sorted by threads; a CI bound below zero is drawn at the figure.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot-kinds.h"
#include "text/text.h"

#define THREADS "threads"
#define ORDER   "order"

struct point {
	char curve[256];        /* "bench var=value ..., order" */
	char family[224];       /* the curve without its order: its colour */
	bool spread;
	size_t run;
	double threads, ns, lo, hi;
};

static bool on_threads(const struct ptb_record *rec)
{
	return rec->has_value && !rec->is_derived && ptb_jstr(rec->params, THREADS) &&
	       ptb_jstr(rec->params, ORDER);
}

static void name(const struct ptb_record *rec, struct point *p)
{
	const char *var;
	json_t *v;
	ptb_textf(p->family, sizeof p->family, "%s", rec->bench);
	json_object_foreach((json_t *)rec->params, var, v)
		if (strcmp(var, THREADS) && strcmp(var, ORDER))
			ptb_appendf(p->family, sizeof p->family, " %s=%s", var,
				    json_is_string(v) ? json_string_value(v) : "?");
	const char *order = ptb_jstr(rec->params, ORDER);
	ptb_textf(p->curve, sizeof p->curve, "%s, %s", p->family, order);
	p->spread = !strcmp(order, "spread");
}

static int by_curve(const void *a, const void *b)
{
	const struct point *x = a, *y = b;
	int c;
	if (x->run != y->run)
		return x->run < y->run ? -1 : 1;
	if ((c = strverscmp(x->curve, y->curve)))
		return c;
	return (x->threads > y->threads) - (x->threads < y->threads);
}

/* Every point of the shape, sorted by run, curve, threads; n or -1. */
static int collect(const struct ptb_plot_ctx *c, struct point **out)
{
	size_t cap = 1;
	for (size_t i = 0; i < c->nruns; i++)
		cap += c->runs[i]->n;
	struct point *p = calloc(cap, sizeof *p);
	int n = 0;
	if (!p)
		return -1;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i]->n; k++) {
			const struct ptb_record *rec = &c->runs[i]->rec[k];
			double t = on_threads(rec) ? ptb_param_num(rec, THREADS) : 0;
			if (!(t > 0))
				continue;
			name(rec, &p[n]);
			p[n].run = i;
			p[n].threads = t;
			p[n].ns = rec->value;
			p[n].lo = rec->ci_lo > 0 ? rec->ci_lo : rec->value;
			p[n].hi = rec->ci_hi;
			n++;
		}
	qsort(p, (size_t)n, sizeof *p, by_curve);
	*out = p;
	return n;
}

static bool same_curve(const struct point *a, const struct point *b)
{
	return a->run == b->run && !strcmp(a->curve, b->curve);
}

static bool same_family(const struct point *a, const struct point *b)
{
	return a->run == b->run && !strcmp(a->family, b->family);
}

/* Colour of p[k]'s family: how many families come before its first point. */
static size_t family_index(const struct point *p, int k)
{
	size_t before = 0;
	for (int j = 0; j < k; j++) {
		if (same_family(&p[j], &p[k]))
			return before;
		bool seen = false;
		for (int m = 0; m < j && !seen; m++)
			seen = same_family(&p[m], &p[j]);
		before += !seen;
	}
	return before;
}

int ptb_plot_scaling(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	struct point *p;
	char title[400];
	size_t block = 0;
	int n = collect(c, &p);
	if (n <= 0) {
		free(n ? NULL : p);
		return n < 0 ? -1 : 1;
	}
	ptb_gp_head(gp, c, 960, 600, "cost over the number of threads, compact and spread");
	double lo = p[0].threads, hi = p[0].threads;
	for (int k = 1; k < n; k++) {
		lo = p[k].threads < lo ? p[k].threads : lo;
		hi = p[k].threads > hi ? p[k].threads : hi;
	}
	fprintf(gp, "set xrange [%g:%g]\n", lo / 1.5, hi * 1.5);
	fputs("set logscale x 2\nset logscale y\nset xlabel 'threads (one per PU)'\n"
	      "set ylabel 'ns per acquisition or episode (log scale)'\n"
	      "set grid lc rgb '#dddddd'\nset key outside right top\n"
	      "# solid: compact order; dashed: spread\nplot \\\n", gp);
	for (int k = 0; k < n; k++) {
		if (k == 0 || !same_curve(&p[k - 1], &p[k])) {
			if (k)
				fputs("\n\n", dat);
			fprintf(dat, "# curve %zu: threads, ns, CI low, CI high\n", block + 1);
			snprintf(title, sizeof title, "%s%s%s", c->nruns > 1 ? c->names[p[k].run] : "",
				 c->nruns > 1 ? ": " : "", p[k].curve);
			fprintf(gp, "%s  '%s.dat' index %zu using 1:2:3:4 with yerrorlines pt 7 "
				"ps 0.6 dt %d lc rgb '%s' title ", block ? ", \\\n" : "", c->kind,
				block, p[k].spread ? 2 : 1, ptb_gp_color(family_index(p, k)));
			ptb_gp_string(gp, title);
			block++;
		}
		fprintf(dat, "%g ", p[k].threads);
		ptb_gp_num(dat, p[k].ns);
		fputc(' ', dat);
		ptb_gp_num(dat, p[k].lo);
		fputc(' ', dat);
		ptb_gp_num(dat, p[k].hi);
		fputc('\n', dat);
	}
	fputc('\n', gp);
	free(p);
	return 0;
}
