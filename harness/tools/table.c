/* SPDX-License-Identifier: MIT */
/*
 * `ptbench table FILE...`: result files side by side, one column per
 * machine, one row per benchmark and variable values, laid out like Table 1
 * of de Supinski & May (1999) -- values in µs, N/A cells with footnoted
 * reasons, unstable values marked -- and under it a block saying what each
 * machine was.  Rows come from harness/rows.c in its order; a LogP record
 * (logp.mutex / logp.cond) becomes five rows, o_s, o_r, L, g and RTT, under
 * a group naming the mechanism and placement, each value footnoted with
 * the points it was derived from (a placement no machine has figures for
 * folds into one N/A row).  Columns keep the order of the files on the
 * command line.  The table is first built as a grid of strings, then
 * printed as Markdown (aligned, readable on a terminal), CSV or HTML, so
 * the three formats cannot disagree.  Figures transcribed from a paper
 * carry the text they were published as ("published": "211.0") and notes
 * on how they map onto our rows ("footnotes": [...]); the table prints the
 * published digits rather than rounding the value again.
 */
#include <config.h>

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/error.h"
#include "report/report.h"
#include "record/result.h"
#include "report/rows.h"
#include "tools/tools.h"

enum fmt { F_MD, F_CSV, F_HTML };

/* The statistic a cell shows, with the words the caption uses. */
static const struct {
	const char *name;
	const char *words;
} stats[] = {
	/* name       words */
	{ "mean",     "the mean of each point's timings, as in the paper" },
	{ "median",   "the median of each point's timings" },
	{ "min",      "the fastest of each point's timings" },
};

/* The LogP parameters of a logp.* record, one row each. */
static const struct {
	const char *key;
	const char *label;
} logp_fields[] = {
	/* key    label */
	{ "o_s",  "o_s, send overhead" },
	{ "o_r",  "o_r, receive overhead" },
	{ "L",    "L, latency" },
	{ "g",    "g, gap" },
	{ "rtt",  "RTT, round trip" },
};
#define NLOGP (int)(sizeof logp_fields / sizeof logp_fields[0])

/* As the run's own table marks them. */
#define UNSTABLE_MARK "*"

struct column {
	const char *path;
	json_t *run;
	char name[192];
};

struct row {
	int order, sub, seq;       /* sort keys: rows.c's order, LogP field, arrival */
	int hidden;                /* folded into the row above it */
	char group[192], label[128];
	const char *footnote;      /* rows.c's: how our test differs from the paper's */
	const json_t **rec;        /* per column; NULL = the machine has no such point */
};

struct table {
	int ncols, nrows, cap, stat;
	struct column *col;
	struct row *row;
	struct ptb_footnotes notes;
	int any_unstable;
};

