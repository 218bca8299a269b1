/* SPDX-License-Identifier: MIT */
/*
 * Placement selection on synthetic hwloc topologies (tests/data/topo-*.xml,
 * made with `lstopo -i DESCRIPTION --of xml`): every placement gives the
 * expected pair of OS PU numbers or an `na` reason saying what it needs.
 * Then the live machine: binding to each allowed PU reads back as that PU,
 * and a process bound to one PU (what `taskset -c N` does) sees one PU and
 * no two-PU placement.  And the orders in which threads of one PU each
 * fill a topology, compact and spread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "platform/topology.h"

/* Per placement: "a,b" for a pair, or the reason an impossible one gives. */
static const struct topo_case {
	const char *xml;
	int packages, numa, cores, pus, machine_pus;
	const char *allowed;
	const char *expect[PTB_PLACEMENT_COUNT];
} cases[] = {
	{ "topo-1pu.xml", 1, 1, 1, 1, 1, "0", {
		"-1,-1", "0,0",
		"needs 2 PUs in one core; no core here has more than 1 allowed PU",
		"needs 2 cores in one package; this process may use 1 (PUs 0)",
		"needs 2 packages; this process may use 1 (PUs 0)",
		"needs 2 NUMA nodes; this process may use 1 (PUs 0)" } },
	{ "topo-2core.xml", 1, 1, 2, 2, 2, "0-1", {
		"-1,-1", "0,0",
		"needs 2 PUs in one core; no core here has more than 1 allowed PU",
		"0,1",
		"needs 2 packages; this process may use 1 (PUs 0-1)",
		"needs 2 NUMA nodes; this process may use 1 (PUs 0-1)" } },
	{ "topo-smt.xml", 1, 1, 1, 2, 2, "0-1", {
		"-1,-1", "0,0", "0,1",
		"needs 2 cores in one package; this process may use 1 (PUs 0-1)",
		"needs 2 packages; this process may use 1 (PUs 0-1)",
		"needs 2 NUMA nodes; this process may use 1 (PUs 0-1)" } },
	{ "topo-2pack.xml", 2, 1, 2, 2, 2, "0-1", {
		"-1,-1", "0,0",
		"needs 2 PUs in one core; no core here has more than 1 allowed PU",
		"needs 2 cores in one package; no package here has more than 1 allowed core",
		"0,1",
		"needs 2 NUMA nodes; this process may use 1 (PUs 0-1)" } },
	{ "topo-2numa.xml", 1, 2, 4, 4, 4, "0-3", {
		"-1,-1", "0,0",
		"needs 2 PUs in one core; no core here has more than 1 allowed PU",
		"0,1",
		"needs 2 packages; this process may use 1 (PUs 0-3)",
		"0,2" } },
	/* Linux numbers SMT siblings apart: the pairs are OS numbers. */
	{ "topo-smt-interleaved.xml", 1, 1, 2, 4, 4, "0-3", {
		"-1,-1", "0,0", "0,2", "0,1",
		"needs 2 packages; this process may use 1 (PUs 0-3)",
		"needs 2 NUMA nodes; this process may use 1 (PUs 0-3)" } },
	/* Two packages, but the cpuset (allowed_cpuset) only gives PU 0. */
	{ "topo-2pack-restricted.xml", 1, 1, 1, 1, 2, "0", {
		"-1,-1", "0,0",
		"needs 2 PUs in one core; no core here has more than 1 allowed PU",
		"needs 2 cores in one package; this process may use 1 (PUs 0)",
		"needs 2 packages; this process may use 1 (PUs 0)",
		"needs 2 NUMA nodes; this process may use 1 (PUs 0)" } },
};

