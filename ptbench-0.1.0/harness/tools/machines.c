/* SPDX-License-Identifier: MIT */
/*
 * What each machine of `ptbench table` was -- CPU, hypervisor, topology,
 * OS, C library, compiler, clock, date, file, source, warnings -- one row per
 * fact that some machine has, and the names of the table's columns.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "text/text.h"
#include "tools/table.h"

/* A CPU brand without the trademark noise and clock suffix that make
 * headers wide: "Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz" -> "Intel Xeon
 * Gold 6130". */
static void short_brand(const char *brand, char *buf, size_t len)
{
	static const char *const noise[] = { "(R)", "(r)", "(TM)", "(tm)", " CPU", " Processor" };
	char tmp[192], *p;
	snprintf(tmp, sizeof tmp, "%s", brand ? brand : "");
	if ((p = strstr(tmp, " @ ")))
		*p = 0;
	for (size_t i = 0; i < sizeof noise / sizeof noise[0]; i++)
		while ((p = strstr(tmp, noise[i])))
			memmove(p, p + strlen(noise[i]), strlen(p + strlen(noise[i])) + 1);
	size_t o = 0;
	for (p = tmp; *p && o + 1 < len; p++)
		if (*p != ' ' || (o > 0 && buf[o - 1] != ' '))
			buf[o++] = *p;
	while (o > 0 && buf[o - 1] == ' ')
		o--;
	buf[o] = 0;
}

static void base_name(const struct ptb_runfile *run, char *buf, size_t len)
{
	char brand[96];
	short_brand(run->brand, brand, sizeof brand);
	snprintf(buf, len, brand[0] ? "%s (%s)" : "%s",
		 run->host && *run->host ? run->host : "unknown host", brand);
}

/* The suffix that tells apart columns with one name: the run's day, then
 * its time, then a number among the columns still alike. */
static void suffix(struct ptb_runfile *const *runs, char (*names)[192], int i, int pass,
		   char *buf, size_t len)
{
	const char *date = runs[i]->date;
	int k = 1;
	for (int j = 0; j < i; j++)
		k += !strcmp(names[j], names[i]);
	if (pass == 0 && date)
		snprintf(buf, len, ", %.10s", date);
	else if (pass == 1 && date && strlen(date) > 11)
		snprintf(buf, len, " %.5s", date + 11);
	else if (pass == 2)
		snprintf(buf, len, " #%d", k);
	else
		buf[0] = 0;
}

/* Columns are named by host and CPU; two alike get suffixes until unique. */
void ptb_machines_names(struct ptb_runfile *const *runs, int n, char (*names)[192])
{
	char (*add)[32] = calloc((size_t)n + 1, sizeof *add);
	for (int i = 0; i < n; i++)
		base_name(runs[i], names[i], sizeof names[i]);
	for (int pass = 0; add && pass < 3; pass++) {
		for (int i = 0; i < n; i++) {
			add[i][0] = 0;
			for (int j = 0; j < n; j++)
				if (i != j && !strcmp(names[i], names[j]))
					suffix(runs, names, i, pass, add[i], sizeof add[i]);
		}
		for (int i = 0; i < n; i++)
			ptb_appendf(names[i], sizeof names[i], "%s", add[i]);
	}
	free(add);
}

static void cpu_text(const json_t *ctx, char *buf, size_t len)
{
	const json_t *cpu = json_object_get(ctx, "cpu");
	const char *brand = ptb_jstr(cpu, "brand"), *vendor = ptb_jstr(cpu, "vendor");
	double fam = ptb_jnum(cpu, "family"), model = ptb_jnum(cpu, "model"),
	       step = ptb_jnum(cpu, "stepping");
	buf[0] = 0;
	ptb_appendf(buf, len, "%s", brand && *brand ? brand : vendor ? vendor : "");
	if (fam >= 0 && model >= 0)
		ptb_appendf(buf, len, ", family %g model %g stepping %g", fam, model, step >= 0 ? step : 0);
}

static void topology_text(const json_t *ctx, char *buf, size_t len)
{
	static const char *const parts[][2] = {
		/* key            unit */
		{ "packages",     "package" },
		{ "cores",        "core" },
		{ "pus",          "PU" },
		{ "numa_nodes",   "NUMA node" },
	};
	const json_t *topo = json_object_get(ctx, "topology");
	buf[0] = 0;
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
		double n = ptb_jnum(topo, parts[i][0]);
		if (!isnan(n))
			ptb_appendf(buf, len, "%s%g %s%s", buf[0] ? ", " : "", n, parts[i][1], n == 1 ? "" : "s");
	}
	const char *allowed = ptb_jstr(topo, "allowed");
	if (allowed)
		ptb_appendf(buf, len, "; allowed %s", allowed);
}

