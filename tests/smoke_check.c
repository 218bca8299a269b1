/* SPDX-License-Identifier: MIT */
/*
 * The judge of the smoke test (tests/smoke.sh): reads result files, one per
 * benchmark, named after it (create.join.json), and prints TAP.  Every
 * record must be ok or unstable with a value -- and every kept trial a mean --
 * inside the physical-plausibility bounds its descriptor declares
 * (plausible_ns), its trials from at least three processes, or na with a
 * reason; the threads of
 * a point asked to share a PU (same_pu, and yield and timeslice, which
 * always do) must read back as that one PU, and cross_core points as the
 * two PUs the topology offers, a point of two PUs it notes (c2c.pair) as
 * those two, and T threads placed in an order on T distinct PUs; LogP
 * records must satisfy their formula, and a derived matrix be square and
 * summed up by its classes.
 * The bounds are generous on purpose: they catch a broken benchmark (a
 * lock that takes 0 ns or a second), never a slow machine.  A point that
 * was disturbed (docs/design.md section 13) may exceed the upper bound --
 * a co-tenant's time slices can make a same-PU spin ping-pong take a tenth
 * of a second -- but never undercut the lower one: load only slows.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptbench.h"
#include "tap.h"

static struct ptb_topology *topo;

static const char *str(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The benchmark's own bounds (struct ptb_bench.plausible_ns), or NULL. */
static const double *find_bounds(const char *bench)
{
	const struct ptb_bench *b = ptb_bench_find(bench);
	return b && b->plausible_ns[1] > 0 ? b->plausible_ns : NULL;
}

static void check_logp(const json_t *r, const char *what)
{
	double rtt = json_number_value(json_object_get(r, "rtt"));
	double o_s = json_number_value(json_object_get(r, "o_s"));
	double o_r = json_number_value(json_object_get(r, "o_r"));
	double L = json_number_value(json_object_get(r, "L"));
	tap_ok(fabs(L - (rtt / 2 - o_s - o_r)) <= 1e-9 * fabs(rtt) && rtt > 0 &&
	       json_is_number(json_object_get(r, "g")), "%s: L = rtt/2 - o_s - o_r", what);
}

/* A derived cache-levels record: every measured level is larger and
 * slower than the one before, and the line (when found) a power of two. */
static void check_levels(const json_t *r, const char *what)
{
	const json_t *levels = json_object_get(r, "levels"), *l;
	double line = json_number_value(json_object_get(r, "line_bytes")), size = 0, lat = 0;
	bool ordered = true;
	size_t i;
	json_array_foreach(levels, i, l) {
		const json_t *s = json_object_get(l, "size_bytes"), *t = json_object_get(l, "latency_ns");
		if (!json_is_number(s) || !json_is_number(t))
			continue;
		ordered &= json_number_value(s) > size && json_number_value(t) > lat;
		size = json_number_value(s);
		lat = json_number_value(t);
	}
	tap_ok(ordered && (!json_is_number(json_object_get(r, "line_bytes")) ||
			   (line >= 8 && ((long)line & ((long)line - 1)) == 0)),
	       "%s: levels grow in size and latency, the line is a power of two", what);
}

/* The PUs a placement asks for, as the topology resolves them. */
static bool asked(int placement, char *main_pu, char *client_pu, size_t len)
{
	struct ptb_pair pair;
	ptb_placement_pair(topo, placement, &pair);
	if (!pair.possible)
		return false;
	snprintf(main_pu, len, "%d", pair.pu[0]);
	snprintf(client_pu, len, "%d", pair.pu[1]);
	return true;
}

static void check_binding(const json_t *r, const char *what)
{
	const char *bench = str(r, "bench");
	const char *place = str(json_object_get(r, "params"), "placement");
	const json_t *b = json_object_get(r, "binding");
	const char *main_b = str(b, "main");
	const json_t *clients = json_object_get(b, "clients");
	char want_main[16], want_client[16];
	int pl;
	size_t i;
	json_t *c;

	if (!strcmp(bench, "yield") || !strcmp(bench, "timeslice"))
		pl = PTB_SAME_PU;
	else if (place && (!strcmp(place, "same_pu") || !strcmp(place, "cross_core")))
		pl = ptb_placement_from_name(place);
	else
		return;
	if (!asked(pl, want_main, want_client, sizeof want_main)) {
		tap_ok(0, "%s: ran although the topology cannot offer the placement", what);
		return;
	}
	/* yield proxy=yes leaves the main thread unbound: only its clients yield */
	bool main_free = !strcmp(bench, "yield") && !strcmp(str(json_object_get(r, "params"), "proxy"), "yes");
	bool good = main_free || (main_b && !strcmp(main_b, want_main));
	good &= json_array_size(clients) > 0;
	json_array_foreach(clients, i, c)
		good &= json_string_value(c) && !strcmp(json_string_value(c), want_client);
	const char *first = json_string_value(json_array_get(clients, 0));
	tap_ok(good, "%s: binding read back main=%s client=%s (asked %s / %s)", what,
	       main_b ? main_b : "?", first ? first : "-", main_free ? "any" : want_main,
	       want_client);
}

