/* SPDX-License-Identifier: MIT */
/*
 * omp.*: the overhead of OpenMP's directives, measured as EPCC's syncbench
 * (Bull et al.) measures it, for whichever runtime the dynamic linker
 * gives (GCC's libgomp, or LLVM's libomp through LD_PRELOAD: it implements
 * the GOMP entry points too).
 *
 * The method.  run(n) is n repetitions of `delay; directive` (where the
 * delay sits for each directive: bench/omp-rt.c), reference(n) the same n
 * delays run by one thread; the harness times both in the same trial, one
 * right after the other, and the figure is their difference per
 * repetition: the directive's overhead.  The delay is EPCC's default
 * length, about 0.1 us (PTB_OMP_DELAY iterations of dependent adds; the
 * reference's time per repetition, clipped at 1.5 times the trial's
 * least, is noted as `reference_ns`, the
 * iterations as `delay_iterations`): long enough that the threads arrive
 * at the directive as in a program, short enough that the directive is
 * not a small part of what is timed for any but the cheapest (atomic,
 * critical and lock at one thread), where the difference is noisier.
 *
 * The runtime.  The OpenMP code is a module of its own (ptbench-omp.so,
 * bench/omp-rt.c), the one part of ptbench compiled with -fopenmp.  setup
 * sets OMP_PLACES (every allowed PU, one place each, in the point's
 * `order`: compact takes a core's PUs, then its package's, first; spread
 * one PU per core, alternating packages, first), OMP_PROC_BIND=close and
 * OMP_DYNAMIC=false and only then dlopens the module (the main thread
 * still on every allowed PU: the runtime takes its PUs from the main
 * thread's affinity), so the runtime starts in the trial process
 * with our affinity and no other process of ptbench ever loads it.  A team
 * of T threads then holds places 0..T-1; every thread reports its CPU and
 * the point is na if one is elsewhere (a runtime started earlier by
 * LD_PRELOAD of libgomp, or one that ignores OMP_PLACES).
 *
 * Notes: `runtime` (libgomp, libomp, or the library's file name),
 * `runtime_file` (its path, which carries its version: libomp's lives in
 * /usr/lib/llvm-VERSION), `wait_policy` (OMP_WAIT_POLICY, GOMP_SPINCOUNT
 * and KMP_BLOCKTIME as set: spinning or sleeping waits change these
 * figures by orders of magnitude).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "bench/common.h"
#include "bench/omp-rt.h"

#define PTB_OMP_DELAY 256     /* EPCC's default delay, ~0.1 us at 2.5-3 GHz */
#define PTB_OMP_MODULE "ptbench-omp.so"

static const struct ptbomp_module *mod;
static char module_path[4096];
static char runtime_name[64], runtime_file[4096], wait_policy[256];

struct omp_state {
	enum ptbomp_kind kind;
};
static struct omp_state st;

/* The module beside the running program (the build tree), else installed. */
static const char *find_module(void)
{
	char exe[2048];
	ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (len > 0) {
		exe[len] = '\0';
		char *slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(module_path, sizeof module_path, "%s/bench/.libs/%s", exe, PTB_OMP_MODULE);
		if (access(module_path, R_OK) == 0)
			return module_path;
	}
	snprintf(module_path, sizeof module_path, "%s/%s", PTB_PKGLIBDIR, PTB_OMP_MODULE);
	return access(module_path, R_OK) == 0 ? module_path : NULL;
}

static const char *omp_unsupported(const struct ptb_system *sys)
{
	(void)sys;
	return find_module() ? NULL : "the OpenMP module " PTB_OMP_MODULE " is not installed";
}

/* OMP_PLACES of every allowed PU in compact order; 0, or -1 with the
 * point in error. */
