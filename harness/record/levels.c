/* SPDX-License-Identifier: MIT */
/*
 * The derived cache-levels record (record/levels.h).  Its inputs are the
 * records of the benchmarks whose descriptors give them a levels role: the
 * stride curve (PTB_LEVELS_LINE) and the latency curve over working-set
 * sizes (PTB_LEVELS_LATENCY), each read as (variable, value) points with
 * a value, sorted by the variable.
 *
 * line_bytes is the stride at the curve's first jump (ptb_first_jump).
 * The latency curve's plateaus (ptb_plateaus) are the levels, lowest
 * first, and the last plateau is what lies beyond the last level (memory,
 * when the sweep went far enough): memory_latency_ns.  A level's size is
 * where the curve leaves its plateau, half-way in log between it and the
 * next; its latency the plateau's median; its miss penalty the next
 * plateau's latency minus its own (the seed's method ii).  Measured level
 * k is set beside hwloc's k-th data cache of the first PU (from the run's
 * context.topology.caches); the record's `disagreements` say where the
 * measurement does not bear hwloc out -- a size off by more than a factor
 * PTB_LEVELS_AGREE, a level hwloc reports that the curve does not show,
 * one it shows that hwloc does not -- and the line size is compared with
 * hwloc's and libcpuid's (context.cpu.caches).  Sizes that were not
 * wholly on huge pages are named too: TLB misses blur their steps.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/levels.h"
#include "stats/plateau.h"
#include "text/text.h"

#define MAX_PLATEAUS 8

/* One curve: the records of a benchmark by its variable, with a value. */
struct curve {
	const struct ptb_bench *b;
	double *x, *y;
	int n;
	bool any, unstable;           /* records seen; a used one unstable */
	int partly_small_pages;       /* points not wholly on huge pages */
	const char *pages_why;
};

static const struct ptb_bench *role_source(const char *record, enum ptb_levels_param param)
{
	for (int i = 0; i < ptb_registry_count; i++) {
		const struct ptb_levels_role *r = &ptb_registry[i]->levels;
		if (r->param == param && r->record && !strcmp(r->record, record))
			return ptb_registry[i];
	}
	return NULL;
}

bool ptb_levels_is_record(const struct ptb_record *rec)
{
	for (int i = 0; rec->bench && i < ptb_registry_count; i++) {
		const struct ptb_levels_role *r = &ptb_registry[i]->levels;
		if (r->record && !strcmp(r->record, rec->bench))
			return true;
	}
	return false;
}

static void sort_curve(struct curve *c)
{
	for (int i = 1; i < c->n; i++)
		for (int j = i; j > 0 && c->x[j - 1] > c->x[j]; j--) {
			double tx = c->x[j], ty = c->y[j];
			c->x[j] = c->x[j - 1];
			c->y[j] = c->y[j - 1];
			c->x[j - 1] = tx;
			c->y[j - 1] = ty;
		}
}

static void pages_of(struct curve *c, const struct ptb_record *rec)
{
	const json_t *notes = json_object_get(rec->json, "notes");
	double huge = ptb_jnum(notes, "huge_pages");
	if (isfinite(huge) && huge < 1) {
		c->partly_small_pages++;
		c->pages_why = ptb_jstr(notes, "pages");
	}
}

static int read_curve(const struct ptb_runfile *run, const struct ptb_bench *b, struct curve *c)
{
	memset(c, 0, sizeof *c);
	c->b = b;
	if (!b)
		return 0;
	c->x = calloc(run->n + 1, sizeof *c->x);
	c->y = calloc(run->n + 1, sizeof *c->y);
	if (!c->x || !c->y)
		return -1;
	for (size_t i = 0; i < run->n; i++) {
		const struct ptb_record *rec = &run->rec[i];
		const char *v = ptb_jstr(rec->params, b->levels.var);
		if (!rec->bench || strcmp(rec->bench, b->name) || rec->is_derived || !v)
			continue;
		c->any = true;
		if (!rec->has_value || !(rec->value > 0) || !(ptb_param_num(rec, b->levels.var) > 0))
			continue;
		c->x[c->n] = ptb_param_num(rec, b->levels.var);
		c->y[c->n++] = rec->value;
		c->unstable |= rec->status == PTB_UNSTABLE;
		pages_of(c, rec);
	}
	sort_curve(c);
	return 0;
}

