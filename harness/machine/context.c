/* SPDX-License-Identifier: MIT */
/*
 * The "context" object of a result file (docs/design.md, "The result file"): when, where
 * and on what a run was measured, with the harness settings that shaped
 * it, and the warnings that tell a reader why its numbers may not compare
 * with another machine's.  Unknown values are JSON null, never 0 or "".
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "machine/context.h"

/* Thresholds of the warnings. */
#define LOADED_FRACTION 0.5    /* 1-min load above this x allowed PUs */

static json_t *str_or_null(const char *s)
{
	return s && *s ? json_string(s) : json_null();
}

static json_t *int_or_null(long v)
{
	return v >= 0 ? json_integer(v) : json_null();
}

/* Cache figures: 0 means not known. */
static json_t *size_or_null(int v)
{
	return v > 0 ? json_integer(v) : json_null();
}

/* Figures to 0.01: more digits would only be noise. */
static json_t *rounded(double v)
{
	return json_real(round(v * 100) / 100);
}

static json_t *date_now(void)
{
	char buf[32];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return json_string(buf);
}

static json_t *cpu_json(const struct ptb_cpuinfo *ci)
{
	json_t *caches = json_array();

	for (int i = 0; i < ci->ncaches; i++) {
		const struct ptb_cache *c = &ci->caches[i];
		json_array_append_new(caches, json_pack("{s:i, s:s, s:o, s:o, s:o}",
			"level", c->level, "type", c->type, "kib", size_or_null(c->kib),
			"line", size_or_null(c->line), "ways", size_or_null(c->ways)));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}",
		"vendor", str_or_null(ci->vendor), "brand", json_string(ci->brand),
		"family", int_or_null(ci->family), "model", int_or_null(ci->model),
		"stepping", int_or_null(ci->stepping), "hypervisor", str_or_null(ci->hypervisor),
		"caches", caches, "source", ci->source);
}

/* hwloc's data and unified caches above the first allowed PU: what the
 * derived cache.levels record compares its measured levels with. */
static json_t *topo_caches_json(const struct ptb_topo_counts *n)
{
	json_t *caches = json_array();
	for (int i = 0; i < n->ncaches; i++)
		json_array_append_new(caches, json_pack("{s:i, s:o, s:o}",
			"level", n->caches[i].level,
			"bytes", n->caches[i].bytes > 0 ? json_integer(n->caches[i].bytes) : json_null(),
			"line", size_or_null(n->caches[i].line)));
	return caches;
}

static json_t *topology_json(const struct ptb_topo_counts *n)
{
	return json_pack("{s:i, s:i, s:i, s:i, s:s, s:s, s:o}",
		"packages", n->packages, "numa_nodes", n->numa_nodes, "cores", n->cores,
		"pus", n->pus, "allowed", n->allowed, "hwloc", n->hwloc,
		"caches", topo_caches_json(n));
}

static json_t *clock_json(const struct ptb_clock *c)
{
	return json_pack("{s:s, s:o, s:I, s:b, s:o, s:o, s:o}",
		"source", c->source, "read", str_or_null(c->read),
		"hz", (json_int_t)llround(c->hz), "invariant", c->invariant,
		"overhead_ns", rounded(c->overhead_ns), "resolution_ns", rounded(c->resolution_ns),
		"refused", str_or_null(c->refused));
}

static json_t *cgroup_json(const struct ptb_cpu_quota *q)
{
	return json_pack("{s:o, s:o}", "cpu_quota", q->cpus > 0 ? rounded(q->cpus) : json_null(),
			 "file", str_or_null(q->file));
}

static json_t *smt_json(int smt)
{
	return smt < 0 ? json_null() : json_boolean(smt);
}

/* The variables, as set for the run, that change which threads library
 * or OpenMP runtime the workers load and how its threads wait and bind:
 * spinning or sleeping waits move OpenMP's figures by orders of magnitude.
 * Only those set appear.  (A point of an OpenMP benchmark also notes the
 * runtime that really ran: `ab --head-env` sets these for one side's
 * workers only.) */
