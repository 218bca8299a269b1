/* SPDX-License-Identifier: MIT */
/*
 * The table reporter: a run laid out like Table 1 of the founding paper --
 * one row per point in the paper's order (harness/rows.c), the mean in µs,
 * "N/A" where the machine cannot run a test -- followed by the LogP
 * parameters.  Everything a number needs to be read correctly is in a
 * numbered footnote: why a cell is N/A, why a value is marked unstable
 * ("*"), how a row differs from the paper's test, the figures a benchmark
 * noted beside its result and the points a LogP parameter came from.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "report/rows.h"

/* One row of a section as it will be printed. */
struct line {
	const json_t *rec;
	size_t index;           /* in the file: rows that tie keep file order */
	struct ptb_row row;
	char name[128];         /* label and the row's footnote mark */
	char value[5][32];      /* the main table uses value[0] */
	char marks[64];         /* "*", " [3]": after the last value */
};

/* Widths of the text columns: group, label, and both together. */
struct textcol {
	int group, label, all;
};

static void mark(char *marks, size_t len, struct ptb_footnotes *fn, const char *text)
{
	int n = ptb_footnote(fn, text);
	size_t used = strlen(marks);
	if (n > 0 && used < len)
		snprintf(marks + used, len - used, " [%d]", n);
}

static int by_row(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	int c = ptb_row_cmp(&x->row, &y->row);
	return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

static bool is_logp(const json_t *rec)
{
	const char *bench = ptb_jstr(rec, "bench");
	return bench && !strncmp(bench, "logp.", 5);
}

/* The records of one section, in table order. */
static struct line *collect(const json_t *results, bool logp, int *count)
{
	size_t i, n = 0;
	json_t *rec;
	struct line *l = calloc(json_array_size(results) + 1, sizeof *l);
	if (!l)
		return NULL;
	json_array_foreach(results, i, rec) {
		if (is_logp(rec) != logp)
			continue;
		l[n].rec = rec;
		l[n].index = i;
		ptb_row_of(ptb_jstr(rec, "bench"), json_object_get(rec, "params"), &l[n].row);
		n++;
	}
	qsort(l, n, sizeof *l, by_row);
	*count = (int)n;
	return l;
}

static void name_and_row_note(struct line *l, struct ptb_footnotes *fn)
{
	char marks[16] = "";
	if (l->row.footnote)
		mark(marks, sizeof marks, fn, l->row.footnote);
	snprintf(l->name, sizeof l->name, "%s%s", l->row.label, marks);
}

/* "notes: switches = 20480, base_slice_ns = 3000000" */
static void notes_text(char *buf, size_t len, const json_t *notes)
{
	const char *key;
	json_t *v;
	size_t used = (size_t)snprintf(buf, len, "notes:");
	json_object_foreach((json_t *)notes, key, v) {
		char num[64];
		if (json_is_string(v))
			snprintf(num, sizeof num, "%s", json_string_value(v));
		else
			ptb_fmt_jnum(num, sizeof num, v);
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s %s = %s",
						 used > 6 ? "," : "", key, *num ? num : "null");
	}
}

/* Why a point has no value, or what its value needs said; "" if nothing. */
static void status_note(char *buf, size_t len, const json_t *rec, const char *status)
{
	const char *reason = ptb_jstr(rec, "reason");
	if (!strcmp(status, "unstable")) {
		double cv = ptb_jnum(rec, "cv_pct");
		int n = snprintf(buf, len, "unstable: stopped at %s",
				 ptb_jstr(rec, "stop") ? ptb_jstr(rec, "stop") : "a limit");
		if (isfinite(cv) && n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, ", cv %.1f %%", cv);
		if (reason && n >= 0 && (size_t)n < len)
			snprintf(buf + n, len - (size_t)n, "; %s", reason);
	} else if (!strcmp(status, "ok")) {
		snprintf(buf, len, "%s", "");
	} else if (reason) {
		snprintf(buf, len, "%s%s%s", strcmp(status, "na") ? status : "",
			 strcmp(status, "na") ? ": " : "", reason);
	} else {
		snprintf(buf, len, "%s", strcmp(status, "na") ? status : "not available here");
	}
}

