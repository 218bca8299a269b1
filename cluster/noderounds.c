/* SPDX-License-Identifier: MIT */
/*
 * The rounds of the per-node suite, started together on every node.  Each
 * rank's `ptbench run` was started before MPI_Init (so its processes never
 * carry MPI) with a round gate (harness/run/gate.h): before each round it
 * says it is ready and waits.  When every node's suite is ready -- or has
 * none left -- rank 0 names a start a little ahead on its clock; each rank
 * turns it into its own clock by its offset and passes it on, and the
 * suite sleeps until then.  A node whose suite has ended still joins each
 * meeting until all have.  The clocks are synchronised first, so that the
 * rounds' starts and ends, which the suites report, are compared on one
 * clock: context.node_suite records each round's start skew and the gap
 * after the previous round's last end.
 *
 * While its suite's round runs, a rank waits on the socket, not in MPI,
 * and between rounds it polls MPI with 0.5 ms sleeps rather than spinning:
 * either way it takes no CPU from a measurement on its node (or, with
 * --as-nodes, from another rank's on the same host).
 */
#include "config.h"
#include "cluster/cluster.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GATE_TAG 7702
/* A waiting rank tests MPI this often: MPI_Ibcast progresses only when
 * tested, so a broadcast down a tree of p ranks takes up to log2 p polls. */
#define POLL_NS 500000

/* How far ahead rank 0 names a round's start: its word must reach every
 * rank, and every rank's suite, before then (on a loaded host too): 10 ms
 * and a poll per level of the broadcast's tree. */
static int64_t start_ahead_ns(int size)
{
	int levels = 0;
	while ((1 << levels) < size && levels < 30)
		levels++;
	return 10000000 + (int64_t)levels * POLL_NS;
}

struct node_rounds {
	int64_t *start, *end;   /* per round, this rank's clock made rank 0's; 0: none */
	int cap;
	bool running, failed;
};

static bool read_line(int fd, char *buf, size_t len)
{
	size_t n = 0;
	while (n + 1 < len) {
		ssize_t r = read(fd, buf + n, 1);
		if (r <= 0)
			return false;
		if (buf[n] == '\n')
			break;
		n++;
	}
	buf[n] = 0;
	return true;
}

static void keep_round(struct ptb_cl *c, struct node_rounds *nr, int k, int64_t s, int64_t e)
{
	if (k < 1 || k > 100000)
		return;
	if (k > nr->cap) {
		int cap = k * 2;
		int64_t *a = realloc(nr->start, (size_t)cap * sizeof *a);
		int64_t *b = a ? realloc(nr->end, (size_t)cap * sizeof *b) : NULL;
		if (!a || !b)
			ptb_cl_fail(c, "rank %d (%s): out of memory", c->rank, c->host);
		memset(a + nr->cap, 0, (size_t)(cap - nr->cap) * sizeof *a);
		memset(b + nr->cap, 0, (size_t)(cap - nr->cap) * sizeof *b);
		nr->start = a;
		nr->end = b;
		nr->cap = cap;
	}
	/* the suite's CLOCK_MONOTONIC, as ptb_cl_now reads it, on rank 0's clock */
	nr->start[k - 1] = s + c->inject_ns - c->offset_ns;
	nr->end[k - 1] = e + c->inject_ns - c->offset_ns;
}

/* Until the suite's next round is ready, or it has no round left (or has
 * gone, failed or not): the ended rounds' times kept on the way. */
static void await_suite(struct ptb_cl *c, struct node_rounds *nr)
{
	char line[128];
	int k;
	long long s, e;
	while (c->node_gate >= 0 && read_line(c->node_gate, line, sizeof line)) {
		if (sscanf(line, "done %d %lld %lld", &k, &s, &e) == 3)
			keep_round(c, nr, k, s, e);
		else if (!strncmp(line, "ready ", 6))
			return;
		else if (!strcmp(line, "end"))
			break;
	}
	if (c->node_gate >= 0)
		close(c->node_gate);
	c->node_gate = -1;
	ptb_cl_node_suite_wait(c);
	nr->running = false;
	nr->failed = c->node_status != NULL;
}

