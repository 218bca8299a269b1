/* SPDX-License-Identifier: MIT */
/*
 * The topology as this process may use it, through hwloc.  The machine is
 * loaded whole (disallowed PUs included, to count them) and then cut down
 * to the PUs the cgroup cpuset allows and the process is bound to, so
 * `taskset -c 0 ptbench` sees one PU.  From that set come the placements
 * of the symmetric benchmarks -- a concrete pair of OS PU numbers, or a
 * sentence saying what the placement needs and what there is -- and the
 * binding of the calling thread, which is always read back.
 */
#include "config.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <hwloc.h>

#include "topology.h"

struct ptb_topology {
	hwloc_topology_t topo;
	bool topo_ok;             /* topo was initialised: destroy it */
	hwloc_bitmap_t allowed;   /* the PUs this process may use */
	bool thissystem;          /* false for XML: binding is meaningless */
	int machine_pus;
};

static const char *const placement_names[PTB_PLACEMENT_COUNT] = {
	[PTB_UNBOUND]       = "unbound",
	[PTB_SAME_PU]       = "same_pu",
	[PTB_SMT]           = "smt",
	[PTB_CROSS_CORE]    = "cross_core",
	[PTB_CROSS_PACKAGE] = "cross_package",
	[PTB_CROSS_NUMA]    = "cross_numa",
};

const char *ptb_placement_name(enum ptb_placement p)
{
	return (unsigned)p < PTB_PLACEMENT_COUNT ? placement_names[p] : "?";
}

int ptb_placement_from_name(const char *name)
{
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++)
		if (strcmp(name, placement_names[p]) == 0)
			return p;
	return -1;
}

/* The PUs this process may run on: the cgroup's allowed set, and for the
 * live machine also the CPU binding inherited from taskset or a parent.
 * The calling thread's binding, not the process's: the process's is the
 * union over its threads, which includes helper threads of an emulator
 * (qemu-user) or a sanitizer that the binding of this thread never moved. */
static int usable_set(struct ptb_topology *t, char *err, size_t errlen)
{
	hwloc_bitmap_t bound;

	hwloc_bitmap_copy(t->allowed, hwloc_topology_get_allowed_cpuset(t->topo));
	if (!t->thissystem)
		return 0;
	bound = hwloc_bitmap_alloc();
	if (hwloc_get_cpubind(t->topo, bound, HWLOC_CPUBIND_THREAD) != 0) {
		snprintf(err, errlen, "cannot read this process's CPU binding: %s",
			 strerror(errno));
		hwloc_bitmap_free(bound);
		return -1;
	}
	hwloc_bitmap_and(t->allowed, t->allowed, bound);
	hwloc_bitmap_free(bound);
	return 0;
}

static int load(struct ptb_topology *t, const char *xml, char *err, size_t errlen)
{
	if (hwloc_topology_init(&t->topo) != 0) {
		snprintf(err, errlen, "hwloc_topology_init: %s", strerror(errno));
		return -1;
	}
	t->topo_ok = true;
	hwloc_topology_set_flags(t->topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
	if (xml && hwloc_topology_set_xml(t->topo, xml) != 0) {
		snprintf(err, errlen, "%s: not a readable hwloc XML topology", xml);
		return -1;
	}
	if (hwloc_topology_load(t->topo) != 0) {
		snprintf(err, errlen, "hwloc could not load the topology: %s", strerror(errno));
		return -1;
	}
	t->thissystem = hwloc_topology_is_thissystem(t->topo);
	t->machine_pus = hwloc_get_nbobjs_by_type(t->topo, HWLOC_OBJ_PU);
	if (usable_set(t, err, errlen) != 0)
		return -1;
	if (hwloc_bitmap_iszero(t->allowed)) {
		snprintf(err, errlen, "no PU of this machine may be used by this process");
		return -1;
	}
	if (hwloc_topology_restrict(t->topo, t->allowed, HWLOC_RESTRICT_FLAG_REMOVE_CPULESS) != 0) {
		snprintf(err, errlen, "hwloc could not restrict the topology: %s", strerror(errno));
		return -1;
	}
	return 0;
}

struct ptb_topology *ptb_topology_load(const char *xml, char *err, size_t errlen)
{
	struct ptb_topology *t = calloc(1, sizeof *t);

	if (!t) {
		snprintf(err, errlen, "out of memory");
		return NULL;
	}
	t->allowed = hwloc_bitmap_alloc();
	if (load(t, xml, err, errlen) != 0) {
		ptb_topology_free(t);
		return NULL;
	}
	return t;
}

void ptb_topology_free(struct ptb_topology *t)
{
	if (!t)
		return;
	if (t->topo_ok)
		hwloc_topology_destroy(t->topo);
	hwloc_bitmap_free(t->allowed);
	free(t);
}

static int count(const struct ptb_topology *t, hwloc_obj_type_t type)
{
	return hwloc_get_nbobjs_by_type(t->topo, type);
}

/* The data and unified caches above the first allowed PU, L1 first. */
static void caches(const struct ptb_topology *t, struct ptb_topo_counts *c)
{
	hwloc_obj_t o = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PU, 0);
	for (; o && c->ncaches < PTB_TOPO_MAX_CACHES; o = o->parent) {
		if (!hwloc_obj_type_is_dcache(o->type) || !o->attr)
			continue;
		c->caches[c->ncaches++] = (struct ptb_topo_cache){
			.level = (int)o->attr->cache.depth,
			.bytes = (long long)o->attr->cache.size,
			.line = (int)o->attr->cache.linesize,
		};
	}
}