/* The value cell of a point and its marks. */
static void point_cell(struct line *l, struct ptb_footnotes *fn)
{
	const char *status = ptb_jstr(l->rec, "status") ? ptb_jstr(l->rec, "status") : "?";
	bool measured = !strcmp(status, "ok") || !strcmp(status, "unstable");
	char note[512];
	if (measured)
		ptb_fmt_us(l->value[0], sizeof l->value[0], ptb_jnum(l->rec, "mean"));
	else
		snprintf(l->value[0], sizeof l->value[0], "%s", strcmp(status, "na") ? status : "N/A");
	if (!*l->value[0])
		snprintf(l->value[0], sizeof l->value[0], "-");
	if (!strcmp(status, "unstable"))
		snprintf(l->marks, sizeof l->marks, "*");
	status_note(note, sizeof note, l->rec, status);
	if (*note)
		mark(l->marks, sizeof l->marks, fn, note);
	if (json_object_size(json_object_get(l->rec, "notes")) > 0) {
		notes_text(note, sizeof note, json_object_get(l->rec, "notes"));
		mark(l->marks, sizeof l->marks, fn, note);
	}
}

/* LogP parameters of one record, in the order of the section's columns. */
static const struct {
	const char *head;
	const char *field;
} logp_columns[] = {
	/* head    field */
	{ "o_s",   "o_s" },
	{ "o_r",   "o_r" },
	{ "RTT",   "rtt" },
	{ "L",     "L" },
	{ "g",     "g" },
};
#define NLOGP (int)(sizeof logp_columns / sizeof logp_columns[0])

static void logp_cells(struct line *l, struct ptb_footnotes *fn)
{
	const char *status = ptb_jstr(l->rec, "status") ? ptb_jstr(l->rec, "status") : "?";
	const json_t *inputs = json_object_get(l->rec, "inputs");
	char note[512];
	if (strcmp(status, "ok") && strcmp(status, "unstable")) {
		point_cell(l, fn);
		return;
	}
	if (!strcmp(status, "unstable"))
		snprintf(l->marks, sizeof l->marks, "*");
	if (ptb_jstr(l->rec, "reason"))
		mark(l->marks, sizeof l->marks, fn, ptb_jstr(l->rec, "reason"));
	for (int c = 0; c < NLOGP; c++) {
		ptb_fmt_us(l->value[c], sizeof l->value[c], ptb_jnum(l->rec, logp_columns[c].field));
		if (!*l->value[c])
			snprintf(l->value[c], sizeof l->value[c], "-");
	}
	if (json_object_size(inputs) > 0) {
		const char *key;
		json_t *v;
		size_t used = (size_t)snprintf(note, sizeof note, "from");
		json_object_foreach((json_t *)inputs, key, v)
			if (used < sizeof note)
				used += (size_t)snprintf(note + used, sizeof note - used, "%s %s = %s",
							 used > 4 ? ";" : "", key,
							 json_string_value(v) ?: "?");
		mark(l->marks, sizeof l->marks, fn, note);
	}
}

static int max(int a, int b)
{
	return a > b ? a : b;
}

static struct textcol text_widths(const struct line *l, int n, const char *head)
{
	struct textcol t = { 0, 0, ptb_text_width(head) };
	int lone = 0;
	for (int i = 0; i < n; i++) {
		if (*l[i].row.group) {
			t.group = max(t.group, ptb_text_width(l[i].row.group));
			t.label = max(t.label, ptb_text_width(l[i].name));
		} else {
			lone = max(lone, ptb_text_width(l[i].name));
		}
	}
	t.all = max(t.all, max(lone, t.group ? t.group + 2 + t.label : 0));
	return t;
}

static void pad(FILE *out, const char *s, int width)
{
	fputs(s, out);
	for (int w = ptb_text_width(s); w < width; w++)
		fputc(' ', out);
}

/* The text columns of a row; a group's name only on its first row. */
static void print_text(FILE *out, const struct line *l, const struct line *prev,
		       const struct textcol *t)
{
	if (!*l->row.group) {
		pad(out, l->name, t->all);
		return;
	}
	bool first = !prev || strcmp(prev->row.group, l->row.group);
	pad(out, first ? l->row.group : "", t->group);
	fputs("  ", out);
	pad(out, l->name, t->all - t->group - 2);
}

static void print_value(FILE *out, const char *value, int width)
{
	fprintf(out, "  %*s", width + (int)strlen(value) - ptb_text_width(value), value);
}

