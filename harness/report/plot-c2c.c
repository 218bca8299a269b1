/* SPDX-License-Identifier: MIT */
/*
 * `ptbench plot --kind c2c`: each derived matrix of PU pairs
 * (record/matrix.h) as a heat map, sender across, receiver down, one panel
 * per matrix.  The PUs are in topology order: the placement classes that
 * the matrix's points noted for their pairs group the PUs of one core,
 * then of one package, then of one NUMA node, together -- so that the
 * blocks of near pairs show as squares on the diagonal even where the OS
 * numbers interleave the cores.
 *
 * The data file has one block per matrix: (sender's place, receiver's
 * place, ns) for every pair with a value.
 */
#include <config.h>

#include <stdlib.h>
#include <string.h>

#include "platform/topology.h"
#include "record/matrix.h"
#include "report/plot-kinds.h"
#include "text/size.h"

struct panel {
	size_t run;
	const struct ptb_record *rec;
	int n;
	int *pu;        /* the OS numbers, in topology order */
	int *at;        /* the matrix's index of the PU at each place */
};

/* The matrix index of OS PU `pu` (pus ascending, record/matrix.c), or -1. */
static int index_of(const int *os, int n, int pu)
{
	int lo = 0, hi = n - 1;
	while (lo <= hi) {
		int mid = (lo + hi) / 2;
		if (os[mid] == pu)
			return mid;
		if (os[mid] < pu)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return -1;
}

/* cls[a * n + b]: the nearest placement class the matrix's points noted
 * for the pair a-b in either direction; PTB_PLACEMENT_COUNT when none. */
static void pair_classes(const struct ptb_runfile *run, const char *points, const int *os,
			 int n, int *cls)
{
	for (int i = 0; i < n * n; i++)
		cls[i] = PTB_PLACEMENT_COUNT;
	for (size_t k = 0; points && k < run->n; k++) {
		const struct ptb_record *p = &run->rec[k];
		const json_t *notes = json_object_get(p->json, "notes");
		if (!p->bench || strcmp(p->bench, points) || !notes)
			continue;
		int a = index_of(os, n, ptb_matrix_note_pu(notes, "sender"));
		int b = index_of(os, n, ptb_matrix_note_pu(notes, "receiver"));
		const char *name = ptb_jstr(notes, "class");   /* a point may lack it */
		int c = name ? ptb_placement_from_name(name) : -1;
		if (a < 0 || b < 0 || c < 0)
			continue;
		if (c < cls[a * n + b])
			cls[a * n + b] = cls[b * n + a] = c;
	}
}

/* The topology order of the matrix's PUs: by the first PU of the same
 * NUMA node, then of the same package, then of the same core. */
static int order_pus(struct panel *p, const struct ptb_runfile *run)
{
	static const int levels[] = { PTB_CROSS_PACKAGE, PTB_CROSS_CORE, PTB_SMT };
	const json_t *pus = json_object_get(p->rec->json, "pus");
	const char *points = ptb_jstr(json_object_get(p->rec->json, "inputs"), "points");
	int n = (int)json_array_size(pus), nl = sizeof levels / sizeof *levels;
	long long *key = calloc((size_t)n + 1, sizeof *key);
	size_t nn;
	int *os = calloc((size_t)n + 1, sizeof *os);
	int *cls = ptb_size_mul((size_t)n, (size_t)n, &nn) ? ptb_array_realloc(NULL, nn, sizeof *cls)
							     : NULL;
	p->pu = calloc((size_t)n + 1, sizeof *p->pu);
	p->at = calloc((size_t)n + 1, sizeof *p->at);
	if (!key || !os || !cls || !p->pu || !p->at) {
		free(key);
		free(os);
		free(cls);
		return -1;
	}
	for (int i = 0; i < n; i++)
		os[i] = (int)json_integer_value(json_array_get(pus, i));
	pair_classes(run, points, os, n, cls);
	for (int i = 0; i < n; i++)
		for (int l = 0; l < nl; l++) {
			int rep = i;   /* the first PU (matrix index) as near as the level */
			for (int j = 0; j < i && rep == i; j++)
				if (cls[i * n + j] <= levels[l])
					rep = j;
			key[i] = key[i] * 4096 + rep;
		}
	for (int i = 0; i < n; i++) {   /* insertion sort: stable, n is small */
		int j = i;
		for (; j > 0 && key[p->at[j - 1]] * 4096 + p->at[j - 1] > key[i] * 4096 + i; j--)
			p->at[j] = p->at[j - 1];
		p->at[j] = i;
	}
	for (int i = 0; i < n; i++)
		p->pu[i] = os[p->at[i]];
	p->n = n;
	free(key);
	free(os);
	free(cls);
	return 0;
}

static void data(FILE *dat, const struct panel *p, size_t np)
{
	for (size_t k = 0; k < np; k++) {
		const json_t *m = json_object_get(p[k].rec->json, "matrix");
		fprintf(dat, "# matrix %zu (%s, run %zu): sender place, receiver place, ns\n", k + 1,
			p[k].rec->bench, p[k].run + 1);
		int lines = 0;
		for (int x = 0; x < p[k].n; x++)
			for (int y = 0; y < p[k].n; y++) {
				const json_t *v = json_array_get(json_array_get(m, p[k].at[x]), p[k].at[y]);
				if (json_is_number(v))
					lines += fprintf(dat, "%d %d %.6g\n", x, y, json_number_value(v)) > 0;
			}
		ptb_gp_end_block(dat, lines, 3);
	}
}

static void tics(FILE *gp, const char *axis, const struct panel *p)
{
	int step = (p->n + 31) / 32;
	fprintf(gp, "set %s (", axis);
	for (int i = 0; i < p->n; i += step)
		fprintf(gp, "%s'%d' %d", i ? ", " : "", p->pu[i], i);
	fputs(")\n", gp);
}

static void script(FILE *gp, const struct ptb_plot_ctx *c, const struct panel *p, size_t np)
{
	char title[256];
	size_t cols = np < 2 ? 1 : 2, rows = (np + cols - 1) / cols;
	ptb_gp_head(gp, c, 560 * (int)cols, 520 * (int)rows,
		    "the matrices of PU pairs as heat maps, PUs in topology order");
	fputs("set palette defined (0 '#fff5eb', 1 '#fdae6b', 2 '#e6550d', 3 '#7f2704')\n"
	      "set size ratio -1\nset xlabel 'sender PU'\nset ylabel 'receiver PU'\n"
	      "set cblabel 'ns, one way'\nset tics out nomirror\nunset key\n", gp);
	fprintf(gp, "set multiplot layout %zu,%zu\n", rows, cols);
	for (size_t k = 0; k < np; k++) {
		snprintf(title, sizeof title, "%s: %s", c->names[p[k].run], p[k].rec->bench);
		fputs("set title ", gp);
		ptb_gp_string(gp, title);
		fprintf(gp, "\nset xrange [-0.5:%g]\nset yrange [%g:-0.5]\n", p[k].n - 0.5,
			p[k].n - 0.5);
		tics(gp, "xtics", &p[k]);
		tics(gp, "ytics", &p[k]);
		fprintf(gp, "plot '%s.dat' index %zu using 1:2:($1-0.5):($1+0.5):($2-0.5):($2+0.5):3 "
			"with boxxyerror fs solid 1 noborder lc palette", c->kind, k);
		if (p[k].n <= 16)
			fprintf(gp, ", \\\n  '' index %zu using 1:2:(sprintf('%%.0f', $3)) "
				"with labels font ',8'", k);
		fputc('\n', gp);
	}
	fputs("unset multiplot\n", gp);
}

int ptb_plot_c2c(const struct ptb_plot_ctx *c, FILE *dat, FILE *gp)
{
	struct panel *p = NULL;
	size_t np = 0, cap = 0;
	int rc = 0;
	for (size_t i = 0; i < c->nruns && !rc; i++)
		for (size_t k = 0; k < c->runs[i]->n && !rc; k++) {
			const struct ptb_record *rec = &c->runs[i]->rec[k];
			if (!ptb_matrix_is(rec) || !json_array_size(json_object_get(rec->json, "pus")))
				continue;
			if (np == cap) {
				struct panel *grown = ptb_grow_cap(cap, np + 1, 4, &cap)
					? ptb_array_realloc(p, cap, sizeof *p) : NULL;
				if (!grown) {
					rc = -1;
					break;
				}
				p = grown;
			}
			p[np] = (struct panel){ .run = i, .rec = rec };
			rc = order_pus(&p[np], c->runs[i]);
			np++;
		}
	if (!rc && np) {
		data(dat, p, np);
		script(gp, c, p, np);
	}
	for (size_t k = 0; k < np; k++) {
		free(p[k].pu);
		free(p[k].at);
	}
	free(p);
	return rc ? -1 : np ? 0 : 1;
}
