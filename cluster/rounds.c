/* SPDX-License-Identifier: MIT */
/*
 * The rounds of the cross-node points: a trial of every point per round,
 * so that a slow stretch of the job falls a little on every point and a
 * point's CI spans the rounds.  Each round after the first starts afresh
 * as far as one launch can: the per-thread communicators are freed and
 * duplicated again (their internal state, e.g. a collective's buffers or
 * a progress engine's queues, is not carried over) and the clocks are
 * synchronised again (the offsets of each round are recorded, so drift
 * shows).  The threads are new in every trial (cluster/team.c).  What
 * only a new launch renews -- the processes, their memory and binding --
 * is for `ptbench-mpi merge` of several launches.
 */
#include "config.h"
#include "cluster/cluster.h"

#include <stdlib.h>

void ptb_cl_comms_open(struct ptb_cl *c)
{
	ptb_cl_watch_arm("duplicating the communicators");
	for (int i = 0; i < c->threads; i++)
		MPI_Comm_dup(MPI_COMM_WORLD, &c->comms[i]);
	ptb_cl_watch_disarm();
}

void ptb_cl_comms_close(struct ptb_cl *c)
{
	ptb_cl_watch_arm("freeing the communicators");
	for (int i = 0; i < c->threads; i++)
		MPI_Comm_free(&c->comms[i]);
	ptb_cl_watch_disarm();
}

void ptb_cl_rounds(struct ptb_cl *c)
{
	size_t n = (size_t)c->rounds;
	double *hb = calloc(n * PTB_CL_HYBRID_POINTS, sizeof *hb);
	struct ptb_cl_skew *skew = calloc(n * PTB_CL_HYBRID_POINTS, sizeof *skew);
	double *pp = calloc(n * PTB_CL_PINGPONG_POINTS(c->threads), sizeof *pp);
	if (!hb || !skew || !pp)
		ptb_cl_fail(c, "rank %d (%s): out of memory", c->rank, c->host);
	for (int r = 0; r < c->rounds; r++) {
		if (r > 0) {
			ptb_cl_comms_close(c);
			ptb_cl_comms_open(c);
			ptb_cl_rollcall(c, "clock synchronisation");
			json_t *clock = ptb_cl_clock_sync(c);
			if (c->rank == 0)
				ptb_cl_add_resync(c, r + 1, clock);
		}
		ptb_cl_hybrid_round(c, r, hb, skew);
		ptb_cl_pingpong_round(c, r, pp);
	}
	ptb_cl_hybrid_points(c, hb, skew);
	ptb_cl_pingpong_points(c, pp);
	free(hb);
	free(skew);
	free(pp);
}
