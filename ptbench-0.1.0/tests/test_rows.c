/* SPDX-License-Identifier: MIT */
/*
 * The Table-1 row lookup (harness/report/rows.c, from the benchmarks'
 * descriptors) and the reporters' shared formatting: every benchmark of the
 * paper lands in its row with the paper's label and order, the LogP
 * mechanisms follow in the order of their ping-pongs, others follow by
 * name, and µs values are printed the way the paper prints them.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "report/report.h"
#include "report/rows.h"
#include "text/text.h"
#include "tap.h"

static struct ptb_row row(const char *bench, const char *params)
{
	struct ptb_row r;
	json_t *p = params ? json_loads(params, 0, NULL) : NULL;
	ptb_row_of(bench, p, &r);
	json_decref(p);
	return r;
}

/* bench, params -> group and label, in the order the table must show them. */
static const struct {
	const char *bench, *params, *group, *label;
} paper_rows[] = {
	/* bench                 params                                            group                  label */
	{ "create",              "{\"detach\": \"yes\", \"scope\": \"system\"}",    "Thread Create",       "Detached, system scope" },
	{ "create",              "{\"scope\": \"process\", \"detach\": \"yes\"}",   "Thread Create",       "Detached, process scope" },
	{ "create",              "{\"detach\": \"no\", \"scope\": \"system\"}",     "Thread Create",       "Undetached, system scope" },
	{ "create",              "{\"detach\": \"no\", \"scope\": \"process\"}",    "Thread Create",       "Undetached, process scope" },
	{ "yield",               "{\"proxy\": \"no\"}",                             "",                    "Thread Yield" },
	{ "yield",               "{\"proxy\": \"yes\"}",                            "",                    "Thread Yield, proxy thread" },
	{ "timeslice",           "{}",                                              "",                    "Time slice" },
	{ "cond.pingpong",       "{\"placement\": \"unbound\", \"signal\": \"locked\"}", "Condition Ping-pong", "Unbound" },
	{ "cond.pingpong",       "{\"placement\": \"same_pu\", \"signal\": \"locked\"}", "Condition Ping-pong", "Same CPU" },
	{ "cond.pingpong",       "{\"placement\": \"smt\", \"signal\": \"locked\"}",     "Condition Ping-pong", "Different CPUs (smt)" },
	{ "cond.pingpong",       "{\"placement\": \"cross_core\", \"signal\": \"locked\"}", "Condition Ping-pong", "Different CPUs (cross_core)" },
	{ "cond.pingpong",       "{\"placement\": \"cross_numa\", \"signal\": \"locked\"}", "Condition Ping-pong", "Different CPUs (cross_numa)" },
	{ "cond.pingpong",       "{\"placement\": \"same_pu\", \"signal\": \"unlocked\"}", "Condition Ping-pong", "Same CPU, signal after unlock" },
	{ "cond.signal",         "{}",                                              "",                    "Condition Signal" },
	{ "cond.wait",           "{\"placement\": \"cross_core\"}",                 "Condition Wait",      "Different CPUs (cross_core)" },
	{ "mutex.pingpong",      "{\"placement\": \"unbound\"}",                    "Mutex Ping-pong",     "Unbound" },
	{ "mutex.pingpong",      "{\"placement\": \"same_pu\"}",                    "Mutex Ping-pong",     "Same CPU" },
	{ "mutex.pingpong",      "{\"placement\": \"cross_package\"}",              "Mutex Ping-pong",     "Different CPUs (cross_package)" },
	{ "mutex.nocontention",  "{}",                                              "Mutex Ping-pong",     "No Contention" },
	{ "mutex.lockunlock",    "{\"threads\": \"2\"}",                            "",                    "Mutex lock and unlock" },
	{ "mutex.lockunlock",    "{\"threads\": \"1\"}",                            "",                    "Mutex lock and unlock, single-threaded process" },
	{ "mutex.lock",          "{\"mutexes\": \"16\"}",                           "Mutex lock",          "at least 16 mutexes" },
	{ "mutex.lock",          "{\"mutexes\": \"1024\"}",                         "Mutex lock",          "at least 1024 mutexes" },
	{ "mutex.unlock",        "{\"mutexes\": \"1024\"}",                         "Mutex unlock",        "at least 1024 mutexes" },
	{ "logp.cond",           "{\"placement\": \"same_pu\"}",                    "LogP: condition variable", "Same CPU" },
	{ "logp.mutex",          "{\"placement\": \"cross_core\"}",                 "LogP: mutex",         "Different CPUs (cross_core)" },
	{ "create.join",         "{}",                                              "",                    "create.join" },
	{ "cache.miss",          "{\"size\": \"64\"}",                              "",                    "cache.miss size=64" },
	{ "zzz.new",             NULL,                                              "",                    "zzz.new" },
};

