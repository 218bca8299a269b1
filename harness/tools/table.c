/* SPDX-License-Identifier: MIT */
/*
 * `ptbench table FILE...`: result files side by side, one column per
 * machine, one row per benchmark and variable values, laid out like Table 1
 * of de Supinski & May (1999) -- values in µs, N/A cells with footnoted
 * reasons, unstable values marked -- and under it a block saying what each
 * machine was (tools/machines.c).  Rows come from report/rows.c in its
 * order; a derived LogP record becomes five rows, o_s, o_r, RTT, L and g,
 * under a group naming the mechanism and placement, each value footnoted
 * with the points it was derived from (a placement no machine has figures
 * for folds into one N/A row).  A point N/A at a placement its machine
 * lacks (report/absent.h) points at one footnote per machine naming them
 * all, and a row of nothing else is left out.  Columns keep the order of
 * the files on the command line.  The table is built as a grid of strings
 * and printed by report/grid.c as Markdown, CSV or HTML, so the three
 * formats cannot disagree.  Figures transcribed from a paper carry the text they were
 * published as ("published": "211.0") and notes on how they map onto our
 * rows ("footnotes": [...]); the table prints the published digits rather
 * than rounding the value again.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/logp.h"
#include "record/matrix.h"
#include "report/absent.h"
#include "report/format.h"
#include "report/grid.h"
#include "report/rows.h"
#include "text/text.h"
#include "tools/page.h"
#include "tools/table.h"

static const char *const format_names[PTB_TABLE_FORMATS] = { "md", "csv", "html" };

#define NLOGP PTB_LOGP_NFIELDS


struct row {
	int order, sub, seq;       /* sort keys: rows.c's order, LogP field, arrival */
	bool hidden;               /* folded into the row above it */
	char group[192], label[128];
	const char *footnote;      /* rows.c's: how our test differs from the paper's */
	const struct ptb_record **rec;   /* per column; NULL = the machine has no such point */
};

struct table {
	int ncols, nrows, cap;
	enum ptb_table_stat stat;
	bool all_rows;
	struct ptb_runfile *const *runs;
	char (*names)[192];
	unsigned *absent;          /* per column: the placements its machine lacks (bits) */
	char (*absent_note)[384];  /* per column: the footnote naming them, or "" */
	struct row *row;
	json_t *index;             /* row identity -> index into row */
	struct ptb_footnotes notes;
	bool any_unstable;
	bool any_disturbed;
};

int ptb_table_format_from_name(const char *name)
{
	for (int i = 0; name && i < PTB_TABLE_FORMATS; i++)
		if (!strcmp(name, format_names[i]))
			return i;
	return -1;
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

/* The row of this identity -- its place, group and label, and `point` when
 * it was set apart for one point -- made when new. */
static struct row *find_or_add_row(struct table *t, const struct row *key, const char *point)
{
	char *id;
	if (asprintf(&id, "%d\x1f%d\x1f%s\x1f%s\x1f%s", key->order, key->sub, key->group,
		     key->label, point ? point : "") < 0)
		return NULL;
	const json_t *known = json_object_get(t->index, id);
	struct row *r = known ? &t->row[json_integer_value(known)] : NULL;
	if (!r && t->nrows == t->cap) {
		int cap = t->cap ? 2 * t->cap : 64;
		struct row *grown = realloc(t->row, (size_t)cap * sizeof *grown);
		if (!grown)
			goto out;
		t->row = grown;
		t->cap = cap;
	}
	if (!r) {
		r = &t->row[t->nrows];
		*r = *key;
		r->seq = t->nrows;
		if (!(r->rec = calloc((size_t)t->ncols, sizeof *r->rec)) ||
		    json_object_set_new_nocheck(t->index, id, json_integer(t->nrows))) {
			free(r->rec);
			r = NULL;
		} else {
			t->nrows++;
		}
	}
out:
	free(id);
	return r;
}

/* Put a record into its cell.  Two points of one file that a table row
 * would merge (an optional variable, a label cut short) each keep a row:
 * the second is set apart under its own point key.  Only a point that
 * appears twice in one file keeps its first record (cmd-table says so). */
static int place_in_row(struct table *t, int c, struct row *key, const struct ptb_record *rec)
{
	struct row *r = find_or_add_row(t, key, NULL);
	if (r && r->rec[c] && strcmp(r->rec[c]->key, rec->key)) {
		ptb_textf(key->label, sizeof key->label, "%s", rec->key);
		r = find_or_add_row(t, key, rec->key);
	}
	if (!r)
		return -1;
	if (!r->rec[c])
		r->rec[c] = rec;
	return 0;
}

/* Is the record N/A at a placement its machine lacks, and so folded? */
static bool folded(const struct table *t, int c, const struct ptb_record *rec)
{
	return !t->all_rows && ptb_absent_placement(t->runs[c], rec) >= 0;
}

/* Put a record into its row(s). */
static int place_record(struct table *t, int c, const struct ptb_record *rec)
{
	struct ptb_row pr;
	struct row key = { 0 };
	bool logp = rec->is_derived;
	if (folded(t, c, rec))
		t->absent[c] |= 1u << ptb_absent_placement(t->runs[c], rec);
	if (logp && !ptb_logp_mechanism_of(rec->bench))
		return 0;   /* the cache levels are one machine's detail, not a row */
	if (ptb_matrix_is(rec))
		return 0;     /* a matrix has no one figure for a row */
	ptb_row_of(rec->bench, rec->params, &pr);
	key.order = pr.order;
	key.footnote = pr.footnote;
	for (int f = 0; f < (logp ? NLOGP : 1); f++) {
		if (logp) {
			ptb_textf(key.group, sizeof key.group, "%s, %s", pr.group, pr.label);
			ptb_textf(key.label, sizeof key.label, "%s", ptb_logp_fields[f].label);
			key.sub = f + 1;
		} else {
			ptb_textf(key.group, sizeof key.group, "%s", pr.group);
			ptb_textf(key.label, sizeof key.label, "%s", pr.label);
		}
		if (place_in_row(t, c, &key, rec) < 0)
			return -1;
	}
	return 0;
}

/* ---- cells -------------------------------------------------------------- */

/* Footnote numbers of one cell, printed "[1,4]" in ascending order. */
struct marks {
	int n, num[8];
};

static void cell_mark(struct table *t, struct marks *m, const char *note)
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
		ptb_appendf(buf, len, "%s%d%s", i ? "," : " [", m->num[i], i == m->n - 1 ? "]" : "");
}

