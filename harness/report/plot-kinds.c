/* SPDX-License-Identifier: MIT */
/*
 * The table of plot kinds and what their modules share: the Table-1 rows
 * of several runs side by side, gnuplot strings and numbers, the script's
 * head, log ranges and colours.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/plot-kinds.h"
#include "text/text.h"
#include "text/size.h"

enum { K_TABLE, K_TRIALS, K_C2C, K_CACHE, K_SCALING, K_FLOW, K_PARALLELISM, K_PROFILE,
       K_COUNT };

const char *const ptb_plot_kinds[K_COUNT + 1] = {
	[K_TABLE] = "table", [K_TRIALS] = "trials", [K_C2C] = "c2c",
	[K_CACHE] = "cache", [K_SCALING] = "scaling", [K_FLOW] = "flow",
	[K_PARALLELISM] = "parallelism", [K_PROFILE] = "profile", [K_COUNT] = NULL,
};

static const struct ptb_plot_kind kinds[K_COUNT] = {
	/*            name              lacking                                         write */
	[K_TABLE]   = { "table",   "no point of the paper's Table 1",                  ptb_plot_table },
	[K_TRIALS]  = { "trials",  "no point made of trials or timings",               ptb_plot_trials },
	[K_C2C]     = { "c2c",     "no matrix of PU pairs (ptbench run --suite extended makes one)",
			ptb_plot_c2c },
	[K_CACHE]   = { "cache",   "no cache latency curve (ptbench run --suite extended measures one)",
			ptb_plot_cache },
	[K_SCALING] = { "scaling", "no point measured over threads in compact and spread order",
			ptb_plot_scaling },
	[K_FLOW]    = { "flow",    "not a trace (ptbench record writes one)",          ptb_plot_flow },
	[K_PARALLELISM] = { "parallelism", "not a trace (ptbench record writes one)",
			    ptb_plot_parallelism },
	[K_PROFILE] = { "profile", "not a profile (ptbench profile --format json writes one)",
			ptb_plot_profile },
};

const struct ptb_plot_kind *ptb_plot_kind_find(const char *name)
{
	for (int i = 0; name && i < K_COUNT; i++)
		if (!strcmp(name, kinds[i].name))
			return &kinds[i];
	return NULL;
}

/* ---- rows --------------------------------------------------------------- */

static int row_cmp(const void *a, const void *b)
{
	return ptb_row_cmp(&((const struct ptb_plot_row *)a)->row,
			   &((const struct ptb_plot_row *)b)->row);
}

/* The row of rec, made when new; NULL out of memory. */
static struct ptb_plot_row *row_for(const struct ptb_plot_ctx *c, const struct ptb_record *rec,
				    json_t *index, struct ptb_plot_row **rows, int *n, int *cap)
{
	struct ptb_row r;
	char id[256];
	ptb_row_of(rec->bench, rec->params, &r);
	snprintf(id, sizeof id, "%d\x1f%s\x1f%s", r.order, r.group, r.label);
	const json_t *known = json_object_get(index, id);
	if (known)
		return &(*rows)[json_integer_value(known)];
	if (*n == *cap) {
		int grown = ptb_next_cap(*cap, 32);
		struct ptb_plot_row *p = grown > 0 ? ptb_array_realloc(*rows, (size_t)grown, sizeof *p)
						   : NULL;
		if (!p)
			return NULL;
		*rows = p;
		*cap = grown;
	}
	struct ptb_plot_row *row = &(*rows)[*n];
	row->row = r;
	if (!(row->rec = calloc(c->nruns, sizeof *row->rec)) ||
	    json_object_set_new(index, id, json_integer(*n))) {
		free(row->rec);
		return NULL;
	}
	(*n)++;
	return row;
}

int ptb_plot_rows(const struct ptb_plot_ctx *c, bool (*take)(const struct ptb_record *),
		  struct ptb_plot_row **out)
{
	json_t *index = json_object();
	struct ptb_plot_row *rows = NULL, *row;
	int n = 0, cap = 0;
	if (!index)
		return -1;
	for (size_t i = 0; i < c->nruns; i++)
		for (size_t k = 0; k < c->runs[i]->n; k++) {
			const struct ptb_record *rec = &c->runs[i]->rec[k];
			if (!take(rec))
				continue;
			if (!(row = row_for(c, rec, index, &rows, &n, &cap))) {
				json_decref(index);
				ptb_plot_rows_free(rows, n);
				return -1;
			}
			if (!row->rec[i])
				row->rec[i] = rec;
		}
	json_decref(index);
	if (n)
		qsort(rows, (size_t)n, sizeof *rows, row_cmp);
	*out = rows;
	return n;
}

