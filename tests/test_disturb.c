/* SPDX-License-Identifier: MIT */
/*
 * Was the machine the benchmark's (docs/design.md section 13): the verdict
 * on hand-worked windows -- quiet, a co-tenant on the PU, a hypervisor
 * stealing, a window too short for the kernel's ticks to tell, pooling --
 * a point disturbed when half its trials or more were (the short ones judged
 * together), and then never ok; the PU lists bindings are written in, and
 * /proc/stat read from a file.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "platform/load.h"
#include "record/model.h"
#include "run/disturb.h"
#include "run/record.h"
#include "stats/disturb.h"
#include "tap.h"

static void verdicts(void)
{
	struct ptb_disturbance d, pool = { 0 };
	/* 1 s on 1 PU, 10 ms ticks: the benchmark ran 0.99 s, idle 0. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 0.99, 3, 1, 0.01);
	tap_near(d.other_share, 0.01, 1e-9, "quiet: others took 1 %% of the PU");
	tap_ok(d.disturbed == 0, "quiet, and long enough to tell: not disturbed");
	tap_near(d.preempted_per_s, 3, 1e-9, "preemptions per second");
	/* A co-tenant took half: the benchmark got 0.5 s of a busy second. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 0.5, 400, 2, 0.01);
	tap_ok(d.disturbed == 1 && fabs(d.other_share - 0.5) < 1e-9,
	       "a co-tenant with half the PU: disturbed, other share 0.5");
	/* Exactly at the threshold plus the margin (one tick): still not. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 1.0 - 0.10 - 0.01, 0, 1, 0.01);
	tap_ok(d.disturbed == 0, "10 %% and one tick of others: not disturbed (%g)", d.other_share);
	ptb_disturbance_window(&d, 1.0, 1, 0, 0, 1.0 - 0.10 - 0.011, 0, 1, 0.01);
	tap_ok(d.disturbed == 1, "a little more: disturbed");
	/* Two PUs, one idle half the time, the other ours: others 0. */
	ptb_disturbance_window(&d, 1.0, 2, 0.5, 0, 1.5, 0, 1, 0.01);
	tap_ok(d.disturbed == 0 && fabs(d.other_cpu_s) < 1e-9 && d.capacity_s == 2.0,
	       "two PUs, idle time is nobody's: not disturbed");
	/* The hypervisor stole 20 % and nobody else ran. */
	ptb_disturbance_window(&d, 1.0, 1, 0, 0.2, 0.8, 0, 1, 0.01);
	tap_ok(d.disturbed == 1 && fabs(d.steal_share - 0.2) < 1e-9 && fabs(d.other_cpu_s) < 1e-9,
	       "20 %% stolen: disturbed, by the hypervisor alone");
	/* 20 ms with 10 ms ticks: 25 % others could be one tick's rounding. */
	ptb_disturbance_window(&d, 0.02, 1, 0, 0, 0.015, 0, 1, 0.01);
	tap_ok(d.disturbed == -1, "a 20 ms window, 25 %% others: too short to tell");
	/* Four such windows pooled: 20 ms of others against a 20 ms margin. */
	for (int i = 0; i < 4; i++)
		ptb_disturbance_add(&pool, &d);
	tap_ok(pool.windows == 4 && pool.readings == 4 && fabs(pool.capacity_s - 0.08) < 1e-12,
	       "pooled: 4 windows, 4 readings, 80 ms of PU time");
	tap_ok(pool.disturbed == -1, "4 of them: still too short (margin 20 ms)");
	for (int i = 0; i < 12; i++)
		ptb_disturbance_add(&pool, &d);
	tap_ok(pool.disturbed == 1, "16 of them: 80 ms of others beyond a 40 ms margin, disturbed");
	ptb_disturbance_window(&d, 0, 0, 0, 0, 0, 0, 0, 0.01);
	tap_ok(d.disturbed == -1 && isnan(d.other_share), "an empty window tells nothing");
}

/* A trial of window w s on one PU, of which it got own s, with its verdict
 * judged alone as the worker would. */
static json_t *trial(double w, double own)
{
	struct ptb_disturbance d;
	ptb_disturbance_window(&d, w, 1, 0, 0, own, 0, 1, 0.01);
	json_t *t = json_pack("{s:s, s:f, s:{s:i, s:f, s:f, s:i, s:f, s:f, s:f, s:f}}",
			      "status", "ok", "mean", 100.0, "disturbance", "windows", 1,
			      "window_s", w, "capacity_s", w, "readings", 1, "busy_s", w,
			      "own_cpu_s", own, "steal_s", 0.0, "tick_s", 0.01);
	json_object_set_new(t, "disturbed", d.disturbed < 0 ? json_null() :
			    json_boolean(d.disturbed));
	return t;
}

/* ptb_point_disturbance on n1 loaded 1 s trials, n2 quiet ones, n3 short
 * loaded ones (20 ms, 75 % others), n4 short quiet ones: the verdict as
 * JSON text, and the trials counted disturbed. */