/* Per topology: the allowed PUs in compact and in spread order. */
static const struct order_case {
	const char *xml, *compact, *spread;
} orders[] = {
	{ "topo-1pu.xml",             "0",       "0" },
	{ "topo-2core.xml",           "0,1",     "0,1" },
	{ "topo-smt.xml",             "0,1",     "0,1" },
	{ "topo-2pack.xml",           "0,1",     "0,1" },
	{ "topo-2numa.xml",           "0,1,2,3", "0,1,2,3" },
	/* core 0 holds PUs 0 and 2: compact fills it first, spread last */
	{ "topo-smt-interleaved.xml", "0,2,1,3", "0,1,2,3" },
	{ "topo-2pack-restricted.xml", "0",      "0" },
	/* 2 packages x 2 cores x 2 PUs: spread alternates packages, then cores */
	{ "topo-2pack-smt.xml", "0,1,2,3,4,5,6,7", "0,4,2,6,1,5,3,7" },
};

static void check_order(const char *dir, const struct order_case *c)
{
	char path[1024], err[256], got[2][128];
	int pus[64];
	struct ptb_topology *t;

	snprintf(path, sizeof path, "%s/%s", dir, c->xml);
	if (!tap_ok((t = ptb_topology_load(path, err, sizeof err)) != NULL, "%s loads", c->xml))
		return;
	for (int o = 0; o < PTB_ORDER_COUNT; o++) {
		int n = ptb_topology_order(t, o, pus, 64);
		got[o][0] = 0;
		for (int i = 0; i < n; i++)
			snprintf(got[o] + strlen(got[o]), sizeof got[o] - strlen(got[o]), "%s%d",
				 i ? "," : "", pus[i]);
	}
	tap_ok(!strcmp(got[0], c->compact) && !strcmp(got[1], c->spread),
	       "%s orders: compact %s, spread %s (got %s; %s)", c->xml, c->compact, c->spread,
	       got[0], got[1]);
	tap_ok(ptb_topology_order(t, PTB_ORDER_SPREAD, pus, 1) == 1 && pus[0] == 0,
	       "%s: an order is cut at max", c->xml);
	ptb_topology_free(t);
}

static void check_pair(const char *xml, enum ptb_placement p, const struct ptb_pair *got,
		       const char *want)
{
	char pair[32];

	if (want[0] == 'n') {
		if (!tap_ok(!got->possible && strcmp(got->reason, want) == 0,
			    "%s %s: na", xml, ptb_placement_name(p)))
			printf("#   got %s \"%s\"\n#   want \"%s\"\n",
			       got->possible ? "a pair" : "na", got->reason, want);
		return;
	}
	snprintf(pair, sizeof pair, "%d,%d", got->pu[0], got->pu[1]);
	if (!tap_ok(got->possible && strcmp(pair, want) == 0, "%s %s: %s",
		    xml, ptb_placement_name(p), want))
		printf("#   got %s (%s)\n", got->possible ? pair : "na", got->reason);
}

static void check_case(const char *dir, const struct topo_case *c)
{
	char path[1024], err[256], bind_err[256];
	struct ptb_topo_counts n;
	struct ptb_topology *t;

	snprintf(path, sizeof path, "%s/%s", dir, c->xml);
	t = ptb_topology_load(path, err, sizeof err);
	if (!tap_ok(t != NULL, "%s loads", c->xml)) {
		printf("#   %s\n", err);
		return;
	}
	ptb_topology_counts(t, &n);
	tap_ok(n.packages == c->packages && n.numa_nodes == c->numa && n.cores == c->cores &&
	       n.pus == c->pus && n.machine_pus == c->machine_pus &&
	       strcmp(n.allowed, c->allowed) == 0,
	       "%s counts: %d packages, %d NUMA, %d cores, %d of %d PUs, allowed %s",
	       c->xml, n.packages, n.numa_nodes, n.cores, n.pus, n.machine_pus, n.allowed);
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++) {
		struct ptb_pair got;
		ptb_placement_pair(t, p, &got);
		check_pair(c->xml, p, &got, c->expect[p]);
	}
	tap_ok(ptb_bind_self(t, 0, bind_err, sizeof bind_err) == -1 && strstr(bind_err, "XML"),
	       "%s: binding refused for an XML topology (%s)", c->xml, bind_err);
	ptb_topology_free(t);
}

/* "0-1,4" -> PUs in order; returns how many. */
static int parse_list(const char *s, int *pu, int max)
{
	int n = 0;

	while (*s && n < max) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long i = lo; i <= hi && n < max; i++)
			pu[n++] = (int)i;
		s = *end == ',' ? end + 1 : end;
		if (end == s && *s)
			break;
	}
	return n;
}

