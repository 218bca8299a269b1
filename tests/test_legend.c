/* SPDX-License-Identifier: MIT */
/*
 * What a newcomer's table is made of (report/legend.h, report/absent.h,
 * report/rows.h, report/format.h): the marks that replace a footnote per
 * row and the reasons they make redundant, the points folded because the
 * machine has too few PUs, numbers in notes rounded to three digits and
 * text wrapped, and the labels' grammar, sizes and order.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/absent.h"
#include "report/format.h"
#include "report/legend.h"
#include "report/rows.h"
#include "tap.h"

/* The records' documents, freed at the end so that LeakSanitizer has
 * nothing to report. */
static json_t *docs[64];
static int ndocs;

static struct ptb_record rec(const char *json_text, enum ptb_status st, const char *reason)
{
	json_t *j = json_loads(json_text, 0, NULL);
	if (ndocs < 64)
		docs[ndocs++] = j;
	return (struct ptb_record){ .json = j, .params = json_object_get(j, "params"),
				    .status = st, .reason = reason,
				    .has_value = st == PTB_OK || st == PTB_UNSTABLE,
				    .samples_are_trials = true };
}

static void test_marks(void)
{
	char buf[256];
	struct ptb_record u = rec("{}", PTB_UNSTABLE, "the CI is +-7.1 % of the value, wider "
				  "than the +-2 % target, when its share of the time was spent "
				  "after 13 trials");
	struct ptb_record m = rec("{\"modes\": [{\"value\": 1}, {\"value\": 2}]}", PTB_UNSTABLE,
				  "the trials fall into 2 modes: 17.38 ns (9 of 13), 40.18 ns "
				  "(4 of 13); the value is their median, which may fall in either");
	struct ptb_record l = rec("{}", PTB_UNSTABLE, "g: no mutex.gap placement=unbound in "
				  "the results; from unstable inputs (rtt)");
	struct ptb_record c = rec("{}", PTB_UNSTABLE, "9 trials give a 96.1 % interval, not 95 %");
	struct ptb_record b = rec("{}", PTB_UNSTABLE, "other tasks shared the PU");
	struct ptb_record ok = rec("{}", PTB_OK, NULL);
	struct ptb_record na = rec("{}", PTB_NA, "the CI is not what this says");

	tap_ok(ptb_record_marks(&u) == 1u << PTB_MARK_UNSTABLE &&
	       ptb_record_marks(&m) == 1u << PTB_MARK_MODES && ptb_record_marks(&ok) == 0 &&
	       ptb_record_marks(&na) == 0, "an unstable point is marked *, one in modes ~, "
	       "others not");
	ptb_marks_text(buf, sizeof buf, 1u << PTB_MARK_UNSTABLE | 1u << PTB_MARK_MODES);
	tap_ok(!strcmp(buf, "*~"), "marks in the legend's order (%s)", buf);
	ptb_reason_unmarked(buf, sizeof buf, &u);
	tap_ok(!*buf, "the harness's words for an unstable point need no footnote");
	ptb_reason_unmarked(buf, sizeof buf, &m);
	tap_ok(!*buf, "nor do its modes, with the clause that goes with them");
	ptb_reason_unmarked(buf, sizeof buf, &c);
	tap_ok(!*buf, "nor too few trials for 95 %%");
	ptb_reason_unmarked(buf, sizeof buf, &l);
	tap_ok(!strcmp(buf, "g: no mutex.gap placement=unbound in the results"),
	       "a derived figure keeps what is missing, not its unstable inputs (%s)", buf);
	ptb_reason_unmarked(buf, sizeof buf, &b);
	tap_ok(!strcmp(buf, "other tasks shared the PU"), "a benchmark's own reason stays");
	ptb_reason_unmarked(buf, sizeof buf, &na);
	tap_ok(!strcmp(buf, "the CI is not what this says"), "a point without a value keeps "
	       "its reason whatever it says");
	int lines = 0;
	const char *line;
	while ((line = ptb_legend_line((1u << PTB_MARK_COUNT) - 1, lines, buf, sizeof buf)) &&
	       !strncmp(line, ptb_legend[lines].mark, strlen(ptb_legend[lines].mark)))
		lines++;
	tap_ok(lines == PTB_MARK_COUNT && !ptb_legend_line(1u << PTB_MARK_MODES, 1, buf, sizeof buf),
	       "a legend line per mark used, each starting with its mark");
	for (int i = 0; i < PTB_MARK_COUNT; i++)
		tap_ok(ptb_legend[i].mark && *ptb_legend[i].mark && ptb_legend[i].text &&
		       strlen(ptb_legend[i].text) > 20, "mark %d has its explanation", i);
}

