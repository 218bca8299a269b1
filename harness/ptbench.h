/* SPDX-License-Identifier: MIT */
/*
 * The plug-in contract between the harness and the benchmarks, and the only
 * harness header bench/ includes.  A benchmark is one `struct ptb_bench`: it
 * names its independent variables, says whether it can run here, supplies
 * setup/run/teardown, and describes itself to the readers of its results --
 * its rows in a table laid out like the paper's Table 1, and the LogP
 * parameter its figure is.  It never prints, parses options or reads the
 * clock; the harness times run(), repeats it until the result is
 * trustworthy, and records everything.  docs/design.md describes the
 * contract and the data flow around it.
 */
#ifndef PTB_PTBENCH_H
#define PTB_PTBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "platform/clock.h"
#include "platform/cpuinfo.h"
#include "platform/hugemem.h"
#include "platform/sysinfo.h"
#include "platform/topology.h"
#include "platform/uctx.h"
#include "text/size.h"

#define PTB_MAX_PARAMS  5     /* the most a benchmark has: five */
#define PTB_MAX_CLIENTS 256   /* a thread per PU of a large machine */
#define PTB_MAX_NOTES   8

/* What the benchmarks may ask about the machine. */
struct ptb_system {
	struct ptb_clock clock;
	struct ptb_cpuinfo cpu;
	struct ptb_sysinfo sys;
	struct ptb_topology *topo;
	struct ptb_topo_counts counts;
	struct ptb_pair pairs[PTB_PLACEMENT_COUNT];
};

/*
 * An independent variable.  Enumerated ones list their domain; numeric
 * ones (domain == NULL) take integers in [min, max] and may be refined
 * adaptively.  `defaults` is the sweep of a default run.  A variable named
 * "placement" is special: the harness resolves it to a pair of PUs, binds
 * the main thread, and binds clients (see ptb_client_start).
 */
struct ptb_param {
	const char *name;
	const char *domain;     /* "yes,no"; NULL for numeric */
	const char *defaults;   /* "yes,no" or "1,16,256" */
	long min, max;          /* numeric range */
	const char *help;
	long step;              /* numeric values are multiples of it; 0: any */
};

enum ptb_status {
	PTB_OK, PTB_UNSTABLE, PTB_NA, PTB_TIMEOUT, PTB_CRASHED, PTB_ERROR
};
const char *ptb_status_name(enum ptb_status s);

struct ptb_client;

/* One data point: one value of every independent variable. */
struct ptb_point {
	const struct ptb_bench *bench;
	const struct ptb_system *sys;
	const char *value[PTB_MAX_PARAMS];    /* by index of bench->params */
	int pu_main, pu_client;               /* from the placement; -1 unbound */
	void *state;                          /* the benchmark's own */

	/* Set through the helpers below, read by the harness. */
	enum ptb_status verdict;              /* PTB_OK unless a helper said otherwise */
	char reason[256];
	int nclients;
	struct ptb_client *clients[PTB_MAX_CLIENTS];
	char binding_main[64];
	/* Each client's binding as read back, in start order; kept after the
	 * clients are cancelled so that the result record can show it. */
	int nclient_bindings;
	char binding_client[PTB_MAX_CLIENTS][64];
	int nnotes;
	const char *note_key[PTB_MAX_NOTES];
	double note_val[PTB_MAX_NOTES];
	const char *note_text[PTB_MAX_NOTES];  /* non-NULL: a text note */
};

/*
 * Where a benchmark's points stand in a table laid out like the paper's
 * Table 1 (report/rows.c).  A record takes the first rule whose `match` it
 * satisfies: a list of VAR=VALUE the record's variables must have, where
 * VALUE "*" accepts any value and puts it into the label's "%s" (a
 * placement by its Table-1 name), and a trailing "?" also accepts a
 * record without the variable (files from before it existed).  Variables
 * a rule does not name are appended to the label, so two points never
 * share a row.  A benchmark without rules gets one row per point labelled
 * "name VAR=VALUE ...".
 */
struct ptb_row_rule {
	const char *match;       /* "placement=* signal=locked?"; "" matches all */
	const char *group;       /* "Mutex Ping-pong"; "" for a lone row */
	const char *label;       /* "%s", "Thread Yield"; NULL = by name */
	const char *footnote;    /* how the test differs from the paper's, or NULL */
};

/* The table section a benchmark's rows belong to. */
enum ptb_section {
	PTB_SECTION_PAPER,       /* the rows of the paper's Table 1 */
	PTB_SECTION_EXTRA,       /* measured alongside, not in the paper */
};

