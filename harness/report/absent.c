/* SPDX-License-Identifier: MIT */
/*
 * Placements a machine cannot have, from the counts of its topology in the
 * run file's context (machine/context.c records them within the PUs the
 * run was allowed).  cross_core is not among them: two cores of one
 * package cannot be told from the counts alone.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
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

/* The PUs a point N/A for want of them needed, from the harness's reason
 * (bench/common.c), when more than the run could use; else 0. */
static int needed_pus(const struct ptb_runfile *run, const struct ptb_record *r, int *pus)
{
	const json_t *topo = json_object_get(run->context, "topology");
	double have = ptb_jnum(topo, "pus");
	int need;
	if (r->status != PTB_NA || !r->reason || !isfinite(have) || have < 1 ||
	    sscanf(r->reason, "needs %d PUs, one per thread", &need) != 1 || need <= have)
		return 0;
	*pus = (int)have;
	return need;
}

bool ptb_absent_add(const struct ptb_runfile *run, const struct ptb_record *r,
		    struct ptb_absent *a)
{
	int p = ptb_absent_placement(run, r), pus = 0, need = needed_pus(run, r, &pus);
	if (p < 0 && !need)
		return false;
	if (a && p >= 0)
		a->placements |= 1u << p;
	if (a && need && (!a->need_pus || need < a->need_pus)) {
		a->need_pus = need;
		a->pus = pus;
	}
	return true;
}

void ptb_absent_text(char *buf, size_t len, const struct ptb_absent *a)
{
	unsigned mask = a->placements;
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
	if (a->need_pus)
		ptb_appendf(buf, len, "%s%d or more PUs, one per thread (%d PU%s)",
			    buf[0] ? "; " : "", a->need_pus, a->pus, a->pus == 1 ? "" : "s");
}
