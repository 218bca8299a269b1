/* SPDX-License-Identifier: MIT */
/*
 * Relative figures and the cache-levels section of the run table
 * (report/levels.h).
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/levels.h"
#include "report/grid.h"
#include "report/levels.h"
#include "text/text.h"

/* The value VAR has in a "BENCH VAR=VALUE ..." spec, or NULL. */
static const char *spec_value(const char *spec, const char *var, char *buf, size_t len)
{
	size_t n = strlen(var);
	for (const char *t = strchr(spec, ' '); t; t = strchr(t + 1, ' ')) {
		if (strncmp(t + 1, var, n) || t[1 + n] != '=')
			continue;
		snprintf(buf, len, "%.*s", (int)strcspn(t + 2 + n, " "), t + 2 + n);
		return buf;
	}
	return NULL;
}

/* The first value of a variable's defaults. */
static const char *first_default(const struct ptb_param *p, char *buf, size_t len)
{
	snprintf(buf, len, "%.*s", (int)strcspn(p->defaults ? p->defaults : "", ","),
		 p->defaults ? p->defaults : "");
	return buf;
}

static bool is_reference(const struct ptb_record *rec, const struct ptb_bench *ref,
			 const char *spec, const struct ptb_record *r)
{
	char want[64], dflt[64];
	if (!rec->bench || strcmp(rec->bench, ref->name) || rec->is_derived)
		return false;
	for (const struct ptb_param *p = ref->params; p && p->name; p++) {
		const char *have = ptb_jstr(rec->params, p->name);
		const char *v = spec_value(spec, p->name, want, sizeof want);
		if (!v)
			v = ptb_jstr(r->params, p->name);
		if (!v)
			v = first_default(p, dflt, sizeof dflt);
		if (!have || strcmp(have, v))
			return false;
	}
	return true;
}

const struct ptb_record *ptb_relative_ref(const struct ptb_runfile *run,
					  const struct ptb_record *r)
{
	const struct ptb_bench *b = ptb_bench_find(r->bench), *ref;
	char name[64];
	if (!b || !b->relative_to)
		return NULL;
	snprintf(name, sizeof name, "%.*s", (int)strcspn(b->relative_to, " "), b->relative_to);
	if (!(ref = ptb_bench_find(name)))
		return NULL;
	for (size_t i = 0; i < run->n; i++)
		if (is_reference(&run->rec[i], ref, b->relative_to, r))
			return &run->rec[i] != r && run->rec[i].has_value &&
			       run->rec[i].value > 0 ? &run->rec[i] : NULL;
	return NULL;
}

bool ptb_relative_text(const struct ptb_runfile *run, const struct ptb_record *r, char *buf,
		       size_t len)
{
	const struct ptb_record *ref = r->has_value ? ptb_relative_ref(run, r) : NULL;
	const struct ptb_bench *b = ptb_bench_find(r->bench);
	const char *set;
	if (!ref || !isfinite(r->value))
		return false;
	set = strchr(b->relative_to, ' ');
	snprintf(buf, len, "%.3g x %s%s", r->value / ref->value, ref->bench, set ? set : "");
	return true;
}

/* ---- the cache-levels section --------------------------------------------- */

static void bytes_cell(struct ptb_grid *g, int y, int x, const json_t *v)
{
	char buf[32];
	double b = json_number_value(v);
	if (!json_is_number(v)) {
		ptb_grid_set(g, y, x, "-");
		return;
	}
	if (b >= 1 << 20)
		snprintf(buf, sizeof buf, "%.3g MiB", b / (1 << 20));
	else
		snprintf(buf, sizeof buf, "%.3g KiB", b / 1024);
	ptb_grid_set(g, y, x, buf);
}

static void ns_cell(struct ptb_grid *g, int y, int x, const json_t *v)
{
	char buf[32];
	snprintf(buf, sizeof buf, json_is_number(v) ? "%.3g" : "-", json_number_value(v));
	ptb_grid_set(g, y, x, buf);
}

static void levels_grid(FILE *out, const json_t *rec)
{
	static const char *const heads[] = { "Level", "size", "hwloc", "latency ns",
					     "miss penalty ns" };
	const json_t *levels = json_object_get(rec, "levels"), *l;
	struct ptb_grid g;
	size_t i;
	char name[16];
	if (ptb_grid_init(&g, (int)json_array_size(levels) + 2, 5, 2) < 0)
		return;
	for (int c = 0; c < 5; c++)
		ptb_grid_set(&g, 0, c, heads[c]);
	json_array_foreach(levels, i, l) {
		int y = (int)i + 1;
		snprintf(name, sizeof name, "L%d", (int)json_integer_value(json_object_get(l, "level")));
		ptb_grid_set(&g, y, 0, name);
		bytes_cell(&g, y, 1, json_object_get(l, "size_bytes"));
		bytes_cell(&g, y, 2, json_object_get(l, "hwloc_size_bytes"));
		ns_cell(&g, y, 3, json_object_get(l, "latency_ns"));
		ns_cell(&g, y, 4, json_object_get(l, "miss_penalty_ns"));
	}
	int y = (int)json_array_size(levels) + 1;
	ptb_grid_set(&g, y, 0, "beyond");
	ptb_grid_set(&g, y, 1, "-");
	ptb_grid_set(&g, y, 2, "-");
	ns_cell(&g, y, 3, json_object_get(rec, "memory_latency_ns"));
	ptb_grid_set(&g, y, 4, "-");
	ptb_grid_print(out, &g, PTB_GRID_TEXT, NULL, 0);
	ptb_grid_free(&g);
}

static void line_text(FILE *out, const json_t *rec)
{
	char line[32], hw[32], cpu[32];
	ptb_fmt_jnum(line, sizeof line, json_object_get(rec, "line_bytes"));
	ptb_fmt_jnum(hw, sizeof hw, json_object_get(rec, "hwloc_line_bytes"));
	ptb_fmt_jnum(cpu, sizeof cpu, json_object_get(rec, "cpuid_line_bytes"));
	fprintf(out, "Line size: %s B measured; hwloc %s B, CPU %s B\n", *line ? line : "?",
		*hw ? hw : "?", *cpu ? cpu : "?");
}

void ptb_report_levels(FILE *out, const struct ptb_runfile *run, struct ptb_footnotes *fn)
{
	for (size_t i = 0; i < run->n; i++) {
		const struct ptb_record *r = &run->rec[i];
		char mark[32] = "";
		if (!ptb_levels_is_record(r))
			continue;
		if (r->reason)
			snprintf(mark, sizeof mark, " [%d]", ptb_footnote(fn, r->reason));
		fprintf(out, "\nCache levels (%s%s, derived from %s)%s\n", r->bench,
			r->status == PTB_OK ? "" : r->status == PTB_UNSTABLE ? "*" : ": N/A",
			"the latency and stride curves", mark);
		line_text(out, r->json);
		levels_grid(out, r->json);
	}
}