/* The named suite a benchmark belongs to: a plain `ptbench run` measures
 * the default one (the paper's Table 1 and LogP); `--suite extended` the
 * families the paper's section 5 promised and the whole-machine ones. */
enum ptb_suite {
	PTB_SUITE_DEFAULT,
	PTB_SUITE_EXTENDED,
};

/*
 * The LogP parameter a benchmark's figure is, for the derivation of a
 * mechanism's LogP record (record/logp.c).  The round-trip benchmark names
 * the mechanism for the table ("LogP: mutex"); inputs marked `placed` are
 * taken at the round trip's placement.  Of several records of one input
 * the one whose other variables have their default values is taken.
 */
enum ptb_logp_param { PTB_LOGP_NONE, PTB_LOGP_RTT, PTB_LOGP_OS, PTB_LOGP_OR, PTB_LOGP_G };
struct ptb_logp_role {
	const char *mechanism;   /* "mutex": derived records are "logp.mutex" */
	enum ptb_logp_param param;
	bool placed;
	const char *label;       /* RTT only: the mechanism in the table's words */
};

/*
 * The part a benchmark's curve plays in the derived record of the cache
 * hierarchy (record/levels.c): the time per access over `var`, from which
 * the line size (a jump over the stride) or the levels (plateaus over the
 * working-set size) are read.  `record` names the derived record.
 */
enum ptb_levels_param { PTB_LEVELS_NONE, PTB_LEVELS_LINE, PTB_LEVELS_LATENCY };
struct ptb_levels_role {
	const char *record;      /* "cache.levels" */
	enum ptb_levels_param param;
	const char *var;         /* the variable the curve is over: "size" */
};

/*
 * The cost of a target machine that a benchmark's figure gives to
 * `ptbench predict --machine` (cli/machine-costs.c): the figure of the
 * first of `points` the result file has ("VAR=VALUE ..." with the variables
 * in name order, candidates separated by ';'), divided by `per` (a round
 * trip holds two wake-ups or hand-offs).  PTB_MACHINE_SPIN_HANDOFF, a spin
 * lock's hand-off: its waiter spins on its CPU and takes the lock once the
 * line comes, with no wake-up.  PTB_MACHINE_CORUN, the slowdown
 * of k copies of a loop running at once: `points` names the variable that
 * counts the copies and the one of the working set ("threads;size"); the
 * slowdown at k is the figure at k copies over the one at 1, per size.
 * PTB_MACHINE_PLACEMENT charges nothing: it is the benchmark that the
 * table of a prediction names for the threads a release woke together.
 */
enum ptb_machine_cost { PTB_MACHINE_NONE, PTB_MACHINE_WAKE, PTB_MACHINE_HANDOFF,
			PTB_MACHINE_CREATE, PTB_MACHINE_SPIN_HANDOFF, PTB_MACHINE_CORUN,
			PTB_MACHINE_PLACEMENT };
struct ptb_machine_role {
	enum ptb_machine_cost cost;
	const char *points;
	int per;
};

struct ptb_bench {
	const char *name;          /* "family.variant", lower case */
	const char *summary;       /* one line for `ptbench list` */
	const char *per;           /* what one reported unit is: "ping-pong" */
	double ops_per_iter;       /* run(n) performs n * ops_per_iter units */
	const struct ptb_param *params;   /* terminated by a { NULL } entry */
	/* NULL = runs here; otherwise why not (every point is then na). */
	const char *(*unsupported)(const struct ptb_system *sys);
	/* 0, or -1 after ptb_point_na()/ptb_point_error() said why.  A failed
	 * setup gets no teardown, so it releases what it took itself (the
	 * harness still cancels any client it started). */
	int (*setup)(struct ptb_point *p);
	/* The action, n times.  Timed by the harness. */
	void (*run)(struct ptb_point *p, uint64_t n);
	/* NULL, or the work of run() without what is measured (EPCC's
	 * reference: the same delays run by one thread), timed with the same
	 * n right after every timing of run(); the figure is the difference
	 * (a reference over 1.5 times the trial's least, interrupted, counts
	 * as that least), and the reference's time per unit is noted
	 * as `reference_ns`. */
	void (*reference)(struct ptb_point *p, uint64_t n);
	/* Called after every timing, untimed: a check may mark the point. */
	void (*check)(struct ptb_point *p, uint64_t n);
	void (*teardown)(struct ptb_point *p);
	double target_s;           /* minimum length of one timing; 0 = default */
	/* A point's share of the run's time budget, relative to a figure of
	 * the table; 0 = 1.  The many points of a curve, whose steps are tens
	 * of percent, need less each. */
	double time_weight;
	/* Generous physical-plausibility bounds of one unit, in ns, for the
	 * smoke test: they catch a broken benchmark (a lock that takes 0 ns or
	 * a second), never a slow machine. */
	double plausible_ns[2];
	/* Defaults of a variable that depend on the machine (the PU counts of
	 * this one, the pairs of its PUs): writes the list into buf; 0, or -1
	 * to keep the variable's `defaults`, which are what `list` shows.
	 * NULL: every variable keeps its `defaults`. */
	int (*defaults_here)(const struct ptb_system *sys, const char *var, char *buf,
			     size_t len);
	bool hidden;               /* test-only: not listed, in no suite */
	/* NULL, or why this build lacks the benchmark (configured without
	 * what it needs): it is in no suite, no -b selects it, and `list`
	 * says so in one line per family. */
	const char *absent;
	enum ptb_suite suite;      /* which suite runs it without -b */
	/* Variables added after results existed ("type protocol"): at their
	 * (single) default value they are left out of a record's point key, so
	 * that `compare` still pairs the point with older files. */
	const char *keyless_defaults;