static void test_paper_rows(void)
{
	const int n = sizeof paper_rows / sizeof *paper_rows;
	struct ptb_row prev = { 0 };
	for (int i = 0; i < n; i++) {
		struct ptb_row r = row(paper_rows[i].bench, paper_rows[i].params);
		tap_ok(!strcmp(r.group, paper_rows[i].group) && !strcmp(r.label, paper_rows[i].label) &&
		       (i == 0 || ptb_row_cmp(&prev, &r) < 0),
		       "%s %s -> [%s] [%s], after the row above", paper_rows[i].bench,
		       paper_rows[i].params ? paper_rows[i].params : "", r.group, r.label);
		prev = r;
	}
}

static void test_special_rows(void)
{
	struct ptb_row r = row("yield", "{}");
	tap_ok(!strcmp(r.label, "Thread Yield"), "a file from before a variable existed keeps its row");
	r = row("mutex.pingpong", "{\"placement\": \"cross_core\", \"clients\": \"2\"}");
	tap_ok(!strcmp(r.label, "Different CPUs (cross_core), clients=2"),
	       "a variable the table does not know is appended: %s", r.label);
	r = row("mutex.pingpong", "{\"placement\": \"cross_moon\"}");
	struct ptb_row numa = row("mutex.pingpong", "{\"placement\": \"cross_numa\"}");
	tap_ok(!strcmp(r.label, "cross_moon") && ptb_row_cmp(&numa, &r) < 0,
	       "an unknown placement keeps its name and follows the known ones");
	r = row("mutex.lockunlock", "{\"threads\": \"1\"}");
	tap_ok(r.footnote && strstr(r.footnote, "single-threaded"), "threads=1 says how it differs");
	struct ptb_row last_paper = row("mutex.unlock", "{\"mutexes\": \"1024\"}");
	struct ptb_row logp = row("logp.mutex", "{\"placement\": \"cross_numa\"}");
	struct ptb_row unknown = row("zzz.new", NULL);
	r = row("create.join", NULL);
	tap_ok(ptb_row_cmp(&last_paper, &r) < 0 && ptb_row_cmp(&logp, &r) < 0 &&
	       ptb_row_cmp(&r, &unknown) < 0 && r.footnote && strstr(r.footnote, "not in the paper"),
	       "create.join is an extra row, after the paper's and LogP's, with a footnote");
	r = row("mutex.pingpong", "{\"placement\": 7}");
	tap_ok(!strcmp(r.label, "mutex.pingpong placement=?") && ptb_row_cmp(&numa, &r) < 0,
	       "a malformed variable falls through to a named row (%s)", r.label);
	r = row(NULL, NULL);
	tap_ok(!strcmp(r.label, "?"), "no bench name still gives a row");
}

static void test_fmt_us(void)
{
	static const struct {
		double ns;
		const char *us;
	} cases[] = {
		/* ns          us (the paper's Table 1 prints 265.9, 0.0383, 10013) */
		{ 265900,      "266" },
		{ 38.3,        "0.0383" },
		{ 606,         "0.606" },
		{ 1600,        "1.60" },
		{ 59500,       "59.5" },
		{ 10013000,    "10013" },
		{ 9996,        "10.0" },
		{ 99.96,       "0.100" },
		{ 0,           "0" },
		{ -500,        "-0.500" },
		{ 0.0001,      "0.000000" },
		{ NAN,         "" },
	};
	char buf[32];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		ptb_fmt_us(buf, sizeof buf, cases[i].ns);
		tap_ok(!strcmp(buf, cases[i].us), "%g ns is \"%s\" µs (got \"%s\")", cases[i].ns,
		       cases[i].us, buf);
	}
}

