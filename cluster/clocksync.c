/* SPDX-License-Identifier: MIT */
/*
 * The ranks' clocks against rank 0's, by SKaMPI's ping-pong method: rank 0
 * sends at s0, the peer stamps t, rank 0 gets the answer at s1, so the
 * peer's offset lies in [t - s1, t - s0].  The intersection of many such
 * intervals bounds it; the offset is the middle and the width the bound.
 * An exchange whose round trip is more than twice the best one is thrown
 * away and another made: a slow exchange only widens the bound.  Pairs are
 * synchronised one rank at a time (O(p) exchanges), enough for the small
 * jobs this is built for; docs/design.md names the O(log p) method for
 * large ones.
 */
#include "config.h"
#include "cluster/cluster.h"

#include <stdlib.h>
#include <time.h>

#define SYNC_TAG 7702
#define SYNC_WANT 30        /* accepted exchanges per rank */
#define SYNC_MAX 300        /* attempts per rank, at most */

int64_t ptb_cl_now(const struct ptb_cl *c)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + c->inject_ns;
}

struct exchange { int64_t lo, hi, rtt; };

/* Rank 0's side with one peer: the bound of its offset and the count of
 * rejected exchanges. */
static void sync_peer(struct ptb_cl *c, int peer, int64_t *off, int64_t *width, int *rejected,
		      int64_t *best_out)
{
	struct exchange ex[SYNC_MAX];
	int n = 0, accepted = 0;
	int64_t best = INT64_MAX;
	while (accepted < SYNC_WANT && n < SYNC_MAX) {
		int64_t cmd = 1, t;
		int64_t s0 = ptb_cl_now(c);
		MPI_Send(&cmd, 1, MPI_INT64_T, peer, SYNC_TAG, MPI_COMM_WORLD);
		MPI_Recv(&t, 1, MPI_INT64_T, peer, SYNC_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		int64_t s1 = ptb_cl_now(c);
		ex[n] = (struct exchange){ t - s1, t - s0, s1 - s0 };
		if (ex[n].rtt < best)
			best = ex[n].rtt;
		if (ex[n].rtt <= 2 * best)
			accepted++;
		n++;
	}
	int64_t cmd = 0;
	MPI_Send(&cmd, 1, MPI_INT64_T, peer, SYNC_TAG, MPI_COMM_WORLD);
	/* Intersect the exchanges within twice the final best round trip. */
	int64_t lo = INT64_MIN, hi = INT64_MAX;
	int used = 0, besti = 0;
	for (int i = 0; i < n; i++) {
		if (ex[i].rtt == best)
			besti = i;
		if (ex[i].rtt > 2 * best)
			continue;
		used++;
		if (ex[i].lo > lo)
			lo = ex[i].lo;
		if (ex[i].hi < hi)
			hi = ex[i].hi;
	}
	if (lo > hi) {   /* clocks that drifted during the sync: the best alone */
		lo = ex[besti].lo;
		hi = ex[besti].hi;
	}
	*off = lo + (hi - lo) / 2;
	*width = hi - lo;
	*rejected = n - used;
	*best_out = best;
}

/* The peer's side: stamp every request of `from` until told to stop. */
static void sync_answer(struct ptb_cl *c, int from)
{
	for (;;) {
		int64_t cmd;
		MPI_Recv(&cmd, 1, MPI_INT64_T, from, SYNC_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (cmd == 0)
			break;
		int64_t t = ptb_cl_now(c);
		MPI_Send(&t, 1, MPI_INT64_T, from, SYNC_TAG, MPI_COMM_WORLD);
	}
}

static json_t *sync_skampi(struct ptb_cl *c)
{
	json_t *clock = NULL, *offs = NULL;
	int64_t mine[2] = { 0, 0 };
	ptb_cl_watch_arm("clock synchronisation");
	if (c->rank == 0) {
		clock = json_object();
		offs = json_array();
		json_object_set_new(clock, "method", json_string("skampi-pingpong"));
		json_object_set_new(clock, "source", json_string("CLOCK_MONOTONIC"));
		json_array_append_new(offs, json_pack("{s:i,s:I,s:I,s:i,s:I}", "rank", 0,
			"offset_ns", (json_int_t)0, "width_ns", (json_int_t)0, "rejected", 0,
			"best_rtt_ns", (json_int_t)0));
		for (int r = 1; r < c->size; r++) {
			int64_t off, width, best;
			int rejected;
			sync_peer(c, r, &off, &width, &rejected, &best);
			int64_t res[2] = { off, width };
			MPI_Send(res, 2, MPI_INT64_T, r, SYNC_TAG, MPI_COMM_WORLD);
			json_array_append_new(offs, json_pack("{s:i,s:I,s:I,s:i,s:I}", "rank", r,
				"offset_ns", (json_int_t)off, "width_ns", (json_int_t)width,
				"rejected", rejected, "best_rtt_ns", (json_int_t)best));
		}
		json_object_set_new(clock, "offsets", offs);
	} else {
		sync_answer(c, 0);
		MPI_Recv(mine, 2, MPI_INT64_T, 0, SYNC_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	c->offset_ns = mine[0];
	c->width_ns = mine[1];
	ptb_cl_watch_disarm();
	return clock;
}

/* One rank's result of the hierarchical method, gathered on rank 0. */
struct tree_result { int64_t offset, width, best; int rejected, parent; };

/*
 * After Hunold's hierarchical clock alignment: O(log p) rounds instead of
 * p - 1 exchanges in turn.  The ranks form a binomial tree rooted at rank
 * 0; in the round of step s (the largest power of two below p, halved
 * each round), every rank r that knows its offset to rank 0 (r a multiple
 * of 2s) measures the offset of rank r + s to itself by SKaMPI's method
 * and sends it the sum of the two, so that all pairs of a round work at
 * once.  A composed offset's bound is the sum of the bounds along its
 * path (at most log2 p of them).  HCA's linear model of drift is not
 * built: the offsets hold for the time the job takes, resynchronised each
 * round of measurements (rounds.c).
 */
static json_t *sync_hierarchical(struct ptb_cl *c)
{
	struct tree_result me = { 0, 0, 0, 0, -1 }, *all = NULL;
	int top = 1;
	while (top * 2 < c->size)
		top *= 2;
	for (int step = top; step >= 1; step /= 2) {
		if (c->rank % (2 * step) == 0 && c->rank + step < c->size) {
			int64_t off, width, best, res[2];
			int rejected;
			sync_peer(c, c->rank + step, &off, &width, &rejected, &best);
			res[0] = me.offset + off;
			res[1] = me.width + width;
			int64_t meta[2] = { best, rejected };
			MPI_Send(res, 2, MPI_INT64_T, c->rank + step, SYNC_TAG, MPI_COMM_WORLD);
			MPI_Send(meta, 2, MPI_INT64_T, c->rank + step, SYNC_TAG, MPI_COMM_WORLD);
		} else if (c->rank % (2 * step) == step) {
			int64_t res[2], meta[2];
			sync_answer(c, c->rank - step);
			MPI_Recv(res, 2, MPI_INT64_T, c->rank - step, SYNC_TAG, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			MPI_Recv(meta, 2, MPI_INT64_T, c->rank - step, SYNC_TAG, MPI_COMM_WORLD,
				 MPI_STATUS_IGNORE);
			me = (struct tree_result){ res[0], res[1], meta[0], (int)meta[1], c->rank - step };
		}
	}
	c->offset_ns = me.offset;
	c->width_ns = me.width;
	if (c->rank == 0 && !(all = calloc((size_t)c->size, sizeof *all)))
		ptb_cl_fail(c, "out of memory");
	MPI_Gather(&me, sizeof me, MPI_BYTE, all, sizeof me, MPI_BYTE, 0, MPI_COMM_WORLD);
	if (c->rank != 0)
		return NULL;
	json_t *offs = json_array();
	for (int r = 0; r < c->size; r++)
		json_array_append_new(offs, json_pack("{s:i,s:I,s:I,s:i,s:I,s:i}", "rank", r,
			"offset_ns", (json_int_t)all[r].offset, "width_ns", (json_int_t)all[r].width,
			"rejected", all[r].rejected, "best_rtt_ns", (json_int_t)all[r].best,
			"parent", all[r].parent));
	free(all);
	return json_pack("{s:s,s:s,s:o}", "method", "hierarchical", "source", "CLOCK_MONOTONIC",
			 "offsets", offs);
}

json_t *ptb_cl_clock_sync(struct ptb_cl *c)
{
	if (!c->clock_hierarchical)
		return sync_skampi(c);
	ptb_cl_watch_arm("clock synchronisation");
	json_t *clock = sync_hierarchical(c);
	ptb_cl_watch_disarm();
	return clock;
}
