/* SPDX-License-Identifier: MIT */
/*
 * The table reporter: a run laid out like Table 1 of the founding paper --
 * one row per point in the paper's order (report/rows.c), the value in µs
 * with the half-width of its 95 % CI over trials ("2.39 ±4 %"), "N/A"
 * where the machine cannot run a test -- followed by the derived
 * LogP parameters.  What a reader needs to read a number is beside it: a
 * mark explained once in a legend (report/legend.h: unstable, modes, a
 * time slice), and a numbered footnote for why a cell is N/A and how a row
 * differs from the paper's test, in plain words with numbers to three
 * significant digits.  The diagnostics a benchmark noted, the points a LogP
 * parameter came from and the harness's own account of an unstable point
 * are for --verbose (and stay in the JSON).  Points N/A for what the
 * machine lacks (report/absent.h) are one line under the table, not rows,
 * unless all rows are asked for.  Notes, legend and warnings are wrapped
 * to the width the table keeps within (PTB_REPORT_WIDTH).
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "record/logp.h"
#include "record/matrix.h"
#include "record/model.h"
#include "report/absent.h"
#include "report/format.h"
#include "report/grid.h"
#include "report/legend.h"
#include "report/levels.h"
#include "report/report.h"
#include "report/rows.h"
#include "text/text.h"

/* One record as it will be printed. */
struct line {
	const struct ptb_runfile *run;
	const struct ptb_record *rec;
	size_t index;           /* in the file: rows that tie keep file order */
	struct ptb_row row;
};

#define NLOGP PTB_LOGP_NFIELDS

/* What the rows share while the table is built. */
struct notes {
	struct ptb_footnotes fn;
	unsigned used;          /* the legend's marks used (report/legend.h) */
	bool verbose;
};

/* A footnote's mark, its numbers rounded to three significant digits. */
static void add_mark(char *marks, size_t len, struct notes *nt, const char *text)
{
	char plain[1024];
	ptb_fmt_round(plain, sizeof plain, text, 3);
	int n = ptb_footnote(&nt->fn, plain);
	if (n > 0)
		ptb_appendf(marks, len, " [%d]", n);
}