static void wait_polled(MPI_Request *req)
{
	struct timespec nap = { 0, POLL_NS };
	for (int done = 0;;) {
		MPI_Test(req, &done, MPI_STATUS_IGNORE);
		if (done)
			return;
		nanosleep(&nap, NULL);
	}
}

/* Rank 0 hears every rank's state, waiting at most 0.8 x the timeout (so
 * that it names the ranks that never came before their watchdogs fire). */
static void collect(struct ptb_cl *c, int round, int64_t (*state)[2])
{
	int n = c->size - 1, left = n;
	MPI_Request *req = calloc((size_t)n + 1, sizeof *req);
	if (!req)
		ptb_cl_fail(c, "rank 0 (%s): out of memory", c->host);
	for (int r = 1; r < c->size; r++)
		MPI_Irecv(state[r], 2, MPI_INT64_T, r, GATE_TAG, MPI_COMM_WORLD, &req[r - 1]);
	struct timespec nap = { 0, POLL_NS };
	int64_t end = ptb_cl_now(c) + (int64_t)(c->timeout_s * 0.8e9);
	while (left > 0 && ptb_cl_now(c) < end) {
		int idx, flag;
		MPI_Testany(n, req, &idx, &flag, MPI_STATUS_IGNORE);
		if (flag && idx != MPI_UNDEFINED)
			left--;
		else
			nanosleep(&nap, NULL);
	}
	if (left > 0) {
		char who[512] = "";
		for (int i = 0; i < n; i++)
			if (req[i] != MPI_REQUEST_NULL && strlen(who) < sizeof who - 16)
				snprintf(who + strlen(who), sizeof who - strlen(who), "%s%d",
					 who[0] ? ", " : "", i + 1);
		ptb_cl_fail(c, "rank %s did not end round %d of the per-node suite within %g s "
			    "(node or process lost; a longer round needs a longer --timeout)",
			    who, round, c->timeout_s * 0.8);
	}
	free(req);
}

/* One meeting before round `round`: true and the round's start on rank
 * 0's clock when some node's suite has a round to run and none failed. */
static bool meet(struct ptb_cl *c, struct node_rounds *nr, int round, int64_t *start)
{
	static char phase[96];
	int64_t mine[2] = { nr->running, nr->failed }, answer[2] = { 0, 0 };
	snprintf(phase, sizeof phase, "the meeting before round %d of the per-node suite", round);
	if (c->rank == 0) {
		int64_t (*state)[2] = calloc((size_t)c->size, sizeof *state);
		if (!state)
			ptb_cl_fail(c, "rank 0 (%s): out of memory", c->host);
		state[0][0] = mine[0];
		state[0][1] = mine[1];
		collect(c, round, state);
		bool any = false, failed = false;
		for (int r = 0; r < c->size; r++) {
			any |= state[r][0] != 0;
			failed |= state[r][1] != 0;
		}
		free(state);
		answer[0] = any && !failed;
		answer[1] = ptb_cl_now(c) + start_ahead_ns(c->size);   /* rank 0's offset is 0 */
	} else {
		ptb_cl_watch_arm(phase);
		MPI_Send(mine, 2, MPI_INT64_T, 0, GATE_TAG, MPI_COMM_WORLD);
	}
	MPI_Request req;
	ptb_cl_watch_arm(phase);
	MPI_Ibcast(answer, 2, MPI_INT64_T, 0, MPI_COMM_WORLD, &req);
	wait_polled(&req);
	ptb_cl_watch_disarm();
	*start = answer[1];
	return answer[0] != 0;
}

