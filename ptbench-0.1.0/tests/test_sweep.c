/* SPDX-License-Identifier: MIT */
/*
 * Parameter sweeps: the cross product of defaults, -p overrides, one clear
 * line for every bad input, and the adaptive refinement of a numeric range
 * fed a scripted curve (so where the midpoints go is known exactly).
 */
#include <math.h>
#include <string.h>

#include "engine/sweep.h"
#include "tap.h"

#define PLACEMENTS "unbound,same_pu,smt,cross_core,cross_package,cross_numa"

static const struct ptb_param create_params[] = {
	{ "detach", "yes,no",          "yes,no",         0, 0, "" },
	{ "scope",  "system,process",  "system,process", 0, 0, "" },
	{ 0 },
};
static const struct ptb_param pingpong_params[] = {
	{ "placement", PLACEMENTS, "unbound,same_pu,cross_core", 0, 0, "" },
	{ 0 },
};
static const struct ptb_param wait_params[] = {
	{ "placement", "smt,cross_core,cross_package,cross_numa", "smt,cross_core", 0, 0, "" },
	{ 0 },
};
static const struct ptb_param lock_params[] = {
	{ "mutexes", NULL, "1024", 1, 1000000, "" },
	{ 0 },
};
static const struct ptb_param mixed_params[] = {
	{ "placement", PLACEMENTS, "same_pu", 0, 0, "" },
	{ "mutexes", NULL, "1024", 1, 1000000, "" },
	{ 0 },
};

static const struct ptb_bench create = { .name = "create", .params = create_params };
static const struct ptb_bench pingpong = { .name = "mutex.pingpong", .params = pingpong_params };
static const struct ptb_bench condwait = { .name = "cond.wait", .params = wait_params };
static const struct ptb_bench lock = { .name = "mutex.lock", .params = lock_params };
static const struct ptb_bench mixed = { .name = "mixed", .params = mixed_params };
static const struct ptb_bench plain = { .name = "cond.signal" };

/* The points of a sweep as "v1/v2;" text, feeding f(x) of variable `num`. */
static int walk(struct ptb_sweep *s, int num, double (*f)(long), char *out, size_t len)
{
	const char *v[PTB_MAX_PARAMS];
	int n = 0, id;
	out[0] = '\0';
	while (ptb_sweep_next(s, v, &id) == PTB_SWEEP_POINT) {
		for (int i = 0; i < PTB_MAX_PARAMS && v[i]; i++)
			snprintf(out + strlen(out), len - strlen(out), "%s%s", i ? "/" : "", v[i]);
		snprintf(out + strlen(out), len - strlen(out), ";");
		if (f)
			ptb_sweep_feed(s, id, f(strtol(v[num], NULL, 10)));
		n++;
	}
	return n;
}

static int points(const struct ptb_bench *b, const char *const *a, int na, int maxp,
		  double (*f)(long), char *out, size_t len)
{
	char err[256];
	struct ptb_sweep *s = ptb_sweep_new(b, a, na, maxp, NULL, err, sizeof err);
	if (!s) {
		snprintf(out, len, "ERROR %s", err);
		return -1;
	}
	int n = walk(s, b == &mixed ? 1 : 0, f, out, len);
	ptb_sweep_free(s);
	return n;
}

static void cross_product(void)
{
	char out[1024];
	const char *a1[] = { "detach=no" };
	const char *a2[] = { "scope=process", "mutexes=5", "detach=no,yes", "scope=system" };
	const char *a3[] = { "mutexes=016,16,8" };

	points(&create, NULL, 0, 0, NULL, out, sizeof out);
	tap_ok(strcmp(out, "yes/system;yes/process;no/system;no/process;") == 0,
	       "defaults: 2 x 2, last variable fastest (%s)", out);
	points(&create, a1, 1, 0, NULL, out, sizeof out);
	tap_ok(strcmp(out, "no/system;no/process;") == 0, "-p detach=no (%s)", out);
	points(&create, a2, 4, 0, NULL, out, sizeof out);
	tap_ok(strcmp(out, "no/system;yes/system;") == 0,
	       "order as given, last -p wins, other benchmarks' variables ignored (%s)", out);
	points(&lock, a3, 1, 0, NULL, out, sizeof out);
	tap_ok(strcmp(out, "16;8;") == 0, "numbers canonical, repeats dropped (%s)", out);
	tap_ok(points(&plain, NULL, 0, 0, NULL, out, sizeof out) == 1 && strcmp(out, ";") == 0,
	       "no variables: one point");
}

