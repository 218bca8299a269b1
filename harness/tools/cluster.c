/* SPDX-License-Identifier: MIT */
/*
 * The cluster job's table (tools/cluster.h).  Four grids, each printed by
 * ptb_grid_print in the asked style: the nodes, the per-node suite, the
 * cross-node points and the barrier's correctness checks.  Times in µs as
 * every ptbench table prints them (report/format.h), with the marks of
 * report/legend.h ("*" unstable, "~" modes) explained once underneath.
 * The document is validated (record/cluster.c): fields are read without
 * further checks, absent ones print empty.
 */
#include <config.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "record/cluster.h"
#include "record/model.h"
#include "report/format.h"
#include "report/legend.h"
#include "report/report.h"
#include "text/text.h"
#include "tools/cluster.h"
#include "tools/page.h"
#include "tools/table.h"

/* The widest grid: the per-node rows with a column per node. */
#define CSV_WIDTH (1 + 2 + PTB_CLUSTER_NODE_COLUMNS + 4)

struct view {
	FILE *out;
	enum ptb_grid_style style;
	const json_t *doc, *ctx, *nodes;
	unsigned used;          /* legend marks used */
	struct ptb_footnotes fn;   /* why a cell is N/A, a node's warning */
	int sections;           /* printed so far (CSV: rows of each carry its name) */
};

/* A node's name as the per-node rows key it: rankN when ranks stand for
 * nodes (they share a host), else the host. */
static void node_name(const struct view *v, size_t i, char *buf, size_t len)
{
	const json_t *n = json_array_get(v->nodes, i);
	if (json_is_true(json_object_get(v->ctx, "as_nodes")))
		snprintf(buf, len, "rank%lld", (long long)json_integer_value(json_object_get(n, "rank")));
	else
		snprintf(buf, len, "%s", ptb_jstr(n, "host") ?: "?");
}

/* text with a numbered footnote's mark: "N/A [1]" */
static void noted_cell(struct view *v, struct ptb_grid *g, int r, int c, const char *text,
		       const char *note)
{
	char buf[160];
	int n = note ? ptb_footnote(&v->fn, note) : 0;
	snprintf(buf, sizeof buf, n > 0 ? "%s [%d]" : "%s", text, n);
	ptb_grid_set(g, r, c, buf);
}

static void us_cell(struct ptb_grid *g, int r, int c, const json_t *v)
{
	char buf[64] = "";
	if (json_is_number(v))
		ptb_fmt_us(buf, sizeof buf, json_number_value(v));
	ptb_grid_set(g, r, c, buf);
}

static void num_cell(struct ptb_grid *g, int r, int c, const json_t *v)
{
	char buf[64];
	ptb_fmt_jnum(buf, sizeof buf, v);
	ptb_grid_set(g, r, c, buf);
}

/* A figure with the mark its status earns: "12.3", "12.3 *", "N/A". */
static void figure_cell(struct view *v, struct ptb_grid *g, int r, int c, const json_t *fig,
			int modes)
{
	const char *status = ptb_jstr(fig, "status") ?: "";
	char buf[96] = "";
	unsigned marks = 0;
	if (!json_is_number(json_object_get(fig, "value"))) {
		ptb_grid_set(g, r, c, !strcmp(status, "na") ? "N/A" : status);
		return;
	}
	ptb_fmt_us(buf, sizeof buf, json_number_value(json_object_get(fig, "value")));
	if (!strcmp(status, "unstable"))
		marks |= 1u << PTB_MARK_UNSTABLE;
	if (modes > 1)
		marks |= 1u << PTB_MARK_MODES | 1u << PTB_MARK_UNSTABLE;
	if (marks) {
		char m[32];
		ptb_marks_text(m, sizeof m, marks);
		ptb_appendf(buf, sizeof buf, " %s", m);
		v->used |= marks;
	}
	ptb_grid_set(g, r, c, buf);
}

static void params_cell(struct ptb_grid *g, int r, int c, const json_t *params)
{
	char buf[512];
	ptb_fmt_params(buf, sizeof buf, params, " ");
	ptb_grid_set(g, r, c, buf);
}

static void heading(struct view *v, const char *text)
{
	switch (v->style) {
	case PTB_GRID_TEXT: fprintf(v->out, "%s\n", text); break;
	case PTB_GRID_MD: fprintf(v->out, "**%s**\n\n", text); break;
	case PTB_GRID_HTML: fputs("<h2>", v->out); ptb_html_text(v->out, text);
		fputs("</h2>\n", v->out); break;
	case PTB_GRID_CSV: break;   /* each row carries its section's name */
	}
}

/* A grid in the view's style; CSV rows lead with the section's name and
 * are padded to one width, so that the file is one table. */
