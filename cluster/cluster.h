/* SPDX-License-Identifier: MIT */
/*
 * ptbench-mpi: the cluster front end (docs/design.md section "Cluster
 * mode").  The only part of ptbench that includes <mpi.h>; the ptbench
 * program itself never links the MPI library.  Shared state of one rank.
 */
#ifndef PTB_CLUSTER_H
#define PTB_CLUSTER_H

#include <mpi.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include <sys/types.h>

#define PTB_CL_MAX_THREADS 64

struct ptb_cl {
	/* options */
	int threads;              /* threads per rank */
	int level;                /* requested MPI_THREAD_* */
	bool as_nodes;            /* each rank is a node, even on one host */
	int rounds;               /* trials: rounds over all points */
	double target_pct;        /* a CI wider than +- this is unstable */
	int episodes;             /* barrier episodes (or messages) per trial */
	int check_episodes;       /* episodes of the correctness check per style */
	bool check_control;       /* also run the control without the MPI step */
	double timeout_s;         /* the longest wait on any rank */
	bool clock_hierarchical;  /* --clock hierarchical: O(log p) rounds */
	const char *out;          /* -o; NULL: print only */
	bool node_suite;          /* --suite default: also ptbench's suite per node */
	const char *node_args;    /* --node-args: what `ptbench run` is given */
	char node_file[4096];     /* its result file */
	const char *node_status;  /* NULL, or why it gave no figures */
	pid_t node_pid;           /* its `ptbench run` while it runs; 0: none */
	int node_gate;            /* the socket to its round gate; -1: none */
	/* the job */
	int rank, size, provided;
	char host[256];
	/* the clocks: offset of this rank's clock to rank 0's, in ns */
	int64_t offset_ns, width_ns;
	int64_t inject_ns;        /* a test offset added to this rank's clock */
	MPI_Comm comms[PTB_CL_MAX_THREADS];  /* one duplicate of world per thread */
	/* rank 0: the document being filled */
	json_t *doc;
};

/* The clock every rank stamps with: CLOCK_MONOTONIC in ns, plus the
 * injected test offset. */
int64_t ptb_cl_now(const struct ptb_cl *c);

/* watch.c: a watchdog thread ends a rank that waits longer than the
 * timeout on any collective, after one line naming the phase; and a roll
 * call in which rank 0 names every rank that does not answer. */
void ptb_cl_watch_start(struct ptb_cl *c);
void ptb_cl_watch_arm(const char *phase);
void ptb_cl_watch_disarm(void);
/* Before MPI_Init: a thread that turns the launcher's SIGTERM (a rank
 * died) into one line, the file kept as incomplete (rank 0), and exit 2. */
void ptb_cl_signals_start(struct ptb_cl *c);
/* lifeline.c: every rank's TCP connection to rank 0, whose close without
 * a word first names a rank that died (ptb_cl_fail on rank 0).  A rank
 * that ends on purpose says bye first. */
void ptb_cl_lifelines_open(struct ptb_cl *c);
void ptb_cl_lifeline_bye(void);
/* Rank 0: whether a death was found, waiting up to wait_ms for one, and
 * longer while a lifeline has closed without its byte unread. */
bool ptb_cl_lifeline_death_pending(const struct ptb_cl *c, int wait_ms);
/* Exit 2 on every rank when some rank is missing, naming it. */
void ptb_cl_rollcall(struct ptb_cl *c, const char *phase);
/* One line on stderr, the document kept as incomplete (rank 0), exit 2. */
void ptb_cl_fail(struct ptb_cl *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3), noreturn));

/* clocksync.c: each rank's offset to rank 0's clock, by SKaMPI's method
 * one rank after another, or (--clock hierarchical) pairwise along a
 * binomial tree in O(log p) rounds after Hunold; fills offset_ns,
 * width_ns on every rank and returns the context.clock object on rank 0. */
json_t *ptb_cl_clock_sync(struct ptb_cl *c);

/* The benchmarks (hybrid.c, pingpong.c): every rank measures a round's
 * trial of each point into trials[point * rounds + round]; rank 0 adds
 * the points' records, from all rounds' trials, to the document. */