static int set_affinity_env(struct ptb_point *p, const int *pus, int npus)
{
	static char places[PTB_MAX_CLIENTS * 8 + 16];
	size_t at = 0;
	for (int i = 0; i < npus && at < sizeof places - 16; i++)
		at += (size_t)snprintf(places + at, sizeof places - at, "%s{%d}", i ? "," : "",
				       pus[i]);
	if (setenv("OMP_PLACES", places, 1) || setenv("OMP_PROC_BIND", "close", 1) ||
	    setenv("OMP_DYNAMIC", "false", 1)) {
		ptb_point_error(p, "cannot set the OpenMP environment");
		return -1;
	}
	return 0;
}

static const char *env_or(const char *name)
{
	const char *v = getenv(name);
	return v ? v : "unset";
}

/* The runtime that ran and how it waits, as notes. */
static void note_runtime(struct ptb_point *p)
{
	const char *file = mod->runtime_file();
	char *real = file ? realpath(file, NULL) : NULL;
	snprintf(runtime_file, sizeof runtime_file, "%s", real ? real : file ? file : "unknown");
	free(real);
	const char *base = strrchr(runtime_file, '/');
	base = base ? base + 1 : runtime_file;
	snprintf(runtime_name, sizeof runtime_name, "%.63s",
		 strstr(base, "libgomp") ? "libgomp" : strstr(base, "libomp") ? "libomp" :
		 strstr(base, "libiomp") ? "libiomp" : base);
	snprintf(wait_policy, sizeof wait_policy,
		 "OMP_WAIT_POLICY=%s GOMP_SPINCOUNT=%s KMP_BLOCKTIME=%s",
		 env_or("OMP_WAIT_POLICY"), env_or("GOMP_SPINCOUNT"), env_or("KMP_BLOCKTIME"));
	ptb_point_note_text(p, "runtime", runtime_name);
	ptb_point_note_text(p, "runtime_file", runtime_file);
	ptb_point_note_text(p, "wait_policy", wait_policy);
	ptb_point_note(p, "delay_iterations", PTB_OMP_DELAY);
}

static int load_module(struct ptb_point *p)
{
	if (mod)
		return 0;
	void *h = dlopen(module_path, RTLD_NOW | RTLD_LOCAL);
	mod = h ? dlsym(h, "ptbomp_module") : NULL;
	if (!mod) {
		ptb_point_na(p, "cannot load the OpenMP module: %s", dlerror());
		return -1;
	}
	return 0;
}

/* Every thread of the team on its place, as the runtime reports. */
static int check_team(struct ptb_point *p, int want, int got, const int *pus,
		      const int *cpus)
{
	if (got != want) {
		ptb_point_na(p, "the runtime gave a team of %d threads, not %d", got, want);
		return -1;
	}
	for (int i = 0; i < got; i++)
		if (cpus[i] != pus[i]) {
			ptb_point_na(p, "the runtime ran thread %d on CPU %d, not on its place "
				     "{%d} (OMP_PLACES=%s)", i, cpus[i], pus[i],
				     env_or("OMP_PLACES"));
			return -1;
		}
	for (int i = 1; i < got && i <= PTB_MAX_CLIENTS; i++)
		snprintf(p->binding_client[i - 1], sizeof p->binding_client[0], "%d", cpus[i]);
	p->nclient_bindings = got - 1;
	return 0;
}