static void emit(struct view *v, const char *title, const char *section, struct ptb_grid *g)
{
	if (v->sections++ && v->style != PTB_GRID_CSV)
		fputc('\n', v->out);
	heading(v, title);
	if (v->style == PTB_GRID_HTML)
		ptb_page_grid(v->out, g);
	else
		ptb_grid_print(v->out, g, v->style, v->style == PTB_GRID_CSV ? section : NULL,
			       CSV_WIDTH);
	ptb_grid_free(g);
}

static int nodes_grid(struct view *v)
{
	size_t n = json_array_size(v->nodes);
	const json_t *offs = json_object_get(json_object_get(v->ctx, "clock"), "offsets");
	struct ptb_grid g;
	if (ptb_grid_init(&g, (int)n + 1, 8, 4) < 0)
		return -1;
	static const char *const head[] = { "Node", "Host", "CPU", "Cpuset", "PUs", "Rank",
					     "Clock offset (ns)", "Bound (ns)" };
	for (int c = 0; c < 8; c++)
		ptb_grid_set(&g, 0, c, head[c]);
	for (size_t i = 0; i < n; i++) {
		const json_t *nd = json_array_get(v->nodes, i), *o = NULL, *e;
		size_t k;
		char name[96];
		int r = (int)i + 1;
		json_array_foreach(offs, k, e)
			if (json_equal(json_object_get(e, "rank"), json_object_get(nd, "rank")))
				o = e;
		node_name(v, i, name, sizeof name);
		ptb_grid_set(&g, r, 0, name);
		ptb_grid_set(&g, r, 1, ptb_jstr(nd, "host"));
		ptb_grid_set(&g, r, 2, ptb_jstr(json_object_get(json_object_get(nd, "context"), "cpu"),
						"brand"));
		ptb_grid_set(&g, r, 3, ptb_jstr(nd, "cpuset"));
		num_cell(&g, r, 4, json_object_get(nd, "pus"));
		num_cell(&g, r, 5, json_object_get(nd, "rank"));
		num_cell(&g, r, 6, json_object_get(o, "offset_ns"));
		num_cell(&g, r, 7, json_object_get(o, "width_ns"));
		if (json_is_true(json_object_get(nd, "fewer_pus_than_threads"))) {
			char pus[32], note[160];
			ptb_fmt_jnum(pus, sizeof pus, json_object_get(nd, "pus"));
			snprintf(note, sizeof note, "fewer PUs than the %lld threads of its rank: they "
				 "share PUs, and its figures are not those of its threads apart",
				 (long long)json_integer_value(json_object_get(v->ctx, "threads")));
			noted_cell(v, &g, r, 4, pus, note);
		}
	}
	emit(v, "Nodes", "node", &g);
	return 0;
}

/* The per-node section's title, and how its rounds started: together on
 * every node (context.node_suite), the largest start skew, on the
 * synchronised clocks. */
static void rounds_title(const struct view *v, char *buf, size_t len)
{
	const json_t *ns = json_object_get(v->ctx, "node_suite"), *r;
	size_t i;
	double worst = 0;
	json_array_foreach(json_object_get(ns, "rounds"), i, r)
		if (ptb_jnum(r, "start_skew_ns") > worst)
			worst = ptb_jnum(r, "start_skew_ns");
	char skew[32];
	snprintf(skew, sizeof skew, worst >= 1e6 ? "%.1f ms" : "%.0f µs",
		 worst >= 1e6 ? worst / 1e6 : worst / 1e3);
	if (json_is_true(json_object_get(ns, "rounds_together")))
		snprintf(buf, len, "Per node (µs): ptbench's suite on each node, its %zu rounds "
			 "started together on all nodes (start skew at most %s)",
			 json_array_size(json_object_get(ns, "rounds")), skew);
	else
		snprintf(buf, len, "Per node (µs): ptbench's suite on each node");
}

/* Per-node rows: a column per node for small clusters, else the summary
 * with the outliers named. */