static void os_text(const json_t *ctx, char *buf, size_t len)
{
	const json_t *os = json_object_get(ctx, "os");
	const char *k = ptb_jstr(os, "kernel"), *m = ptb_jstr(os, "machine");
	snprintf(buf, len, "%s%s%s", k ? k : "", k && m ? " " : "", m ? m : "");
}

static void libc_text(const json_t *ctx, char *buf, size_t len)
{
	const char *l = ptb_jstr(ctx, "libc"), *p = ptb_jstr(ctx, "pthreads");
	snprintf(buf, len, "%s%s%s", l ? l : "", l && p ? " / " : "", p ? p : "");
}

/* "tsc (rdtscp;lfence), invariant; overhead 12.5 ns, resolution 0.5 ns",
 * with why the hardware counter was refused when it was. */
static void clock_text(const json_t *ctx, char *buf, size_t len)
{
	const json_t *clk = json_object_get(ctx, "clock");
	const char *src = ptb_jstr(clk, "source"), *read = ptb_jstr(clk, "read");
	const char *refused = ptb_jstr(clk, "refused");
	double over = ptb_jnum(clk, "overhead_ns"), res = ptb_jnum(clk, "resolution_ns");
	buf[0] = 0;
	if (!src)
		return;
	ptb_appendf(buf, len, "%s", src);
	if (read)
		ptb_appendf(buf, len, " (%s)", read);
	if (json_is_true(json_object_get(clk, "invariant")))
		ptb_appendf(buf, len, ", invariant");
	if (isfinite(over))
		ptb_appendf(buf, len, "; overhead %g ns", over);
	if (isfinite(res))
		ptb_appendf(buf, len, ", resolution %g ns", res);
	if (refused && *refused)
		ptb_appendf(buf, len, "; hardware counter refused: %s", refused);
}

static void machine_field(const struct ptb_runfile *run, int field, char *buf, size_t len)
{
	const json_t *ctx = run->context;
	const char *s = NULL;
	buf[0] = 0;
	switch (field) {
	case 0: cpu_text(ctx, buf, len); return;
	case 1: s = ptb_jstr(json_object_get(ctx, "cpu"), "hypervisor"); break;
	case 2: topology_text(ctx, buf, len); return;
	case 3: os_text(ctx, buf, len); return;
	case 4: libc_text(ctx, buf, len); return;
	case 5: s = ptb_jstr(ctx, "compiler"); break;
	case 6: clock_text(ctx, buf, len); return;
	case 7: s = ptb_jstr(ctx, "date"); break;
	case 8: s = run->path; break;
	case 9: s = ptb_jstr(run->doc, "source"); break;
	case 10: s = ptb_jstr(ctx, "note"); break;
	case 11: ptb_fmt_join(buf, len, json_object_get(ctx, "warnings"), "; "); return;
	}
	snprintf(buf, len, "%s", s ? s : "");
}

/* The rows of the machine block, in machine_field's order. */
static const char *const machine_rows[] = {
	"CPU", "Hypervisor", "Topology", "OS", "libc / threads", "Compiler", "Clock",
	"Date", "File", "Source", "Note", "Warnings",
};
#define NMACHINE (int)(sizeof machine_rows / sizeof machine_rows[0])

/* One row per field that some machine has. */
int ptb_machines_grid(struct ptb_grid *g, struct ptb_runfile *const *runs, int n,
		      char (*names)[192])
{
	char buf[1024];
	int rows = 0;
	if (ptb_grid_init(g, NMACHINE + 1, n + 1, n + 1))
		return -1;
	ptb_grid_set(g, 0, 0, "Machine");
	for (int c = 0; c < n; c++)
		ptb_grid_set(g, 0, c + 1, names[c]);
	for (int f = 0; f < NMACHINE; f++) {
		int any = 0;
		for (int c = 0; c < n; c++) {
			machine_field(runs[c], f, buf, sizeof buf);
			ptb_grid_set(g, rows + 1, c + 1, buf);
			any |= buf[0] != 0;
		}
		if (any)
			ptb_grid_set(g, ++rows, 0, machine_rows[f]);
	}
	g->nrows = rows + 1;   /* the rows past it hold only empty cells */
	return 0;
}