/* A rectangle of strings, the common form of every printed table. */
struct grid {
	int nrows, ncols, size;    /* size: cells allocated */
	char **cell;
};

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;
	if (used >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* ---- grids -------------------------------------------------------------- */

static int grid_init(struct grid *g, int nrows, int ncols)
{
	g->nrows = nrows;
	g->ncols = ncols;
	g->size = nrows * ncols;
	g->cell = calloc((size_t)g->size + 1, sizeof *g->cell);   /* + 1: never calloc(0) */
	return g->cell ? 0 : -1;
}

static void grid_set(struct grid *g, int r, int c, const char *s)
{
	free(g->cell[r * g->ncols + c]);
	g->cell[r * g->ncols + c] = strdup(s ? s : "");
}

static const char *grid_at(const struct grid *g, int r, int c)
{
	const char *s = g->cell[r * g->ncols + c];
	return s ? s : "";
}

static void grid_free(struct grid *g)
{
	for (int i = 0; i < g->size; i++)
		free(g->cell[i]);
	free(g->cell);
}

/* Markdown, columns padded to their widest cell; the first `left` columns
 * left-aligned, the rest right-aligned.  blank_repeats: a group name is
 * printed on its first row only, as in the paper. */
static void print_md(FILE *out, const struct grid *g, int left, int blank_repeats)
{
	int *w = calloc((size_t)g->ncols, sizeof *w);
	for (int r = 0; r < g->nrows; r++)
		for (int c = 0; c < g->ncols; c++) {
			int tw = ptb_text_width(grid_at(g, r, c));
			w[c] = tw > w[c] ? tw : w[c];
		}
	for (int r = 0; r < g->nrows; r++) {
		for (int c = 0; c < g->ncols; c++) {
			const char *s = grid_at(g, r, c);
			if (blank_repeats && c == 0 && r > 1 && !strcmp(s, grid_at(g, r - 1, 0)))
				s = "";
			int pad = w[c] - ptb_text_width(s);
			fprintf(out, "| %s%*s%s ", c < left ? s : "", pad, "", c < left ? "" : s);
		}
		fputs("|\n", out);
		if (r > 0)
			continue;
		for (int c = 0; c < g->ncols; c++) {
			fputs(c < left ? "|:" : "|-", out);
			for (int i = 0; i < w[c]; i++)
				fputc('-', out);
			fputs(c < left ? "-" : ":", out);
		}
		fputs("|\n", out);
	}
	free(w);
}

/* The machine block in Markdown: a list per machine, long texts and all. */
static void print_md_machines(FILE *out, const struct grid *m)
{
	for (int c = 1; c < m->ncols; c++) {
		fprintf(out, "\n%s:\n", grid_at(m, 0, c));
		for (int r = 1; r < m->nrows; r++)
			if (*grid_at(m, r, c))
				fprintf(out, "- %s: %s\n", grid_at(m, r, 0), grid_at(m, r, c));
	}
}

static void csv_field(FILE *out, const char *s, int last)
{
	if (strpbrk(s, ",\"\n")) {
		fputc('"', out);
		for (; *s; s++)
			fputs(*s == '"' ? "\"\"" : (char[]){ *s, 0 }, out);
		fputc('"', out);
	} else {
		fputs(s, out);
	}
	fputc(last ? '\n' : ',', out);
}

/* CSV rows, each prefixed by `lead` when not NULL and padded to `width`. */
static void print_csv(FILE *out, const struct grid *g, const char *lead, int width)
{
	for (int r = 0; r < g->nrows; r++) {
		int n = 0;
		if (lead)
			csv_field(out, lead, ++n == width);
		for (int c = 0; c < g->ncols; c++)
			csv_field(out, grid_at(g, r, c), ++n == width);
		while (n < width)
			csv_field(out, "", ++n == width);
	}
}

static void html_text(FILE *out, const char *s)
{
	for (; *s; s++)
		switch (*s) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*s, out);
		}
}

static void print_html(FILE *out, const struct grid *g, int left, int blank_repeats)
{
	fputs("<table>\n", out);
	for (int r = 0; r < g->nrows; r++) {
		const char *tag = r == 0 ? "th" : "td";
		fputs(r == 0 ? "<thead><tr>" : "<tr>", out);
		for (int c = 0; c < g->ncols; c++) {
			const char *s = grid_at(g, r, c);
			if (blank_repeats && c == 0 && r > 1 && !strcmp(s, grid_at(g, r - 1, 0)))
				s = "";
			fprintf(out, "<%s%s>", tag, c < left ? "" : " style=\"text-align:right\"");
			html_text(out, s);
			fprintf(out, "</%s>", tag);
		}
		fputs(r == 0 ? "</tr></thead>\n<tbody>\n" : "</tr>\n", out);
	}
	fputs("</tbody>\n</table>\n", out);
}

/* ---- columns ------------------------------------------------------------ */

/* A CPU brand without the trademark noise and clock suffix that make
 * headers wide: "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz" -> "Intel Xeon
 * Gold 6130". */
static void short_brand(const char *brand, char *buf, size_t len)
{
	static const char *const noise[] = { "(R)", "(r)", "(TM)", "(tm)", " CPU", " Processor" };
	char tmp[192], *p;
	snprintf(tmp, sizeof tmp, "%s", brand ? brand : "");
	if ((p = strstr(tmp, " @ ")))
		*p = 0;
	for (size_t i = 0; i < sizeof noise / sizeof noise[0]; i++)
		while ((p = strstr(tmp, noise[i])))
			memmove(p, p + strlen(noise[i]), strlen(p + strlen(noise[i])) + 1);
	size_t o = 0;
	for (p = tmp; *p && o + 1 < len; p++)
		if (*p != ' ' || (o > 0 && buf[o - 1] != ' '))
			buf[o++] = *p;
	while (o > 0 && buf[o - 1] == ' ')
		o--;
	buf[o] = 0;
}

