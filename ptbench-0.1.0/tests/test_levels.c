/* SPDX-License-Identifier: MIT */
/*
 * ptb_levels_derive on synthetic runs: the line size from a stride curve,
 * levels with sizes, latencies and miss penalties from a latency curve,
 * hwloc's sizes beside them and the disagreements said (a claimed L3 the
 * curve does not bear out), a failed point ignored, small pages named,
 * and no record at all when neither curve was measured.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/levels.h"
#include "tap.h"

static json_t *point(const char *bench, const char *var, long x, double ns, const char *status)
{
	char v[32];
	snprintf(v, sizeof v, "%ld", x);
	json_t *r = json_pack("{s:s, s:{s:s}, s:s}", "bench", bench, "params", var, v,
			      "status", status);
	if (!strcmp(status, "ok"))
		json_object_set_new(r, "mean", json_real(ns)),
		json_object_set_new(r, "median", json_real(ns)),
		json_object_set_new(r, "samples", json_pack("[f]", ns)),
		json_object_set_new(r, "notes", json_pack("{s:f}", "huge_pages", 1.0));
	else
		json_object_set_new(r, "reason", json_string("boom"));
	return r;
}

/* L1 48 KiB 1 ns, L2 1 MiB 4 ns, L3 16 MiB 20 ns, memory 100 ns; hwloc
 * claims L1 48 KiB, L2 1 MiB and an L3 of 508 MiB. */
static json_t *run_doc(bool with_line, bool with_latency)
{
	json_t *res = json_array();
	static const double stride_ns[] = { 2, 2.1, 2.05, 3.4, 3.5, 3.6, 3.5 };
	for (int i = 0; with_line && i < 7; i++)
		json_array_append_new(res, point("cache.line", "stride", 8L << i, stride_ns[i], "ok"));
	for (int i = 0; with_latency && i < 17; i++) {
		long x = 4096L << i;
		double ns = x <= 32768 ? 1 : x == 65536 ? 2.2 : x <= (512 << 10) ? 4
			    : x <= (8 << 20) ? 20 : x == (16 << 20) ? 45 : 100;
		json_array_append_new(res, point("cache.latency", "size", x, ns,
						 x == (2 << 20) ? "crashed" : "ok"));
	}
	return json_pack("{s:s, s:s, s:{s:s, s:{s:s, s:[{s:i, s:s, s:i}]},"
			 " s:{s:[{s:i, s:I, s:i}, {s:i, s:I, s:i}, {s:i, s:I, s:i}]}}, s:o}",
			 "schema", "ptbench/1", "status", "complete", "context", "host", "h",
			 "cpu", "brand", "b", "caches", "level", 1, "type", "data", "line", 64,
			 "topology", "caches",
			 "level", 1, "bytes", (json_int_t)49152, "line", 64,
			 "level", 2, "bytes", (json_int_t)1 << 20, "line", 64,
			 "level", 3, "bytes", (json_int_t)508 << 20, "line", 64,
			 "results", res);
}

static json_t *derive(json_t *doc)
{
	char err[256] = "";
	struct ptb_runfile *run = ptb_runfile_of(doc, err, sizeof err);
	json_t *out = run ? ptb_levels_derive(run) : NULL;
	if (!run)
		printf("# %s\n", err);
	ptb_runfile_free(run);
	json_decref(doc);
	return out;
}

static double num(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

static void full(void)
{
	json_t *out = derive(run_doc(true, true));
	const json_t *r = json_array_get(out, 0), *lv = json_object_get(r, "levels");
	const json_t *l1 = json_array_get(lv, 0), *l2 = json_array_get(lv, 1), *l3 = json_array_get(lv, 2);
	const char *reason = json_string_value(json_object_get(r, "reason"));
	tap_ok(json_array_size(out) == 1 && json_string_value(json_object_get(r, "bench")) &&
	       !strcmp(json_string_value(json_object_get(r, "bench")), "cache.levels"),
	       "one cache.levels record");
	tap_ok(num(r, "line_bytes") == 64 && num(r, "hwloc_line_bytes") == 64 &&
	       num(r, "cpuid_line_bytes") == 64, "line 64 B, beside hwloc's and the CPU's");
	tap_ok(json_array_size(lv) == 3, "three levels (got %zu)", json_array_size(lv));
	tap_ok(num(l1, "latency_ns") == 1 && num(l2, "latency_ns") == 4 && num(l3, "latency_ns") == 20 &&
	       num(r, "memory_latency_ns") == 100, "latencies are the plateaus: 1, 4, 20; memory 100");
	tap_ok(num(l1, "miss_penalty_ns") == 3 && num(l2, "miss_penalty_ns") == 16 &&
	       num(l3, "miss_penalty_ns") == 80, "miss penalties: the next level's latency minus this one's");
	tap_ok(num(l1, "size_bytes") > 32768 && num(l1, "size_bytes") < 98304 &&
	       num(l2, "size_bytes") > (512 << 10) && num(l2, "size_bytes") < (2 << 20) &&
	       num(l3, "size_bytes") > (8 << 20) && num(l3, "size_bytes") < (32 << 20),
	       "sizes where the curve steps (%.0f, %.0f, %.0f)", num(l1, "size_bytes"),
	       num(l2, "size_bytes"), num(l3, "size_bytes"));
	tap_ok(num(l1, "hwloc_size_bytes") == 49152 && json_is_true(json_object_get(l1, "hwloc_agrees")) &&
	       json_is_true(json_object_get(l2, "hwloc_agrees")) &&
	       json_is_false(json_object_get(l3, "hwloc_agrees")),
	       "hwloc's L1 and L2 borne out, its 508 MiB L3 not");
	tap_ok(reason && strstr(reason, "L3: hwloc reports 508 MiB") && !strstr(reason, "L1:"),
	       "the reason says so (%s)", reason ? reason : "none");
	const char *st = json_string_value(json_object_get(r, "status"));
	const char *in = json_string_value(json_object_get(json_object_get(r, "inputs"), "latency"));
	tap_ok(st && !strcmp(st, "ok") && in && !strcmp(in, "cache.latency"),
	       "ok, with its inputs named");
	json_decref(out);
}

static void partial(void)
{
	json_t *out = derive(run_doc(false, false));
	tap_ok(out && json_array_size(out) == 0, "neither curve measured: no record");
	json_decref(out);
	out = derive(run_doc(true, false));
	const json_t *r = json_array_get(out, 0);
	tap_ok(json_array_size(out) == 1 && num(r, "line_bytes") == 64 &&
	       json_array_size(json_object_get(r, "levels")) == 3 &&
	       isnan(num(json_array_get(json_object_get(r, "levels"), 0), "size_bytes")),
	       "only the stride curve: the line, and hwloc's levels with nothing measured beside them");
	json_decref(out);
	json_t *doc = run_doc(false, true);
	json_t *res = json_object_get(doc, "results");
	json_object_set_new(json_object_get(json_array_get(res, 3), "notes"), "huge_pages",
			    json_real(0));
	json_object_set_new(json_object_get(json_array_get(res, 3), "notes"), "pages",
			    json_string("transparent huge pages are off"));
	out = derive(doc);
	const char *reason = json_string_value(json_object_get(json_array_get(out, 0), "reason"));
	tap_ok(reason && strstr(reason, "1 of 16 sizes not wholly on huge pages (transparent huge pages are off)"),
	       "a size on small pages is named (%s)", reason ? reason : "none");
	json_decref(out);
}

int main(void)
{
	full();
	partial();
	tap_done();
	return tap_exit();
}
