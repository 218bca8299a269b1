/* SPDX-License-Identifier: MIT */
/*
 * `ptbench compare BASE NEW`: the performance-regression gate.  Every point
 * (benchmark + variable values) present in both runs is judged from its
 * per-timing samples with the Mann-Whitney U test and the Hodges-Lehmann
 * shift (harness/mannwhitney.c): a regression needs p < alpha AND the whole
 * 95 % CI of the shift above +threshold % of the base median, so a tiny but
 * significant change or a large but uncertain one never fails a build.  A
 * point the harness could not measure to its stopping rule (status
 * unstable) is never called a regression or an improvement: its timings
 * wander more than their spread within one run says, which is exactly
 * what a second run of the same code on a noisy machine shows.  Points
 * without samples (na, LogP, transcribed data) are listed as not
 * comparable.  Exit 0 no regression, 1 regression, 2 bad input.
 */
#include <config.h>

#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mannwhitney.h"
#include "report.h"
#include "result.h"
#include "tools.h"

enum verdict { V_SAME, V_REGRESSION, V_IMPROVEMENT, V_INCONCLUSIVE, V_COUNT };
static const char *const verdict_name[V_COUNT] = {
	"same", "regression", "improvement", "inconclusive"
};

struct opts {
	double alpha;        /* significance level of the U test */
	double threshold;    /* smallest shift that counts, % of the base median */
	int json;
};

/* The judgement of one point present in both runs. */
struct judged {
	enum verdict v;
	const char *why;     /* for inconclusive: what is missing */
	int nb, nn;
	double base_med, new_med, change_pct, p, shift_pct, lo_pct, hi_pct;
};

static const char usage[] =
	"usage: ptbench compare BASE NEW [--alpha A] [--threshold PCT] [--format md|json]";