/* A value in µs as ptbench prints it; for the mean of a transcribed
 * record, the digits it was published with. */
static void value_text(const struct table *t, const struct ptb_record *rec, double ns,
		       char *buf, size_t len)
{
	const char *published = ptb_jstr(rec->json, "published");
	if (published && t->stat == PTB_STAT_MEAN)
		ptb_textf(buf, len, "%s", published);
	else
		ptb_fmt_us(buf, len, ns);
}

static void value_cell(struct table *t, const struct row *r, const struct ptb_record *rec,
		       const char **note, char *buf, size_t len)
{
	double v = r->sub ? ptb_jnum(rec->json, ptb_logp_fields[r->sub - 1].key)
			  : ptb_table_figure(t->stat, rec, note);
	double hw = ptb_jnum(rec->json, "ci_halfwidth_pct");
	if (isnan(v))   /* a LogP parameter whose input is missing */
		snprintf(buf, len, "%s", r->sub ? "N/A" : "?");
	else
		value_text(t, rec, v, buf, len);
	if (!isnan(v) && !r->sub && t->stat == PTB_STAT_MEAN && isfinite(hw))
		ptb_appendf(buf, len, hw < 1 ? " \u00b1<1 %%" : " \u00b1%.0f %%", hw);
	if (rec->status == PTB_UNSTABLE && !rec->disturbed_only && !isnan(v)) {
		ptb_appendf(buf, len, "%s", PTB_UNSTABLE_MARK);
		t->any_unstable = true;
	}
	if (rec->disturbed && !isnan(v)) {
		ptb_appendf(buf, len, "%s", PTB_DISTURBED_MARK);
		t->any_disturbed = true;
	}
}

static void table_cell(struct table *t, const struct row *r, int c, char *buf, size_t len)
{
	const struct ptb_record *rec = r->rec[c];
	const char *note = NULL;
	struct marks m = { 0 };
	const json_t *fn;
	size_t i;
	if (!rec) {
		snprintf(buf, len, "-");
		return;
	}
	if (folded(t, c, rec)) {
		snprintf(buf, len, "N/A");
		cell_mark(t, &m, t->absent_note[c]);
		append_marks(&m, buf, len);
		return;
	}
	if (rec->has_value)
		value_cell(t, r, rec, &note, buf, len);
	else
		ptb_textf(buf, len, "%s", rec->status == PTB_NA ? "N/A" : rec->status_name);
	cell_mark(t, &m, rec->disturbed_only ? NULL : rec->reason);   /* the legend says it */
	cell_mark(t, &m, note);
	json_array_foreach(json_object_get(rec->json, "footnotes"), i, fn)
		cell_mark(t, &m, json_string_value(fn));
	if (r->sub && rec->has_value) {
		const char *key = ptb_logp_fields[r->sub - 1].key;
		const char *in = ptb_jstr(json_object_get(rec->json, "inputs"), key);
		char why[256];
		ptb_textf(why, sizeof why, "%s derived from %s", key, in ? in : "");
		cell_mark(t, &m, in ? why : NULL);
	}
	append_marks(&m, buf, len);
}

