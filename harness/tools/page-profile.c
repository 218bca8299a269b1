/* SPDX-License-Identifier: MIT */
/*
 * A profile's section of the report page (tools/page.h): the document of
 * `ptbench profile` (tools/profile.h, read back by ptb_profile_load) as a
 * table per object like the text table's, through the one grid renderer,
 * so that every name from the file is escaped.
 */
#include <config.h>

#include <stdio.h>
#include <string.h>

#include "report/format.h"
#include "report/grid.h"
#include "text/text.h"
#include "tools/page.h"

/* Objects past this many are summed up in one line, as in the text table. */
#define PAGE_OBJECTS 20

enum { C_OBJECT, C_KIND, C_VERDICT, C_THREAD, C_READ, C_WRITE, C_TRUE, C_FALSE, C_SIZE, NCOLS };
static const char *const heads[NCOLS] = { "object", "kind", "verdict", "thread", "read misses",
	"write misses", "true sharing", "false sharing", "size (bytes)" };

static long long num(const json_t *o, const char *key)
{
	return (long long)json_integer_value(json_object_get(o, key));
}

static long long misses(const json_t *o)
{
	return num(o, "read_misses") + num(o, "write_misses");
}

static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	return s ? s : "";
}

static void set_num(struct ptb_grid *g, int r, int c, long long v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", v);
	ptb_grid_set(g, r, c, buf);
}

/* Rows of object o: one per thread that missed, then its totals. */
static int object_rows(const json_t *o)
{
	const json_t *t;
	size_t i;
	int n = 1;
	json_array_foreach(json_object_get(o, "threads"), i, t)
		n += misses(t) > 0;
	return n;
}

static int fill_object(struct ptb_grid *g, int r, const json_t *o)
{
	const json_t *t;
	size_t i;
	ptb_grid_set(g, r, C_OBJECT, str(o, "name"));
	ptb_grid_set(g, r, C_KIND, str(o, "kind"));
	set_num(g, r, C_SIZE, num(o, "size"));
	json_array_foreach(json_object_get(o, "threads"), i, t) {
		if (!misses(t))
			continue;
		set_num(g, r, C_THREAD, num(t, "thread"));
		set_num(g, r, C_READ, num(t, "read_misses"));
		set_num(g, r++, C_WRITE, num(t, "write_misses"));
	}
	ptb_grid_set(g, r, C_THREAD, "all");
	set_num(g, r, C_READ, num(o, "read_misses"));
	set_num(g, r, C_WRITE, num(o, "write_misses"));
	set_num(g, r, C_TRUE, num(o, "true_sharing"));
	set_num(g, r, C_FALSE, num(o, "false_sharing"));
	ptb_grid_set(g, r, C_VERDICT, str(o, "verdict"));
	return r + 1;
}

/* Where each object was allocated and missed most, one line each. */
static void where(FILE *out, const json_t *objs, size_t shown)
{
	char line[1024];
	const json_t *o, *l;
	size_t i, k;
	fputs("<div class=\"notes\">\n", out);
	json_array_foreach(objs, i, o) {
		if (i == shown)
			break;
		ptb_textf(line, sizeof line, "%s:", str(o, "name"));
		if (json_object_get(o, "site"))
			ptb_appendf(line, sizeof line, " allocated at %s;", str(o, "site"));
		json_array_foreach(json_object_get(o, "lines"), k, l) {
			if (k == 3)
				break;
			ptb_appendf(line, sizeof line, "%s %s (%lld)", k ? "," : " missed most at",
				    str(l, "line"), num(l, "misses"));
		}
		ptb_page_para(out, NULL, line);
	}
	fputs("</div>\n", out);
}

static void heading(FILE *out, const json_t *doc)
{
	char line[1024];
	const json_t *t;
	size_t i;
	fputs("<h2 id=\"profile\">Profile: which objects move cache lines</h2>\n", out);
	ptb_textf(line, sizeof line, "%s: %lld threads, %lld-byte lines, lockstep quantum %lld "
		  "instructions", str(doc, "program"), num(doc, "threads"), num(doc, "line_size"),
		  num(doc, "quantum"));
	if (json_is_object(json_object_get(doc, "cache")))
		ptb_appendf(line, sizeof line, "; caches of %lld bytes, %lld-way, LRU",
			    num(json_object_get(doc, "cache"), "size"),
			    num(json_object_get(doc, "cache"), "ways"));
	ptb_appendf(line, sizeof line, ". Coherence misses (cold misses apart) per thread:");
	json_array_foreach(json_object_get(doc, "thread_totals"), i, t)
		ptb_appendf(line, sizeof line, "%s %lld: %lld read, %lld write", i ? ";" : "",
			    num(t, "thread"), num(t, "read_misses"), num(t, "write_misses"));
	ptb_page_para(out, "caption", line);
}

int ptb_page_profile(FILE *out, const json_t *doc)
{
	const json_t *objs = json_object_get(doc, "objects"), *o;
	size_t i, n = json_array_size(objs), shown = n < PAGE_OBJECTS ? n : PAGE_OBJECTS;
	long long rest = 0;
	int rows = 1;
	struct ptb_grid g;
	char line[256];
	heading(out, doc);
	for (i = 0; i < shown; i++)
		rows += object_rows(json_array_get(objs, i));
	if (ptb_grid_init(&g, rows, NCOLS, C_THREAD))
		return -1;
	for (int c = 0; c < NCOLS; c++)
		ptb_grid_set(&g, 0, c, heads[c]);
	for (i = 0, rows = 1; i < shown; i++)
		rows = fill_object(&g, rows, json_array_get(objs, i));
	ptb_page_grid(out, &g);
	ptb_grid_free(&g);
	json_array_foreach(objs, i, o)
		rest += i >= shown ? misses(o) : 0;
	if (n > shown) {
		ptb_textf(line, sizeof line, "%zu more objects, %lld misses in all (the JSON lists "
			  "them).", n - shown, rest);
		ptb_page_para(out, "caption", line);
	}
	where(out, objs, shown);
	if (num(doc, "forced_merges") > 0 || num(doc, "unordered_locks") > 0) {
		ptb_textf(line, sizeof line, "%lld merges forced, %lld mutex acquisitions out of "
			  "their turn: those events are not in the lockstep's order.",
			  num(doc, "forced_merges"), num(doc, "unordered_locks"));
		ptb_page_para(out, "missing", line);
	}
	return 0;
}