static int by_row(const void *a, const void *b)
{
	const struct line *x = a, *y = b;
	int c = ptb_row_cmp(&x->row, &y->row);
	return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

/* The measured records (derived = false) or the derived ones, in table
 * order; those N/A for what the machine lacks only add it to *absent,
 * unless all rows are wanted. */
static struct line *collect(const struct ptb_runfile *run, bool derived, bool all_rows,
			    struct ptb_absent *absent, int *count)
{
	size_t n = 0;
	struct line *l = calloc(run->n + 1, sizeof *l);
	if (!l)
		return NULL;
	for (size_t i = 0; i < run->n; i++) {
		const struct ptb_record *r = &run->rec[i];
		if (r->is_derived != derived || (derived && !ptb_logp_mechanism_of(r->bench)))
			continue;   /* other derived records have their own section */
		if (!all_rows && ptb_absent_add(run, r, absent))
			continue;
		l[n].run = run;
		l[n].rec = r;
		l[n].index = i;
		ptb_row_of(r->bench, r->params, &l[n].row);
		n++;
	}
	qsort(l, n, sizeof *l, by_row);
	*count = (int)n;
	return l;
}

/* "noted by the benchmark: switches = 20480, scheduler = EEVDF" */
static void notes_text(char *buf, size_t len, const json_t *notes)
{
	const char *key;
	json_t *v;
	snprintf(buf, len, "noted by the benchmark:");
	json_object_foreach((json_t *)notes, key, v) {
		char num[64];
		if (json_is_string(v))
			ptb_textf(num, sizeof num, "%s", json_string_value(v));
		else
			ptb_fmt_jnum(num, sizeof num, v);
		ptb_appendf(buf, len, "%s %s = %s", buf[strlen(buf) - 1] != ':' ? "," : "", key,
			    *num ? num : "null");
	}
}

/* Why a point has no value, or what its value needs said beyond its
 * marks; "" if nothing.  --verbose: the harness's account of an unstable
 * point as well (its interval and stop; a ptbench/1 point's spread). */
static void status_note(char *buf, size_t len, const struct ptb_record *r, bool verbose)
{
	buf[0] = 0;
	if (r->has_value && verbose && r->samples_are_trials) {
		ptb_textf(buf, len, "%s", r->reason ? r->reason : "");
	} else if (r->has_value && verbose && r->status == PTB_UNSTABLE) {
		double cv = ptb_jnum(r->json, "cv_pct");
		ptb_textf(buf, len, "the stopping rule never held: stopped at %s",
			  ptb_jstr(r->json, "stop") ?: "a limit");
		if (isfinite(cv))
			ptb_appendf(buf, len, ", the timings' sd %.1f %% of their mean", cv);
		if (r->reason)
			ptb_appendf(buf, len, "; %s", r->reason);
	} else if (r->has_value) {
		ptb_reason_unmarked(buf, len, r);
	} else if (r->status != PTB_OK) {
		bool na = r->status == PTB_NA;
		if (r->reason)
			ptb_textf(buf, len, "%s%s%s", na ? "" : r->status_name, na ? "" : ": ", r->reason);
		else
			snprintf(buf, len, "%s", na ? "not available here" : r->status_name);
	}
}

/* A point without a value: "N/A", or its status. */
static const char *no_value(const struct ptb_record *r)
{
	return r->status == PTB_NA ? "N/A" : r->status_name;
}

/* The marks of a point's value: the legend's, its status note and, with
 * --verbose, its notes. */
static void point_marks(const struct ptb_record *r, struct notes *nt, char *marks, size_t len)
{
	char note[512];
	const json_t *notes = json_object_get(r->json, "notes");
	nt->used |= ptb_record_marks(r);
	ptb_marks_text(marks, len, ptb_record_marks(r));
	status_note(note, sizeof note, r, nt->verbose);
	if (*note)
		add_mark(marks, len, nt, note);
	if (nt->verbose && json_object_size(notes) > 0) {
		notes_text(note, sizeof note, notes);
		add_mark(marks, len, nt, note);
	}
}

/* The row's text cells: a group's rows in two columns, a lone row in one. */
static void text_cells(struct ptb_grid *g, int y, const struct line *l, struct notes *nt)
{
	char name[256] = "";
	ptb_textf(name, sizeof name, "%s", l->row.label);
	if (l->row.time_sliced)
		nt->used |= 1u << PTB_MARK_TIME_SLICE;
	if (l->row.footnote)
		add_mark(name, sizeof name, nt, l->row.footnote);
	if (*l->row.group) {
		ptb_grid_set(g, y, 0, l->row.group);
		ptb_grid_set(g, y, 1, name);
	} else {
		ptb_grid_set(g, y, 0, name);
		ptb_grid_span(g, y);
	}
}

/* The value in µs and, for a value from trials, its CI's half-width:
 * "2.39 ±4 %", "±<1 %" below one percent. */
static void value_text(char *buf, size_t len, const struct ptb_record *r)
{
	double hw = ptb_jnum(r->json, "ci_halfwidth_pct");
	ptb_fmt_us(buf, len, r->value);
	if (!r->samples_are_trials || !isfinite(hw))
		return;
	if (hw < 1)
		ptb_appendf(buf, len, " \u00b1<1 %%");
	else
		ptb_appendf(buf, len, " \u00b1%.0f %%", hw);
}

static void point_cells(struct ptb_grid *g, int y, const struct line *l, struct notes *nt)
{
	char value[128], marks[64];
	text_cells(g, y, l, nt);
	if (l->rec->has_value) {
		char rel[96];
		value_text(value, sizeof value, l->rec);
		if (ptb_relative_text(l->run, l->rec, rel, sizeof rel))
			ptb_appendf(value, sizeof value, "  (%s)", rel);
	} else
		ptb_textf(value, sizeof value, "%s", no_value(l->rec));
	ptb_grid_set(g, y, 2, *value ? value : "-");
	point_marks(l->rec, nt, marks, sizeof marks);
	ptb_grid_tail(g, y, marks);
}

/* "from o_s = BENCH VAR=VALUE; o_r = ..." */
static void inputs_text(char *buf, size_t len, const json_t *inputs)
{
	const char *key;
	json_t *v;
	snprintf(buf, len, "from");
	json_object_foreach((json_t *)inputs, key, v)
		ptb_appendf(buf, len, "%s %s = %s", strlen(buf) > 4 ? ";" : "", key,
			    json_string_value(v) ?: "?");
}

static void logp_cells(struct ptb_grid *g, int y, const struct line *l, struct notes *nt)
{
	const struct ptb_record *r = l->rec;
	const json_t *inputs = json_object_get(r->json, "inputs");
	char value[64], marks[64] = "", note[1024];
	text_cells(g, y, l, nt);
	point_marks(r, nt, marks, sizeof marks);
	if (!r->has_value) {
		ptb_grid_set(g, y, 2, no_value(r));
		ptb_grid_tail(g, y, marks);
		return;
	}
	for (int c = 0; c < NLOGP; c++) {
		ptb_fmt_us(value, sizeof value, ptb_jnum(r->json, ptb_logp_fields[c].key));
		ptb_grid_set(g, y, 2 + c, *value ? value : "-");
	}
	if (nt->verbose && json_object_size(inputs) > 0) {
		inputs_text(note, sizeof note, inputs);
		add_mark(marks, sizeof marks, nt, note);
	}
	ptb_grid_tail(g, y, marks);
}

typedef void cells_fn(struct ptb_grid *g, int y, const struct line *l, struct notes *nt);

/* A section: a header row and one row per line, printed aligned. */
static void section(FILE *out, const struct line *l, int n, int values,
		    const char *const *heads, cells_fn *row, struct notes *nt)
{
	struct ptb_grid g;
	if (ptb_grid_init(&g, n + 1, 2 + values, 2) < 0)
		return;
	g.blank_repeats = true;
	ptb_grid_set(&g, 0, 0, heads[0]);
	ptb_grid_span(&g, 0);
	for (int c = 0; c < values; c++)
		ptb_grid_set(&g, 0, 2 + c, heads[1 + c]);
	for (int i = 0; i < n; i++)
		row(&g, i + 1, &l[i], nt);
	ptb_grid_print(out, &g, PTB_GRID_TEXT, NULL, 0);
	ptb_grid_free(&g);
}

/* "Label: text" with the file's text escaped (text/text.h). */
static void line(FILE *out, const char *label, const char *text, const char *end)
{
	fputs(label, out);
	ptb_fputs_printable(out, text);
	fputs(end, out);
}

static void header(FILE *out, const struct ptb_runfile *run)
{
	const char *hv = ptb_jstr(json_object_get(run->context, "cpu"), "hypervisor");
	const char *source = ptb_jstr(run->doc, "source");
	const char *version = ptb_jstr(run->doc, "version") ?: "?";
	line(out, "Host: ", run->host ?: "?", "\n");
	line(out, "CPU: ", run->brand ?: "?", "");
	if (hv && *hv)
		line(out, " (", hv, ")");
	fputc('\n', out);
	if (run->date)
		line(out, "Date: ", run->date, "\n");
	if (source)
		line(out, "Mean time of one operation in µs, from ", source, "\n");
	else if (run->version == 1)
		line(out, "Mean time of one operation in µs, measured by ptbench ", version, "\n");
	else
		line(out, "Time of one operation in µs, measured by ptbench ", version,
		     ": the median of independent trials\n(each the mean of many operations), "
		     "\u00b1 the half-width of its 95 % confidence interval\n");
	if (strcmp(run->status, "complete"))
		fprintf(out, "Run %s: only the points that finished are shown\n", run->status);
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
		if (json_is_string(v)) {
			char *text = ptb_printable(json_string_value(v));
			fputs("  ", out);
			ptb_fputs_wrapped(out, text ? text : "?", PTB_REPORT_WIDTH - 2, 4);
			free(text);
		}
}

/* "Not on this machine: smt, cross_numa (1 PU per core, 1 NUMA node)" */
static void absent_line(FILE *out, const struct ptb_absent *absent)
{
	char text[384], line[512];
	ptb_absent_text(text, sizeof text, absent);
	snprintf(line, sizeof line, "Not on this machine: %s", text);
	if (*text) {
		fputc('\n', out);
		ptb_fputs_wrapped(out, line, PTB_REPORT_WIDTH, 2);
	}
}

/* The legend of the marks used, then the numbered footnotes. */
static void notes_block(FILE *out, const struct notes *nt)
{
	char line[512];
	if (nt->fn.n || nt->used)
		fputc('\n', out);
	for (int i = 0; ptb_legend_line(nt->used, i, line, sizeof line); i++)
		ptb_fputs_wrapped(out, line, PTB_REPORT_WIDTH, 4);
	ptb_footnotes_print_wrapped(out, &nt->fn, PTB_REPORT_WIDTH);
}

void ptb_report_table(FILE *out, const struct ptb_runfile *run, const struct ptb_report_opts *o)
{
	/* The host names the value column, whose width every row takes: a
	 * long one is cut here (the header line above gives it whole). */
	char host[49];
	ptb_textf(host, sizeof host, "%s", run->host ?: "value");
	const char *main_heads[] = { "Test", host };
	const char *logp_heads[1 + NLOGP] = { "" };
	struct notes nt = { .verbose = o->verbose };
	struct ptb_absent absent = { 0 };
	int n, nlogp;
	struct line *rows = collect(run, false, o->all_rows, &absent, &n);
	struct line *logp = collect(run, true, o->all_rows, &absent, &nlogp);
	for (int c = 0; c < NLOGP; c++)
		logp_heads[1 + c] = ptb_logp_fields[c].head;
	header(out, run);
	if (rows && logp) {
		section(out, rows, n, 1, main_heads, point_cells, &nt);
		absent_line(out, &absent);
		if (nlogp) {
			fprintf(out, "\nLogP parameters in µs: o_s and o_r the sender's and the "
				"receiver's overhead,\nRTT the round trip, L = RTT/2 - o_s - o_r "
				"the latency, g the gap between sends\n");
			section(out, logp, nlogp, NLOGP, logp_heads, logp_cells, &nt);
		}
		nt.used |= ptb_report_levels(out, run, &nt.fn);
	}
	for (size_t i = 0; i < run->n; i++)
		if (ptb_matrix_is(&run->rec[i]))
			ptb_report_matrix(out, &run->rec[i]);
	notes_block(out, &nt);
	warnings(out, run->context);
	ptb_footnotes_free(&nt.fn);
	free(rows);
	free(logp);
}