/* A LogP placement no machine has figures for is one row, not five: its
 * cells are N/A for a reason already given by the points it needs.  The
 * rows are sorted, so a group's five are adjacent. */
static void fold_empty_logp(struct table *t)
{
	for (int i = 0; i + NLOGP <= t->nrows; i++) {
		bool valued = false;
		if (t->row[i].sub != 1)
			continue;
		for (int k = i; k < i + NLOGP; k++)
			for (int c = 0; c < t->ncols; c++)
				valued |= t->row[k].rec[c] && t->row[k].rec[c]->has_value;
		if (valued)
			continue;
		t->row[i].label[0] = 0;
		for (int f = 0; f < NLOGP; f++)
			ptb_appendf(t->row[i].label, sizeof t->row[i].label, "%s%s", f ? ", " : "",
				    ptb_logp_fields[f].head);
		for (int k = i + 1; k < i + NLOGP; k++)
			t->row[k].hidden = true;
	}
}

/* A row whose every point is folded or missing says nothing the
 * machines' footnotes do not. */
static void hide_folded(struct table *t)
{
	for (int i = 0; i < t->nrows; i++) {
		bool any = false, all = true;
		for (int c = 0; c < t->ncols; c++) {
			const struct ptb_record *rec = t->row[i].rec[c];
			bool f = rec && folded(t, c, rec);
			any |= f;
			all &= !rec || f;
		}
		t->row[i].hidden |= any && all;
	}
}

/* One footnote per machine that lacks placements, numbered before the
 * cells' so that it is there even when no row is left to point at it:
 * "vm (AMD EPYC): not on this machine: smt, cross_numa (...)". */
static void absent_notes(struct table *t)
{
	char text[256];
	for (int c = 0; c < t->ncols; c++) {
		ptb_absent_text(text, sizeof text, t->absent[c]);
		t->absent_note[c][0] = 0;
		if (!*text)
			continue;
		ptb_textf(t->absent_note[c], sizeof t->absent_note[c],
			  "%s: not on this machine: %s", t->names[c], text);
		ptb_footnote(&t->notes, t->absent_note[c]);
	}
}

static int build_grid(struct table *t, struct ptb_grid *g)
{
	char buf[512];
	int shown = 0;
	for (int i = 0; i < t->nrows; i++)
		shown += !t->row[i].hidden;
	if (ptb_grid_init(g, shown + 1, t->ncols + 2, 2))
		return -1;
	g->blank_repeats = true;
	ptb_grid_set(g, 0, 0, "Test");
	for (int c = 0; c < t->ncols; c++)
		ptb_grid_set(g, 0, c + 2, t->names[c]);
	for (int i = 0, y = 1; i < t->nrows; i++) {
		const struct row *r = &t->row[i];
		bool lone = !r->group[0];
		struct marks m = { 0 };
		if (r->hidden)
			continue;
		ptb_textf(buf, sizeof buf, "%s", r->label);
		cell_mark(t, &m, r->sub <= 1 ? r->footnote : NULL);
		append_marks(&m, buf, sizeof buf);
		ptb_grid_set(g, y, 0, lone ? buf : r->group);
		ptb_grid_set(g, y, 1, lone ? "" : buf);
		for (int c = 0; c < t->ncols; c++) {
			table_cell(t, r, c, buf, sizeof buf);
			ptb_grid_set(g, y, c + 2, buf);
		}
		y++;
	}
	return 0;
}

/* ---- printing ----------------------------------------------------------- */

/* Footnotes as rows "[n]", text (and the marks' legends), for CSV. */
static int build_notes(const struct table *t, struct ptb_grid *n)
{
	char num[16];
	const char *mark[2], *text[2];
	int nl = ptb_mark_legends(t->any_unstable, t->any_disturbed, mark, text);
	if (ptb_grid_init(n, t->notes.n + nl, 2, 2))
		return -1;
	for (int i = 0; i < t->notes.n; i++) {
		snprintf(num, sizeof num, "[%d]", i + 1);
		ptb_grid_set(n, i, 0, num);
		ptb_grid_set(n, i, 1, t->notes.text[i]);
	}
	for (int i = 0; i < nl; i++) {
		ptb_grid_set(n, t->notes.n + i, 0, mark[i]);
		ptb_grid_set(n, t->notes.n + i, 1, text[i]);
	}
	return 0;
}

/* The machine block in Markdown: a list per machine, long texts and all. */
static void print_md_machines(FILE *out, const struct ptb_grid *m)
{
	for (int c = 1; c < m->ncols; c++) {
		fprintf(out, "\n%s:\n", ptb_grid_at(m, 0, c));
		for (int r = 1; r < m->nrows; r++)
			if (*ptb_grid_at(m, r, c))
				fprintf(out, "- %s: %s\n", ptb_grid_at(m, r, 0), ptb_grid_at(m, r, c));
	}
}

