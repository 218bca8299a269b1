/* SPDX-License-Identifier: MIT */
/*
 * The profiler's document and its table (see profile.h).  The tool counts;
 * the verdicts and the order are decided here, where they can be tested
 * and changed without rebuilding the tool.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "text/text.h"
#include "tools/profile.h"

static json_int_t num(const json_t *o, const char *key)
{
	return json_integer_value(json_object_get(o, key));
}

static json_int_t misses(const json_t *o)
{
	return num(o, "read_misses") + num(o, "write_misses");
}

static const char *verdict(const json_t *o)
{
	if (misses(o) < PTB_PROFILE_FLAG_MIN)
		return "none";
	return num(o, "false_sharing") > num(o, "true_sharing") ? "false sharing" : "true sharing";
}

static int by_misses(const void *a, const void *b)
{
	const json_t *x = *(json_t *const *)a, *y = *(json_t *const *)b;
	json_int_t d = misses(y) - misses(x);
	if (d)
		return d > 0 ? 1 : -1;
	return strcmp(json_string_value(json_object_get(x, "name")),
		      json_string_value(json_object_get(y, "name")));
}

/* One object of the tool's file as the schema has it. */
static json_t *object(const json_t *raw)
{
	static const char *const keys[] = { "name", "kind", "site", "stack", "size",
		"read_misses", "write_misses", "true_sharing", "false_sharing" };
	json_t *o = json_object(), *lines = json_array(), *l;
	size_t i;
	for (i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (json_object_get(raw, keys[i]))
			json_object_set(o, keys[i], json_object_get(raw, keys[i]));
	json_object_set_new(o, "verdict", json_string(verdict(raw)));
	json_object_set(o, "threads", json_object_get(raw, "threads"));
	json_array_foreach(json_object_get(raw, "lines"), i, l)
		json_array_append_new(lines, json_pack("{s:O,s:O}", "line", json_object_get(l, "line"),
						       "misses", json_object_get(l, "misses")));
	json_object_set_new(o, "lines", lines);
	return o;
}

json_t *ptb_profile_document(const char *raw_path, const char *program, int exit_status,
			     int signo, char *err, size_t errlen)
{
	json_error_t je;
	json_t *raw = json_load_file(raw_path, 0, &je), *doc, *objs, *o, **v;
	size_t i, n;
	if (!raw || !json_is_array(json_object_get(raw, "objects")) ||
	    strcmp(json_string_value(json_object_get(raw, "tool")) ? json_string_value(json_object_get(raw, "tool")) : "", "ptbprof")) {
		ptb_errf(err, errlen, "the profiler left no readable result (%s)",
			 raw ? "not its format" : je.text);
		json_decref(raw);
		return NULL;
	}
	n = json_array_size(json_object_get(raw, "objects"));
	v = calloc(n ? n : 1, sizeof *v);
	json_array_foreach(json_object_get(raw, "objects"), i, o)
		v[i] = o;
	qsort(v, n, sizeof *v, by_misses);
	objs = json_array();
	for (i = 0; i < n; i++)
		json_array_append_new(objs, object(v[i]));
	free(v);
	doc = json_pack("{s:s,s:s,s:O,s:O,s:O}", "schema", "ptbench-profile/1", "program", program,
			"line_size", json_object_get(raw, "line_size"),
			"quantum", json_object_get(raw, "quantum"),
			"threads", json_object_get(raw, "threads"));
	json_object_set_new(doc, "exit_status", exit_status >= 0 ? json_integer(exit_status) : json_null());
	if (exit_status < 0)
		json_object_set_new(doc, "signal", json_integer(signo));
	if (json_object_get(raw, "cache"))
		json_object_set(doc, "cache", json_object_get(raw, "cache"));
	json_object_set(doc, "thread_totals", json_object_get(raw, "thread_totals"));
	json_object_set(doc, "forced_merges", json_object_get(raw, "forced_merges"));
	if (json_object_get(raw, "unordered_locks"))
		json_object_set(doc, "unordered_locks", json_object_get(raw, "unordered_locks"));
	json_object_set_new(doc, "objects", objs);
	json_decref(raw);
	return doc;
}

int ptb_profile_print_json(FILE *out, const json_t *doc)
{
	int rc = json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	return rc;
}

/* Objects past this many are summed up in one line (JSON has them all). */
#define TABLE_OBJECTS 20

static void print_object(FILE *out, const json_t *o)
{
	const json_t *t, *l;
	size_t i;
	int first = 1;
	json_array_foreach(json_object_get(o, "threads"), i, t) {
		if (!misses(t))
			continue;
		char size[24] = "";
		if (first)
			snprintf(size, sizeof size, "%lld", (long long)num(o, "size"));
		fprintf(out, "%-28.28s %-6s %8s %6lld %9lld %9lld\n",
			first ? json_string_value(json_object_get(o, "name")) : "",
			first ? json_string_value(json_object_get(o, "kind")) : "", size,
			(long long)num(t, "thread"), (long long)num(t, "read_misses"),
			(long long)num(t, "write_misses"));
		first = 0;
	}
	fprintf(out, "%-28s %-6s %8s %6s %9lld %9lld %7lld %7lld  %s\n", "", "", "", "all",
		(long long)num(o, "read_misses"), (long long)num(o, "write_misses"),
		(long long)num(o, "true_sharing"), (long long)num(o, "false_sharing"),
		json_string_value(json_object_get(o, "verdict")));
	if (json_object_get(o, "site"))
		fprintf(out, "%-28s allocated at %s\n", "", json_string_value(json_object_get(o, "site")));
	json_array_foreach(json_object_get(o, "lines"), i, l) {
		if (i == 3)
			break;
		fprintf(out, "%-28s %s %s (%lld)\n", "", i ? "  " : "at",
			json_string_value(json_object_get(l, "line")), (long long)num(l, "misses"));
	}
}

void ptb_profile_print_table(FILE *out, const json_t *doc)
{
	const json_t *objs = json_object_get(doc, "objects"), *o, *t;
	size_t i, rest = 0;
	json_int_t rest_misses = 0;
	fprintf(out, "profile of %s: %lld thread%s, %lld-byte lines, lockstep quantum %lld instructions\n",
		json_string_value(json_object_get(doc, "program")), (long long)num(doc, "threads"),
		num(doc, "threads") == 1 ? "" : "s",
		(long long)num(doc, "line_size"), (long long)num(doc, "quantum"));
	if (json_object_get(doc, "cache"))
		fprintf(out, "caches of %lld bytes, %lld-way set associative, LRU; misses after an "
			"eviction are apart\n", (long long)num(json_object_get(doc, "cache"), "size"),
			(long long)num(json_object_get(doc, "cache"), "ways"));
	fprintf(out, "coherence misses (cold misses apart) per thread:");
	json_array_foreach(json_object_get(doc, "thread_totals"), i, t)
		fprintf(out, "%s %lld: %lld read, %lld write", i ? ";" : "", (long long)num(t, "thread"),
			(long long)num(t, "read_misses"), (long long)num(t, "write_misses"));
	fprintf(out, "\n\n%-28s %-6s %8s %6s %9s %9s %7s %7s  %s\n", "object", "kind", "size",
		"thread", "read", "write", "true", "false", "verdict");
	json_array_foreach(objs, i, o) {
		if (i >= TABLE_OBJECTS) {
			rest++;
			rest_misses += misses(o);
			continue;
		}
		print_object(out, o);
	}
	if (rest)
		fprintf(out, "(%zu more objects, %lld misses in all: --format json lists them)\n", rest,
			(long long)rest_misses);
	if (num(doc, "forced_merges"))
		fprintf(out, "note: %lld merges were forced by a thread far ahead of a stalled one; "
			"the order of those events is not the lockstep's\n",
			(long long)num(doc, "forced_merges"));
	if (num(doc, "unordered_locks"))
		fprintf(out, "note: %lld mutex acquisitions did not wait for their turn in logical time "
			"(another thread never reached it); their order is Valgrind's\n",
			(long long)num(doc, "unordered_locks"));
}

/* ---- reading a document back ---------------------------------------------- */

#define SCHEMA "ptbench-profile/1"

static bool count(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_integer(v) && json_integer_value(v) >= 0;
}

static bool counts(const json_t *o, const char *const *keys, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!count(o, keys[i]))
			return false;
	return json_is_object(o);
}