	/* How readers show the results. */
	enum ptb_section section;
	const struct ptb_row_rule *rows;   /* terminated by { NULL }; NULL = by name */
	struct ptb_logp_role logp;         /* param PTB_LOGP_NONE: not a LogP input */
	struct ptb_levels_role levels;     /* param PTB_LEVELS_NONE: not a cache curve */
	struct ptb_machine_role machine;   /* cost PTB_MACHINE_NONE: no cost for predict */
	const char *relative_to;           /* tables show the figure as a multiple of
					    * this benchmark's (defaults), or NULL */
	/* The points ("VAR=VALUE ...", as a row rule's match) whose figure is
	 * bounded by the scheduler rather than the primitive: a waiter that
	 * spins on the PU of the thread it waits for waits out a time slice.
	 * Tables say so in the row; NULL: none. */
	const char *time_sliced;
	/* A matrix of PU pairs derived from the points (record/matrix.c): the
	 * name of the derived record ("c2c"), built from each point's notes
	 * "sender" and "receiver" (OS PU numbers) and "class" (a placement's
	 * name); NULL: none. */
	const char *matrix;
};

/* Every benchmark, in bench/list.h's order (bench/registry.c), and one by
 * name (NULL when there is none). */
extern const struct ptb_bench *const ptb_registry[];
extern const int ptb_registry_count;
static inline const struct ptb_bench *ptb_bench_find(const char *name)
{
	for (int i = 0; name && i < ptb_registry_count; i++)
		if (!strcmp(ptb_registry[i]->name, name))
			return ptb_registry[i];
	return (const struct ptb_bench *)0;
}

/* Code layouts (docs/design.md section 17): every benchmark file is also
 * built PTB_LAYOUT_COUNT more times, copy k with its code 8k bytes past a
 * 64-byte boundary.  The copy of b in layout k (0 .. PTB_LAYOUT_COUNT-1);
 * b itself for any other k ("fixed": the build's own layout) and for a
 * benchmark without copies (bench/layouts.c). */
#define PTB_LAYOUT_COUNT 8
/* A trial's stack is moved down by up to this many bytes (a page). */
#define PTB_STACK_OFFSET_MAX 4080
const struct ptb_bench *ptb_bench_in_layout(const struct ptb_bench *b, int layout);

/* Variable values of a point. */
const char *ptb_point_str(const struct ptb_point *p, const char *name);
long ptb_point_long(const struct ptb_point *p, const char *name);
bool ptb_point_yes(const struct ptb_point *p, const char *name);