#define PTB_CL_HYBRID_POINTS 4
#define PTB_CL_PINGPONG_POINTS(threads) (2 * (threads))
/* A barrier trial's exit skew (rank 0): the median over its episodes of
 * the latest rank's exit less the earliest's, on rank 0's clock, and the
 * widest clock bound of the ranks, which it is good to. */
struct ptb_cl_skew { int64_t median_ns, bound_ns; };
/* At most this many episodes of a trial are stamped (every stride-th one
 * beyond), so that --episodes never grows the stamps past 512 KB a rank. */
#define PTB_CL_SKEW_STAMPS 65536
void ptb_cl_hybrid_round(struct ptb_cl *c, int r, double *trials, struct ptb_cl_skew *skews);
void ptb_cl_hybrid_points(struct ptb_cl *c, const double *trials,
			  const struct ptb_cl_skew *skews);
void ptb_cl_hybrid_check(struct ptb_cl *c);
void ptb_cl_pingpong_round(struct ptb_cl *c, int r, double *trials);
void ptb_cl_pingpong_points(struct ptb_cl *c, const double *trials);
/* rounds.c: the rounds of the cross-node points; from the second on,
 * each starts with new communicators and clocks synchronised again. */
void ptb_cl_rounds(struct ptb_cl *c);
/* The per-thread duplicates of the world communicator, made and freed. */
void ptb_cl_comms_open(struct ptb_cl *c);
void ptb_cl_comms_close(struct ptb_cl *c);

/* nodesuite.c: before MPI_Init, `ptbench run` on every node (--suite
 * default) or `ptbench info --json` (--suite hybrid); then each node's
 * context gathered into context.nodes[].context and the suite's figures
 * into the document's node_rows. */
void ptb_cl_node_suite_run(struct ptb_cl *c);
void ptb_cl_node_suite_gather(struct ptb_cl *c);
/* The suite's process has ended its last round: wait for its end (and
 * why it failed, if it did, in node_status). */
void ptb_cl_node_suite_wait(struct ptb_cl *c);
/* The job ends early: the suite's process stopped, its files removed. */
void ptb_cl_node_suite_abandon(struct ptb_cl *c);
/* noderounds.c: the suite's rounds started together on every node, and
 * context.node_suite (each round's start skew) on rank 0. */
void ptb_cl_node_rounds(struct ptb_cl *c);

/* launch.c: `ptbench-mpi launch LAUNCHER ARG...` (argv: the launcher's
 * command): its exit status made 0 or 2. */
int ptb_cl_launch(int argc, char **argv);

/* doc.c: the file and its table. */
void ptb_cl_set_node_rows(struct ptb_cl *c, json_t *rows);
/* Append a later round's clock offsets to context.clock.resyncs. */
void ptb_cl_add_resync(struct ptb_cl *c, int round, json_t *clock);
/* context.c: the job's context on rank 0 (NULL elsewhere), gathered
 * from every rank; ends the job when ranks disagree on the version or
 * share a host without --as-nodes. */
json_t *ptb_cl_context(struct ptb_cl *c, const char *launcher);
/* Rewrite the file with this status: 0, or -1 with err. */
int ptb_cl_write(struct ptb_cl *c, const char *status, char *err, size_t errlen);
/* The same, best effort and never waiting (the failure path). */
void ptb_cl_save(struct ptb_cl *c, const char *status);
/* Append a record to results and rewrite the file, under the lock the
 * watchdog takes to keep the finished records of a failed job. */
void ptb_cl_add(struct ptb_cl *c, json_t *rec);
void ptb_cl_table(FILE *out, const json_t *doc);
/* A result record of a point from its trials (ns per unit), or na. */
json_t *ptb_cl_point(const char *bench, json_t *params, const char *per,
		     const double *trials, int n, double target_pct);
/* The same with each trial's exit skew and its bound (hybrid.barrier). */
json_t *ptb_cl_point_skew(const char *bench, json_t *params, const char *per,
			  const double *trials, const struct ptb_cl_skew *skews, int n,
			  double target_pct);
json_t *ptb_cl_point_na(const char *bench, json_t *params, const char *reason);

#endif