/* A point that notes its sender and receiver (c2c.pair) ran there: the
 * bindings read back are those PUs. */
static void check_pair_binding(const json_t *r, const char *what)
{
	const json_t *notes = json_object_get(r, "notes"), *b = json_object_get(r, "binding");
	char want_main[16], want_client[16];
	const char *main_b = str(b, "main");
	const char *client_b = json_string_value(json_array_get(json_object_get(b, "clients"), 0));
	snprintf(want_main, sizeof want_main, "%.0f", json_number_value(json_object_get(notes, "sender")));
	snprintf(want_client, sizeof want_client, "%.0f",
		 json_number_value(json_object_get(notes, "receiver")));
	tap_ok(main_b && client_b && !strcmp(main_b, want_main) && !strcmp(client_b, want_client) &&
	       strcmp(want_main, want_client),
	       "%s: bound where it claims: sender %s reads back %s, receiver %s reads back %s", what,
	       want_main, main_b ? main_b : "?", want_client, client_b ? client_b : "?");
}

/* T threads placed one per PU in an `order`: T-1 clients, all PUs distinct. */
static void check_threads_binding(const json_t *r, const char *what, const char *threads)
{
	const json_t *b = json_object_get(r, "binding"), *clients = json_object_get(b, "clients");
	const char *seen[PTB_MAX_CLIENTS + 1] = { str(b, "main") };
	int n = 1, distinct = seen[0] != NULL;
	size_t i;
	json_t *c;
	json_array_foreach(clients, i, c) {
		const char *pu = json_string_value(c);
		bool again = !pu;
		for (int k = 0; pu && k < n; k++)
			again |= seen[k] && !strcmp(seen[k], pu);
		distinct &= !again;
		if (n < PTB_MAX_CLIENTS + 1)
			seen[n++] = pu;
	}
	tap_ok(distinct && (long)json_array_size(clients) == atol(threads) - 1,
	       "%s: %s threads on as many PUs, read back", what, threads);
}

/* A derived matrix: one row and column per PU, and the classes account
 * for every pair with a value. */
static void check_matrix(const json_t *r, const char *what)
{
	const json_t *m = json_object_get(r, "matrix"), *row, *cls;
	size_t n = json_array_size(json_object_get(r, "pus")), i, j, values = 0;
	const char *key;
	json_int_t pairs = 0;
	bool square = json_array_size(m) == n;
	json_array_foreach(m, i, row) {
		square &= json_array_size(row) == n && json_is_null(json_array_get(row, i));
		for (j = 0; j < json_array_size(row); j++)
			values += json_is_number(json_array_get(row, j));
	}
	json_object_foreach((json_t *)json_object_get(r, "classes"), key, cls)
		pairs += json_integer_value(json_object_get(cls, "pairs"));
	tap_ok(square && values > 0 && (json_int_t)values == pairs,
	       "%s: a %zu x %zu matrix, %zu pairs with a value, as many in its classes (%lld)",
	       what, n, n, values, (long long)pairs);
}

/* Within the bounds; above the upper one only when disturbed, and below
 * a lower one under zero (a difference from a reference, whose timing a
 * co-tenant may have lengthened) too. */
static bool in_bounds(double v, const double *k, bool disturbed)
{
	return (v >= k[0] || (disturbed && k[0] < 0)) && (v <= k[1] || disturbed);
}