void ptb_plot_rows_free(struct ptb_plot_row *rows, int n)
{
	for (int i = 0; i < n; i++)
		free(rows[i].rec);
	free(rows);
}

void ptb_plot_row_name(const struct ptb_plot_row *r, char *buf, size_t len)
{
	if (r->row.group[0])
		ptb_textf(buf, len, "%s: %s", r->row.group, r->row.label);
	else
		ptb_textf(buf, len, "%s", r->row.label);
}

void ptb_plot_row_axes(FILE *gp, const struct ptb_plot_row *rows, int n, size_t nruns,
		       double from, double to, const char *xlabel)
{
	char name[256];
	fputs("set logscale x\n", gp);
	fprintf(gp, "set xrange [%g:%g]\n", from, to);
	fprintf(gp, "set yrange [%g:%g] reverse\n", n - 0.5, -0.5);
	/* the key in one column above: gnuplot 5.4 drops the entries that do
	 * not fit, of a key below a tall plot or of a row too wide */
	fprintf(gp, "set tmargin %zu\nset key outside above center vertical maxrows %zu\n",
		2 + nruns, nruns);
	fprintf(gp, "set xlabel '%s'\n", xlabel);
	fputs("set grid xtics mxtics lc rgb '#dddddd'\n"

	      "set ytics scale 0 font ',9'\nset ytics ()\n", gp);
	for (int r = 0; r < n; r++) {
		ptb_plot_row_name(&rows[r], name, sizeof name);
		fputs("set ytics add (", gp);
		ptb_gp_string(gp, name);
		fprintf(gp, " %d)\n", r);
	}
}

/* ---- gnuplot ------------------------------------------------------------ */

void ptb_gp_string(FILE *gp, const char *s)
{
	fputc('"', gp);
	for (; s && *s; s++)
		if (strchr("\"'\\`@$", *s))
			fprintf(gp, "\\%03o", (unsigned char)*s);
		else
			fputc((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s, gp);
	fputc('"', gp);
}

/* The terminals, by enum ptb_plot_term: SVG scales to its container (the
 * HTML page's width), PNG is drawn at the size asked. */
static const struct {
	const char *ext, *terminal;
} terms[] = {
	[PTB_PLOT_SVG] = { "svg", "svg size %d,%d dynamic noenhanced font 'sans,11' "
				  "background rgb 'white'" },
	[PTB_PLOT_PNG] = { "png", "pngcairo size %d,%d noenhanced font 'sans,10' "
				  "background rgb 'white'" },
};

void ptb_gp_head(FILE *gp, const struct ptb_plot_ctx *c, int width, int height,
		 const char *what)
{
	fprintf(gp, "# ptbench plot --kind %s: %s.\n", c->kind, what);
	fprintf(gp, "# Written by ptbench with %s.dat; to draw it again, restyled:\n", c->kind);
	fprintf(gp, "#     gnuplot %s.gp > %s.%s\n", c->kind, c->kind, terms[c->term].ext);
	fputs("set terminal ", gp);
	fprintf(gp, terms[c->term].terminal, width, height);
	fputs("\nset encoding utf8\nset datafile missing 'NaN'\n", gp);
}

void ptb_gp_log_range(double lo, double hi, double *from, double *to)
{
	if (!(lo > 0) || !isfinite(lo))
		lo = 1;
	if (!(hi >= lo) || !isfinite(hi))
		hi = lo;
	*from = pow(10, floor(log10(lo)));
	*to = pow(10, ceil(log10(hi)));
	if (*to <= *from)
		*to = *from * 10;
}

void ptb_gp_num(FILE *dat, double v)
{
	if (isfinite(v))
		fprintf(dat, "%.6g", v);
	else
		fputs("NaN", dat);
}

void ptb_gp_end_block(FILE *dat, int lines, int ncols)
{
	for (int i = 0; !lines && i < ncols; i++)
		fputs(i ? " NaN" : "NaN", dat);
	fputs(lines ? "\n\n" : "\n\n\n", dat);
}

void ptb_gp_bytes(char *buf, size_t len, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;
	for (; bytes >= 1024 && u < 4; u++)
		bytes /= 1024;
	snprintf(buf, len, "%.4g %s", bytes, unit[u]);
}

/* Distinct for the eye and for the colour-blind (Okabe and Ito's). */
static const char *const colors[] = {
	"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000",
};

const char *ptb_gp_color(size_t i)
{
	return colors[i % (sizeof colors / sizeof *colors)];
}