/* What is wrong with object o, or NULL. */
static const char *bad_object(const json_t *o)
{
	static const char *const keys[] = { "read_misses", "write_misses", "true_sharing",
		"false_sharing" };
	static const char *const thread_keys[] = { "thread", "read_misses", "write_misses" };
	const json_t *t;
	size_t i;
	if (!json_is_string(json_object_get(o, "name")) || !json_is_string(json_object_get(o, "kind")))
		return "an object without a name or a kind";
	if (!counts(o, keys, sizeof keys / sizeof *keys))
		return "an object's counts are not counts";
	if (!json_is_array(json_object_get(o, "threads")))
		return "an object without its threads";
	json_array_foreach(json_object_get(o, "threads"), i, t)
		if (!counts(t, thread_keys, sizeof thread_keys / sizeof *thread_keys))
			return "a thread's counts are not counts";
	return NULL;
}

bool ptb_profile_is_file(const char *path)
{
	json_t *doc = json_load_file(path, 0, NULL);
	const char *schema = json_string_value(json_object_get(doc, "schema"));
	bool is = schema && !strcmp(schema, SCHEMA);
	json_decref(doc);
	return is;
}

json_t *ptb_profile_load(const char *path, char *err, size_t errlen)
{
	json_error_t je;
	json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &je);
	const char *schema = json_string_value(json_object_get(doc, "schema")), *why = NULL;
	const json_t *o;
	size_t i;
	if (!doc && je.line < 1) {
		ptb_errf(err, errlen, "%s", je.text);   /* jansson names the file and why */
		return NULL;
	}
	if (!doc) {
		ptb_errf(err, errlen, "%s: not JSON (line %d: %s)", path, je.line, je.text);
		return NULL;
	}
	if (!schema || strcmp(schema, SCHEMA))
		why = "not a profile of 'ptbench profile' (schema " SCHEMA ")";
	else if (!json_is_string(json_object_get(doc, "program")) || !count(doc, "line_size") ||
		 !count(doc, "quantum") || !json_is_array(json_object_get(doc, "objects")))
		why = "a profile without its program, line size, quantum or objects";
	json_array_foreach(why ? NULL : json_object_get(doc, "objects"), i, o)
		if ((why = bad_object(o)))
			break;
	if (why) {
		ptb_errf(err, errlen, "%s: %s", path, why);
		json_decref(doc);
		return NULL;
	}
	return doc;
}
