/* SPDX-License-Identifier: MIT */
/*
 * hybrid.barrier: one barrier across every thread of every rank.
 *
 *   funneled  the threads of a rank meet locally; thread 0 (the main
 *             thread, the only one that calls MPI) calls MPI_Barrier;
 *             the threads meet locally again, which releases them.
 *   multiple  the threads of a rank meet locally; then every thread t
 *             calls MPI_Barrier on its own duplicate of the world
 *             communicator, comms[t].  When thread t's barrier returns,
 *             thread t of every rank has entered it, which each did only
 *             after all its rank's threads had arrived: so all threads of
 *             all ranks have arrived, and no release step is needed.
 *   none      (the control of the check only) the local meeting alone.
 *
 * The time of an episode is the slowest rank's: each rank times its
 * episodes from a common start, and rank 0 keeps the maximum.  The exit
 * skew of the timed episodes: thread 0 of each rank reads the clock once
 * as it leaves an episode (one read per rank per episode, every stride-th
 * episode beyond PTB_CL_SKEW_STAMPS), the stamps are put on rank 0's clock
 * by the rank's offset after the timing, and rank 0 takes, per episode,
 * the latest rank's exit less the earliest's (MPI_Reduce MAX and MIN).
 */
#include "config.h"
#include "cluster/cluster.h"
#include "cluster/team.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum style { STYLE_FUNNELED, STYLE_MULTIPLE, STYLE_NONE };
static const char *const style_names[] = { "funneled", "multiple", "none" };
static const char *const local_names[] = { "pthread", "spin" };

struct episodes {
	struct ptb_cl *c;
	enum style style;
	struct ptb_cl_meet meet;
	int n;                    /* episodes */
	int delay_us;             /* before each entry (the check's odd ranks) */
	int64_t *entry, *leave;   /* [episode][thread], or NULL */
	int64_t *exits;           /* thread 0's exit of every stride-th episode, or NULL */
	int stride;
	int64_t elapsed_ns;       /* thread 0: from the common start to the end */
};

static void episode_thread(void *arg, int i)
{
	struct episodes *e = arg;
	struct ptb_cl *c = e->c;
	int T = c->threads, sense = 0;
	ptb_cl_meet(&e->meet, &sense);
	if (i == 0)
		MPI_Barrier(MPI_COMM_WORLD);   /* the common start */
	ptb_cl_meet(&e->meet, &sense);
	int64_t t0 = ptb_cl_now(c);
	for (int k = 0; k < e->n; k++) {
		if (e->delay_us)
			usleep((useconds_t)e->delay_us);
		if (e->entry)
			e->entry[k * T + i] = ptb_cl_now(c);
		ptb_cl_meet(&e->meet, &sense);
		if (e->style == STYLE_FUNNELED) {
			if (i == 0)
				MPI_Barrier(MPI_COMM_WORLD);
			ptb_cl_meet(&e->meet, &sense);
		} else if (e->style == STYLE_MULTIPLE) {
			MPI_Barrier(c->comms[i]);
		}
		if (e->leave)
			e->leave[k * T + i] = ptb_cl_now(c);
		if (e->exits && i == 0 && k % e->stride == 0)
			e->exits[k / e->stride] = ptb_cl_now(c);
	}
	if (i == 0)
		e->elapsed_ns = ptb_cl_now(c) - t0;
}

static void run_episodes(struct episodes *e, enum ptb_cl_local local)
{
	ptb_cl_meet_init(&e->meet, local, e->c->threads);
	ptb_cl_team(e->c, e->c->threads, episode_thread, e);
	ptb_cl_meet_destroy(&e->meet);
}

static json_t *params(enum style s, enum ptb_cl_local l, int threads)
{
	return json_pack("{s:s,s:s,s:i}", "style", style_names[s], "local", local_names[l],
			 "threads", threads);
}

