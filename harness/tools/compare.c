/* SPDX-License-Identifier: MIT */
/*
 * `ptbench compare BASE NEW`: the performance-regression gate.  Every point
 * (benchmark + variable values) present in both runs is judged from its
 * per-timing samples with the Mann-Whitney U test and the Hodges-Lehmann
 * shift (harness/mannwhitney.c): a regression needs p < alpha AND the whole
 * 95 % CI of the shift above +threshold % of the base median, so a tiny but
 * significant change or a large but uncertain one never fails a build.
 *
 * The timings of one run only show how a point varies within that run.
 * Between two runs of the same code a point can move as a whole -- on a
 * shared VM a single lock/unlock was seen 45 % slower in the next run, with
 * every timing of both runs within 2 % -- so each CI is widened by the
 * run-to-run noise, estimated from the runs themselves: the spread (1.4826
 * x median absolute deviation) of the shifts of all points, which a change
 * that moves a few points, or all of them alike, hardly widens, but two runs
 * that disagree everywhere do.  It is added to the CI in quadrature, at
 * the z that keeps the chance of any unchanged point crossing it at 5 %
 * over all the points.  A point the harness could not measure to its
 * stopping rule (status unstable) is never called a regression or an
 * improvement: its timings wander within a run, some bimodally (an unbound
 * ping-pong whose threads the scheduler puts on one CPU or two), and
 * another run catches them elsewhere.  Points without samples (na, LogP,
 * transcribed data) are listed as not comparable.  Exit 0 no regression,
 * 1 regression, 2 bad input.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "stats/mannwhitney.h"
#include "stats/stats.h"
#include "text/text.h"
#include "tools/compare.h"

enum verdict { V_SAME, V_REGRESSION, V_IMPROVEMENT, V_INCONCLUSIVE, V_COUNT };
static const char *const verdict_name[V_COUNT] = {
	"same", "regression", "improvement", "inconclusive"
};

/* Points with a CI needed to estimate the run-to-run noise. */
#define PTB_NOISE_MIN_POINTS 6
/* Chance that any unchanged point crosses the noise band (Bonferroni). */
#define PTB_NOISE_FAMILY_ALPHA 0.05

/* The judgement of one point present in both runs. */
struct judged {
	enum verdict v;
	const char *why;     /* for inconclusive: what is missing */
	int nb, nn, ok;      /* ok: both records have status ok */
	double base_med, new_med, change_pct, p, shift_pct, lo_pct, hi_pct;
	double lo_w, hi_w;   /* the CI widened by the run-to-run noise */
};

/* One point of base, with its counterpart in new when there is one. */
struct point {
	const char *key;
	const struct ptb_record *base, *next;
	char why[160];       /* not comparable: why; "" when judged */
	struct judged j;
};

/* The run-to-run noise, in % of the base median. */
struct noise {
	int n;               /* points with a CI */
	double tau, z;       /* 0 and 0 when n < PTB_NOISE_MIN_POINTS or no spread */
};

/* ---- reading ------------------------------------------------------------ */

/* A copy of a record's samples, or NULL (with *why) when it has none to test. */
static double *samples_of(const struct ptb_record *rec, int *n, const char **why)
{
	double *x;
	if (!rec->has_value) {
		*why = rec->status_name;
		return NULL;
	}
	if (rec->nsamples == 0) {
		*why = "no samples";
		return NULL;
	}
	*n = rec->nsamples;
	if (!(x = malloc((size_t)*n * sizeof *x))) {
		*why = "out of memory";
		return NULL;
	}
	memcpy(x, rec->samples, (size_t)*n * sizeof *x);
	return x;
}

/* ---- judging ------------------------------------------------------------ */

/* A CI side widened by the noise band, in quadrature. */
static double widen(double half, double band)
{
	return sqrt(half * half + band * band);
}

/* Regression or improvement, or else same / inconclusive, as the header says. */
static enum verdict decide(const struct ptb_compare_opts *o, const struct noise *nz, struct judged *j)
{
	double t = o->threshold, band = nz->z * nz->tau;
	if (isnan(j->lo_pct))
		return j->why = "too few timings for a 95 % CI", V_INCONCLUSIVE;
	j->lo_w = j->shift_pct - widen(j->shift_pct - j->lo_pct, band);
	j->hi_w = j->shift_pct + widen(j->hi_pct - j->shift_pct, band);
	int beyond = j->p < o->alpha && (j->lo_w > t || j->hi_w < -t);
	if (beyond && !j->ok)
		return j->why = "status unstable: the stopping rule never held", V_INCONCLUSIVE;
	if (beyond)
		return j->lo_w > t ? V_REGRESSION : V_IMPROVEMENT;
	if (j->lo_w >= -t && j->hi_w <= t)
		return V_SAME;
	if (j->p < o->alpha && (j->lo_pct > t || j->hi_pct < -t))
		return j->why = "within the run-to-run noise", V_INCONCLUSIVE;
	return j->why = j->p < o->alpha ? "the CI reaches across the threshold"
					: "not significant, and the CI is not within the threshold",
	       V_INCONCLUSIVE;
}