static void check_bind(struct ptb_topology *t, int pu, const char *want)
{
	char err[256], got[128];

	if (!tap_ok(ptb_bind_self(t, pu, err, sizeof err) == 0, "bind to PU %d", pu)) {
		printf("#   %s\n", err);
		return;
	}
	ptb_binding_self(t, got, sizeof got);
	if (!tap_ok(strcmp(got, want) == 0, "binding reads back as %s", want))
		printf("#   got \"%s\"\n", got);
}

/* What `taskset -c pu` gives: a topology loaded while bound to one PU. */
static void check_single_pu_view(int pu)
{
	char err[256], want[16];
	struct ptb_topo_counts n;
	struct ptb_topology *t = ptb_topology_load(NULL, err, sizeof err);

	if (!tap_ok(t != NULL, "topology loads while bound to PU %d", pu))
		return;
	ptb_topology_counts(t, &n);
	snprintf(want, sizeof want, "%d", pu);
	tap_ok(n.pus == 1 && strcmp(n.allowed, want) == 0,
	       "bound to PU %d: 1 allowed PU (got %d, \"%s\")", pu, n.pus, n.allowed);
	for (int p = PTB_SMT; p < PTB_PLACEMENT_COUNT; p++) {
		struct ptb_pair pr;
		ptb_placement_pair(t, p, &pr);
		tap_ok(!pr.possible && strncmp(pr.reason, "needs 2 ", 8) == 0,
		       "bound to PU %d: %s na (%s)", pu, ptb_placement_name(p), pr.reason);
	}
	ptb_topology_free(t);
}

static void check_live(void)
{
	char err[256], one[16];
	struct ptb_topo_counts n;
	struct ptb_topology *t = ptb_topology_load(NULL, err, sizeof err);
	int pus[1024], npus;

	if (!tap_ok(t != NULL, "live topology loads")) {
		printf("#   %s\n", err);
		return;
	}
	ptb_topology_counts(t, &n);
	npus = parse_list(n.allowed, pus, 1024);
	tap_ok(n.pus >= 1 && n.pus == npus && n.machine_pus >= n.pus && n.cores >= 1 &&
	       n.packages >= 1 && n.numa_nodes >= 1,
	       "live counts: %d packages, %d NUMA, %d cores, %d of %d PUs (%s), hwloc %s",
	       n.packages, n.numa_nodes, n.cores, n.pus, n.machine_pus, n.allowed, n.hwloc);
	for (int i = 0; i < npus; i++) {
		snprintf(one, sizeof one, "%d", pus[i]);
		check_bind(t, pus[i], one);
	}
	tap_ok(ptb_bind_self(t, n.machine_pus + 64, err, sizeof err) == -1 && err[0],
	       "binding to a PU outside the allowed set fails with a reason (%s)", err);
	snprintf(one, sizeof one, "%d", pus[0]);
	check_bind(t, pus[0], one);
	check_single_pu_view(pus[0]);
	check_bind(t, -1, n.allowed);
	ptb_topology_free(t);
}

int main(void)
{
	const char *dir = getenv("TESTDATA");

	if (!dir)
		tap_skip_all("TESTDATA not set (run through make check)");
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++)
		tap_ok(ptb_placement_from_name(ptb_placement_name(p)) == p,
		       "placement name %s round-trips", ptb_placement_name(p));
	tap_ok(ptb_placement_from_name("cross_socket") == -1, "unknown placement name is -1");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		check_case(dir, &cases[i]);
	for (int o = 0; o < PTB_ORDER_COUNT; o++)
		tap_ok(ptb_order_from_name(ptb_order_name(o)) == o, "order name %s round-trips",
		       ptb_order_name(o));
	tap_ok(ptb_order_from_name("scatter") == -1, "unknown order name is -1");
	for (size_t i = 0; i < sizeof orders / sizeof orders[0]; i++)
		check_order(dir, &orders[i]);
	check_live();
	tap_done();
	return tap_exit();
}