static void free_curve(struct curve *c)
{
	free(c->x);
	free(c->y);
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *int_or_null(double v)
{
	return isfinite(v) && v > 0 ? json_integer((json_int_t)llround(v)) : json_null();
}

/* hwloc's data caches of the first PU, L1 first, from the context. */
static const json_t *hwloc_caches(const struct ptb_runfile *run)
{
	return json_object_get(json_object_get(run->context, "topology"), "caches");
}

/* libcpuid's (or the OS's) L1 data line, from the context; NAN if none. */
static double cpu_line(const struct ptb_runfile *run)
{
	const json_t *caches = json_object_get(json_object_get(run->context, "cpu"), "caches"), *c;
	size_t i;
	json_array_foreach(caches, i, c)
		if (ptb_jnum(c, "level") == 1 && ptb_jstr(c, "type") &&
		    strcmp(ptb_jstr(c, "type"), "instruction"))
			return ptb_jnum(c, "line");
	return NAN;
}

static void say(char *why, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void say(char *why, size_t len, const char *fmt, ...)
{
	char buf[400];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	ptb_appendf(why, len, "%s%s", *why ? "; " : "", buf);
}

/* "48 KiB", "1.5 MiB": a size as people write it. */
static const char *size_text(char *buf, size_t len, double bytes)
{
	static const char *const unit[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	int u = 0;
	while (bytes >= 1024 && u < 4) {
		bytes /= 1024;
		u++;
	}
	snprintf(buf, len, bytes < 10 && bytes != floor(bytes) ? "%.1f %s" : "%.0f %s", bytes,
		 unit[u]);
	return buf;
}

static void line_fields(json_t *rec, const struct ptb_runfile *run, const struct curve *c,
			char *why, size_t len)
{
	const json_t *caches = hwloc_caches(run);
	double hw = ptb_jnum(json_array_get(caches, 0), "line"), cpu = cpu_line(run);
	int j = c->n ? ptb_first_jump(c->y, c->n, PTB_LINE_TOL) : -1;
	double line = j >= 0 ? c->x[j] : NAN;
	json_object_set_new(rec, "line_bytes", int_or_null(line));
	json_object_set_new(rec, "hwloc_line_bytes", int_or_null(hw));
	json_object_set_new(rec, "cpuid_line_bytes", int_or_null(cpu));
	if (!c->b || !c->any)
		return;
	if (j < 0)
		say(why, len, "no jump of more than %.0f %% in the %s curve: no line size",
		    100 * PTB_LINE_TOL, c->b->name);
	else if ((isfinite(hw) && hw > 0 && hw != line) || (isfinite(cpu) && cpu > 0 && cpu != line))
		say(why, len, "the line measured (%.0f B) is not what hwloc (%.0f B) and the CPU "
		    "(%.0f B) report", line, hw, cpu);
}

/* Measured level k beside hwloc's; the disagreement, if any, into why. */
static json_t *level_json(int k, const struct ptb_plateau *p, int np, const json_t *hw,
			  char *why, size_t len)
{
	double size = k < np - 1 ? p[k].edge_x : NAN;
	double lat = k < np - 1 ? p[k].level : NAN;
	double pen = k < np - 1 ? p[k + 1].level - p[k].level : NAN;
	double hws = ptb_jnum(hw, "bytes");
	char a[32], b[32];
	bool agrees = isfinite(size) && isfinite(hws) && hws > 0 &&
		      size <= hws * PTB_LEVELS_AGREE && size >= hws / PTB_LEVELS_AGREE;
	if (isfinite(size) && isfinite(hws) && hws > 0 && !agrees)
		say(why, len, "L%d: hwloc reports %s, the latency curve steps at %s", k + 1,
		    size_text(a, sizeof a, hws), size_text(b, sizeof b, size));
	else if (!isfinite(size) && isfinite(hws))
		say(why, len, "L%d: hwloc reports %s, the latency curve shows no such level", k + 1,
		    size_text(a, sizeof a, hws));
	else if (isfinite(size) && !hw)
		say(why, len, "L%d: a step at %s that hwloc reports no cache for", k + 1,
		    size_text(b, sizeof b, size));
	return json_pack("{s:i, s:o, s:o, s:o, s:o, s:o}", "level", k + 1,
			 "size_bytes", int_or_null(size), "latency_ns", num_or_null(lat),
			 "miss_penalty_ns", num_or_null(pen), "hwloc_size_bytes", int_or_null(hws),
			 "hwloc_agrees", isfinite(size) && isfinite(hws) ? json_boolean(agrees)
									  : json_null());
}

/* The levels, and how many were measured. */
static int level_fields(json_t *rec, const struct ptb_runfile *run, const struct curve *c,
			char *why, size_t len)
{
	struct ptb_plateau p[MAX_PLATEAUS];
	const json_t *hw = hwloc_caches(run);
	int np = c->n ? ptb_plateaus(c->x, c->y, c->n, PTB_LEVELS_TOL, p, MAX_PLATEAUS) : 0;
	int nhw = (int)json_array_size(hw), rows = np - 1 > nhw ? np - 1 : nhw;
	json_t *levels = json_array();
	for (int k = 0; k < rows; k++)
		json_array_append_new(levels, level_json(k, p, np, json_array_get(hw, k), why, len));
	json_object_set_new(rec, "levels", levels);
	json_object_set_new(rec, "memory_latency_ns", num_or_null(np ? p[np - 1].level : NAN));
	if (c->b && c->any && np < 2)
		say(why, len, "no step in the %s curve: no level", c->b->name);
	if (c->n && c->partly_small_pages)
		say(why, len, "%d of %d sizes not wholly on huge pages (%s): TLB misses blur them",
		    c->partly_small_pages, c->n, c->pages_why ? c->pages_why : "see their notes");
	return np > 1 ? np - 1 : 0;
}

static json_t *derive_one(const struct ptb_runfile *run, const char *name, struct curve *line,
			  struct curve *lat)
{
	char why[2048] = "";
	json_t *rec = json_pack("{s:s, s:{}}", "bench", name, "params");
	json_t *inputs = json_object();
	line_fields(rec, run, line, why, sizeof why);
	int found = level_fields(rec, run, lat, why, sizeof why);
	bool have = found > 0 || json_is_integer(json_object_get(rec, "line_bytes"));
	if (line->b && line->any)
		json_object_set_new(inputs, "line", json_string(line->b->name));
	if (lat->b && lat->any)
		json_object_set_new(inputs, "latency", json_string(lat->b->name));
	json_object_set_new(rec, "status", json_string(!have ? "na" :
				line->unstable || lat->unstable ? "unstable" : "ok"));
	if (have && (line->unstable || lat->unstable))
		say(why, sizeof why, "from unstable points");
	json_object_set_new(rec, "reason", *why ? json_string(why) : json_null());
	json_object_set_new(rec, "unit", json_string("ns"));
	json_object_set_new(rec, "inputs", inputs);
	return rec;
}

/* Whether an earlier benchmark of the registry already named this record. */
static bool seen_before(int i, const char *name)
{
	for (int j = 0; j < i; j++)
		if (ptb_registry[j]->levels.record && !strcmp(ptb_registry[j]->levels.record, name))
			return true;
	return false;
}

json_t *ptb_levels_derive(const struct ptb_runfile *run)
{
	json_t *out = json_array();
	for (int i = 0; i < ptb_registry_count; i++) {
		const char *name = ptb_registry[i]->levels.record;
		struct curve line = { 0 }, lat = { 0 };
		if (!name || seen_before(i, name))
			continue;
		if (read_curve(run, role_source(name, PTB_LEVELS_LINE), &line) == 0 &&
		    read_curve(run, role_source(name, PTB_LEVELS_LATENCY), &lat) == 0 &&
		    (line.any || lat.any))
			json_array_append_new(out, derive_one(run, name, &line, &lat));
		free_curve(&line);
		free_curve(&lat);
	}
	return out;
}