static void base_name(const json_t *run, char *buf, size_t len)
{
	const json_t *ctx = json_object_get(run, "context");
	const char *host = ptb_jstr(ctx, "host");
	char brand[96];
	short_brand(ptb_jstr(json_object_get(ctx, "cpu"), "brand"), brand, sizeof brand);
	snprintf(buf, len, brand[0] ? "%s (%s)" : "%s", host && *host ? host : "unknown host", brand);
}

/* The suffix that tells apart columns with one name: the run's day, then
 * its time, then a number among the columns still alike. */
static void suffix(const struct table *t, int i, int pass, char *buf, size_t len)
{
	const char *date = ptb_jstr(json_object_get(t->col[i].run, "context"), "date");
	int k = 1;
	for (int j = 0; j < i; j++)
		k += !strcmp(t->col[j].name, t->col[i].name);
	if (pass == 0 && date)
		snprintf(buf, len, ", %.10s", date);
	else if (pass == 1 && date && strlen(date) > 11)
		snprintf(buf, len, " %.5s", date + 11);
	else if (pass == 2)
		snprintf(buf, len, " #%d", k);
	else
		buf[0] = 0;
}

/* Columns are named by host and CPU; two alike get suffixes until unique. */
static void name_columns(struct table *t)
{
	char (*add)[32] = calloc((size_t)t->ncols, sizeof *add);
	for (int i = 0; i < t->ncols; i++)
		base_name(t->col[i].run, t->col[i].name, sizeof t->col[i].name);
	for (int pass = 0; add && pass < 3; pass++) {
		for (int i = 0; i < t->ncols; i++) {
			add[i][0] = 0;
			for (int j = 0; j < t->ncols; j++)
				if (i != j && !strcmp(t->col[i].name, t->col[j].name))
					suffix(t, i, pass, add[i], sizeof add[i]);
		}
		for (int i = 0; i < t->ncols; i++)
			append(t->col[i].name, sizeof t->col[i].name, "%s", add[i]);
	}
	free(add);
}

/* ---- rows --------------------------------------------------------------- */

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	int c;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	if ((c = strverscmp(x->group, y->group)))
		return c;
	if (x->sub != y->sub)
		return x->sub < y->sub ? -1 : 1;
	if ((c = strverscmp(x->label, y->label)))
		return c;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

static struct row *find_or_add_row(struct table *t, const struct row *key)
{
	for (int i = 0; i < t->nrows; i++)
		if (t->row[i].order == key->order && t->row[i].sub == key->sub &&
		    !strcmp(t->row[i].group, key->group) && !strcmp(t->row[i].label, key->label))
			return &t->row[i];
	if (t->nrows == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;
		struct row *r = realloc(t->row, (size_t)cap * sizeof *r);
		if (!r)
			return NULL;
		t->row = r;
		t->cap = cap;
	}
	struct row *r = &t->row[t->nrows];
	*r = *key;
	r->seq = t->nrows++;
	r->rec = calloc((size_t)t->ncols, sizeof *r->rec);
	return r->rec ? r : (t->nrows--, NULL);
}

/* Put a record into its row(s); a second record for one cell of one file
 * (a duplicate point) keeps the first. */
static int place_record(struct table *t, int c, const json_t *rec)
{
	const char *bench = ptb_jstr(rec, "bench");
	struct ptb_row pr;
	struct row key = { 0 };
	ptb_row_of(bench, json_object_get(rec, "params"), &pr);
	key.order = pr.order;
	key.footnote = pr.footnote;
	int logp = bench && !strncmp(bench, "logp.", 5);
	for (int f = 0; f < (logp ? NLOGP : 1); f++) {
		if (logp) {
			snprintf(key.group, sizeof key.group, "%s, %s", pr.group, pr.label);
			snprintf(key.label, sizeof key.label, "%s", logp_fields[f].label);
			key.sub = f + 1;
		} else {
			snprintf(key.group, sizeof key.group, "%s", pr.group);
			snprintf(key.label, sizeof key.label, "%s", pr.label);
		}
		struct row *r = find_or_add_row(t, &key);
		if (!r)
			return -1;
		if (!r->rec[c])
			r->rec[c] = rec;
	}
	return 0;
}