static void test_absent(void)
{
	json_t *ctx = json_loads("{\"topology\": {\"pus\": 2, \"cores\": 2, \"packages\": 1, "
				 "\"numa_nodes\": 1}}", 0, NULL);
	struct ptb_runfile run = { .context = ctx };
	struct ptb_record four = rec("{\"params\": {\"threads\": \"4\"}}", PTB_NA,
				     "needs 4 PUs, one per thread; this process may use 2 (PUs 0-1)");
	struct ptb_record three = rec("{\"params\": {\"waiters\": \"2\"}}", PTB_NA,
				      "needs 3 PUs, one per thread; this process may use 2 (PUs 0-1)");
	struct ptb_record two = rec("{}", PTB_NA, "needs 2 PUs, one per thread; this process "
				    "may use 2 (PUs 0-1)");
	struct ptb_record other = rec("{}", PTB_NA, "pthread_attr_setscope: not supported");
	struct ptb_record smt = rec("{\"params\": {\"placement\": \"smt\"}}", PTB_NA, "no pair");
	struct ptb_absent a = { 0 };
	char text[256];
	tap_ok(ptb_absent_add(&run, &four, &a) && ptb_absent_add(&run, &three, &a) &&
	       !ptb_absent_add(&run, &two, &a) && !ptb_absent_add(&run, &other, &a) &&
	       ptb_absent_add(&run, &smt, &a),
	       "points that need more PUs than the run had fold; 2 of 2, or another reason, not");
	ptb_absent_text(text, sizeof text, &a);
	tap_ok(!strcmp(text, "smt (1 PU per core); 3 or more PUs, one per thread (2 PUs)"),
	       "the one line names the fewest PUs that were lacking (%s)", text);
	json_object_set_new(json_object_get(ctx, "topology"), "pus", json_integer(8));
	tap_ok(!ptb_absent_add(&run, &four, NULL), "with 8 PUs in the context, 4 threads "
	       "N/A is news and keeps its row");
	json_decref(ctx);
}

static void test_round(void)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "cpu_share = 0.997580249135801", "cpu_share = 0.998" },
		{ "spins = 13928392.420765027", "spins = 13900000" },
		{ "two modes: 1.455e+04 ns (3 of 13)", "two modes: 14600 ns (3 of 13)" },
		{ "17.38 ns, 2.5 ns", "17.4 ns, 2.5 ns" },
		{ "switches = 72286, PUs 0-1", "switches = 72286, PUs 0-1" },
		{ "version 0.1.0, x86_64 3.14159a", "version 0.1.0, x86_64 3.14159a" },
		{ "+-18.9 % of 2.0000001", "+-18.9 % of 2" },
		{ "CPUID 0x80000001, 0x1e5.25", "CPUID 0x80000001, 0x1e5.25" },
	};
	char buf[256];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ptb_fmt_round(buf, sizeof buf, cases[i].in, 3);
		tap_ok(!strcmp(buf, cases[i].out), "round '%s' -> '%s' (got '%s')", cases[i].in,
		       cases[i].out, buf);
	}
}

static void test_wrap(void)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	int longest = 0, lines = 0;
	ptb_fputs_wrapped(f, "one two three four five six seven eight nine ten eleven twelve",
			  20, 4);
	fclose(f);
	for (char *s = text; *s; lines++) {
		int n = (int)strcspn(s, "\n");
		longest = n > longest ? n : longest;
		tap_ok(lines == 0 || !strncmp(s, "    ", 4), "line %d indented", lines);
		s += n + (s[n] == '\n');
	}
	tap_ok(longest <= 20 && lines == 4, "wrapped within 20 columns (%d lines, widest %d)",
	       lines, longest);
	free(text);
}

static struct ptb_row row(const char *bench, const char *params)
{
	struct ptb_row r;
	json_t *p = json_loads(params, 0, NULL);
	ptb_row_of(bench, p, &r);
	json_decref(p);
	return r;
}

static void test_labels(void)
{
	struct ptb_row one = row("barrier", "{\"threads\": \"1\", \"order\": \"compact\", "
				 "\"impl\": \"posix\"}");
	struct ptb_row w1 = row("cond.broadcast", "{\"waiters\": \"1\", \"layout\": \"same_pu\"}");
	struct ptb_row w2 = row("cond.broadcast", "{\"waiters\": \"2\", \"layout\": \"same_pu\"}");
	struct ptb_row k4 = row("cache.latency", "{\"size\": \"4096\"}");
	struct ptb_row m1 = row("cache.latency", "{\"size\": \"1048576\"}");
	struct ptb_row odd = row("cache.latency", "{\"size\": \"1000\"}");
	struct ptb_row same = row("spin.pingpong", "{\"placement\": \"same_pu\"}");
	struct ptb_row cross = row("spin.pingpong", "{\"placement\": \"cross_core\"}");
	tap_ok(!strcmp(one.label, "1 thread") && !strcmp(w1.label, "1 waiter") &&
	       !strcmp(w2.label, "2 waiters"), "1 thread, 1 waiter, 2 waiters (%s, %s, %s)",
	       one.label, w1.label, w2.label);
	tap_ok(!strcmp(k4.label, "4 KiB") && !strcmp(m1.label, "1 MiB") &&
	       !strcmp(odd.label, "1000 B"), "sizes in KiB and MiB where whole (%s, %s, %s)",
	       k4.label, m1.label, odd.label);
	tap_ok(ptb_row_cmp(&k4, &m1) < 0 && ptb_row_cmp(&odd, &k4) < 0,
	       "sizes sort by their value, not their text");
	tap_ok(same.time_sliced && strstr(same.label, ptb_legend[PTB_MARK_TIME_SLICE].mark) &&
	       !cross.time_sliced && !strstr(cross.label, ptb_legend[PTB_MARK_TIME_SLICE].mark),
	       "a spinning waiter on its partner's PU says so in its row (%s)", same.label);
}

int main(void)
{
	test_marks();
	test_absent();
	test_round();
	test_wrap();
	test_labels();
	while (ndocs > 0)
		json_decref(docs[--ndocs]);
	tap_done();
	return tap_exit();
}
