/* SPDX-License-Identifier: MIT */
/*
 * The machine description a run records: ptb_system_init() on this
 * machine, the context object's fields in docs/design.md section 6 order with
 * their types, every warning triggered from a doctored description, and
 * `ptbench info` in both forms.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "machine/info.h"
#include "engine/measure.h"
#include "machine/context.h"
#include "machine/system.h"
#include "tap.h"

/* The context's keys in file order, with their JSON types (n = null allowed). */
static const struct {
	const char *key;   int type;          bool nullable;
} context_keys[] = {
	{ "date",          JSON_STRING,       false },
	{ "host",          JSON_STRING,       false },
	{ "command",       JSON_STRING,       false },
	{ "cpu",           JSON_OBJECT,       false },
	{ "topology",      JSON_OBJECT,       false },
	{ "os",            JSON_OBJECT,       false },
	{ "libc",          JSON_STRING,       true  },
	{ "pthreads",      JSON_STRING,       true  },
	{ "compiler",      JSON_STRING,       false },
	{ "clock",         JSON_OBJECT,       false },
	{ "harness",       JSON_OBJECT,       false },
	{ "scheduler",     JSON_OBJECT,       false },
	{ "governor",      JSON_STRING,       true  },
	{ "smt",           JSON_TRUE,         true  },   /* true or false */
	{ "loadavg",       JSON_ARRAY,        false },
	{ "cgroup",        JSON_OBJECT,       false },
	{ "warnings",      JSON_ARRAY,        false },
	{ "environment",   JSON_OBJECT,       false },   /* the threads library's variables set */
};

static bool has_type(const json_t *v, int type, bool nullable)
{
	if (nullable && json_is_null(v))
		return true;
	if (type == JSON_TRUE)
		return json_is_boolean(v);
	return v && (int)json_typeof(v) == type;
}

static void check_context(const struct ptb_system *sys)
{
	struct ptb_limits l;
	json_t *ctx, *v;
	const char *key;
	size_t i = 0;
	bool order = true;

	ptb_limits_default(&l);
	ctx = ptb_context_json(sys, ptb_limits_json(&l), "ptbench run -b mutex");
	if (!tap_ok(ctx != NULL, "context builds"))
		return;
	json_object_foreach(ctx, key, v) {
		if (i >= sizeof context_keys / sizeof context_keys[0] ||
		    strcmp(key, context_keys[i].key) != 0 ||
		    !has_type(v, context_keys[i].type, context_keys[i].nullable)) {
			printf("#   key %zu: %s\n", i, key);
			order = false;
		}
		i++;
	}
	tap_ok(order && i == sizeof context_keys / sizeof context_keys[0],
	       "context keys in schema order with their types (%zu keys)", i);
	key = json_string_value(json_object_get(ctx, "date"));
	tap_ok(key && strlen(key) == 20 && key[10] == 'T' && key[19] == 'Z', "date is UTC ISO-8601 (%s)", key);
	tap_ok(!strcmp(json_string_value(json_object_get(ctx, "command")), "ptbench run -b mutex"),
	       "command recorded");
	tap_ok(!strcmp(json_string_value(json_object_get(json_object_get(ctx, "cpu"), "brand")),
		       sys->cpu.brand), "cpu.brand is the identified brand");
	tap_ok(json_integer_value(json_object_get(json_object_get(ctx, "topology"), "pus")) ==
	       sys->counts.pus, "topology.pus is the allowed PU count");
	tap_ok(!strcmp(json_string_value(json_object_get(json_object_get(ctx, "harness"), "stop")),
		       "sd") &&
	       json_integer_value(json_object_get(json_object_get(ctx, "harness"), "min_timings")) == 8,
	       "harness limits recorded (stop sd, min_timings 8)");
	tap_ok(fabs(json_real_value(json_object_get(json_object_get(ctx, "clock"), "overhead_ns")) -
		    sys->clock.overhead_ns) <= 0.005 &&
	       json_integer_value(json_object_get(json_object_get(ctx, "clock"), "hz")) > 0,
	       "clock hz and overhead recorded (%.2f ns)", sys->clock.overhead_ns);
	json_decref(ctx);
}

static bool warned(const json_t *w, const char *needle)
{
	size_t i;
	json_t *v;

	json_array_foreach(w, i, v)
		if (strstr(json_string_value(v), needle))
			return true;
	return false;
}