/* Every kept trial within the bounds, and from three processes at least. */
static void check_trials(const json_t *r, const char *what, const double *k)
{
	bool disturbed = json_is_true(json_object_get(r, "disturbed"));
	const json_t *t, *trials = json_object_get(r, "trials");
	json_int_t pids[64];
	int npids = 0, bad = 0;
	double first_bad = 0;
	size_t i;
	json_array_foreach(trials, i, t) {
		const json_t *m = json_object_get(t, "mean");
		json_int_t pid = json_integer_value(json_object_get(t, "worker"));
		int seen = 0;
		if (!json_is_number(m))
			continue;
		if (!in_bounds(json_number_value(m), k, disturbed) && !bad++)
			first_bad = json_number_value(m);
		for (int j = 0; j < npids; j++)
			seen |= pids[j] == pid;
		if (!seen && npids < 64)
			pids[npids++] = pid;
	}
	char which[64] = "";
	if (bad)
		snprintf(which, sizeof which, " (the first %.4g ns)", first_bad);
	tap_ok(bad == 0 && npids >= 3, "%s: %zu trials, %d outside the bounds%s, from %d processes",
	       what, json_array_size(trials), bad, which, npids);
}

static void check_record(const json_t *r)
{
	const char *bench = str(r, "bench"), *status = str(r, "status"), *reason = str(r, "reason");
	char what[256];
	char *params = json_dumps(json_object_get(r, "params"), JSON_COMPACT | JSON_SORT_KEYS);

	snprintf(what, sizeof what, "%s %s", bench ? bench : "?", params ? params : "{}");
	free(params);
	if (!bench || !status) {
		tap_ok(0, "%s: record without bench or status", what);
		return;
	}
	if (!strcmp(status, "na")) {
		tap_ok(reason && reason[0], "%s: na with a reason (%s)", what, reason ? reason : "none");
		return;
	}
	if (strcmp(status, "ok") && strcmp(status, "unstable")) {
		tap_ok(0, "%s: status %s (%s)", what, status, reason ? reason : "no reason");
		return;
	}
	if (!strncmp(bench, "logp.", 5)) {
		check_logp(r, what);
		return;
	}
	if (json_is_array(json_object_get(r, "levels"))) {
		check_levels(r, what);
		return;
	}
	if (json_object_get(r, "matrix")) {
		check_matrix(r, what);
		return;
	}
	const double *k = find_bounds(bench);
	double value = json_number_value(json_object_get(r, "value"));
	if (!k) {
		tap_ok(0, "%s: no plausibility bounds (plausible_ns) in its descriptor", what);
		return;
	}
	bool disturbed = json_is_true(json_object_get(r, "disturbed"));
	tap_ok(in_bounds(value, k, disturbed), "%s: %s%s, value %.4g ns in [%g, %g]%s",
	       what, status, disturbed ? ", disturbed" : "", value, k[0], k[1],
	       disturbed ? " (or above)" : "");
	check_trials(r, what, k);
	check_binding(r, what);
	const json_t *notes = json_object_get(r, "notes");
	const char *threads = str(json_object_get(r, "params"), "threads");
	if (json_object_get(notes, "sender") && json_object_get(notes, "receiver"))
		check_pair_binding(r, what);
	if (threads && str(json_object_get(r, "params"), "order"))
		check_threads_binding(r, what, threads);
}

/* "dir/mutex.lock.json" -> "mutex.lock" */
static void bench_of(const char *path, char *out, size_t len)
{
	const char *base = strrchr(path, '/');
	snprintf(out, len, "%s", base ? base + 1 : path);
	char *dot = strstr(out, ".json");
	if (dot)
		*dot = '\0';
}

int main(int argc, char **argv)
{
	char err[256];

	if (!(topo = ptb_topology_load(NULL, err, sizeof err))) {
		printf("1..0 # SKIP no topology: %s\n", err);
		return 0;
	}
	for (int a = 1; a < argc; a++) {
		char want[128];
		json_error_t jerr;
		json_t *run = json_load_file(argv[a], 0, &jerr), *r;
		size_t i, seen = 0;

		bench_of(argv[a], want, sizeof want);
		if (!tap_ok(run != NULL, "%s: result file readable", want)) {
			printf("#   %s\n", jerr.text);
			continue;
		}
		json_array_foreach(json_object_get(run, "results"), i, r) {
			const char *b = str(r, "bench");
			seen += b && !strcmp(b, want);
			check_record(r);
		}
		tap_ok(seen > 0, "%s: has records (%zu)", want, seen);
		json_decref(run);
	}
	ptb_topology_free(topo);
	tap_done();
	return tap_exit();
}