static int node_rows_grid(struct view *v)
{
	const json_t *rows = json_object_get(v->doc, "node_rows"), *row;
	size_t n = json_array_size(v->nodes), nr = json_array_size(rows), i;
	bool wide = n <= PTB_CLUSTER_NODE_COLUMNS;
	int ncols = 2 + (wide ? (int)n : 0) + 4 + (wide ? 0 : 1);
	struct ptb_grid g;
	char name[96];
	if (nr == 0)
		return 0;
	if (ptb_grid_init(&g, (int)nr + 1, ncols, 2) < 0)
		return -1;
	g.blank_repeats = v->style != PTB_GRID_CSV;
	ptb_grid_set(&g, 0, 0, "Benchmark");
	ptb_grid_set(&g, 0, 1, "Parameters");
	int c = 2;
	for (i = 0; wide && i < n; i++) {
		node_name(v, i, name, sizeof name);
		ptb_grid_set(&g, 0, c++, name);
	}
	static const char *const summary[] = { "Median", "p5", "p95", "Spread %" };
	for (int k = 0; k < 4; k++)
		ptb_grid_set(&g, 0, c + k, summary[k]);
	if (!wide)
		ptb_grid_set(&g, 0, c + 4, "Outliers (> 3 MAD)");
	json_array_foreach(rows, i, row) {
		int r = (int)i + 1;
		const json_t *per = json_object_get(row, "per_node");
		ptb_grid_set(&g, r, 0, ptb_jstr(row, "bench"));
		params_cell(&g, r, 1, json_object_get(row, "params"));
		c = 2;
		for (size_t k = 0; wide && k < n; k++) {
			node_name(v, k, name, sizeof name);
			figure_cell(v, &g, r, c++, json_object_get(per, name), 0);
		}
		us_cell(&g, r, c, json_object_get(row, "median"));
		us_cell(&g, r, c + 1, json_object_get(row, "p5"));
		us_cell(&g, r, c + 2, json_object_get(row, "p95"));
		char sp[32] = "";
		if (json_is_number(json_object_get(row, "spread_pct")))
			snprintf(sp, sizeof sp, "%.1f", ptb_jnum(row, "spread_pct"));
		ptb_grid_set(&g, r, c + 3, sp);
		if (!wide) {
			char out[512];
			ptb_fmt_join(out, sizeof out, json_object_get(row, "outliers"), " ");
			ptb_grid_set(&g, r, c + 4, out);
		}
	}
	char title[256];
	rounds_title(v, title, sizeof title);
	emit(v, title, "per_node", &g);
	return 0;
}

static bool is_check(const json_t *rec)
{
	return json_object_get(rec, "violations") != NULL;
}

static int cross_grid(struct view *v)
{
	const json_t *res = json_object_get(v->doc, "results"), *rec;
	size_t i, n = 0;
	json_array_foreach(res, i, rec)
		n += !is_check(rec);
	struct ptb_grid g;
	if (n == 0)
		return 0;
	if (ptb_grid_init(&g, (int)n + 1, 5, 2) < 0)
		return -1;
	g.blank_repeats = v->style != PTB_GRID_CSV;
	static const char *const head[] = { "Benchmark", "Parameters", "µs", "95 % CI (µs)",
					    "Trials" };
	for (int c = 0; c < 5; c++)
		ptb_grid_set(&g, 0, c, head[c]);
	int r = 1;
	json_array_foreach(res, i, rec) {
		if (is_check(rec))
			continue;
		const json_t *ci = json_object_get(rec, "ci95");
		char buf[256] = "", a[48], b[48];
		ptb_grid_set(&g, r, 0, ptb_jstr(rec, "bench"));
		params_cell(&g, r, 1, json_object_get(rec, "params"));
		figure_cell(v, &g, r, 2, rec, (int)json_integer_value(json_object_get(rec, "modes")));
		if (json_array_size(ci) == 2) {
			ptb_fmt_us(a, sizeof a, json_number_value(json_array_get(ci, 0)));
			ptb_fmt_us(b, sizeof b, json_number_value(json_array_get(ci, 1)));
			snprintf(buf, sizeof buf, "%s - %s", a, b);
		}
		ptb_grid_set(&g, r, 3, buf);
		if (json_is_array(json_object_get(rec, "trials"))) {
			snprintf(buf, sizeof buf, "%zu", json_array_size(json_object_get(rec, "trials")));
			ptb_grid_set(&g, r, 4, buf);
		}
		/* an unstable figure's mark says it; why a point has none is told */
		if (!json_is_number(json_object_get(rec, "value")))
			noted_cell(v, &g, r, 2, !strcmp(ptb_jstr(rec, "status"), "na") ? "N/A"
				   : ptb_jstr(rec, "status"), ptb_jstr(rec, "reason"));
		r++;
	}
	emit(v, "Across nodes (µs, the slowest rank's)", "cross_node", &g);
	return 0;
}