__attribute__((format(printf, 1, 2)))
static int fail(const char *fmt, ...)
{
	va_list ap;
	fputs("ptbench compare: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}

/* ---- reading ------------------------------------------------------------ */

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* "bench k=v k=v" with the variables sorted, so the order a writer put
 * them in does not matter. */
static void point_key(const json_t *rec, char *buf, size_t len)
{
	const json_t *params = json_object_get(rec, "params");
	const char *keys[16], *k;
	json_t *v;
	size_t n = 0, used;
	const char *bench = ptb_jstr(rec, "bench");
	used = (size_t)snprintf(buf, len, "%s", bench ? bench : "?");
	json_object_foreach((json_t *)params, k, v)
		if (n < sizeof keys / sizeof keys[0])
			keys[n++] = k;
	qsort(keys, n, sizeof *keys, cmp_str);
	for (size_t i = 0; i < n && used < len; i++) {
		const char *val = json_string_value(json_object_get(params, keys[i]));
		used += (size_t)snprintf(buf + used, len - used, " %s=%s", keys[i], val ? val : "?");
	}
}

/* Point key -> record, in file order; 0, or 2 after saying why. */
static int index_points(const json_t *run, const char *path, json_t **index)
{
	json_t *rec;
	size_t i;
	char key[512];
	*index = json_object();
	json_array_foreach(json_object_get(run, "results"), i, rec) {
		point_key(rec, key, sizeof key);
		if (json_object_get(*index, key))
			return fail("%s: point '%s' appears twice", path, key);
		json_object_set(*index, key, rec);
	}
	return 0;
}

/* The samples of a record, or NULL (with *why) when it has none to test. */
static double *samples_of(const json_t *rec, int *n, const char **why)
{
	const json_t *s = json_object_get(rec, "samples");
	const char *status = ptb_jstr(rec, "status");
	double *x;
	if (status && strcmp(status, "ok") && strcmp(status, "unstable")) {
		*why = status;
		return NULL;
	}
	if (!json_is_array(s) || json_array_size(s) == 0) {
		*why = "no samples";
		return NULL;
	}
	*n = (int)json_array_size(s);
	if (!(x = malloc((size_t)*n * sizeof *x))) {
		*why = "out of memory";
		return NULL;
	}
	for (int i = 0; i < *n; i++)
		x[i] = json_number_value(json_array_get(s, (size_t)i));
	return x;
}

static int is_ok(const json_t *rec)
{
	const char *status = ptb_jstr(rec, "status");
	return status && !strcmp(status, "ok");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double median(double *x, int n)
{
	qsort(x, (size_t)n, sizeof *x, cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

/* ---- judging ------------------------------------------------------------ */

/* Regression or improvement, or else same / inconclusive, as the header says. */
static enum verdict decide(const struct opts *o, struct judged *j, int both_ok)
{
	double t = o->threshold;
	if (isnan(j->lo_pct))
		return j->why = "too few timings for a 95 % CI", V_INCONCLUSIVE;
	if (j->p < o->alpha && (j->lo_pct > t || j->hi_pct < -t)) {
		if (!both_ok)
			return j->why = "status unstable: the stopping rule never held", V_INCONCLUSIVE;
		return j->lo_pct > t ? V_REGRESSION : V_IMPROVEMENT;
	}
	if (j->lo_pct >= -t && j->hi_pct <= t)
		return V_SAME;
	return j->why = j->p < o->alpha ? "the CI reaches across the threshold"
					: "not significant, and the CI is not within the threshold",
	       V_INCONCLUSIVE;
}

static void judge(const struct opts *o, double *b, int nb, double *n, int nn,
		  int both_ok, struct judged *j)
{
	struct ptb_mw mw;
	*j = (struct judged){ .nb = nb, .nn = nn };
	ptb_mann_whitney(b, nb, n, nn, &mw);
	j->base_med = median(b, nb);
	j->new_med = median(n, nn);
	j->p = mw.p;
	if (!(j->base_med > 0)) {
		j->change_pct = j->shift_pct = j->lo_pct = j->hi_pct = NAN;
		j->why = "base median is not positive";
		j->v = V_INCONCLUSIVE;
		return;
	}
	j->change_pct = 100 * (j->new_med - j->base_med) / j->base_med;
	j->shift_pct = 100 * mw.shift / j->base_med;
	j->lo_pct = 100 * mw.shift_lo / j->base_med;
	j->hi_pct = 100 * mw.shift_hi / j->base_med;
	j->v = decide(o, j, both_ok);
}

/* ---- printing ----------------------------------------------------------- */

struct report {
	const struct opts *o;
	const char *base_path, *new_path;
	const json_t *base, *next;
	json_t *points, *only_base, *only_new, *not_comparable;   /* for JSON */
	int count[V_COUNT];
	json_t *regressed;   /* "point (+12.3 %)" for the summary line */
};

static void fmt_pct(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f %%", pct);
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (p < 1e-4)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
}

static void md_point(const char *key, const struct judged *j)
{
	char bm[32], nm[32], ch[32], p[32], sh[32], ci[64];
	ptb_fmt_us(bm, sizeof bm, j->base_med);
	ptb_fmt_us(nm, sizeof nm, j->new_med);
	fmt_pct(ch, sizeof ch, j->change_pct);
	fmt_p(p, sizeof p, j->p);
	fmt_pct(sh, sizeof sh, j->shift_pct);
	if (isnan(j->lo_pct))
		ci[0] = 0;
	else
		snprintf(ci, sizeof ci, " [%+.1f, %+.1f]", j->lo_pct, j->hi_pct);
	printf("| %s | %d / %d | %s | %s | %s | %s | %s%s | %s%s%s%s%s |\n", key, j->nb, j->nn,
	       bm, nm, ch, p, sh, ci, j->v == V_REGRESSION ? "**" : "", verdict_name[j->v],
	       j->v == V_REGRESSION ? "**" : "", j->v == V_INCONCLUSIVE ? ": " : "",
	       j->v == V_INCONCLUSIVE ? j->why : "");
}

static json_t *jnum_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *json_point(const char *key, const json_t *rec, const struct judged *j)
{
	return json_pack("{s:s?, s:O?, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:[o,o], s:s, s:s?}",
			 "bench", ptb_jstr(rec, "bench"), "params", json_object_get(rec, "params"),
			 "key", key, "n_base", j->nb, "n_new", j->nn,
			 "base_median_ns", jnum_or_null(j->base_med),
			 "new_median_ns", jnum_or_null(j->new_med),
			 "change_pct", jnum_or_null(j->change_pct), "p", jnum_or_null(j->p),
			 "shift_pct", jnum_or_null(j->shift_pct),
			 "shift_ci95_pct", jnum_or_null(j->lo_pct), jnum_or_null(j->hi_pct),
			 "verdict", verdict_name[j->v],
			 "why", j->v == V_INCONCLUSIVE ? j->why : NULL);
}

/* What a run is, for the header: "host, date". */
static void describe(const json_t *run, char *buf, size_t len)
{
	const json_t *ctx = json_object_get(run, "context");
	const char *host = ptb_jstr(ctx, "host"), *date = ptb_jstr(ctx, "date");
	snprintf(buf, len, "%s, %s", host ? host : "unknown host", date ? date : "undated");
}

/* ---- the comparison ----------------------------------------------------- */

static void note_regression(struct report *r, const char *key, const struct judged *j)
{
	char text[600];
	snprintf(text, sizeof text, "%s (%+.1f %%)", key, j->shift_pct);
	json_array_append_new(r->regressed, json_string(text));
}

/* One point present in both files. */
static void compare_point(struct report *r, const char *key, const json_t *b, const json_t *n)
{
	const char *why_b = NULL, *why_n = NULL;
	int nb = 0, nn = 0;
	double *xb = samples_of(b, &nb, &why_b), *xn = samples_of(n, &nn, &why_n);
	if (!xb || !xn) {
		char why[160];
		snprintf(why, sizeof why, "%s%s%s%s%s", why_b ? "base: " : "", why_b ? why_b : "",
			 why_b && why_n ? "; " : "", why_n ? "new: " : "", why_n ? why_n : "");
		json_array_append_new(r->not_comparable, json_pack("{s:s, s:s}", "key", key, "why", why));
	} else {
		struct judged j;
		int both_ok = is_ok(b) && is_ok(n);
		judge(r->o, xb, nb, xn, nn, both_ok, &j);
		r->count[j.v]++;
		if (j.v == V_REGRESSION)
			note_regression(r, key, &j);
		if (r->o->json)
			json_array_append_new(r->points, json_point(key, b, &j));
		else
			md_point(key, &j);
	}
	free(xb);
	free(xn);
}

static void md_list(const char *title, const json_t *list, int with_why)
{
	json_t *e;
	size_t i;
	if (json_array_size(list) == 0)
		return;
	printf("\n%s:\n", title);
	json_array_foreach(list, i, e)
		if (with_why)
			printf("- %s: %s\n", ptb_jstr(e, "key"), ptb_jstr(e, "why"));
		else
			printf("- %s\n", json_string_value(e));
}

/* Runs from two machines differ for reasons no code change explains. */
static const char *machine_warning(const struct report *r)
{
	static const char *const keys[][2] = {
		/* object   field */
		{ NULL,     "host" },
		{ "cpu",    "brand" },
	};
	const json_t *cb = json_object_get(r->base, "context"), *cn = json_object_get(r->next, "context");
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		const json_t *ob = keys[i][0] ? json_object_get(cb, keys[i][0]) : cb;
		const json_t *on = keys[i][0] ? json_object_get(cn, keys[i][0]) : cn;
		const char *vb = ptb_jstr(ob, keys[i][1]), *vn = ptb_jstr(on, keys[i][1]);
		if (vb && vn && strcmp(vb, vn))
			return "the runs come from different machines: a difference may be the machine's";
	}
	return NULL;
}

static void md_header(const struct report *r)
{
	char b[160], n[160];
	const char *warning = machine_warning(r);
	describe(r->base, b, sizeof b);
	describe(r->next, n, sizeof n);
	printf("base: %s (%s)\nnew:  %s (%s)\n", r->base_path, b, r->new_path, n);
	if (warning)
		printf("warning: %s\n", warning);
	printf("A regression needs p < %g (two-sided Mann-Whitney U) and the whole 95 %% CI "
	       "of the Hodges-Lehmann shift above +%g %% of the base median.\n\n",
	       r->o->alpha, r->o->threshold);
	printf("| Point | Timings base / new | Base median (µs) | New median (µs) | Change "
	       "| p | Shift, 95 %% CI (%%) | Verdict |\n");
	printf("|---|---:|---:|---:|---:|---:|---|---|\n");
}

static void summary_line(const struct report *r)
{
	const json_t *e;
	size_t i;
	printf("\n%d regression%s, %d improvement%s, %d same, %d inconclusive%s",
	       r->count[V_REGRESSION], r->count[V_REGRESSION] == 1 ? "" : "s",
	       r->count[V_IMPROVEMENT], r->count[V_IMPROVEMENT] == 1 ? "" : "s",
	       r->count[V_SAME], r->count[V_INCONCLUSIVE],
	       json_array_size(r->regressed) ? ": regressed " : ".");
	json_array_foreach(r->regressed, i, e)
		printf("%s%s", i ? ", " : "", json_string_value(e));
	putchar('\n');
}

static void json_out(const struct report *r)
{
	char b[160], n[160];
	describe(r->base, b, sizeof b);
	describe(r->next, n, sizeof n);
	json_t *doc = json_pack(
		"{s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:s?, s:f, s:f, s:O, s:O, s:O, s:O, "
		"s:{s:i, s:i, s:i, s:i}}",
		"schema", "ptbench-compare/1",
		"base", "file", r->base_path, "run", b, "new", "file", r->new_path, "run", n,
		"warning", machine_warning(r),
		"alpha", r->o->alpha, "threshold_pct", r->o->threshold,
		"points", r->points, "only_in_base", r->only_base, "only_in_new", r->only_new,
		"not_comparable", r->not_comparable,
		"summary", "regression", r->count[V_REGRESSION], "improvement",
		r->count[V_IMPROVEMENT], "same", r->count[V_SAME], "inconclusive",
		r->count[V_INCONCLUSIVE]);
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(doc);
}

/* Walk base's points in its order, then new's points that base lacks. */
static void compare_runs(struct report *r, json_t *ib, json_t *in)
{
	json_t *rec;
	const char *key;
	r->points = json_array();
	r->regressed = json_array();
	r->only_base = json_array();
	r->only_new = json_array();
	r->not_comparable = json_array();
	if (!r->o->json)
		md_header(r);
	json_object_foreach(ib, key, rec) {
		const json_t *other = json_object_get(in, key);
		if (other)
			compare_point(r, key, rec, other);
		else
			json_array_append_new(r->only_base, json_string(key));
	}
	json_object_foreach(in, key, rec)
		if (!json_object_get(ib, key))
			json_array_append_new(r->only_new, json_string(key));
	if (r->o->json) {
		json_out(r);
	} else {
		md_list("Not comparable (no samples)", r->not_comparable, 1);
		md_list("Only in base", r->only_base, 0);
		md_list("Only in new", r->only_new, 0);
		summary_line(r);
	}
	json_decref(r->points);
	json_decref(r->regressed);
	json_decref(r->only_base);
	json_decref(r->only_new);
	json_decref(r->not_comparable);
}

/* ---- options ------------------------------------------------------------ */

/* A whole-string number, or NAN. */
static double number(const char *s)
{
	char *end;
	double x = strtod(s, &end);
	return end == s || *end ? NAN : x;
}

static int parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option longopts[] = {
		/* name          has_arg            flag  val */
		{ "alpha",       required_argument, NULL, 'a' },
		{ "threshold",   required_argument, NULL, 't' },
		{ "format",      required_argument, NULL, 'f' },
		{ "help",        no_argument,       NULL, 'h' },
		{ NULL,          0,                 NULL, 0 },
	};
	int c;
	*o = (struct opts){ .alpha = 0.01, .threshold = 5 };
	optind = 0;   /* rescan: the caller may have used getopt already */
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'a':
			o->alpha = number(optarg);
			if (!(o->alpha > 0 && o->alpha < 1))
				return fail("--alpha: '%s' is not a number between 0 and 1", optarg);
			break;
		case 't':
			o->threshold = number(optarg);
			if (!(o->threshold >= 0 && o->threshold < 1e6))
				return fail("--threshold: '%s' is not a percentage >= 0", optarg);
			break;
		case 'f':
			if (strcmp(optarg, "md") && strcmp(optarg, "json"))
				return fail("--format: '%s' is not one of md, json", optarg);
			o->json = !strcmp(optarg, "json");
			break;
		case 'h':
			puts(usage);
			return -1;
		case ':':
			return fail("%s needs a value", argv[optind - 1]);
		default:
			return fail("unknown option '%s' (%s)", argv[optind - 1], usage + 7);
		}
	}
	if (argc - optind != 2)
		return fail("needs exactly two files, BASE and NEW (%s)", usage + 7);
	return 0;
}

int ptb_compare_main(int argc, char **argv)
{
	struct opts o;
	struct report r = { .o = &o };
	char err[512];
	json_t *ib = NULL, *in = NULL;
	int rc = parse_opts(argc, argv, &o);
	if (rc)
		return rc < 0 ? 0 : rc;
	r.base_path = argv[optind];
	r.new_path = argv[optind + 1];
	if (!(r.base = ptb_run_load(r.base_path, err, sizeof err)))
		return fail("%s", err);
	if (!(r.next = ptb_run_load(r.new_path, err, sizeof err))) {
		json_decref((json_t *)r.base);
		return fail("%s", err);
	}
	rc = index_points(r.base, r.base_path, &ib);
	if (!rc)
		rc = index_points(r.next, r.new_path, &in);
	if (!rc) {
		compare_runs(&r, ib, in);
		rc = r.count[V_REGRESSION] ? 1 : 0;
		if (fflush(stdout) || ferror(stdout))
			rc = fail("cannot write the report");
	}
	json_decref(ib);
	json_decref(in);
	json_decref((json_t *)r.base);
	json_decref((json_t *)r.next);
	return rc;
}