void ptb_topology_counts(const struct ptb_topology *t, struct ptb_topo_counts *c)
{
	memset(c, 0, sizeof *c);
	c->packages = count(t, HWLOC_OBJ_PACKAGE);
	c->numa_nodes = count(t, HWLOC_OBJ_NUMANODE);
	c->cores = count(t, HWLOC_OBJ_CORE);
	c->pus = count(t, HWLOC_OBJ_PU);
	c->machine_pus = t->machine_pus;
	hwloc_bitmap_list_snprintf(c->allowed, sizeof c->allowed, t->allowed);
	snprintf(c->hwloc, sizeof c->hwloc, "%s", HWLOC_VERSION);
	caches(t, c);
}

/* --- placements ------------------------------------------------------- */

static void pair(struct ptb_pair *out, int a, int b)
{
	out->possible = true;
	out->pu[0] = a;
	out->pu[1] = b;
	out->reason[0] = '\0';
}

static void impossible(struct ptb_pair *out,
		       const char *needs, const char *why)
{
	out->possible = false;
	out->pu[0] = out->pu[1] = -1;
	snprintf(out->reason, sizeof out->reason, "needs %s; %s", needs, why);
}

/* "this process may use 1 (PUs 0)": the usual second half of a reason. */
static void may_use(const struct ptb_topology *t, int n, const char *what,
		    char *buf, size_t len)
{
	char list[64];

	hwloc_bitmap_list_snprintf(list, sizeof list, t->allowed);
	if (n == 0)
		snprintf(buf, len, "hwloc reports no %s here (PUs %s)", what, list);
	else
		snprintf(buf, len, "this process may use %d (PUs %s)", n, list);
}

static int first_pu(hwloc_const_cpuset_t set)
{
	return hwloc_bitmap_first(set);
}

static void pair_smt(const struct ptb_topology *t, struct ptb_pair *out)
{
	const char *needs = "2 PUs in one core";
	hwloc_obj_t core = NULL;

	while ((core = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_CORE, core)))
		if (hwloc_bitmap_weight(core->cpuset) >= 2) {
			int a = first_pu(core->cpuset);
			pair(out, a, hwloc_bitmap_next(core->cpuset, a));
			return;
		}
	if (count(t, HWLOC_OBJ_CORE) == 0)
		impossible(out, needs, "hwloc reports no cores here");
	else
		impossible(out, needs, "no core here has more than 1 allowed PU");
}

/* The first two cores inside set, as their first PUs; -1 if fewer. */
static int two_cores_in(const struct ptb_topology *t, hwloc_const_cpuset_t set, int pu[2])
{
	hwloc_obj_t c0, c1;

	if (hwloc_get_nbobjs_inside_cpuset_by_type(t->topo, set, HWLOC_OBJ_CORE) < 2)
		return -1;
	c0 = hwloc_get_obj_inside_cpuset_by_type(t->topo, set, HWLOC_OBJ_CORE, 0);
	c1 = hwloc_get_obj_inside_cpuset_by_type(t->topo, set, HWLOC_OBJ_CORE, 1);
	pu[0] = first_pu(c0->cpuset);
	pu[1] = first_pu(c1->cpuset);
	return 0;
}

static void pair_cross_core(const struct ptb_topology *t, struct ptb_pair *out)
{
	const char *needs = "2 cores in one package";
	hwloc_obj_t pkg = NULL;
	char why[128];
	int pu[2];

	if (count(t, HWLOC_OBJ_PACKAGE) == 0 && two_cores_in(t, t->allowed, pu) == 0) {
		pair(out, pu[0], pu[1]);   /* no package level: one package */
		return;
	}
	while ((pkg = hwloc_get_next_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, pkg)))
		if (two_cores_in(t, pkg->cpuset, pu) == 0) {
			pair(out, pu[0], pu[1]);
			return;
		}
	if (count(t, HWLOC_OBJ_CORE) >= 2) {
		impossible(out, needs, "no package here has more than 1 allowed core");
		return;
	}
	may_use(t, count(t, HWLOC_OBJ_CORE), "cores", why, sizeof why);
	impossible(out, needs, why);
}