/* ---- cells -------------------------------------------------------------- */

/* Footnote numbers of one cell, printed "[1,4]" in ascending order. */
struct marks {
	int n, num[8];
};

static void mark(struct table *t, struct marks *m, const char *note)
{
	int k;
	if (!note || !*note || m->n == 8 || !(k = ptb_footnote(&t->notes, note)))
		return;
	for (int i = 0; i < m->n; i++)
		if (m->num[i] == k)
			return;
	int i = m->n++;
	for (; i > 0 && m->num[i - 1] > k; i--)
		m->num[i] = m->num[i - 1];
	m->num[i] = k;
}

static void append_marks(const struct marks *m, char *buf, size_t len)
{
	for (int i = 0; i < m->n; i++)
		append(buf, len, "%s%d%s", i ? "," : " [", m->num[i], i == m->n - 1 ? "]" : "");
}

/* A value in µs as ptbench prints it; for the mean of a transcribed
 * record, the digits it was published with. */
static void value_text(const struct table *t, const json_t *rec, double ns, char *buf, size_t len)
{
	const char *published = ptb_jstr(rec, "published");
	if (published && t->stat == 0)
		snprintf(buf, len, "%s", published);
	else
		ptb_fmt_us(buf, len, ns);
}

/* The figure of a record for the chosen statistic, or the mean with a
 * footnote when the record has only the mean (the paper's figures). */
static double figure(struct table *t, const json_t *rec, const char **note)
{
	const char *stat = stats[t->stat].name;
	double v = ptb_jnum(rec, stat);
	*note = NULL;
	if (isnan(v) && !isnan(ptb_jnum(rec, "mean"))) {
		*note = t->stat == 1 ? "only the mean is recorded: shown instead of the median"
				     : "only the mean is recorded: shown instead of the minimum";
		v = ptb_jnum(rec, "mean");
	}
	return v;
}

static int has_value(const json_t *rec)
{
	const char *status = ptb_jstr(rec, "status");
	return status && (!strcmp(status, "ok") || !strcmp(status, "unstable"));
}

static void cell_text(struct table *t, const struct row *r, int c, char *buf, size_t len)
{
	const json_t *rec = r->rec[c];
	const char *status = ptb_jstr(rec, "status"), *note = NULL;
	struct marks m = { 0 };
	buf[0] = 0;
	if (!rec) {
		snprintf(buf, len, "-");
		return;
	}
	int measured = has_value(rec);
	if (measured) {
		double v = r->sub ? ptb_jnum(rec, logp_fields[r->sub - 1].key) : figure(t, rec, &note);
		if (isnan(v))   /* a LogP parameter whose input is missing */
			snprintf(buf, len, "%s", r->sub ? "N/A" : "?");
		else
			value_text(t, rec, v, buf, len);
		if (!strcmp(status, "unstable") && !isnan(v)) {
			append(buf, len, "%s", UNSTABLE_MARK);
			t->any_unstable = 1;
		}
	} else {
		snprintf(buf, len, "%s", !status ? "?" : !strcmp(status, "na") ? "N/A" : status);
	}
	mark(t, &m, ptb_jstr(rec, "reason"));
	mark(t, &m, note);
	const json_t *fn;
	size_t i;
	json_array_foreach(json_object_get(rec, "footnotes"), i, fn)
		mark(t, &m, json_string_value(fn));
	if (r->sub && measured) {
		const char *in = ptb_jstr(json_object_get(rec, "inputs"), logp_fields[r->sub - 1].key);
		char why[256];
		snprintf(why, sizeof why, "%s derived from %s", logp_fields[r->sub - 1].key, in ? in : "");
		mark(t, &m, in ? why : NULL);
	}
	append_marks(&m, buf, len);
}

/* A LogP placement no machine has figures for is one row, not five: its
 * cells are N/A for a reason already given by the points it needs.  The
 * rows are sorted, so a group's five are adjacent. */
