/* SPDX-License-Identifier: MIT */
/*
 * The pairs of PUs a matrix of every ordered pair measures (engine/pairs.h):
 * all of them on a small machine, a stated sample on a large one, so that
 * the time of a run grows with the plan's cap, not with the square of the
 * PUs.
 */
#include "config.h"

#include <stdlib.h>

#include "engine/pairs.h"

static int add_pair(const struct ptb_topology *t, struct ptb_pu_pair *out, int n, int a, int b)
{
	int cls = ptb_topology_pair_class(t, a, b);
	out[n] = (struct ptb_pu_pair){ a, b, cls, ptb_placement_name(cls) };
	return n + 1;
}

/* Every pair with an anchor as sender or receiver, anchors in spread
 * order, while the next anchor's pairs fit within PTB_PAIR_PLAN_ALL. */
static int sample_pairs(const struct ptb_topology *t, const int *compact, const int *spread,
			int n, struct ptb_pu_pair *out)
{
	int k = 0, *rank = calloc((size_t)n, sizeof *rank);
	unsigned char *taken = calloc((size_t)n * (size_t)n, 1);
	if (!rank || !taken) {
		free(rank);
		free(taken);
		return -1;
	}
	for (int i = 0; i < n; i++)          /* spread position -> compact rank */
		for (int j = 0; j < n; j++)
			if (compact[j] == spread[i])
				rank[i] = j;
	for (int a = 0; a < n && k + 2 * (n - 1) <= PTB_PAIR_PLAN_ALL; a++) {
		int x = rank[a];
		for (int y = 0; y < n; y++) {
			if (y == x)
				continue;
			if (!taken[x * n + y]++)
				k = add_pair(t, out, k, compact[x], compact[y]);
			if (!taken[y * n + x]++)
				k = add_pair(t, out, k, compact[y], compact[x]);
		}
	}
	free(rank);
	free(taken);
	return k;
}

int ptb_pair_plan(const struct ptb_topology *t, struct ptb_pu_pair **out)
{
	struct ptb_topo_counts c;
	ptb_topology_counts(t, &c);
	int n = c.pus, k = -1;
	int *compact = calloc((size_t)n + 1, sizeof *compact);
	int *spread = calloc((size_t)n + 1, sizeof *spread);
	long all = (long)n * (n - 1);
	*out = calloc((size_t)(all < PTB_PAIR_PLAN_ALL ? all : PTB_PAIR_PLAN_ALL) + 1,
		      sizeof **out);
	if (compact && spread && *out && ptb_topology_order(t, PTB_ORDER_COMPACT, compact, n) == n &&
	    ptb_topology_order(t, PTB_ORDER_SPREAD, spread, n) == n) {
		if (all <= PTB_PAIR_PLAN_ALL) {
			k = 0;
			for (int i = 0; i < n; i++)
				for (int j = 0; j < n; j++)
					if (i != j)
						k = add_pair(t, *out, k, compact[i], compact[j]);
		} else {
			k = sample_pairs(t, compact, spread, n, *out);
		}
	}
	free(compact);
	free(spread);
	if (k < 0) {
		free(*out);
		*out = NULL;
	}
	return k;
}

int ptb_pu_pair_plan(const struct ptb_system *sys, struct ptb_pu_pair **out)
{
	return ptb_pair_plan(sys->topo, out);
}