static const char *needs_multiple(const struct ptb_cl *c, enum style s)
{
	return s == STYLE_MULTIPLE && c->provided < MPI_THREAD_MULTIPLE
		? "needs MPI_THREAD_MULTIPLE; the library provided less (--thread-level)" : NULL;
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* The trial's exit skew: each rank's stamps on rank 0's clock, their
 * latest less their earliest per episode, the median over the episodes
 * (rank 0; -1 elsewhere), and the widest clock bound, which the skew is
 * good to (each offset is off by at most half its rank's bound). */
static void exit_skew(struct ptb_cl *c, struct episodes *e, int m, struct ptb_cl_skew *out)
{
	int64_t *hi = c->rank == 0 ? calloc((size_t)m, sizeof *hi) : NULL;
	int64_t *lo = c->rank == 0 ? calloc((size_t)m, sizeof *lo) : NULL;
	if (c->rank == 0 && (!hi || !lo))
		ptb_cl_fail(c, "rank %d (%s): out of memory", c->rank, c->host);
	for (int k = 0; k < m; k++)
		e->exits[k] -= c->offset_ns;
	MPI_Reduce(e->exits, hi, m, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
	MPI_Reduce(e->exits, lo, m, MPI_INT64_T, MPI_MIN, 0, MPI_COMM_WORLD);
	MPI_Reduce(&c->width_ns, &out->bound_ns, 1, MPI_INT64_T, MPI_MAX, 0, MPI_COMM_WORLD);
	out->median_ns = -1;
	if (c->rank == 0) {
		for (int k = 0; k < m; k++)
			hi[k] -= lo[k];
		qsort(hi, (size_t)m, sizeof *hi, cmp_i64);
		out->median_ns = hi[m / 2];
	}
	free(hi);
	free(lo);
}

/* One trial of each point, into trials[(style * 2 + local) * rounds + r]
 * and its exit skew into skews[] at the same place. */
void ptb_cl_hybrid_round(struct ptb_cl *c, int r, double *trials, struct ptb_cl_skew *skews)
{
	int stride = (c->episodes + PTB_CL_SKEW_STAMPS - 1) / PTB_CL_SKEW_STAMPS;
	int m = (c->episodes + stride - 1) / stride;
	int64_t *exits = calloc((size_t)m, sizeof *exits);
	if (!exits)
		ptb_cl_fail(c, "rank %d (%s): out of memory", c->rank, c->host);
	for (int s = 0; s < 2; s++)
		for (int l = 0; l < 2; l++) {
			if (needs_multiple(c, s))
				continue;
			ptb_cl_rollcall(c, "hybrid.barrier");
			ptb_cl_watch_arm("hybrid.barrier");
			struct episodes e = { .c = c, .style = s, .n = c->episodes, .exits = exits,
					      .stride = stride };
			run_episodes(&e, l);
			double per = (double)e.elapsed_ns / e.n, slowest = 0;
			MPI_Reduce(&per, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
			exit_skew(c, &e, m, &skews[(s * 2 + l) * c->rounds + r]);
			ptb_cl_watch_disarm();
			trials[(s * 2 + l) * c->rounds + r] = slowest;
		}
	free(exits);
}

void ptb_cl_hybrid_points(struct ptb_cl *c, const double *trials,
			  const struct ptb_cl_skew *skews)
{
	for (int s = 0; s < 2 && c->rank == 0; s++)
		for (int l = 0; l < 2; l++) {
			const char *why = needs_multiple(c, s);
			json_t *p = params(s, l, c->threads);
			int at = (s * 2 + l) * c->rounds;
			ptb_cl_add(c, why ? ptb_cl_point_na("hybrid.barrier", p, why)
				       : ptb_cl_point_skew("hybrid.barrier", p, "episode",
							   trials + at, skews + at, c->rounds,
							   c->target_pct));
		}
}

/* One style's check: every thread stamps its entry and its exit on the
 * synchronised clock; rank 0 counts the episodes in which some thread
 * left before the last one entered (by more than the clocks' bound). */
static void check_style(struct ptb_cl *c, enum style s, enum ptb_cl_local l)
{
	int T = c->threads, n = c->check_episodes;
	struct episodes e = { .c = c, .style = s, .n = n };
	e.entry = calloc((size_t)n * T, sizeof(int64_t));
	e.leave = calloc((size_t)n * T, sizeof(int64_t));
	int64_t *mine = calloc((size_t)n * 2 + 1, sizeof(int64_t));
	int64_t *all = c->rank == 0 ? calloc((size_t)(n * 2 + 1) * c->size, sizeof(int64_t)) : NULL;
	if (!e.entry || !e.leave || !mine || (c->rank == 0 && !all))
		ptb_cl_fail(c, "rank %d (%s): out of memory", c->rank, c->host);
	/* Odd ranks come late, so that a barrier that lets threads go early
	 * is caught in the act. */
	e.delay_us = c->rank % 2 ? 200 : 0;
	ptb_cl_rollcall(c, "hybrid.barrier check");
	ptb_cl_watch_arm("hybrid.barrier check");
	run_episodes(&e, l);
	for (int k = 0; k < n; k++) {   /* last entry, first exit, on rank 0's clock */
		int64_t in = INT64_MIN, out = INT64_MAX;
		for (int i = 0; i < T; i++) {
			if (e.entry[k * T + i] > in)
				in = e.entry[k * T + i];
			if (e.leave[k * T + i] < out)
				out = e.leave[k * T + i];
		}
		mine[2 * k] = in - c->offset_ns;
		mine[2 * k + 1] = out - c->offset_ns;
	}
	mine[2 * n] = c->width_ns;
	MPI_Gather(mine, 2 * n + 1, MPI_INT64_T, all, 2 * n + 1, MPI_INT64_T, 0, MPI_COMM_WORLD);
	ptb_cl_watch_disarm();
	if (c->rank == 0) {
		int64_t tol = 0;
		for (int r = 0; r < c->size; r++)
			if (all[r * (2 * n + 1) + 2 * n] > tol)
				tol = all[r * (2 * n + 1) + 2 * n];
		int violations = 0;
		int64_t *skew = calloc((size_t)n, sizeof(int64_t));
		for (int k = 0; k < n; k++) {
			int64_t last_in = INT64_MIN, first_out = INT64_MAX, last_out = INT64_MIN;
			for (int r = 0; r < c->size; r++) {
				int64_t *v = all + r * (2 * n + 1) + 2 * k;
				if (v[0] > last_in)
					last_in = v[0];
				if (v[1] < first_out)
					first_out = v[1];
				if (v[1] > last_out)
					last_out = v[1];
			}
			if (first_out < last_in - tol)
				violations++;
			skew[k] = last_out - first_out;
		}
		qsort(skew, (size_t)n, sizeof *skew, cmp_i64);
		json_t *rec = json_pack("{s:s,s:o,s:s,s:i,s:i,s:I,s:I}", "bench",
			"hybrid.barrier.check", "params", params(s, l, T), "status",
			s == STYLE_NONE ? "control" : (violations ? "error" : "ok"),
			"episodes", n, "violations", violations, "tolerance_ns", (json_int_t)tol,
			"exit_skew_ns_median", (json_int_t)(skew ? skew[n / 2] : 0));
		ptb_cl_add(c, rec);
		free(skew);
	}
	free(e.entry);
	free(e.leave);
	free(mine);
	free(all);
}

void ptb_cl_hybrid_check(struct ptb_cl *c)
{
	for (int s = 0; s < 3; s++) {
		if (s == STYLE_NONE && !c->check_control)
			continue;
		if (needs_multiple(c, s)) {
			if (c->rank == 0)
				ptb_cl_add(c, ptb_cl_point_na("hybrid.barrier.check",
					params(s, PTB_CL_LOCAL_PTHREAD, c->threads), needs_multiple(c, s)));
			continue;
		}
		check_style(c, s, PTB_CL_LOCAL_PTHREAD);
	}
}
