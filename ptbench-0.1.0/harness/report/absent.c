/* SPDX-License-Identifier: MIT */
/*
 * Placements a machine cannot have, from the counts of its topology in the
 * run file's context (machine/context.c records them within the PUs the
 * run was allowed).  cross_core is not among them: two cores of one
 * package cannot be told from the counts alone.
 */
#include <config.h>

#include <math.h>
#include <string.h>

#include "ptbench.h"
#include "report/absent.h"
#include "text/text.h"

/* A placement exists when the count `have` exceeds `over` (a count, or 1
 * when NULL); `lack` says what the machine has instead. */
static const struct {
	int placement;
	const char *have, *over, *lack;
} needs[] = {
	/* placement           have          over     lack */
	{ PTB_SMT,             "pus",        "cores", "1 PU per core" },
	{ PTB_CROSS_PACKAGE,   "packages",   NULL,    "1 package" },
	{ PTB_CROSS_NUMA,      "numa_nodes", NULL,    "1 NUMA node" },
};
#define NNEEDS (sizeof needs / sizeof needs[0])

int ptb_absent_placement(const struct ptb_runfile *run, const struct ptb_record *r)
{
	const json_t *topo = json_object_get(run->context, "topology");
	const char *name = json_string_value(json_object_get(r->params, "placement"));
	int p = name ? ptb_placement_from_name(name) : -1;
	if (r->status != PTB_NA || p < 0)
		return -1;
	for (size_t i = 0; i < NNEEDS; i++) {
		if (needs[i].placement != p)
			continue;
		double have = ptb_jnum(topo, needs[i].have);
		double over = needs[i].over ? ptb_jnum(topo, needs[i].over) : 1;
		return isfinite(have) && isfinite(over) && have > 0 && have <= over ? p : -1;
	}
	return -1;
}

void ptb_absent_text(char *buf, size_t len, unsigned mask)
{
	buf[0] = 0;
	for (size_t i = 0; i < NNEEDS; i++)
		if (mask & 1u << needs[i].placement)
			ptb_appendf(buf, len, "%s%s", buf[0] ? ", " : "",
				    ptb_placement_name(needs[i].placement));
	for (size_t i = 0, k = 0; i < NNEEDS; i++)
		if (mask & 1u << needs[i].placement)
			ptb_appendf(buf, len, "%s%s", k++ ? ", " : " (", needs[i].lack);
	if (buf[0])
		ptb_appendf(buf, len, ")");
}
