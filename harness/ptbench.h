/* SPDX-License-Identifier: MIT */
/*
 * The plug-in contract between the harness and the benchmarks.  A benchmark
 * is one `struct ptb_bench`: it names its independent variables, says
 * whether it can run here, and supplies setup/run/teardown.  It never
 * prints, parses options or reads the clock; the harness times run(),
 * repeats it until the result is trustworthy, and records everything.
 */
#ifndef PTB_PTBENCH_H
#define PTB_PTBENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "platform/clock.h"
#include "platform/cpuinfo.h"
#include "platform/sysinfo.h"
#include "platform/topology.h"

#define PTB_MAX_PARAMS  4
#define PTB_MAX_CLIENTS 4
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

struct ptb_bench {
	const char *name;          /* "mutex.pingpong": family.variant */
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
	/* Called after every timing, untimed: a check may mark the point. */
	void (*check)(struct ptb_point *p, uint64_t n);
	void (*teardown)(struct ptb_point *p);
	double target_s;           /* minimum length of one timing; 0 = default */
	bool hidden;               /* test-only: not listed, not in the default suite */
};

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

#endif