static void fold_empty_logp(struct table *t)
{
	for (int i = 0; i + NLOGP <= t->nrows; i++) {
		int valued = 0;
		if (t->row[i].sub != 1)
			continue;
		for (int k = i; k < i + NLOGP; k++)
			for (int c = 0; c < t->ncols; c++)
				valued |= has_value(t->row[k].rec[c]);
		if (valued)
			continue;
		snprintf(t->row[i].label, sizeof t->row[i].label, "o_s, o_r, L, g, RTT");
		for (int k = i + 1; k < i + NLOGP; k++)
			t->row[k].hidden = 1;
	}
}

static int build_grid(struct table *t, struct grid *g)
{
	char buf[512];
	int shown = 0;
	for (int i = 0; i < t->nrows; i++)
		shown += !t->row[i].hidden;
	if (grid_init(g, shown + 1, t->ncols + 2))
		return -1;
	grid_set(g, 0, 0, "Test");
	for (int c = 0; c < t->ncols; c++)
		grid_set(g, 0, c + 2, t->col[c].name);
	for (int i = 0, y = 1; i < t->nrows; i++) {
		const struct row *r = &t->row[i];
		int lone = !r->group[0];
		struct marks m = { 0 };
		if (r->hidden)
			continue;
		snprintf(buf, sizeof buf, "%s", r->label);
		mark(t, &m, r->sub <= 1 ? r->footnote : NULL);
		append_marks(&m, buf, sizeof buf);
		grid_set(g, y, 0, lone ? buf : r->group);
		grid_set(g, y, 1, lone ? "" : buf);
		for (int c = 0; c < t->ncols; c++) {
			cell_text(t, r, c, buf, sizeof buf);
			grid_set(g, y, c + 2, buf);
		}
		y++;
	}
	return 0;
}

/* ---- the machine block -------------------------------------------------- */

static void cpu_text(const json_t *ctx, char *buf, size_t len)
{
	const json_t *cpu = json_object_get(ctx, "cpu");
	const char *brand = ptb_jstr(cpu, "brand"), *vendor = ptb_jstr(cpu, "vendor");
	double fam = ptb_jnum(cpu, "family"), model = ptb_jnum(cpu, "model"),
	       step = ptb_jnum(cpu, "stepping");
	buf[0] = 0;
	append(buf, len, "%s", brand && *brand ? brand : vendor ? vendor : "");
	if (fam >= 0 && model >= 0)
		append(buf, len, ", family %g model %g stepping %g", fam, model, step >= 0 ? step : 0);
}

static void topology_text(const json_t *ctx, char *buf, size_t len)
{
	static const char *const parts[][2] = {
		/* key            unit */
		{ "packages",     "package" },
		{ "cores",        "core" },
		{ "pus",          "PU" },
		{ "numa_nodes",   "NUMA node" },
	};
	const json_t *topo = json_object_get(ctx, "topology");
	buf[0] = 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		double n = ptb_jnum(topo, parts[i][0]);
		if (!isnan(n))
			append(buf, len, "%s%g %s%s", buf[0] ? ", " : "", n, parts[i][1], n == 1 ? "" : "s");
	}
	const char *allowed = ptb_jstr(topo, "allowed");
	if (allowed)
		append(buf, len, "; allowed %s", allowed);
}

static void os_text(const json_t *ctx, char *buf, size_t len)
{
	const json_t *os = json_object_get(ctx, "os");
	const char *k = ptb_jstr(os, "kernel"), *m = ptb_jstr(os, "machine");
	snprintf(buf, len, "%s%s%s", k ? k : "", k && m ? " " : "", m ? m : "");
}

static void libc_text(const json_t *ctx, char *buf, size_t len)
{
	const char *l = ptb_jstr(ctx, "libc"), *p = ptb_jstr(ctx, "pthreads");
	snprintf(buf, len, "%s%s%s", l ? l : "", l && p ? " / " : "", p ? p : "");
}

static void join_strings(const json_t *arr, char *buf, size_t len)
{
	const json_t *v;
	size_t i;
	buf[0] = 0;
	json_array_foreach(arr, i, v)
		if (json_is_string(v))
			append(buf, len, "%s%s", buf[0] ? "; " : "", json_string_value(v));
}