static int omp_setup(struct ptb_point *p, enum ptbomp_kind kind)
{
	static int pus[PTB_MAX_CLIENTS + 1], cpus[PTBOMP_MAX_THREADS];
	int want = (int)ptb_point_long(p, "threads");
	int npus = ptb_pus_in_order(p, ptb_point_str(p, "order"), pus, PTB_MAX_CLIENTS + 1);
	if (npus < 0)
		return -1;
	if (npus < want) {
		ptb_point_na(p, "needs %d PUs, one per thread; this process may use %d (PUs %s)",
			     want, npus, p->sys->counts.allowed);
		return -1;
	}
	if (!mod && set_affinity_env(p, pus, npus) < 0)
		return -1;
	/* The runtime reads the allowed PUs from the main thread's affinity
	 * when it starts (libgomp when loaded, libomp at its first region):
	 * the main thread is bound to its place only after the first region,
	 * in which the runtime itself binds every thread of the team. */
	if (load_module(p) < 0 ||
	    ptb_point_bind_self(p, -1, p->binding_main, sizeof p->binding_main) < 0)
		return -1;
	/* (libgomp, loaded with the module even when libomp is preloaded,
	 * binds the main thread to the first place on loading: libomp would
	 * then see that one PU.  Hence every allowed PU again, above.) */
	const char *sched = kind == PTBOMP_FOR ? ptb_point_str(p, "schedule") : "static";
	mod->prepare(want, sched, PTB_OMP_DELAY, cpus);
	if (ptb_point_bind_self(p, pus[0], p->binding_main, sizeof p->binding_main) < 0) {
		mod->release();          /* a setup that fails gets no teardown */
		return -1;
	}
	int got = mod->prepare(want, sched, PTB_OMP_DELAY, cpus);
	note_runtime(p);
	if (check_team(p, want, got, pus, cpus) < 0) {
		mod->release();
		ptb_bench_unpin(p);
		return -1;
	}
	st.kind = kind;
	p->state = &st;
	return 0;
}

static void omp_run(struct ptb_point *p, uint64_t n)
{
	mod->run(((struct omp_state *)p->state)->kind, n);
}

static void omp_reference(struct ptb_point *p, uint64_t n)
{
	mod->reference(((struct omp_state *)p->state)->kind, n);
}

static void omp_check(struct ptb_point *p, uint64_t n)
{
	const char *why = mod->verify(((struct omp_state *)p->state)->kind, n);
	if (why)
		ptb_point_error(p, "%s", why);
}

static void omp_teardown(struct ptb_point *p)
{
	mod->release();
	ptb_bench_unpin(p);
}

static int omp_defaults_here(const struct ptb_system *sys, const char *var, char *buf,
			     size_t len)
{
	return strcmp(var, "threads") ? -1 : ptb_defaults_pu_counts(sys, buf, len);
}

#define THREADS_PARAM \
	{ "threads", NULL, "1,2,4,8,16,32,64,128,256", 1, PTB_MAX_CLIENTS + 1, \
	  "the team's threads, one per allowed PU (na beyond them)", 0 }, \
	{ "order", PTB_ORDERS, "compact", 0, 0, \
	  "the places' order: compact fills a core's, then a package's PUs first; " \
	  "spread takes one PU per core first", 0 }

static const struct ptb_param omp_params[] = { THREADS_PARAM, { 0 } };
static const struct ptb_param omp_for_params[] = {
	THREADS_PARAM,
	{ "schedule", "static,dynamic,guided", "static,dynamic,guided", 0, 0,
	  "the loop's schedule (schedule(runtime), set by omp_set_schedule)", 0 },
	{ 0 }
};

#define OMP_FOOTNOTE "OpenMP: the directive's overhead above EPCC's reference delay " \
	"(syncbench's method; `ptbench report` names the runtime)"

/* One descriptor per directive: its kind's setup, its rows.  The lower
 * plausibility bound is below zero: a figure is a difference, and a
 * preemption in the reference's timing (of some thousand repetitions)
 * moves it down by microseconds per repetition. */
#define OMP_BENCH(sym, k, nm, what, grp, lo)                                          \
	static int sym##_setup(struct ptb_point *p) { return omp_setup(p, k); }       \
	static const struct ptb_row_rule sym##_rows[] = {                             \
		{ "threads=* order=compact", grp, "%s threads", OMP_FOOTNOTE },      \
		{ "threads=* order=spread", grp ", spread", "%s threads", OMP_FOOTNOTE }, \
		{ NULL } };                                                           \
	const struct ptb_bench ptb_bench_##sym = {                                    \
		.name = nm, .summary = what, .per = "directive", .ops_per_iter = 1,  \
		.params = omp_params, .unsupported = omp_unsupported,                 \
		.setup = sym##_setup, .run = omp_run, .reference = omp_reference,     \
		.check = omp_check, .teardown = omp_teardown, .time_weight = 0.4,     \
		.plausible_ns = { lo, 1e8 }, .defaults_here = omp_defaults_here,      \
		.suite = PTB_SUITE_EXTENDED, .section = PTB_SECTION_EXTRA,            \
		.rows = sym##_rows, .absent = PTB_OMP_ABSENT,                         \
	}