/* Verdicts a benchmark may give, with a reason (printf-style). */
void ptb_point_na(struct ptb_point *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ptb_point_unstable(struct ptb_point *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ptb_point_error(struct ptb_point *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* A named figure recorded beside the result ("switches", "base_slice_ns"). */
void ptb_point_note(struct ptb_point *p, const char *key, double value);
/* The same with a text ("scheduler" = "EEVDF"); it must outlive the point. */
void ptb_point_note_text(struct ptb_point *p, const char *key, const char *text);

/*
 * Client threads.  A client is bound to the point's client PU (or left
 * unbound), runs init once, then for every timing runs body(arg, n) while
 * the main thread runs the benchmark's run(p, n): the harness releases the
 * clients and waits until each is awake before it starts the clock (so a
 * sleeping thread's wakeup is not timed), and waits for their
 * acknowledgement after stopping it, so no client work leaks into the next
 * timing.  Between
 * timings a client waits at a cancellation point; at the end of the point
 * the harness cancels it, its fini runs, and the join is the acknowledgement.
 * A body that has no cancellation point calls ptb_client_testcancel(i).
 */
struct ptb_client_ops {
	void (*init)(void *arg);
	void (*body)(void *arg, uint64_t n);
	void (*fini)(void *arg);
};
int ptb_client_start(struct ptb_point *p, const struct ptb_client_ops *ops, void *arg);
/* The same with the client bound to `pu` (-1: unbound), for benchmarks of
 * many threads placed by ptb_pus_in_order rather than by a placement. */
int ptb_client_start_on(struct ptb_point *p, int pu, const struct ptb_client_ops *ops,
			void *arg);
/* The client's binding read back from inside it ("1", "0-1"). */
const char *ptb_client_binding(const struct ptb_client *c);
/* Cheap enough for inner loops: tests for cancellation every 4096 calls. */
static inline void ptb_client_testcancel(uint64_t i)
{
	extern void ptb_client_testcancel_slow(void);
	if ((i & 4095) == 0)
		ptb_client_testcancel_slow();
}

/* Harness side of the client protocol. */
void ptb_clients_release(struct ptb_point *p, uint64_t n);
void ptb_clients_wait(struct ptb_point *p);
void ptb_clients_cancel(struct ptb_point *p);
/* Threads alive in this process (from /proc/self/task), for tests. */
int ptb_thread_count(void);

/* The allowed PUs in which threads that take one PU each are placed, for
 * an `order` of PTB_ORDERS: "compact" fills a core's PUs, then its
 * package's, first; "spread" takes one PU per core, alternating packages,
 * first.  Returns how many were written (at most max: every allowed PU),
 * or -1 with the point in error. */
int ptb_pus_in_order(struct ptb_point *p, const char *order, int *pus, int max);

/* A `defaults_here` for a count of threads, one per PU: 1, 2, 4, ... and
 * every allowed PU. */
int ptb_defaults_pu_counts(const struct ptb_system *sys, char *buf, size_t len);
/* The ordered pairs of allowed PUs a matrix of every pair measures, with
 * their placement classes: every pair up to PTB_PAIR_PLAN_ALL of them,
 * beyond that a stated sample of at most that many (engine/pairs.h).  A
 * malloc'd *out and their count, or -1. */
#define PTB_PAIR_PLAN_ALL 512
struct ptb_pu_pair {
	int from, to;                 /* OS numbers: sender, receiver */
	int cls;                      /* enum ptb_placement */
	const char *cls_name;         /* its name: "cross_core" */
};
int ptb_pu_pair_plan(const struct ptb_system *sys, struct ptb_pu_pair **out);

/* Bind the calling thread to one PU (pu >= 0) or to every allowed PU and
 * read the binding back into buf; 0, or -1 with the point in error. */
int ptb_point_bind_self(struct ptb_point *p, int pu, char *buf, size_t len);
/* The same to the n PUs of pus, the scheduler choosing among them.  A
 * client may call it from its init, while the harness waits for it. */
int ptb_point_bind_group(struct ptb_point *p, const int *pus, int n, char *buf, size_t len);
/* The PU the calling thread ran on last (cheap, for inner loops), or -1
 * where the system does not say. */
int ptb_point_pu_now(const struct ptb_point *p);
/* Working-set memory, zeroed and touched, on huge pages where the system
 * offers them (platform/hugemem.h).  Notes `huge_pages` (the fraction the
 * kernel put on huge pages) on the point and, when not all of it, the text
 * `pages` saying why.  0, or -1 with the point in error. */
int ptb_point_mem(struct ptb_point *p, struct ptb_hugemem *m, size_t bytes);
void ptb_point_mem_free(struct ptb_hugemem *m);

/* Cooperative user-level threads on the C library's contexts
 * (platform/uctx.h): NULL from ptb_uthread_missing where they work. */
const char *ptb_uthread_missing(void);
struct ptb_uctx *ptb_uthread_new(size_t stack_bytes);
void ptb_uthread_free(struct ptb_uctx *c);
int ptb_uthread_make(struct ptb_uctx *c, void (*fn)(void));
int ptb_uthread_switch(struct ptb_uctx *from, struct ptb_uctx *to);

/* Whether the C library still treats this process as single-threaded (and
 * so may skip atomic instructions): 1 yes, 0 no, -1 cannot tell. */
int ptb_process_single_threaded(void);

#endif