static int checks_grid(struct view *v)
{
	const json_t *res = json_object_get(v->doc, "results"), *rec;
	size_t i, n = 0;
	json_array_foreach(res, i, rec)
		n += is_check(rec);
	struct ptb_grid g;
	if (n == 0)
		return 0;
	if (ptb_grid_init(&g, (int)n + 1, 6, 3) < 0)
		return -1;
	static const char *const head[] = { "Check", "Parameters", "Status", "Violations",
					    "Episodes", "Tolerance (ns)" };
	for (int c = 0; c < 6; c++)
		ptb_grid_set(&g, 0, c, head[c]);
	int r = 1;
	json_array_foreach(res, i, rec) {
		if (!is_check(rec))
			continue;
		ptb_grid_set(&g, r, 0, ptb_jstr(rec, "bench"));
		params_cell(&g, r, 1, json_object_get(rec, "params"));
		ptb_grid_set(&g, r, 2, ptb_jstr(rec, "status"));
		num_cell(&g, r, 3, json_object_get(rec, "violations"));
		num_cell(&g, r, 4, json_object_get(rec, "episodes"));
		num_cell(&g, r++, 5, json_object_get(rec, "tolerance_ns"));
	}
	emit(v, "The barrier's correctness check (a violation: a thread left before all entered)",
	     "check", &g);
	return 0;
}

/* What the job was, in a few lines (not in CSV, whose rows are data). */
static void job_lines(struct view *v)
{
	const json_t *mpi = json_object_get(v->ctx, "mpi");
	char a[512], b[512];
	char launches[64] = "";
	if (json_integer_value(json_object_get(v->ctx, "launches")) > 1)
		snprintf(launches, sizeof launches, ", trials of %lld launches",
			 (long long)json_integer_value(json_object_get(v->ctx, "launches")));
	snprintf(a, sizeof a, "%s, %s: %zu nodes%s, %lld threads per rank%s%s",
		 PTB_CLUSTER_SCHEMA, ptb_jstr(v->doc, "status"), json_array_size(v->nodes),
		 json_is_true(json_object_get(v->ctx, "as_nodes")) ? " (ranks as nodes)" : "",
		 (long long)json_integer_value(json_object_get(v->ctx, "threads")), launches,
		 strcmp(ptb_jstr(v->doc, "status"), "complete")
			 ? " -- the job did not finish: what it finished is kept" : "");
	snprintf(b, sizeof b, "MPI: %s (standard %s), thread level %s (asked %s), launcher %s; "
		 "clocks: %s", ptb_jstr(mpi, "library") ?: "?", ptb_jstr(mpi, "standard") ?: "?",
		 ptb_jstr(mpi, "provided") ?: "?", ptb_jstr(mpi, "requested") ?: "?",
		 ptb_jstr(mpi, "launcher") ?: "?",
		 ptb_jstr(json_object_get(v->ctx, "clock"), "method") ?: "not synchronised");
	if (v->style == PTB_GRID_HTML) {
		ptb_page_para(v->out, "caption", a);
		ptb_page_para(v->out, NULL, b);
	} else if (v->style != PTB_GRID_CSV) {
		fprintf(v->out, "%s\n%s\n\n", a, b);
	}
}

/* The legend of the marks used and the numbered notes, as `ptbench
 * table` prints them (tools/table-notes.c); in CSV as rows of their own. */
static int notes(struct view *v)
{
	static const enum ptb_table_format fmt[] = { [PTB_GRID_MD] = PTB_TABLE_MD,
		[PTB_GRID_HTML] = PTB_TABLE_HTML };
	struct ptb_grid g;
	if (!v->used && v->fn.n == 0)
		return 0;
	switch (v->style) {
	case PTB_GRID_TEXT:
		fputc('\n', v->out);
		ptb_legend_print(v->out, v->used, "");
		ptb_footnotes_print_wrapped(v->out, &v->fn, PTB_REPORT_WIDTH);
		return 0;
	case PTB_GRID_CSV:
		if (ptb_table_notes_grid(&g, &v->fn, v->used) < 0)
			return -1;
		emit(v, "", "note", &g);
		return 0;
	default:
		fputs(v->style == PTB_GRID_MD ? "\n" : "", v->out);
		ptb_table_notes(v->out, fmt[v->style], &v->fn, v->used);
		return 0;
	}
}

int ptb_cluster_print(FILE *out, const json_t *doc, enum ptb_grid_style style)
{
	const json_t *ctx = json_object_get(doc, "context");
	struct view v = { .out = out, .style = style, .doc = doc, .ctx = ctx,
			  .nodes = json_object_get(ctx, "nodes") };
	if (style == PTB_GRID_HTML)
		ptb_page_open(out, "ptbench cluster job");
	job_lines(&v);
	int rc = nodes_grid(&v) < 0 || node_rows_grid(&v) < 0 || cross_grid(&v) < 0 ||
		 checks_grid(&v) < 0 ? -1 : 0;
	if (!rc)
		rc = notes(&v);
	if (style == PTB_GRID_HTML)
		ptb_page_close(out);
	ptb_footnotes_free(&v.fn);
	return rc;
}