/* The caption, the table and its notes; as a whole page (tools/page.h),
 * the machines under them. */
static void print_html(FILE *out, const struct table *t, const char *caption,
		       const struct ptb_grid *g, const struct ptb_grid *m, bool fragment)
{
	if (!fragment)
		ptb_page_open(out, "ptbench table");
	ptb_page_para(out, "caption", caption);
	ptb_page_grid(out, g);
	fputs("<div class=\"notes\">\n", out);
	const char *mark[2], *text[2];
	for (int i = 0, nl = ptb_mark_legends(t->any_unstable, t->any_disturbed, mark, text);
	     i < nl; i++)
		ptb_page_para(out, NULL, text[i]);
	for (int i = 0; i < t->notes.n; i++) {
		fprintf(out, "<p>[%d] ", i + 1);
		ptb_html_text(out, t->notes.text[i]);
		fputs("</p>\n", out);
	}
	fputs("</div>\n", out);
	if (fragment)
		return;
	fputs("<h2 id=\"machines\">Machines</h2>\n", out);
	ptb_page_grid(out, m);
	ptb_page_close(out);
}

static int print_table(FILE *out, struct table *t, const struct ptb_table_opts *o)
{
	struct ptb_grid g = { 0 }, m = { 0 }, n = { 0 };
	char caption[320];
	int rc = -1;
	const char *mark[2], *text[2];
	bool trials = false;
	for (int c = 0; c < t->ncols; c++)
		trials |= t->runs[c]->version > 1;
	snprintf(caption, sizeof caption, "Values in µs per operation: %s%s%s.",
		 ptb_table_stat_words(t->stat), trials ? "; for runs made of trials (ptbench/2), the median "
		 "over independent trials of that figure" : "", trials && t->stat == PTB_STAT_MEAN ?
		 ", \u00b1 the half-width of its 95 % CI" : "");
	absent_notes(t);
	if (build_grid(t, &g) || ptb_machines_grid(&m, t->runs, t->ncols, t->names) ||
	    build_notes(t, &n))
		goto out;
	switch (o->format) {
	case PTB_TABLE_MD:
		fprintf(out, "%s\n\n", caption);
		ptb_grid_print(out, &g, PTB_GRID_MD, NULL, 0);
		fputc('\n', out);
		for (int i = 0; i < ptb_mark_legends(t->any_unstable, t->any_disturbed, mark, text);
		     i++)
			fprintf(out, "%s\n", text[i]);
		ptb_footnotes_print(out, &t->notes);
		print_md_machines(out, &m);
		break;
	case PTB_TABLE_CSV:
		ptb_grid_print(out, &g, PTB_GRID_CSV, NULL, g.ncols);
		ptb_grid_print(out, &m, PTB_GRID_CSV, "machine", g.ncols);
		ptb_grid_print(out, &n, PTB_GRID_CSV, "footnote", g.ncols);
		break;
	default:
		print_html(out, t, caption, &g, &m, o->fragment);
		break;
	}
	rc = 0;
out:
	ptb_grid_free(&g);
	ptb_grid_free(&m);
	ptb_grid_free(&n);
	return rc;
}

int ptb_table_print(FILE *out, struct ptb_runfile *const *runs, int n,
		    const struct ptb_table_opts *o)
{
	struct table t = { .ncols = n, .stat = o->stat, .all_rows = o->all_rows, .runs = runs,
			   .index = json_object() };
	int rc = t.index ? 0 : -1;
	t.names = calloc((size_t)n + 1, sizeof *t.names);
	t.absent = calloc((size_t)n + 1, sizeof *t.absent);
	t.absent_note = calloc((size_t)n + 1, sizeof *t.absent_note);
	rc |= t.names && t.absent && t.absent_note ? 0 : -1;
	for (int c = 0; !rc && c < n; c++)
		for (size_t i = 0; !rc && i < runs[c]->n; i++)
			rc = place_record(&t, c, &runs[c]->rec[i]);
	if (!rc) {
		ptb_machines_names(runs, n, t.names);
		if (t.nrows)    /* no rows: t.row is NULL, which qsort may not get */
			qsort(t.row, (size_t)t.nrows, sizeof *t.row, row_cmp);
		hide_folded(&t);
		fold_empty_logp(&t);
		rc = print_table(out, &t, o);
	}
	for (int i = 0; i < t.nrows; i++)
		free(t.row[i].rec);
	free(t.row);
	free(t.names);
	free(t.absent);
	free(t.absent_note);
	json_decref(t.index);
	ptb_footnotes_free(&t.notes);
	return rc;
}
