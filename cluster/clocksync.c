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

static void sync_answer(struct ptb_cl *c)
{
	for (;;) {
		int64_t cmd;
		MPI_Recv(&cmd, 1, MPI_INT64_T, 0, SYNC_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
		if (cmd == 0)
			break;
		int64_t t = ptb_cl_now(c);
		MPI_Send(&t, 1, MPI_INT64_T, 0, SYNC_TAG, MPI_COMM_WORLD);
	}
}

json_t *ptb_cl_clock_sync(struct ptb_cl *c)
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
		sync_answer(c);
		MPI_Recv(mine, 2, MPI_INT64_T, 0, SYNC_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
	}
	c->offset_ns = mine[0];
	c->width_ns = mine[1];
	ptb_cl_watch_disarm();
	return clock;
}