OMP_BENCH(omp_parallel, PTBOMP_PARALLEL, "omp.parallel",
	  "OpenMP parallel region: overhead per region (EPCC)", "OpenMP parallel", -1e5);
OMP_BENCH(omp_parallel_for, PTBOMP_PARALLEL_FOR, "omp.parallel_for",
	  "OpenMP parallel for: overhead per loop (EPCC)", "OpenMP parallel for", -1e5);
OMP_BENCH(omp_barrier, PTBOMP_BARRIER, "omp.barrier",
	  "OpenMP barrier: overhead per barrier (EPCC)", "OpenMP barrier", -1e5);
OMP_BENCH(omp_single, PTBOMP_SINGLE, "omp.single",
	  "OpenMP single: overhead per single (EPCC)", "OpenMP single", -1e5);
OMP_BENCH(omp_critical, PTBOMP_CRITICAL, "omp.critical",
	  "OpenMP critical: overhead per critical section (EPCC)", "OpenMP critical", -1e5);
OMP_BENCH(omp_lock, PTBOMP_LOCK, "omp.lock",
	  "OpenMP omp_set_lock/omp_unset_lock: overhead per pair (EPCC)", "OpenMP lock", -1e5);
OMP_BENCH(omp_ordered, PTBOMP_ORDERED, "omp.ordered",
	  "OpenMP ordered: overhead per ordered iteration (EPCC)", "OpenMP ordered", -1e5);
OMP_BENCH(omp_atomic, PTBOMP_ATOMIC, "omp.atomic",
	  "OpenMP atomic: overhead per atomic update (EPCC)", "OpenMP atomic", -1e5);
OMP_BENCH(omp_reduction, PTBOMP_REDUCTION, "omp.reduction",
	  "OpenMP parallel reduction: overhead per region (EPCC)", "OpenMP reduction", -1e5);

static int omp_for_setup(struct ptb_point *p) { return omp_setup(p, PTBOMP_FOR); }
static const struct ptb_row_rule omp_for_rows[] = {
	/* match                                        group                          label */
	{ "threads=* order=compact schedule=static",  "OpenMP for, static",          "%s threads",
	  OMP_FOOTNOTE },
	{ "threads=* order=compact schedule=dynamic", "OpenMP for, dynamic",         "%s threads",
	  OMP_FOOTNOTE },
	{ "threads=* order=compact schedule=guided",  "OpenMP for, guided",          "%s threads",
	  OMP_FOOTNOTE },
	{ "threads=* order=spread schedule=static",   "OpenMP for, static, spread",  "%s threads",
	  OMP_FOOTNOTE },
	{ "threads=* order=spread schedule=dynamic",  "OpenMP for, dynamic, spread", "%s threads",
	  OMP_FOOTNOTE },
	{ "threads=* order=spread schedule=guided",   "OpenMP for, guided, spread",  "%s threads",
	  OMP_FOOTNOTE },
	{ NULL }
};
const struct ptb_bench ptb_bench_omp_for = {
	.name = "omp.for",
	.summary = "OpenMP for (schedule static, dynamic, guided): overhead per loop (EPCC)",
	.per = "directive", .ops_per_iter = 1,
	.params = omp_for_params, .unsupported = omp_unsupported,
	.setup = omp_for_setup, .run = omp_run, .reference = omp_reference,
	.check = omp_check, .teardown = omp_teardown, .time_weight = 0.4,
	.plausible_ns = { -1e5, 1e8 }, .defaults_here = omp_defaults_here,
	.suite = PTB_SUITE_EXTENDED, .section = PTB_SECTION_EXTRA,
	.rows = omp_for_rows, .absent = PTB_OMP_ABSENT,
};