static void one_line(const char *what, const struct ptb_bench *b, const char *assign,
		     const char *want)
{
	char err[256] = "";
	const char *a[] = { assign };
	struct ptb_sweep *s = ptb_sweep_new(b, a, 1, 0, NULL, err, sizeof err);
	int ok = !s && err[0] && !strchr(err, '\n') && (!want || strcmp(err, want) == 0);
	if (!tap_ok(ok, "%s: -p '%s' is refused in one line", what, assign))
		printf("#   got: %s\n", err);
	ptb_sweep_free(s);
}

static void bad_inputs(void)
{
	one_line("enumerated", &pingpong, "placement=foo",
		 "mutex.pingpong: placement: 'foo' is not one of " PLACEMENTS);
	one_line("letters", &lock, "mutexes=x12",
		 "mutex.lock: mutexes: 'x12' is not an integer in [1, 1000000]");
	one_line("below min", &lock, "mutexes=0", NULL);
	one_line("above max", &lock, "mutexes=1000001", NULL);
	one_line("overflow", &lock, "mutexes=99999999999999999999999", NULL);
	one_line("trailing text", &lock, "mutexes=12x", NULL);
	one_line("leading blank", &lock, "mutexes= 12", NULL);
	one_line("hex", &lock, "mutexes=0x10", NULL);
	one_line("empty value", &lock, "mutexes=", NULL);
	one_line("empty item", &pingpong, "placement=unbound,,same_pu", NULL);
	one_line("reversed range", &lock, "mutexes=8..2", NULL);
	one_line("range below min", &lock, "mutexes=0..8", NULL);
	one_line("range end", &lock, "mutexes=1..", NULL);
	one_line("range in a list", &lock, "mutexes=1,4..8", NULL);
	one_line("range of names", &pingpong, "placement=unbound..smt", NULL);
	one_line("no '='", &pingpong, "placement", "-p 'placement': expected VAR=V1,V2,... or VAR=LO..HI");
	one_line("no name", &pingpong, "=same_pu", NULL);
}

static int check(const struct ptb_bench *const *b, int n, const char *assign, char *err)
{
	const char *a[] = { assign };
	err[0] = '\0';
	return ptb_assign_check(b, n, a, 1, err, 256);
}

static void assign_check(void)
{
	char err[256];
	const struct ptb_bench *both[] = { &pingpong, &condwait };
	const struct ptb_bench *all[] = { &create, &pingpong, &condwait, &lock };

	tap_ok(check(all, 4, "foo=1", err) < 0 &&
	       strcmp(err, "no selected benchmark has a variable 'foo'") == 0,
	       "unknown variable: %s", err);
	tap_ok(check(both, 2, "mutexes=4", err) < 0, "a variable only unselected benchmarks have");
	tap_ok(check(both, 2, "placement=unbound,smt", err) == 0,
	       "each value accepted by some benchmark having the variable");
	tap_ok(check(both, 2, "placement=smt,warp", err) < 0 &&
	       strcmp(err, "mutex.pingpong: placement: 'warp' is not one of " PLACEMENTS) == 0,
	       "a value no benchmark accepts: %s", err);
	tap_ok(check(all, 4, "mutexes=1..64", err) == 0, "a range");
	tap_ok(check(all, 4, "mutexes=64..1", err) < 0 && !strchr(err, '\n'),
	       "a bad range: %s", err);
	tap_ok(check(all, 4, "placement", err) < 0 && strstr(err, "expected VAR=") != NULL,
	       "malformed: %s", err);
	tap_ok(check(all, 4, "detach=no", err) == 0, "a good assignment passes");
}

/* Curves fed to the refinement. */
static double linear(long x) { return 5 + 2.0 * x; }
static double step100(long x) { return x <= 100 ? 10 : 50; }
static double kink300(long x) { return x <= 300 ? 10 : x - 290; }
static double failed_at_64(long x) { return x == 64 ? NAN : step100(x); }