static void machine_field(const struct column *col, int field, char *buf, size_t len)
{
	const json_t *ctx = json_object_get(col->run, "context");
	const char *s = NULL;
	buf[0] = 0;
	switch (field) {
	case 0: cpu_text(ctx, buf, len); return;
	case 1: s = ptb_jstr(json_object_get(ctx, "cpu"), "hypervisor"); break;
	case 2: topology_text(ctx, buf, len); return;
	case 3: os_text(ctx, buf, len); return;
	case 4: libc_text(ctx, buf, len); return;
	case 5: s = ptb_jstr(ctx, "compiler"); break;
	case 6: s = ptb_jstr(ctx, "date"); break;
	case 7: s = col->path; break;
	case 8: s = ptb_jstr(col->run, "source"); break;
	case 9: s = ptb_jstr(ctx, "note"); break;
	case 10: join_strings(json_object_get(ctx, "warnings"), buf, len); return;
	}
	snprintf(buf, len, "%s", s ? s : "");
}

/* The rows of the machine block, in machine_field's order. */
static const char *const machine_rows[] = {
	"CPU", "Hypervisor", "Topology", "OS", "libc / threads", "Compiler",
	"Date", "File", "Source", "Note", "Warnings",
};
#define NMACHINE (int)(sizeof machine_rows / sizeof machine_rows[0])

/* One row per field that some machine has. */
static int build_machines(const struct table *t, struct grid *g)
{
	char buf[1024];
	int n = 0;
	if (grid_init(g, NMACHINE + 1, t->ncols + 1))
		return -1;
	grid_set(g, 0, 0, "Machine");
	for (int c = 0; c < t->ncols; c++)
		grid_set(g, 0, c + 1, t->col[c].name);
	for (int f = 0; f < NMACHINE; f++) {
		int any = 0;
		for (int c = 0; c < t->ncols; c++) {
			machine_field(&t->col[c], f, buf, sizeof buf);
			grid_set(g, n + 1, c + 1, buf);
			any |= buf[0] != 0;
		}
		if (any)
			grid_set(g, ++n, 0, machine_rows[f]);
	}
	g->nrows = n + 1;
	return 0;
}

/* ---- printing ----------------------------------------------------------- */

static void caption(const struct table *t, char *buf, size_t len)
{
	snprintf(buf, len, "Values in µs per operation: %s.", stats[t->stat].words);
}

static const char unstable_legend[] =
	"Values marked " UNSTABLE_MARK " are unstable: the stopping rule never held; "
	"the figure is that of the timings taken.";

/* Footnotes as rows "[n]", text (and the unstable legend), for CSV. */
static int build_notes(const struct table *t, struct grid *n)
{
	char num[16];
	if (grid_init(n, t->notes.n + t->any_unstable, 2))
		return -1;
	for (int i = 0; i < t->notes.n; i++) {
		snprintf(num, sizeof num, "[%d]", i + 1);
		grid_set(n, i, 0, num);
		grid_set(n, i, 1, t->notes.text[i]);
	}
	if (t->any_unstable) {
		grid_set(n, t->notes.n, 0, UNSTABLE_MARK);
		grid_set(n, t->notes.n, 1, unstable_legend);
	}
	return 0;
}

static void print_table(FILE *out, struct table *t, enum fmt f, struct grid *g, struct grid *m,
			struct grid *notes)
{
	char cap[160];
	caption(t, cap, sizeof cap);
	switch (f) {
	case F_MD:
		fprintf(out, "%s\n\n", cap);
		print_md(out, g, 2, 1);
		fputc('\n', out);
		if (t->any_unstable)
			fprintf(out, "%s\n", unstable_legend);
		ptb_footnotes_print(out, &t->notes);
		print_md_machines(out, m);
		break;
	case F_CSV:
		print_csv(out, g, NULL, g->ncols);
		print_csv(out, m, "machine", g->ncols);
		print_csv(out, notes, "footnote", g->ncols);
		break;
	case F_HTML:
		fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\">"
		      "<title>ptbench table</title></head>\n<body>\n<p>", out);
		html_text(out, cap);
		fputs("</p>\n", out);
		print_html(out, g, 2, 1);
		if (t->any_unstable) {
			fputs("<p>", out);
			html_text(out, unstable_legend);
			fputs("</p>\n", out);
		}
		for (int i = 0; i < t->notes.n; i++) {
			fprintf(out, "<p>[%d] ", i + 1);
			html_text(out, t->notes.text[i]);
			fputs("</p>\n", out);
		}
		print_html(out, m, m->ncols, 0);
		fputs("</body></html>\n", out);
		break;
	}
}