static const char *point_verdict(int n1, int n2, int n3, int n4, long *counted)
{
	json_t *trials = json_array(), *rec = json_object();
	static char buf[16];
	for (int i = 0; i < n1; i++) json_array_append_new(trials, trial(1, 0.5));
	for (int i = 0; i < n2; i++) json_array_append_new(trials, trial(1, 0.99));
	for (int i = 0; i < n3; i++) json_array_append_new(trials, trial(0.02, 0.005));
	for (int i = 0; i < n4; i++) json_array_append_new(trials, trial(0.02, 0.02));
	ptb_point_disturbance(rec, trials);
	const json_t *v = json_object_get(rec, "disturbed");
	snprintf(buf, sizeof buf, "%s", json_is_true(v) ? "true" : json_is_false(v) ? "false" : "null");
	*counted = (long)json_integer_value(json_object_get(json_object_get(rec, "disturbance"),
							    "disturbed_trials"));
	json_decref(trials);
	json_decref(rec);
	return buf;
}

static void points(void)
{
	long k;
	tap_ok(!strcmp(point_verdict(3, 7, 0, 0, &k), "false") && k == 3,
	       "3 of 10 trials disturbed: the point is not (the median stands among the others)");
	tap_ok(!strcmp(point_verdict(6, 4, 0, 0, &k), "true") && k == 6, "6 of 10: it is");
	tap_ok(!strcmp(point_verdict(5, 5, 0, 0, &k), "true") && k == 5,
	       "5 of 10: it is (the median of ten leans on the sixth)");
	tap_ok(!strcmp(point_verdict(1, 2, 0, 0, &k), "false") && k == 1, "1 of 3: not");
	tap_ok(!strcmp(point_verdict(0, 0, 10, 0, &k), "true") && k == 10,
	       "10 trials too short to judge alone, judged together: disturbed");
	tap_ok(!strcmp(point_verdict(0, 6, 0, 4, &k), "false") && k == 0,
	       "6 quiet and 4 too short: not");
	tap_ok(!strcmp(point_verdict(3, 3, 0, 4, &k), "null") && k == 3,
	       "3 disturbed, 3 not, 4 that cannot tell even together: cannot tell");

	/* The record: a tight point of disturbed trials is unstable, not ok. */
	static const struct ptb_bench b = { .name = "x.y", .per = "op" };
	double est[10];
	json_t *trials = json_array();
	for (int i = 0; i < 10; i++) {
		est[i] = 100;
		json_array_append_new(trials, trial(1, i < 6 ? 0.5 : 0.99));
	}
	json_t *r = ptb_point_record(&b, NULL, trials, est, 10, "ci", 2, 0, PTB_OK, "");
	tap_ok(!strcmp(json_string_value(json_object_get(r, "status")), "unstable") &&
	       !strcmp(json_string_value(json_object_get(r, "reason")), PTB_DISTURBED_REASON) &&
	       json_is_true(json_object_get(r, "disturbed")),
	       "a point within its target, 6 of 10 trials disturbed: unstable, with the reason");
	json_decref(r);
	trials = json_array();
	for (int i = 0; i < 10; i++)
		json_array_append_new(trials, trial(1, i < 3 ? 0.5 : 0.99));
	r = ptb_point_record(&b, NULL, trials, est, 10, "ci", 2, 0, PTB_OK, "");
	tap_ok(!strcmp(json_string_value(json_object_get(r, "status")), "ok") &&
	       json_is_false(json_object_get(r, "disturbed")), "3 of 10: ok");
	json_decref(r);
}

static void pu_lists(void)
{
	struct ptb_pu_set s = { 0 };
	tap_ok(ptb_pu_set_add_list(&s, "0-2,5") == 0 && s.n == 4 && ptb_pu_set_has(&s, 2) &&
	       !ptb_pu_set_has(&s, 3) && ptb_pu_set_has(&s, 5), "\"0-2,5\": PUs 0, 1, 2, 5");
	tap_ok(ptb_pu_set_add_list(&s, "1,5") == 0 && s.n == 4, "PUs already there count once");
	static const char *const bad[] = { "", "x", "1-", "3-1", "1,,2", "99999", "1 2", "-1" };
	int rejected = 0;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
		rejected += ptb_pu_set_add_list(&s, bad[i]) < 0;
	tap_ok(rejected == (int)(sizeof bad / sizeof *bad) && s.n == 4,
	       "malformed lists are refused and leave the set as it was");
}

static void proc_stat(void)
{
	char path[4096];
	struct ptb_pu_set s = { 0 };
	struct ptb_load_sample a;
	snprintf(path, sizeof path, "%s/proc-stat.txt", getenv("TESTDATA") ?: "tests/data");
	ptb_pu_set_add_list(&s, "1,3");
#ifdef __linux__
	int rc = ptb_load_sample(&a, &s, path);
	double t = a.tick_s;
	tap_ok(rc == 0 && a.npus == 2 && a.run_queue == 7, "cpu1 and cpu3 read, 7 runnable");
	tap_near(a.idle_s, (14052 + 460 + 1000) * t, 1e-9, "idle and iowait of PUs 1 and 3");
	tap_near(a.steal_s, (13 + 500) * t, 1e-9, "their steal");
	ptb_pu_set_add_list(&s, "2");
	rc = ptb_load_sample(&a, &s, path);
	tap_ok(rc == 0 && a.npus == 2, "a PU the file lacks adds nothing");
	rc = ptb_load_sample(&a, &s, "/nonexistent/stat");
	tap_ok(rc < 0, "no file: unknown");
#else
	tap_ok(ptb_load_sample(&a, &s, path) < 0, "other systems: unknown");
#endif
}

int main(void)
{
	verdicts();
	points();
	pu_lists();
	proc_stat();
	tap_done();
	return tap_exit();
}