static void check_warnings(const struct ptb_system *live)
{
	struct ptb_system sys = *live;
	json_t *w;

	snprintf(sys.cpu.hypervisor, sizeof sys.cpu.hypervisor, "KVM");
	snprintf(sys.clock.refused, sizeof sys.clock.refused, "TSC not invariant: test");
	snprintf(sys.sys.governor, sizeof sys.sys.governor, "powersave");
	sys.counts.pus = 2;
	sys.counts.machine_pus = 8;
	snprintf(sys.counts.allowed, sizeof sys.counts.allowed, "0-1");
	sys.sys.loadavg[0] = 1.5;
	sys.sys.quota.cpus = 1.5;
	snprintf(sys.sys.quota.file, sizeof sys.sys.quota.file, "/sys/fs/cgroup/test/cpu.max");
	w = ptb_warnings_json(&sys);
	tap_ok(warned(w, "hypervisor KVM: timings include virtualisation effects"), "hypervisor warning");
	tap_ok(warned(w, "TSC not invariant: test"), "refused-clock warning");
	tap_ok(warned(w, "governor powersave"), "governor warning");
	tap_ok(warned(w, "loaded machine"), "load warning (1.5 on 2 PUs)");
	tap_ok(warned(w, "restricted cpuset: 2 of 8 PUs"), "restricted cpuset warning");
	tap_ok(warned(w, "cgroup CPU quota of 1.50 CPUs (/sys/fs/cgroup/test/cpu.max) is below "
		      "the 2 allowed PUs"), "cgroup quota warning");
	json_decref(w);

	sys.cpu.hypervisor[0] = sys.sys.hypervisor[0] = sys.clock.refused[0] = '\0';
	sys.clock.invariant = true;
	snprintf(sys.sys.governor, sizeof sys.sys.governor, "performance");
	sys.sys.loadavg[0] = 0.9;
	sys.counts.machine_pus = 2;
	sys.sys.quota.cpus = 2;     /* a quota that covers every allowed PU */
	w = ptb_warnings_json(&sys);
	tap_ok(json_array_size(w) == 0, "a quiet bare-metal machine has no warnings (%zu)",
	       json_array_size(w));
	json_decref(w);
}

static void check_info(const struct ptb_system *sys)
{
	static const char *const sections[] = {
		"CPU\n", "Caches\n", "Topology (hwloc", "Clock\n", "OS\n", "Scheduler\n", "Warnings\n",
	};
	char *text = NULL, *js = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	json_t *ctx;
	bool all = true;

	tap_ok(ptb_info_print(out, sys, NULL) == 0, "info prints");
	fclose(out);
	for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
		all &= strstr(text, sections[i]) != NULL;
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++)
		all &= strstr(text, ptb_placement_name(p)) != NULL;
	tap_ok(all, "info has every section and every placement");
	free(text);

	struct ptb_limits l;
	ptb_limits_default(&l);
	out = open_memstream(&js, &len);
	tap_ok(ptb_info_print(out, sys, ptb_limits_json(&l)) == 0, "info --json prints");
	fclose(out);
	ctx = json_loads(js, 0, NULL);
	tap_ok(ctx && !strcmp(json_string_value(json_object_get(ctx, "command")), "ptbench info --json") &&
	       json_is_array(json_object_get(ctx, "warnings")),
	       "info --json is the context object");
	json_decref(ctx);
	free(js);
}

int main(void)
{
	struct ptb_system sys;
	char err[256];

	if (!tap_ok(ptb_system_init(&sys, err, sizeof err) == 0, "system initialises")) {
		printf("#   %s\n", err);
		tap_done();
		return 1;
	}
	tap_ok(sys.counts.pus >= 1 && sys.pairs[PTB_UNBOUND].possible && sys.pairs[PTB_SAME_PU].possible,
	       "pairs filled for every placement (unbound and same_pu always possible)");
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++)
		tap_ok(sys.pairs[p].possible != (sys.pairs[p].reason[0] != '\0'),
		       "%s: a pair or a reason (%s)", ptb_placement_name(p),
		       sys.pairs[p].possible ? "pair" : sys.pairs[p].reason);
	check_context(&sys);
	check_warnings(&sys);
	check_info(&sys);
	ptb_system_fini(&sys);
	tap_done();
	return tap_exit();
}