/* ---- the command -------------------------------------------------------- */

static const char usage[] =
	"usage: ptbench table FILE... [--format md|csv|html] [--stat mean|median|min]";

static int parse_opts(int argc, char **argv, enum fmt *f, int *stat)
{
	static const struct option longopts[] = {
		/* name       has_arg            flag  val */
		{ "format",   required_argument, NULL, 'f' },
		{ "stat",     required_argument, NULL, 's' },
		{ "help",     no_argument,       NULL, 'h' },
		{ NULL,       0,                 NULL, 0 },
	};
	static const char *const fmts[] = { "md", "csv", "html" };
	int c, i;
	*f = F_MD;
	*stat = 0;
	optind = 0;   /* rescan: the caller may have used getopt already */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'f':
			for (i = 0; i < 3 && strcmp(optarg, fmts[i]); i++)
				;
			if (i == 3)
				return ptb_bad_input("table", "--format: '%s' is not one of md, csv, html", optarg);
			*f = (enum fmt)i;
			break;
		case 's':
			for (i = 0; i < 3 && strcmp(optarg, stats[i].name); i++)
				;
			if (i == 3)
				return ptb_bad_input("table", "--stat: '%s' is not one of mean, median, min", optarg);
			*stat = i;
			break;
		case 'h':
			puts(usage);
			return -1;
		case ':':
			return ptb_bad_input("table", "%s needs a value", argv[optind - 1]);
		default:
			return ptb_bad_input("table", "unknown option '%s' (%s)", argv[optind - 1], usage + 7);
		}
	}
	if (optind >= argc)
		return ptb_bad_input("table", "which files? (%s)", usage + 7);
	return 0;
}

static int load_columns(struct table *t, int n, char **paths)
{
	char err[512];
	t->col = calloc((size_t)n, sizeof *t->col);
	if (!t->col)
		return ptb_bad_input("table", "out of memory");
	for (int c = 0; c < n; c++) {
		t->col[c].path = paths[c];
		if (!(t->col[c].run = ptb_run_load(paths[c], err, sizeof err)))
			return ptb_bad_input("table", "%s", err);
		t->ncols++;
	}
	for (int c = 0; c < n; c++) {
		const json_t *rec;
		size_t i;
		json_array_foreach(json_object_get(t->col[c].run, "results"), i, rec)
			if (place_record(t, c, rec))
				return ptb_bad_input("table", "out of memory");
	}
	return 0;
}

static void table_free(struct table *t)
{
	for (int c = 0; c < t->ncols; c++)
		json_decref(t->col[c].run);
	for (int i = 0; i < t->nrows; i++)
		free(t->row[i].rec);
	free(t->col);
	free(t->row);
	ptb_footnotes_free(&t->notes);
}

int ptb_table_main(int argc, char **argv)
{
	struct table t = { 0 };
	struct grid g = { 0 }, m = { 0 }, n = { 0 };
	enum fmt f;
	int rc = parse_opts(argc, argv, &f, &t.stat);
	if (rc)
		return rc < 0 ? 0 : rc;
	rc = load_columns(&t, argc - optind, argv + optind);
	if (!rc) {
		name_columns(&t);
		qsort(t.row, (size_t)t.nrows, sizeof *t.row, row_cmp);
		fold_empty_logp(&t);
		if (build_grid(&t, &g) || build_machines(&t, &m) || build_notes(&t, &n))
			rc = ptb_bad_input("table", "out of memory");
		else
			print_table(stdout, &t, f, &g, &m, &n);
		if (!rc && (fflush(stdout) || ferror(stdout)))
			rc = ptb_bad_input("table", "cannot write the table");
	}
	grid_free(&g);
	grid_free(&m);
	grid_free(&n);
	table_free(&t);
	return rc;
}