/* Rank 0: context.node_suite from every rank's rounds, on its clock. */
static json_t *rounds_record(const int64_t *all, int size, int rounds, const json_t *clock)
{
	json_t *list = json_array(), *o;
	size_t i;
	int64_t width = 0;
	json_array_foreach(json_object_get(clock, "offsets"), i, o)
		if (json_integer_value(json_object_get(o, "width_ns")) > width)
			width = json_integer_value(json_object_get(o, "width_ns"));
	int64_t prev_end = 0;
	for (int k = 0; k < rounds; k++) {
		int64_t first = 0, last = 0, latest_end = 0;
		int nodes = 0;
		for (int r = 0; r < size; r++) {
			int64_t s = all[(size_t)r * 2 * rounds + k];
			int64_t e = all[(size_t)r * 2 * rounds + rounds + k];
			if (s == 0)
				continue;
			first = nodes == 0 || s < first ? s : first;
			last = nodes == 0 || s > last ? s : last;
			latest_end = e > latest_end ? e : latest_end;
			nodes++;
		}
		json_t *starts = json_array(), *lengths = json_array();
		for (int r = 0; r < size; r++) {
			int64_t s = all[(size_t)r * 2 * rounds + k];
			int64_t e = all[(size_t)r * 2 * rounds + rounds + k];
			json_array_append_new(starts, s ? json_integer(s - first) : json_null());
			json_array_append_new(lengths, s ? json_integer(e - s) : json_null());
		}
		json_t *rec = json_pack("{s:i,s:i,s:I,s:o,s:o}", "round", k + 1, "nodes", nodes,
					"start_skew_ns", (json_int_t)(last - first), "starts_ns",
					starts, "lengths_ns", lengths);
		if (k > 0 && prev_end && nodes)
			json_object_set_new(rec, "gap_ns", json_integer(first - prev_end));
		json_array_append_new(list, rec);
		prev_end = latest_end;
	}
	return json_pack("{s:b,s:I,s:I,s:o}", "rounds_together", 1, "start_ahead_ns",
			 (json_int_t)start_ahead_ns(size), "clock_width_ns", (json_int_t)width, "rounds",
			 list);
}

void ptb_cl_node_rounds(struct ptb_cl *c)
{
	struct node_rounds nr = { .running = c->node_gate >= 0, .failed = c->node_status != NULL };
	if (!c->node_suite)
		return;
	if (nr.running)
		await_suite(c, &nr);   /* its setup done, it waits for round 1 */
	ptb_cl_rollcall(c, "the per-node suite's clock synchronisation");
	json_t *clock = ptb_cl_clock_sync(c);
	int rounds = 0;
	int64_t start;
	while (meet(c, &nr, rounds + 1, &start)) {
		rounds++;
		if (!nr.running)
			continue;
		char go[64];
		snprintf(go, sizeof go, "go %lld\n",
			 (long long)(start + c->offset_ns - c->inject_ns));
		if (write(c->node_gate, go, strlen(go)) != (ssize_t)strlen(go))
			nr.running = false;   /* gone: said at the next meeting */
		await_suite(c, &nr);
	}
	/* Another node's suite failed (named when the figures are gathered):
	 * this one's is stopped, its figures left out. */
	if (nr.running)
		ptb_cl_node_suite_abandon(c);
	/* every rank's rounds to rank 0: starts, then ends */
	size_t n = (size_t)rounds * 2;
	int64_t *mine = calloc(n + 1, sizeof *mine), *all = NULL;
	if (!mine || (c->rank == 0 && !(all = calloc(n * (size_t)c->size + 1, sizeof *all))))
		ptb_cl_fail(c, "rank %d (%s): out of memory", c->rank, c->host);
	for (int k = 0; k < rounds && k < nr.cap; k++) {
		mine[k] = nr.start[k];
		mine[rounds + k] = nr.end[k];
	}
	ptb_cl_watch_arm("gathering the per-node suite's rounds");
	MPI_Gather(mine, (int)n, MPI_INT64_T, all, (int)n, MPI_INT64_T, 0, MPI_COMM_WORLD);
	ptb_cl_watch_disarm();
	if (c->rank == 0)
		json_object_set_new(json_object_get(c->doc, "context"), "node_suite",
				    rounds_record(all, c->size, rounds, clock));
	json_decref(clock);
	free(all);
	free(mine);
	free(nr.start);
	free(nr.end);
}