static void main_section(FILE *out, struct line *l, int n, const char *host,
			 struct ptb_footnotes *fn)
{
	int vw = ptb_text_width(host);
	for (int i = 0; i < n; i++) {
		name_and_row_note(&l[i], fn);
		point_cell(&l[i], fn);
		vw = max(vw, ptb_text_width(l[i].value[0]));
	}
	struct textcol t = text_widths(l, n, "Test");
	pad(out, "Test", t.all);
	print_value(out, host, vw);
	fputc('\n', out);
	for (int i = 0; i < n; i++) {
		print_text(out, &l[i], i ? &l[i - 1] : NULL, &t);
		print_value(out, l[i].value[0], vw);
		fprintf(out, "%s\n", l[i].marks);
	}
}

static void logp_section(FILE *out, struct line *l, int n, struct ptb_footnotes *fn)
{
	int vw[NLOGP];
	for (int c = 0; c < NLOGP; c++)
		vw[c] = ptb_text_width(logp_columns[c].head);
	for (int i = 0; i < n; i++) {
		name_and_row_note(&l[i], fn);
		logp_cells(&l[i], fn);
		for (int c = 0; c < NLOGP; c++)
			vw[c] = max(vw[c], ptb_text_width(l[i].value[c]));
	}
	struct textcol t = text_widths(l, n, "LogP parameters");
	fprintf(out, "\nLogP parameters in µs (L = RTT/2 - o_s - o_r; g the gap between sends)\n");
	pad(out, "", t.all);
	for (int c = 0; c < NLOGP; c++)
		print_value(out, logp_columns[c].head, vw[c]);
	fputc('\n', out);
	for (int i = 0; i < n; i++) {
		print_text(out, &l[i], i ? &l[i - 1] : NULL, &t);
		for (int c = 0; c < NLOGP && *l[i].value[c]; c++)
			print_value(out, l[i].value[c], vw[c]);
		fprintf(out, "%s\n", l[i].marks);
	}
}

static void header(FILE *out, const json_t *run)
{
	const json_t *ctx = json_object_get(run, "context");
	const json_t *cpu = json_object_get(ctx, "cpu");
	const char *hv = ptb_jstr(cpu, "hypervisor"), *status = ptb_jstr(run, "status");
	fprintf(out, "Host: %s\n", ptb_jstr(ctx, "host") ?: "?");
	fprintf(out, "CPU: %s%s%s%s\n", ptb_jstr(cpu, "brand") ?: "?", hv && *hv ? " (" : "",
		hv && *hv ? hv : "", hv && *hv ? ")" : "");
	if (ptb_jstr(ctx, "date"))
		fprintf(out, "Date: %s\n", ptb_jstr(ctx, "date"));
	if (ptb_jstr(run, "source"))
		fprintf(out, "Mean time of one operation in µs, from %s\n", ptb_jstr(run, "source"));
	else
		fprintf(out, "Mean time of one operation in µs, measured by ptbench %s\n",
			ptb_jstr(run, "version") ?: "?");
	if (status && strcmp(status, "complete"))
		fprintf(out, "Run %s: only the points that finished are shown\n", status);
	fputc('\n', out);
}

static void warnings(FILE *out, const json_t *ctx)
{
	const json_t *w = json_object_get(ctx, "warnings"), *v;
	size_t i;
	if (json_array_size(w) == 0)
		return;
	fprintf(out, "\nWarnings:\n");
	json_array_foreach(w, i, v)
		if (json_is_string(v))
			fprintf(out, "  %s\n", json_string_value(v));
}

void ptb_report_table(FILE *out, const json_t *run)
{
	const json_t *results = json_object_get(run, "results");
	const json_t *ctx = json_object_get(run, "context");
	struct ptb_footnotes fn = { 0 };
	int n, nlogp;
	struct line *rows = collect(results, false, &n), *logp = collect(results, true, &nlogp);
	header(out, run);
	if (rows && logp) {
		main_section(out, rows, n, ptb_jstr(ctx, "host") ?: "value", &fn);
		if (nlogp)
			logp_section(out, logp, nlogp, &fn);
	}
	if (fn.n)
		fputc('\n', out);
	ptb_footnotes_print(out, &fn);
	warnings(out, ctx);
	ptb_footnotes_free(&fn);
	free(rows);
	free(logp);
}