static void pair_cross_package(const struct ptb_topology *t, struct ptb_pair *out)
{
	int n = count(t, HWLOC_OBJ_PACKAGE);
	char why[128];

	if (n >= 2) {
		pair(out, first_pu(hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, 0)->cpuset),
		     first_pu(hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, 1)->cpuset));
		return;
	}
	may_use(t, n, "packages", why, sizeof why);
	impossible(out, "2 packages", why);
}

/* Two NUMA nodes with disjoint PUs: memory-only tiers (HBM, CXL) share
 * their package's PUs and do not make a cross-node pair. */
static void pair_cross_numa(const struct ptb_topology *t, struct ptb_pair *out)
{
	int n = count(t, HWLOC_OBJ_NUMANODE);
	char why[128];

	for (int i = 0; i < n; i++) {
		hwloc_obj_t a = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_NUMANODE, i);
		for (int j = i + 1; j < n; j++) {
			hwloc_obj_t b = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_NUMANODE, j);
			if (!hwloc_bitmap_intersects(a->cpuset, b->cpuset)) {
				pair(out, first_pu(a->cpuset), first_pu(b->cpuset));
				return;
			}
		}
	}
	if (n >= 2) {
		impossible(out, "2 NUMA nodes with separate PUs",
			   "the NUMA nodes here share their PUs");
		return;
	}
	may_use(t, n, "NUMA nodes", why, sizeof why);
	impossible(out, "2 NUMA nodes", why);
}

void ptb_placement_pair(const struct ptb_topology *t, enum ptb_placement p, struct ptb_pair *out)
{
	int pu0 = first_pu(t->allowed);

	switch (p) {
	case PTB_UNBOUND:       pair(out, -1, -1);           break;
	case PTB_SAME_PU:       pair(out, pu0, pu0);         break;
	case PTB_SMT:           pair_smt(t, out);            break;
	case PTB_CROSS_CORE:    pair_cross_core(t, out);     break;
	case PTB_CROSS_PACKAGE: pair_cross_package(t, out);  break;
	case PTB_CROSS_NUMA:    pair_cross_numa(t, out);     break;
	default:                impossible(out, "a known placement", "this one is not");
	}
}

/* --- orders of N threads --------------------------------------------- */

static const char *const order_names[PTB_ORDER_COUNT] = {
	[PTB_ORDER_COMPACT] = "compact",
	[PTB_ORDER_SPREAD]  = "spread",
};

const char *ptb_order_name(enum ptb_pu_order o)
{
	return (unsigned)o < PTB_ORDER_COUNT ? order_names[o] : "?";
}

int ptb_order_from_name(const char *name)
{
	for (int o = 0; o < PTB_ORDER_COUNT; o++)
		if (strcmp(name, order_names[o]) == 0)
			return o;
	return -1;
}

/* A PU's place in the spread order: its rank in its core, its core's rank
 * in its package, its package; then hwloc's logical (compact) order. */
struct pu_key {
	int os, in_core, core_in_pkg, pkg, logical;
};

static int spread_cmp(const void *a, const void *b)
{
	const struct pu_key *x = a, *y = b;
	if (x->in_core != y->in_core)
		return x->in_core - y->in_core;
	if (x->core_in_pkg != y->core_in_pkg)
		return x->core_in_pkg - y->core_in_pkg;
	if (x->pkg != y->pkg)
		return x->pkg - y->pkg;
	return x->logical - y->logical;
}

/* hwloc's logical order walks the tree, so a core's PUs and a package's
 * cores are consecutive: the ranks count up until the parent changes. */
static void pu_keys(const struct ptb_topology *t, struct pu_key *k, int n)
{
	hwloc_obj_t prev_core = NULL, prev_pkg = NULL;
	int in_core = 0, core_in_pkg = 0;
	for (int i = 0; i < n; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t->topo, HWLOC_OBJ_PU, i);
		hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_CORE, pu);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, pu);
		if (!core)
			core = pu;      /* no core level: every PU is its own core */
		if (i > 0 && core == prev_core) {
			in_core++;
		} else {
			in_core = 0;
			core_in_pkg = i > 0 && pkg == prev_pkg ? core_in_pkg + 1 : 0;
		}
		prev_core = core;
		prev_pkg = pkg;
		k[i] = (struct pu_key){ (int)pu->os_index, in_core, core_in_pkg,
					pkg ? (int)pkg->logical_index : 0, i };
	}
}