static void test_helpers(void)
{
	char buf[64];
	json_t *v = json_real(19.3), *i = json_integer(4096), *p;
	ptb_fmt_jnum(buf, sizeof buf, v);
	tap_ok(!strcmp(buf, "19.3"), "a real in its shortest exact form: %s", buf);
	ptb_fmt_jnum(buf, sizeof buf, i);
	tap_ok(!strcmp(buf, "4096"), "an integer as it is");
	static const struct {
		double x;
		const char *text;
	} reals[] = {
		/* x                 text */
		{ 1490.0,            "1490" },
		{ 18.115000000000002, "18.115000000000002" },
		{ 1e-7,              "0.0000001" },
		{ -2.5e-3,           "-0.0025" },
		{ 1e300,             "1e+300" },
		{ 0.0,               "0" },
	};
	for (size_t k = 0; k < sizeof reals / sizeof *reals; k++) {
		json_t *r = json_real(reals[k].x);
		ptb_fmt_jnum(buf, sizeof buf, r);
		tap_ok(!strcmp(buf, reals[k].text), "%.17g as data is \"%s\" (got \"%s\")",
		       reals[k].x, reals[k].text, buf);
		json_decref(r);
	}
	ptb_fmt_jnum(buf, sizeof buf, NULL);
	tap_ok(!strcmp(buf, ""), "nothing for a missing number");
	p = json_pack("{s:s, s:s}", "placement", "cross_core", "signal", "locked");
	ptb_fmt_params(buf, sizeof buf, p, ";");
	tap_ok(!strcmp(buf, "placement=cross_core;signal=locked"), "params as k=v;k=v");
	tap_ok(ptb_text_width("µs") == 2, "µ takes one column");
	for (int f = 0; f < PTB_FMT_COUNT; f++)
		tap_ok(ptb_format_from_name(ptb_format_name(f)) == f, "format %s by name",
		       ptb_format_name(f));
	tap_ok(ptb_format_from_name("xml") == -1 && ptb_format_from_name(NULL) == -1,
	       "unknown format names are refused");

	struct ptb_footnotes fn = { 0 };
	int a = ptb_footnote(&fn, "needs 2 packages"), b = ptb_footnote(&fn, "other"),
	    c = ptb_footnote(&fn, "needs 2 packages");
	tap_ok(a == 1 && b == 2 && c == 1 && fn.n == 2, "identical footnotes share a number");
	ptb_footnotes_free(&fn);
	json_decref(v);
	json_decref(i);
	json_decref(p);
}

/* text/: cutting, mending and escaping UTF-8 (issue 9). */
static void test_utf8(void)
{
	char buf[8], fixed[16] = "caf\xe9.json", small[6] = "a\xff\xfe";
	char *p;
	ptb_textf(buf, sizeof buf, "%s", "ab\u00e9\u00e9\u00e9");   /* 8 bytes into 7 */
	tap_ok(!strcmp(buf, "ab\u00e9\u00e9"), "a cut string loses its half character (\"%s\")", buf);
	ptb_textf(buf, sizeof buf, "%s", "abcdefgh");
	tap_ok(!strcmp(buf, "abcdefg"), "ASCII is cut at the byte");
	buf[0] = 0;
	ptb_appendf(buf, sizeof buf, "%s", "\u00b5\u00b5\u00b5\u00b5");
	tap_ok(!strcmp(buf, "\u00b5\u00b5\u00b5"), "appending stops at a character too");
	tap_ok(ptb_utf8_len("\xc3\xa9") == 2 && ptb_utf8_len("\xe2\x82\xac") == 3 &&
	       ptb_utf8_len("\xf0\x9f\x98\x80") == 4 && ptb_utf8_len("a") == 1,
	       "valid sequences have their lengths");
	tap_ok(!ptb_utf8_len("\xc0\xaf") && !ptb_utf8_len("\xe0\x80\xaf") &&
	       !ptb_utf8_len("\xed\xa0\x80") && !ptb_utf8_len("\xf4\x90\x80\x80") &&
	       !ptb_utf8_len("\x80") && !ptb_utf8_len("\xe2\x82"),
	       "overlong, surrogate, beyond U+10FFFF, stray and cut sequences are invalid");
	ptb_utf8_fix(fixed, sizeof fixed);
	tap_ok(!strcmp(fixed, "caf\xef\xbf\xbd.json"), "an invalid byte becomes U+FFFD");
	ptb_utf8_fix(small, sizeof small);
	tap_ok(!strcmp(small, "a\xef\xbf\xbd"), "within its buffer, cut at a character");
	p = ptb_printable("x\x1b[31m\a\xc2\x9b\u00e9\x7f");
	tap_ok(p && !strcmp(p, "x\\x1B[31m\\x07\\u009B\u00e9\\x7F"),
	       "controls escaped, other text kept (\"%s\")", p ? p : "");
	char *twice = p ? ptb_printable(p) : NULL;
	tap_ok(twice && !strcmp(twice, p), "escaping twice changes nothing more");
	free(p);
	free(twice);
}

int main(void)
{
	test_utf8();
	test_paper_rows();
	test_special_rows();
	test_fmt_us();
	test_helpers();
	tap_done();
	return tap_exit();
}