static void refinement(void)
{
	char out[2048];
	const char *r[] = { "mutexes=1..1024" };
	const char *r2[] = { "mutexes=4..8" };
	const char *r3[] = { "mutexes=5..5" };
	const char *rm[] = { "placement=same_pu,cross_core", "mutexes=1..1024" };
	const char *coarse = "1;2;4;8;16;32;64;128;256;512;1024;";

	int n = points(&lock, r, 1, 11, step100, out, sizeof out);
	tap_ok(n == 11 && strcmp(out, coarse) == 0, "coarse: LO, powers of two, HI (%s)", out);
	n = points(&lock, r, 1, 16, linear, out, sizeof out);
	tap_ok(n == 11, "a straight line gets no midpoints (%d points)", n);
	n = points(&lock, r, 1, 14, step100, out, sizeof out);
	tap_ok(n == 14 && strncmp(out, coarse, strlen(coarse)) == 0 &&
	       strcmp(out + strlen(coarse), "96;112;104;") == 0,
	       "a step between 100 and 101: midpoints 96, 112, 104, then max_points (%s)",
	       out + strlen(coarse));
	n = points(&lock, r, 1, 0, step100, out, sizeof out);
	tap_ok(n == 16, "max_points <= 0 means 16 (%d)", n);
	n = points(&lock, r, 1, 100, step100, out, sizeof out);
	tap_ok(n == 17 && strstr(out, ";100;") && strstr(out, ";101;"),
	       "refinement closes in on the step, then stops by itself (%d points: %s)",
	       n, out + strlen(coarse));
	n = points(&lock, r, 1, 12, kink300, out, sizeof out);
	tap_ok(n == 12 && strcmp(out + strlen(coarse), "384;") == 0,
	       "a kink at 300: the first midpoint splits [256, 512] (%s)", out + strlen(coarse));
	n = points(&lock, r2, 1, 16, linear, out, sizeof out);
	tap_ok(n == 3 && strcmp(out, "4;8;6;") == 0, "two points: split once (%s)", out);
	n = points(&lock, r3, 1, 16, linear, out, sizeof out);
	tap_ok(n == 1 && strcmp(out, "5;") == 0, "LO == HI: one point");
	n = points(&lock, r, 1, 14, failed_at_64, out, sizeof out);
	tap_ok(n == 11, "a failed point is never the end of a split (%s)", out + strlen(coarse));

	n = points(&mixed, rm, 2, 12, step100, out, sizeof out);
	tap_ok(n == 24 && strstr(out, "same_pu/1024;same_pu/96;cross_core/1;") &&
	       strstr(out, "cross_core/1024;cross_core/96;"),
	       "each combination of the other variables is refined on its own (%d)", n);
}

static void strings_stay_valid(void)
{
	char err[256];
	const char *a[] = { "mutexes=1..1024" }, *v[PTB_MAX_PARAMS], *kept[32];
	struct ptb_sweep *s = ptb_sweep_new(&lock, a, 1, 16, NULL, err, sizeof err);
	int n = 0, ok = 1, id;
	while (s && ptb_sweep_next(s, v, &id) == PTB_SWEEP_POINT && n < 32) {
		kept[n++] = v[0];
		ptb_sweep_feed(s, id, step100(strtol(v[0], NULL, 10)));
	}
	ptb_sweep_feed(s, id, 0);   /* feeding twice is harmless */
	ptb_sweep_feed(s, 999, 0);  /* so is an id never handed out */
	for (int i = 0; i < n; i++)
		ok &= strtol(kept[i], NULL, 10) > 0;
	tap_ok(n == 16 && ok && strcmp(kept[11], "96") == 0,
	       "returned strings stay valid until ptb_sweep_free");
	ptb_sweep_free(s);
}

/* A runner that measures everything it can before feeding: all coarse
 * points at once, then a refined line waits for its values, and its
 * midpoints come one at a time, fed in any order. */
static void interleaved(void)
{
	char err[256];
	const char *a[] = { "placement=same_pu,cross_core", "mutexes=1..1024" }, *v[PTB_MAX_PARAMS];
	struct ptb_sweep *s = ptb_sweep_new(&mixed, a, 2, 12, NULL, err, sizeof err);
	int ids[64], n = 0, rounds = 0, id;
	long xs[64];
	enum ptb_sweep_step st = PTB_SWEEP_DONE;
	bool waited = false;
	while (s && n < 64 && rounds < 20) {
		int first = n;
		while (n < 64 && (st = ptb_sweep_next(s, v, &id)) == PTB_SWEEP_POINT) {
			xs[n] = strtol(v[1], NULL, 10);
			ids[n++] = id;
		}
		if (rounds == 0)
			tap_ok(n == 22 && st == PTB_SWEEP_WAIT,
			       "every coarse point of both lines at once, then wait (%d, %d)", n, st);
		waited |= st == PTB_SWEEP_WAIT;
		if (st == PTB_SWEEP_DONE)
			break;
		for (int i = n - 1; i >= first; i--)    /* fed in reverse order */
			ptb_sweep_feed(s, ids[i], step100(xs[i]));
		rounds++;
	}
	tap_ok(waited && st == PTB_SWEEP_DONE && n == 24 && xs[22] == 96 && xs[23] == 96,
	       "each line gets its midpoint once fed, then the sweep ends (%d points)", n);
	ptb_sweep_free(s);
}

int main(void)
{
	cross_product();
	interleaved();
	bad_inputs();
	assign_check();
	refinement();
	strings_stay_valid();
	tap_done();
	return tap_exit();
}