/* The statistics of a point; its verdict waits for the noise estimate. */
static void judge(double *b, int nb, double *n, int nn, struct judged *j)
{
	struct ptb_mw mw = { .p = NAN, .shift = NAN, .shift_lo = NAN, .shift_hi = NAN };
	if (ptb_mann_whitney(b, nb, n, nn, &mw) < 0)
		mw.p = NAN;
	j->nb = nb;
	j->nn = nn;
	j->base_med = ptb_median_inplace(b, nb);
	j->new_med = ptb_median_inplace(n, nn);
	j->p = mw.p;
	j->change_pct = j->shift_pct = j->lo_pct = j->hi_pct = j->lo_w = j->hi_w = NAN;
	if (!(j->base_med > 0))
		return;
	j->change_pct = 100 * (j->new_med - j->base_med) / j->base_med;
	j->shift_pct = 100 * mw.shift / j->base_med;
	j->lo_pct = 100 * mw.shift_lo / j->base_med;
	j->hi_pct = 100 * mw.shift_hi / j->base_med;
}

/* z with P(|Z| > z) = a, by bisection on erfc. */
static double z_two_sided(double a)
{
	double lo = 0, hi = 40;
	for (int i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;
		if (erfc(mid / M_SQRT2) > a)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

/* The run-to-run noise from the shifts of every point with a CI. */
static void estimate_noise(const struct point *pts, int npts, struct noise *nz)
{
	double *s = malloc((size_t)(npts + 1) * sizeof *s);
	*nz = (struct noise){ 0 };
	for (int i = 0; s && i < npts; i++)
		if (!pts[i].why[0] && !isnan(pts[i].j.lo_pct))
			s[nz->n++] = pts[i].j.shift_pct;
	if (s && nz->n >= PTB_NOISE_MIN_POINTS) {
		double m = ptb_median_inplace(s, nz->n);
		for (int i = 0; i < nz->n; i++)
			s[i] = fabs(s[i] - m);
		nz->tau = 1.4826 * ptb_median_inplace(s, nz->n);
	}
	if (nz->tau > 0)
		nz->z = z_two_sided(PTB_NOISE_FAMILY_ALPHA / nz->n);
	free(s);
}

/* ---- the comparison ----------------------------------------------------- */

struct report {
	const struct ptb_compare_opts *o;
	const char *base_path, *new_path;
	const struct ptb_runfile *base, *next;
	struct point *pts;      /* base's points that new has too, in base's order */
	int npts;
	struct noise noise;
	json_t *only_base, *only_new;
	int count[V_COUNT];
};

/* Fill a point: its samples' statistics, or why it cannot be compared. */
static void pair_statistics(struct point *pt)
{
	const char *why_b = NULL, *why_n = NULL;
	int nb = 0, nn = 0;
	double *xb = samples_of(pt->base, &nb, &why_b), *xn = samples_of(pt->next, &nn, &why_n);
	if (xb && xn) {
		judge(xb, nb, xn, nn, &pt->j);
		pt->j.ok = pt->base->status == PTB_OK && pt->next->status == PTB_OK;
	} else {
		snprintf(pt->why, sizeof pt->why, "%s%s%s%s%s", why_b ? "base: " : "",
			 why_b ? why_b : "", why_b && why_n ? "; " : "", why_n ? "new: " : "",
			 why_n ? why_n : "");
	}
	free(xb);
	free(xn);
}

/* Pair the points (base's order), estimate the noise, give the verdicts. */
static int compare_runs(struct report *r)
{
	r->pts = calloc(r->base->n + 1, sizeof *r->pts);
	r->only_base = json_array();
	r->only_new = json_array();
	if (!r->pts || !r->only_base || !r->only_new)
		return -1;
	for (size_t i = 0; i < r->base->n; i++) {
		const struct ptb_record *rec = &r->base->rec[i];
		struct point *pt = &r->pts[r->npts];
		if (!(pt->next = ptb_runfile_find(r->next, rec->key))) {
			json_array_append_new(r->only_base, json_string(rec->key));
			continue;
		}
		pt->key = rec->key;
		pt->base = rec;
		pair_statistics(pt);
		r->npts++;
	}
	for (size_t i = 0; i < r->next->n; i++)
		if (!ptb_runfile_find(r->base, r->next->rec[i].key))
			json_array_append_new(r->only_new, json_string(r->next->rec[i].key));
	estimate_noise(r->pts, r->npts, &r->noise);
	for (int i = 0; i < r->npts; i++)
		if (!r->pts[i].why[0])
			r->count[(r->pts[i].j.v = decide(r->o, &r->noise, &r->pts[i].j))]++;
	return 0;
}

/* ---- Markdown ----------------------------------------------------------- */

static void fmt_pct(char *buf, size_t len, double pct)
{
	if (isnan(pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f %%", pct);
}

static void fmt_ci(char *buf, size_t len, double lo, double hi)
{
	if (isnan(lo))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "[%+.1f, %+.1f]", lo, hi);
}

static void fmt_p(char *buf, size_t len, double p)
{
	if (p < 1e-4)
		snprintf(buf, len, "<0.0001");
	else
		snprintf(buf, len, "%.4f", p);
}

static void md_point(const struct point *pt)
{
	const struct judged *j = &pt->j;
	char bm[32], nm[32], ch[32], p[32], sh[32], ci[64], wide[64];
	int reg = j->v == V_REGRESSION, inc = j->v == V_INCONCLUSIVE;
	ptb_fmt_us(bm, sizeof bm, j->base_med);
	ptb_fmt_us(nm, sizeof nm, j->new_med);
	fmt_pct(ch, sizeof ch, j->change_pct);
	fmt_p(p, sizeof p, j->p);
	fmt_pct(sh, sizeof sh, j->shift_pct);
	fmt_ci(ci, sizeof ci, j->lo_pct, j->hi_pct);
	fmt_ci(wide, sizeof wide, j->lo_w, j->hi_w);
	printf("| %s | %d / %d | %s | %s | %s | %s | %s %s | %s | %s%s%s%s%s |\n", pt->key,
	       j->nb, j->nn, bm, nm, ch, p, sh, ci, wide, reg ? "**" : "", verdict_name[j->v],
	       reg ? "**" : "", inc ? ": " : "", inc ? j->why : "");
}

/* What a run is, for the header: "host, date". */
static void run_label(const struct ptb_runfile *run, char *buf, size_t len)
{
	snprintf(buf, len, "%s, %s", run->host ? run->host : "unknown host",
		 run->date ? run->date : "undated");
}

/* Runs from two machines differ for reasons no code change explains. */
static const char *machine_warning(const struct report *r)
{
	const char *fields[][2] = {
		/* base            new */
		{ r->base->host,  r->next->host },
		{ r->base->brand, r->next->brand },
	};
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++)
		if (fields[i][0] && fields[i][1] && strcmp(fields[i][0], fields[i][1]))
			return "the runs come from different machines: a difference may be the machine's";
	return NULL;
}

static void md_header(const struct report *r)
{
	char b[160], n[160];
	const char *warning = machine_warning(r);
	run_label(r->base, b, sizeof b);
	run_label(r->next, n, sizeof n);
	printf("base: %s (%s)\nnew:  %s (%s)\n", r->base_path, b, r->new_path, n);
	if (warning)
		printf("warning: %s\n", warning);
	printf("A regression needs p < %g (two-sided Mann-Whitney U) and the whole 95 %% CI "
	       "of the Hodges-Lehmann shift, widened by the run-to-run noise, above +%g %% "
	       "of the base median.\n", r->o->alpha, r->o->threshold);
	if (r->noise.n >= PTB_NOISE_MIN_POINTS)
		printf("Run-to-run noise: +-%.1f %% (1.4826 x MAD of the shifts of %d points), "
		       "added at z = %.2f.\n\n", r->noise.tau, r->noise.n, r->noise.z);
	else
		printf("Run-to-run noise: not estimated (%d points with a CI, fewer than %d).\n\n",
		       r->noise.n, PTB_NOISE_MIN_POINTS);
	printf("| Point | Timings base / new | Base median (µs) | New median (µs) | Change "
	       "| p | Shift, 95 %% CI (%%) | With run noise (%%) | Verdict |\n");
	printf("|---|---:|---:|---:|---:|---:|---|---|---|\n");
}

static void md_list(const char *title, const json_t *list)
{
	json_t *e;
	size_t i;
	if (json_array_size(list) == 0)
		return;
	printf("\n%s:\n", title);
	json_array_foreach(list, i, e)
		printf("- %s\n", json_string_value(e));
}

static void md_out(const struct report *r)
{
	int n = 0;
	md_header(r);
	for (int i = 0; i < r->npts; i++)
		if (!r->pts[i].why[0])
			md_point(&r->pts[i]);
	for (int i = 0; i < r->npts; i++)
		if (r->pts[i].why[0])
			printf("%s- %s: %s\n", n++ ? "" : "\nNot comparable (no samples):\n",
			       r->pts[i].key, r->pts[i].why);
	md_list("Only in base", r->only_base);
	md_list("Only in new", r->only_new);
	printf("\n%d regression%s, %d improvement%s, %d same, %d inconclusive%s",
	       r->count[V_REGRESSION], r->count[V_REGRESSION] == 1 ? "" : "s",
	       r->count[V_IMPROVEMENT], r->count[V_IMPROVEMENT] == 1 ? "" : "s",
	       r->count[V_SAME], r->count[V_INCONCLUSIVE],
	       r->count[V_REGRESSION] ? ": regressed " : ".");
	n = 0;
	for (int i = 0; i < r->npts; i++)
		if (!r->pts[i].why[0] && r->pts[i].j.v == V_REGRESSION)
			printf("%s%s (%+.1f %%)", n++ ? ", " : "", r->pts[i].key, r->pts[i].j.shift_pct);
	putchar('\n');
}

/* ---- JSON --------------------------------------------------------------- */

static json_t *jnum_or_null(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *json_point(const struct point *pt)
{
	const struct judged *j = &pt->j;
	return json_pack("{s:s?, s:O?, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:[o,o], s:[o,o], "
			 "s:s, s:s?}",
			 "bench", pt->base->bench, "params", pt->base->params, "key", pt->key,
			 "n_base", j->nb, "n_new", j->nn,
			 "base_median_ns", jnum_or_null(j->base_med),
			 "new_median_ns", jnum_or_null(j->new_med),
			 "change_pct", jnum_or_null(j->change_pct), "p", jnum_or_null(j->p),
			 "shift_pct", jnum_or_null(j->shift_pct),
			 "shift_ci95_pct", jnum_or_null(j->lo_pct), jnum_or_null(j->hi_pct),
			 "with_noise_ci95_pct", jnum_or_null(j->lo_w), jnum_or_null(j->hi_w),
			 "verdict", verdict_name[j->v],
			 "why", j->v == V_INCONCLUSIVE ? j->why : NULL);
}

static void json_out(const struct report *r)
{
	char b[160], n[160];
	json_t *points = json_array(), *nc = json_array();
	for (int i = 0; i < r->npts; i++)
		if (r->pts[i].why[0])
			json_array_append_new(nc, json_pack("{s:s, s:s}", "key", r->pts[i].key,
							    "why", r->pts[i].why));
		else
			json_array_append_new(points, json_point(&r->pts[i]));
	run_label(r->base, b, sizeof b);
	run_label(r->next, n, sizeof n);
	json_t *doc = json_pack(
		"{s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:s?, s:f, s:f, s:{s:i, s:o, s:o}, "
		"s:o, s:O, s:O, s:o, s:{s:i, s:i, s:i, s:i}}",
		"schema", "ptbench-compare/1",
		"base", "file", r->base_path, "run", b, "new", "file", r->new_path, "run", n,
		"warning", machine_warning(r),
		"alpha", r->o->alpha, "threshold_pct", r->o->threshold,
		"run_noise", "points", r->noise.n,
		"tau_pct", r->noise.n >= PTB_NOISE_MIN_POINTS ? json_real(r->noise.tau) : json_null(),
		"z", r->noise.z > 0 ? json_real(r->noise.z) : json_null(),
		"points", points, "only_in_base", r->only_base, "only_in_new", r->only_new,
		"not_comparable", nc,
		"summary", "regression", r->count[V_REGRESSION], "improvement",
		r->count[V_IMPROVEMENT], "same", r->count[V_SAME], "inconclusive",
		r->count[V_INCONCLUSIVE]);
	json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(10));
	putchar('\n');
	json_decref(doc);
}

/* ---- the command -------------------------------------------------------- */

int ptb_compare(const struct ptb_runfile *base, const struct ptb_runfile *next,
		const struct ptb_compare_opts *o)
{
	struct report r = { .o = o, .base_path = base->path, .new_path = next->path,
			    .base = base, .next = next };
	int rc = compare_runs(&r);
	if (!rc) {
		if (o->json)
			json_out(&r);
		else
			md_out(&r);
		rc = r.count[V_REGRESSION] ? 1 : 0;
	}
	free(r.pts);
	json_decref(r.only_base);
	json_decref(r.only_new);
	return rc;
}
