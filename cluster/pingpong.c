/* SPDX-License-Identifier: MIT */
/*
 * mpi.pingpong: thread i of an even rank and thread i of the next rank
 * bounce an 8-byte message, pairs 1..T at once, each pair on its own
 * communicator (comms[i]) so that no pair can take another's message.
 * The figure is half the round trip of the slowest pair of the job.
 * Under funneled only the main thread may call MPI: one pair is measured,
 * more are na.  With an odd number of ranks the last one sits out.
 */
#include "config.h"
#include "cluster/cluster.h"
#include "cluster/team.h"

#include <stdlib.h>

#define PP_TAG 7703

struct pp {
	struct ptb_cl *c;
	int peer;            /* -1: this rank sits out */
	int n;               /* round trips per thread */
	struct ptb_cl_meet meet;
	double half_rtt[PTB_CL_MAX_THREADS];
};

static void pp_thread(void *arg, int i)
{
	struct pp *p = arg;
	struct ptb_cl *c = p->c;
	char buf[8] = { 0 };
	int sense = 0;
	ptb_cl_meet(&p->meet, &sense);
	int64_t t0 = ptb_cl_now(c);
	for (int k = 0; k < p->n; k++) {
		if (c->rank % 2 == 0) {
			MPI_Send(buf, 8, MPI_BYTE, p->peer, PP_TAG, c->comms[i]);
			MPI_Recv(buf, 8, MPI_BYTE, p->peer, PP_TAG, c->comms[i], MPI_STATUS_IGNORE);
		} else {
			MPI_Recv(buf, 8, MPI_BYTE, p->peer, PP_TAG, c->comms[i], MPI_STATUS_IGNORE);
			MPI_Send(buf, 8, MPI_BYTE, p->peer, PP_TAG, c->comms[i]);
		}
	}
	p->half_rtt[i] = (double)(ptb_cl_now(c) - t0) / p->n / 2;
}

static const char *pp_na(const struct ptb_cl *c, int multiple, int pairs)
{
	if (multiple && c->provided < MPI_THREAD_MULTIPLE)
		return "needs MPI_THREAD_MULTIPLE; the library provided less (--thread-level)";
	if (!multiple && pairs > 1)
		return "under funneled only the main thread calls MPI: one pair";
	return NULL;
}

static double pp_trial(struct ptb_cl *c, int pairs)
{
	struct pp p = { .c = c, .n = c->episodes };
	p.peer = c->rank % 2 ? c->rank - 1 : (c->rank + 1 < c->size ? c->rank + 1 : -1);
	double mine = 0, slowest = 0;
	ptb_cl_rollcall(c, "mpi.pingpong");
	ptb_cl_watch_arm("mpi.pingpong");
	if (p.peer >= 0) {
		ptb_cl_meet_init(&p.meet, PTB_CL_LOCAL_PTHREAD, pairs);
		ptb_cl_team(c, pairs, pp_thread, &p);
		ptb_cl_meet_destroy(&p.meet);
		for (int i = 0; i < pairs; i++)
			if (p.half_rtt[i] > mine)
				mine = p.half_rtt[i];
	}
	MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
	ptb_cl_watch_disarm();
	return slowest;
}

/* One trial of each point, into trials[(multiple * T + pairs - 1) * rounds + r]. */
void ptb_cl_pingpong_round(struct ptb_cl *c, int r, double *trials)
{
	int T = c->threads;
	for (int m = 0; m < 2; m++)
		for (int pairs = 1; pairs <= T; pairs++)
			if (!pp_na(c, m, pairs))
				trials[(m * T + pairs - 1) * c->rounds + r] = pp_trial(c, pairs);
}

void ptb_cl_pingpong_points(struct ptb_cl *c, const double *trials)
{
	int T = c->threads;
	for (int m = 0; m < 2 && c->rank == 0; m++)
		for (int pairs = 1; pairs <= T; pairs++) {
			json_t *par = json_pack("{s:s,s:i}", "style", m ? "multiple" : "funneled",
						"pairs", pairs);
			const char *why = pp_na(c, m, pairs);
			ptb_cl_add(c, why ? ptb_cl_point_na("mpi.pingpong", par, why)
				: ptb_cl_point("mpi.pingpong", par, "message",
					       trials + (m * T + pairs - 1) * c->rounds, c->rounds,
					       c->target_pct));
		}
}
