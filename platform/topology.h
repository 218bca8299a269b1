/* SPDX-License-Identifier: MIT */
/*
 * The machine's topology through hwloc, restricted to the CPUs this process
 * may run on (taskset and cgroup cpusets), and the thread placements of the
 * symmetric benchmarks: for each placement either a concrete pair of PUs
 * or the reason this machine cannot offer it.  Binding is done here, and
 * read back, so that a result records where its threads really ran.
 */
#ifndef PTB_TOPOLOGY_H
#define PTB_TOPOLOGY_H

#include <stdbool.h>
#include <stddef.h>

enum ptb_placement {
	PTB_UNBOUND,        /* no binding: the scheduler decides */
	PTB_SAME_PU,        /* both threads on one PU */
	PTB_SMT,            /* two PUs of one core */
	PTB_CROSS_CORE,     /* two cores of one package */
	PTB_CROSS_PACKAGE,  /* two packages */
	PTB_CROSS_NUMA,     /* two NUMA nodes */
	PTB_PLACEMENT_COUNT
};

/* The domains of a placement variable: every placement, or those that put
 * two threads on different PUs.  The names are those of ptb_placement_name
 * (tests/test_topology.c checks that they agree). */
#define PTB_PLACEMENTS_ALL    "unbound,same_pu,smt,cross_core,cross_package,cross_numa"
#define PTB_PLACEMENTS_TWO_PU "smt,cross_core,cross_package,cross_numa"

/* Orders in which threads that take one PU each fill the allowed PUs:
 * compact fills a core's PUs, then its package's cores, before the next;
 * spread takes one PU of every core, alternating packages, before a second
 * PU of any core.  The names are those of ptb_order_name. */
enum ptb_pu_order { PTB_ORDER_COMPACT, PTB_ORDER_SPREAD, PTB_ORDER_COUNT };
#define PTB_ORDERS "compact,spread"

struct ptb_pair {
	bool possible;
	int pu[2];            /* OS indexes; -1 for unbound */
	char reason[160];     /* why not possible, "" when possible */
};

/* A data or unified cache above the first allowed PU, as hwloc reports it
 * (from CPUID or the OS: a virtual CPU may claim a cache it does not have). */
#define PTB_TOPO_MAX_CACHES 6
struct ptb_topo_cache {
	int level;                              /* 1, 2, 3 ... */
	long long bytes;                        /* 0 when unknown */
	int line;                               /* line size in bytes; 0 when unknown */
};

struct ptb_topo_counts {
	int packages, numa_nodes, cores, pus;   /* within the allowed set */
	int machine_pus;                        /* before restriction */
	char allowed[128];                      /* allowed PUs as a list, "0-1" */
	char hwloc[16];                         /* hwloc version */
	int ncaches;                            /* nearest the PU first */
	struct ptb_topo_cache caches[PTB_TOPO_MAX_CACHES];
};

struct ptb_topology;

const char *ptb_placement_name(enum ptb_placement p);
/* -1 when the name is unknown. */
int ptb_placement_from_name(const char *name);

/* Load this machine (xml == NULL) or a synthetic topology from an hwloc XML
 * file; NULL with err filled on failure. */
struct ptb_topology *ptb_topology_load(const char *xml, char *err, size_t errlen);
void ptb_topology_free(struct ptb_topology *t);
void ptb_topology_counts(const struct ptb_topology *t, struct ptb_topo_counts *c);
void ptb_placement_pair(const struct ptb_topology *t, enum ptb_placement p, struct ptb_pair *out);
const char *ptb_order_name(enum ptb_pu_order o);
/* -1 when the name is unknown. */
int ptb_order_from_name(const char *name);
/* The allowed PUs (OS numbers) in that order; how many were written (at
 * most max), or -1 when out of memory. */
int ptb_topology_order(const struct ptb_topology *t, enum ptb_pu_order o, int *pus, int max);

/* The placement class of two allowed PUs: PTB_SMT (one core),
 * PTB_CROSS_CORE (one package and NUMA node), PTB_CROSS_NUMA (two NUMA
 * nodes of one package) or PTB_CROSS_PACKAGE (two packages) -- the package
 * boundary is named first because it is the larger one; PTB_SAME_PU when
 * a == b, -1 when either is not allowed. */
int ptb_topology_pair_class(const struct ptb_topology *t, int a, int b);

/* Bind the calling thread to one PU (pu >= 0) or to every allowed PU
 * (pu < 0).  0, or -1 with err filled: binding failure is never silent. */
int ptb_bind_self(const struct ptb_topology *t, int pu, char *err, size_t errlen);
/* The same to the n PUs of pus, the scheduler choosing among them (n == 0:
 * every allowed PU). */
int ptb_bind_self_set(const struct ptb_topology *t, const int *pus, int n, char *err,
		      size_t errlen);
/* The PU the calling thread ran on last (a cheap read, for a benchmark's
 * inner loop), or -1 when the system does not say. */
int ptb_last_pu(const struct ptb_topology *t);
/* The calling thread's current binding as a list ("0", "0-1"). */
int ptb_binding_self(const struct ptb_topology *t, char *buf, size_t len);
/* Whether a binding read back is what binding to `pu` asked for: that one
 * PU, or any non-empty set when pu < 0 (every allowed PU). */
bool ptb_binding_is(const char *readback, int pu);

#endif
