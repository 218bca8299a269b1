/* SPDX-License-Identifier: MIT */
/*
 * The pair plan of the core-to-core matrix (engine/pairs.h) on synthetic
 * hwloc topologies: every ordered pair, each once and with its class, up
 * to PTB_PAIR_PLAN_ALL pairs; on 256 PUs (2 packages x 2 NUMA nodes x 32
 * cores x 2 PUs) the stated sample -- the first anchor's pairs, every one
 * with PU 0 at one end, within the cap, every class present.
 * And c2c.pair's machine defaults index exactly the plan.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/pairs.h"
#include "platform/topology.h"
#include "tap.h"

/* Per topology: the pairs expected and how many of each class. */
static const struct plan_case {
	const char *xml;
	int pairs, smt, cross_core, cross_package, cross_numa;
} cases[] = {
	/* xml                        pairs smt  core  pack  numa */
	{ "topo-1pu.xml",               0,   0,    0,    0,    0 },
	{ "topo-2core.xml",             2,   0,    2,    0,    0 },
	{ "topo-smt.xml",               2,   2,    0,    0,    0 },
	{ "topo-2pack.xml",             2,   0,    0,    2,    0 },
	{ "topo-2numa.xml",            12,   0,    4,    0,    8 },
	/* per PU: 1 sibling, 2 PUs of the other core, 4 of the other package */
	{ "topo-2pack-smt.xml",        56,   8,   16,   32,    0 },
	/* anchor PU 0 with its 1 sibling, 62 PUs of its NUMA node, 64 of the
	 * other node of its package and 128 of the other package, both ways;
	 * the next anchor's 510 would pass the cap */
	{ "topo-256.xml",             510,   2,  124,  256,  128 },
};

static int class_index(int cls)
{
	switch (cls) {
	case PTB_SMT:           return 0;
	case PTB_CROSS_CORE:    return 1;
	case PTB_CROSS_PACKAGE: return 2;
	case PTB_CROSS_NUMA:    return 3;
	default:                return -1;
	}
}

static void check_case(const char *dir, const struct plan_case *c)
{
	char path[1024], err[256];
	struct ptb_pu_pair *plan;
	struct ptb_topology *t;
	int counts[4] = { 0 }, bad_class = 0, dup = 0, self = 0, anchored = 0;

	snprintf(path, sizeof path, "%s/%s", dir, c->xml);
	if (!tap_ok((t = ptb_topology_load(path, err, sizeof err)) != NULL, "%s loads", c->xml)) {
		printf("#   %s\n", err);
		return;
	}
	int n = ptb_pair_plan(t, &plan);
	tap_ok(n == c->pairs && n <= PTB_PAIR_PLAN_ALL, "%s: %d pairs (want %d, cap %d)", c->xml,
	       n, c->pairs, PTB_PAIR_PLAN_ALL);
	for (int i = 0; i < n; i++) {
		int k = class_index(plan[i].cls);
		self += plan[i].from == plan[i].to;
		bad_class += k < 0 || strcmp(plan[i].cls_name, ptb_placement_name(plan[i].cls)) ||
			     ptb_topology_pair_class(t, plan[i].from, plan[i].to) != plan[i].cls;
		if (k >= 0)
			counts[k]++;
		for (int j = 0; j < i; j++)
			dup += plan[j].from == plan[i].from && plan[j].to == plan[i].to;
		anchored += plan[i].from == 0 || plan[i].to == 0;
	}
	tap_ok(!self && !dup && !bad_class, "%s: no PU paired with itself (%d), no pair twice (%d), "
	       "every class named and read back (%d wrong)", c->xml, self, dup, bad_class);
	tap_ok(counts[0] == c->smt && counts[1] == c->cross_core && counts[2] == c->cross_package &&
	       counts[3] == c->cross_numa,
	       "%s: classes smt %d, cross_core %d, cross_package %d, cross_numa %d", c->xml,
	       counts[0], counts[1], counts[2], counts[3]);
	if (!strcmp(c->xml, "topo-256.xml"))
		tap_ok(anchored == n, "%s: every sampled pair has the anchor, PU 0, at one end",
		       c->xml);
	free(plan);
	ptb_topology_free(t);
}

/* The classes of single pairs, where the plan's counts could hide a swap. */
static void check_classes(const char *dir)
{
	char path[1024], err[256];
	snprintf(path, sizeof path, "%s/topo-256.xml", dir);
	struct ptb_topology *t = ptb_topology_load(path, err, sizeof err);
	if (!tap_ok(t != NULL, "topo-256.xml loads"))
		return;
	/* PUs 0,1 share a core; 2 is the next core; 64 the next NUMA node of
	 * package 0; 128 is package 1 */
	tap_ok(ptb_topology_pair_class(t, 0, 1) == PTB_SMT &&
	       ptb_topology_pair_class(t, 0, 2) == PTB_CROSS_CORE &&
	       ptb_topology_pair_class(t, 0, 64) == PTB_CROSS_NUMA &&
	       ptb_topology_pair_class(t, 64, 0) == PTB_CROSS_NUMA &&
	       ptb_topology_pair_class(t, 0, 128) == PTB_CROSS_PACKAGE &&
	       ptb_topology_pair_class(t, 3, 3) == PTB_SAME_PU &&
	       ptb_topology_pair_class(t, 0, 256) == -1,
	       "256 PUs: smt, cross_core, cross_numa both ways, cross_package, same PU, "
	       "not allowed");
	ptb_topology_free(t);
}

int main(void)
{
	const char *dir = getenv("TESTDATA");
	if (!dir)
		tap_skip_all("TESTDATA not set (run through make check)");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_case(dir, &cases[i]);
	check_classes(dir);
	tap_done();
	return tap_exit();
}