int ptb_topology_order(const struct ptb_topology *t, enum ptb_pu_order o, int *pus, int max)
{
	int n = count(t, HWLOC_OBJ_PU);
	struct pu_key *k = calloc(n > 0 ? n : 1, sizeof *k);
	if (!k)
		return -1;
	pu_keys(t, k, n);
	if (o == PTB_ORDER_SPREAD)
		qsort(k, n, sizeof *k, spread_cmp);
	if (n > max)
		n = max;
	for (int i = 0; i < n; i++)
		pus[i] = k[i].os;
	free(k);
	return n;
}

/* --- pairs of PUs ------------------------------------------------------ */

int ptb_topology_pair_class(const struct ptb_topology *t, int a, int b)
{
	if (a < 0 || b < 0 || !hwloc_bitmap_isset(t->allowed, (unsigned)a) ||
	    !hwloc_bitmap_isset(t->allowed, (unsigned)b))
		return -1;
	if (a == b)
		return PTB_SAME_PU;
	hwloc_obj_t pa = hwloc_get_pu_obj_by_os_index(t->topo, (unsigned)a);
	hwloc_obj_t pb = hwloc_get_pu_obj_by_os_index(t->topo, (unsigned)b);
	hwloc_obj_t ca = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_CORE, pa);
	hwloc_obj_t cb = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_CORE, pb);
	hwloc_obj_t ka = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, pa);
	hwloc_obj_t kb = hwloc_get_ancestor_obj_by_type(t->topo, HWLOC_OBJ_PACKAGE, pb);
	if (ca && ca == cb)
		return PTB_SMT;
	if (ka != kb)
		return PTB_CROSS_PACKAGE;
	/* A PU's nodeset is its local NUMA nodes: disjoint ones are two nodes. */
	if (pa->nodeset && pb->nodeset && !hwloc_bitmap_intersects(pa->nodeset, pb->nodeset))
		return PTB_CROSS_NUMA;
	return PTB_CROSS_CORE;
}

/* --- binding ----------------------------------------------------------- */

int ptb_bind_self_set(const struct ptb_topology *t, const int *pus, int n, char *err,
		      size_t errlen)
{
	hwloc_bitmap_t set;
	char list[128];
	int rc;

	if (!t->thissystem) {
		snprintf(err, errlen, "cannot bind: the topology was loaded from XML, not this machine");
		return -1;
	}
	hwloc_bitmap_list_snprintf(list, sizeof list, t->allowed);
	for (int i = 0; i < n; i++)
		if (pus[i] < 0 || !hwloc_bitmap_isset(t->allowed, (unsigned)pus[i])) {
			snprintf(err, errlen, "cannot bind to PU %d: this process may use PUs %s",
				 pus[i], list);
			return -1;
		}
	set = n > 0 ? hwloc_bitmap_alloc() : hwloc_bitmap_dup(t->allowed);
	for (int i = 0; i < n; i++)
		hwloc_bitmap_set(set, (unsigned)pus[i]);
	/* STRICT is refused by some systems that can still bind: retry without. */
	rc = hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD | HWLOC_CPUBIND_STRICT);
	if (rc != 0)
		rc = hwloc_set_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD);
	if (rc != 0) {
		hwloc_bitmap_list_snprintf(list, sizeof list, set);
		snprintf(err, errlen, "binding this thread to PUs %s failed: %s", list, strerror(errno));
	}
	hwloc_bitmap_free(set);
	return rc == 0 ? 0 : -1;
}

int ptb_bind_self(const struct ptb_topology *t, int pu, char *err, size_t errlen)
{
	return ptb_bind_self_set(t, &pu, pu >= 0, err, errlen);
}

int ptb_last_pu(const struct ptb_topology *t)
{
#ifdef HAVE_SCHED_GETCPU
	(void)t;                        /* no allocation: it is on a timed path */
	return sched_getcpu();
#else
	hwloc_bitmap_t set = hwloc_bitmap_alloc();
	int pu = -1;
	if (set && hwloc_get_last_cpu_location(t->topo, set, HWLOC_CPUBIND_THREAD) == 0)
		pu = hwloc_bitmap_first(set);
	hwloc_bitmap_free(set);
	return pu;
#endif
}

int ptb_binding_self(const struct ptb_topology *t, char *buf, size_t len)
{
	hwloc_bitmap_t set;
	int rc = -1;

	buf[0] = '\0';
	if (!t->thissystem)
		return -1;
	set = hwloc_bitmap_alloc();
	if (hwloc_get_cpubind(t->topo, set, HWLOC_CPUBIND_THREAD) == 0) {
		hwloc_bitmap_list_snprintf(buf, len, set);
		rc = 0;
	}
	hwloc_bitmap_free(set);
	return rc;
}

bool ptb_binding_is(const char *readback, int pu)
{
	char want[16];
	if (!readback || !*readback)
		return false;
	if (pu < 0)
		return true;
	snprintf(want, sizeof want, "%d", pu);
	return strcmp(readback, want) == 0;
}