static json_t *environment_json(void)
{
	static const char *const vars[] = {
		"LD_PRELOAD", "LD_LIBRARY_PATH", "OMP_WAIT_POLICY", "GOMP_SPINCOUNT",
		"KMP_BLOCKTIME", "KMP_AFFINITY", "GOMP_CPU_AFFINITY", "OMP_PLACES",
		"OMP_PROC_BIND", "OMP_NUM_THREADS",
	};
	json_t *env = json_object();
	for (size_t i = 0; env && i < sizeof vars / sizeof vars[0]; i++)
		if (getenv(vars[i]))
			json_object_set_new(env, vars[i], json_string(getenv(vars[i])));
	return env ? env : json_null();
}

json_t *ptb_context_json(const struct ptb_system *sys, json_t *harness, const char *command)
{
	const struct ptb_sysinfo *si = &sys->sys;

	return json_pack("{s:o, s:s, s:o, s:o, s:o, s:{s:s, s:s}, s:o, s:o, s:s, s:o, s:o,"
			 " s:{s:o, s:o}, s:o, s:o, s:[o, o, o], s:o, s:o, s:o}",
		"date", date_now(), "host", si->host, "command", str_or_null(command),
		"cpu", cpu_json(&sys->cpu), "topology", topology_json(&sys->counts),
		"os", "kernel", si->kernel, "machine", si->machine,
		"libc", str_or_null(si->libc), "pthreads", str_or_null(si->pthreads),
		"compiler", si->compiler, "clock", clock_json(&sys->clock),
		"harness", harness ? harness : json_null(),
		"scheduler", "name", str_or_null(si->scheduler),
		"base_slice_ns", int_or_null(si->base_slice_ns),
		"governor", str_or_null(si->governor), "smt", smt_json(si->smt),
		"loadavg", rounded(si->loadavg[0]), rounded(si->loadavg[1]), rounded(si->loadavg[2]),
		"cgroup", cgroup_json(&si->quota), "warnings", ptb_warnings_json(sys),
		"environment", environment_json());
}

/* The hypervisor as the CPU names it, else as the OS does. */
static const char *hypervisor_of(const struct ptb_system *sys)
{
	return sys->cpu.hypervisor[0] ? sys->cpu.hypervisor : sys->sys.hypervisor;
}

static void warn(json_t *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(json_t *w, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	json_array_append_new(w, json_string(buf));
}

json_t *ptb_warnings_json(const struct ptb_system *sys)
{
	const struct ptb_sysinfo *si = &sys->sys;
	const struct ptb_topo_counts *n = &sys->counts;
	json_t *w = json_array();

	if (hypervisor_of(sys)[0])
		warn(w, "hypervisor %s: timings include virtualisation effects", hypervisor_of(sys));
	if (sys->clock.refused[0])
		warn(w, "clock: timings use %s, the hardware counter was refused: %s",
		     sys->clock.source, sys->clock.refused);
	else if (!sys->clock.invariant)
		warn(w, "clock: %s is not invariant; its rate may follow the CPU frequency",
		     sys->clock.source);
	if (si->governor[0] && strcmp(si->governor, "performance") != 0)
		warn(w, "governor %s: frequency scaling may change timings between runs",
		     si->governor);
	if (si->loadavg[0] > LOADED_FRACTION * n->pus)
		warn(w, "loaded machine: load average %.2f on %d allowed PU%s",
		     si->loadavg[0], n->pus, n->pus == 1 ? "" : "s");
	if (n->pus < n->machine_pus)
		warn(w, "restricted cpuset: %d of %d PUs (%s)", n->pus, n->machine_pus, n->allowed);
	if (si->quota.cpus > 0 && si->quota.cpus < n->pus)
		warn(w, "cgroup CPU quota of %.2f CPUs (%s) is below the %d allowed PUs: a "
		     "throttled process measures the quota, not the primitive",
		     si->quota.cpus, si->quota.file, n->pus);
	return w;
}
