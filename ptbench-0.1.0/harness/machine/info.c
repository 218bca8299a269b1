/* SPDX-License-Identifier: MIT */
/*
 * `ptbench info`: the machine as the suite sees it.  The readable form
 * walks the same facts as the result file's context object -- CPU, caches,
 * topology with every placement's pair or the reason it is impossible,
 * clock, software, scheduler, warnings -- and --json prints that object
 * itself, so the two can never disagree.
 */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "machine/context.h"
#include "machine/info.h"

#define LABEL_WIDTH 16

static void info_line(FILE *out, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void info_line(FILE *out, const char *label, const char *fmt, ...)
{
	va_list ap;

	fprintf(out, "  %-*s", LABEL_WIDTH, label);
	va_start(ap, fmt);
	vfprintf(out, fmt, ap);
	va_end(ap);
	fputc('\n', out);
}

static const char *or_unknown(const char *s)
{
	return s && *s ? s : "unknown";
}

/* CPUID's brand and the kernel's "model name" can differ (a hypervisor may
 * rewrite either).  Show the second only when it differs, saying which one
 * results carry. */
static void print_os_brand(FILE *out, const struct ptb_cpuinfo *ci)
{
	struct ptb_cpuinfo os;

	if (strcmp(ci->source, "procfs") == 0 || ptb_cpuinfo_from_proc(&os, "/proc/cpuinfo") != 0)
		return;
	if (os.brand[0] && strcmp(os.brand, ci->brand) != 0)
		info_line(out, "kernel says", "%s (/proc/cpuinfo; results use the %s brand above)",
			  os.brand, ci->source);
}

static void print_cpu(FILE *out, const struct ptb_cpuinfo *ci)
{
	fprintf(out, "CPU\n");
	info_line(out, "brand", "%s", or_unknown(ci->brand));
	print_os_brand(out, ci);
	info_line(out, "vendor", "%s", or_unknown(ci->vendor));
	info_line(out, "family/model", "%d / %d, stepping %d", ci->family, ci->model, ci->stepping);
	info_line(out, "hypervisor", "%s", ci->hypervisor[0] ? ci->hypervisor : "none");
	info_line(out, "identified by", "%s%s%s", ci->source, ci->note[0] ? " -- " : "", ci->note);
	fprintf(out, "Caches\n");
	if (ci->ncaches == 0)
		info_line(out, "", "none reported");
	for (int i = 0; i < ci->ncaches; i++) {
		const struct ptb_cache *c = &ci->caches[i];
		char label[32];
		snprintf(label, sizeof label, "L%d %s", c->level, c->type);
		info_line(out, label, "%d KiB, %d B lines, %d-way", c->kib, c->line, c->ways);
	}
}

static void print_topology(FILE *out, const struct ptb_system *sys)
{
	const struct ptb_topo_counts *n = &sys->counts;

	fprintf(out, "Topology (hwloc %s)\n", n->hwloc);
	info_line(out, "usable", "%d package%s, %d NUMA node%s, %d core%s, %d of %d PUs (%s)",
	    n->packages, n->packages == 1 ? "" : "s", n->numa_nodes, n->numa_nodes == 1 ? "" : "s",
	    n->cores, n->cores == 1 ? "" : "s", n->pus, n->machine_pus, n->allowed);
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++) {
		const struct ptb_pair *pr = &sys->pairs[p];
		if (!pr->possible)
			info_line(out, ptb_placement_name(p), "na: %s", pr->reason);
		else if (pr->pu[0] < 0)
			info_line(out, ptb_placement_name(p), "not bound: the scheduler decides");
		else
			info_line(out, ptb_placement_name(p), "PUs %d and %d", pr->pu[0], pr->pu[1]);
	}
}

/* Every reason the hardware counter was refused, one a line. */
static void print_refusals(FILE *out, const char *refused)
{
	const char *label = "refused";

	while (*refused) {
		size_t n = strcspn(refused, ";");
		info_line(out, label, "%.*s", (int)n, refused);
		label = "";
		refused += n;
		refused += strspn(refused, "; ");
	}
}

static void print_clock(FILE *out, const struct ptb_clock *c)
{
	char why[160] = "";

	if (strcmp(c->source, "tsc") == 0)
		ptb_tsc_invariant(why, sizeof why);
	fprintf(out, "Clock\n");
	info_line(out, "source", "%s at %.3f MHz, read with %s", c->source, c->hz / 1e6,
		  or_unknown(c->read));
	info_line(out, "invariant", "%s%s%s%s", c->invariant ? "yes" : "no",
	    why[0] ? " (" : "", why, why[0] ? ")" : "");
	info_line(out, "read overhead", "%.2f ns", c->overhead_ns);
	info_line(out, "resolution", "%.2f ns", c->resolution_ns);
	print_refusals(out, c->refused);
}

static void print_os(FILE *out, const struct ptb_sysinfo *si)
{
	static const char *const smt[] = { "off", "on" };

	fprintf(out, "OS\n");
	info_line(out, "host", "%s", or_unknown(si->host));
	info_line(out, "kernel", "%s (%s)", or_unknown(si->kernel), or_unknown(si->machine));
	info_line(out, "libc", "%s, %s", or_unknown(si->libc), or_unknown(si->pthreads));
	info_line(out, "compiler", "%s", si->compiler);
	info_line(out, "online CPUs", "%d", si->online_cpus);
	info_line(out, "SMT", "%s", si->smt < 0 ? "unknown" : smt[si->smt != 0]);
	info_line(out, "governor", "%s", si->governor[0] ? si->governor : "none (no cpufreq)");
	info_line(out, "load average", "%.2f %.2f %.2f", si->loadavg[0], si->loadavg[1], si->loadavg[2]);
	info_line(out, "hypervisor", "%s", si->hypervisor[0] ? si->hypervisor : "none seen");
	if (si->quota.cpus > 0)
		info_line(out, "CPU quota", "%.2f CPUs (%s)", si->quota.cpus, si->quota.file);
	else
		info_line(out, "CPU quota", "none (no cgroup CPU quota found)");
	fprintf(out, "Scheduler\n");
	info_line(out, "name", "%s", or_unknown(si->scheduler));
	if (si->base_slice_ns >= 0)
		info_line(out, "base slice", "%ld ns", si->base_slice_ns);
	else
		info_line(out, "base slice", "unknown (not readable here)");
}

static void print_warnings(FILE *out, const struct ptb_system *sys)
{
	json_t *w = ptb_warnings_json(sys), *v;
	size_t i;

	fprintf(out, "Warnings\n");
	if (json_array_size(w) == 0)
		fprintf(out, "  none\n");
	json_array_foreach(w, i, v)
		fprintf(out, "  - %s\n", json_string_value(v));
	json_decref(w);
}

static int print_json(FILE *out, const struct ptb_system *sys, json_t *harness)
{
	json_t *ctx;
	int rc;

	ctx = ptb_context_json(sys, harness, "ptbench info --json");
	if (!ctx)
		return -1;
	rc = json_dumpf(ctx, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
	json_decref(ctx);
	fputc('\n', out);
	return rc;
}

int ptb_info_print(FILE *out, const struct ptb_system *sys, json_t *harness)
{
	if (harness)
		return print_json(out, sys, harness) == 0 && !ferror(out) ? 0 : -1;
	print_cpu(out, &sys->cpu);
	print_topology(out, sys);
	print_clock(out, &sys->clock);
	print_os(out, &sys->sys);
	print_warnings(out, sys);
	return ferror(out) ? -1 : 0;
}
