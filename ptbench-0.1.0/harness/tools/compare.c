/* SPDX-License-Identifier: MIT */
/*
 * `ptbench compare BASE NEW`: two stored runs, point by point.  A point is
 * judged from its trials' estimates (ptbench/2), which are independent
 * replications: each trial ran in its own worker process at its own moment
 * of the run, so their spread holds the variation within a run.  The test
 * is the two-sided Mann-Whitney U with the Hodges-Lehmann shift
 * (stats/mannwhitney.c), Bonferroni over the m points compared: a
 * regression needs p < alpha/m AND the whole CI of the shift at level
 * 1 - alpha/m above +threshold % of the base median, so the chance of any
 * false regression or improvement in the comparison is at most alpha.
 *
 * What no stored comparison can see is the difference between the two
 * runs' machines or moments; `ptbench ab` interleaves the two sides for
 * that.  A ptbench/1 point is not compared: its timings come from one
 * measurement, not independent replications, and judging them was how the
 * old gate called noise a change (docs/ci.md).  Nor is a run that failed:
 * a comparison must not pass because there was nothing to compare.
 */
#include <config.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "stats/mannwhitney.h"
#include "stats/stats.h"
#include "tools/compare.h"

enum verdict { V_SAME, V_REGRESSION, V_IMPROVEMENT, V_INCONCLUSIVE, V_COUNT };
static const char *const verdict_name[V_COUNT] = {
	"same", "regression", "improvement", "inconclusive"
};

/* The judgement of one point whose trials both runs have. */
struct judged {
	enum verdict v;
	const char *why;     /* for inconclusive: what is missing */
	int nb, nn;          /* trials */
	double base_med, new_med, change_pct, p, shift_pct, lo_pct, hi_pct;
};

/* One point of base, with its counterpart in new. */
struct point {
	const char *key;
	const struct ptb_record *base, *next;
	char why[160];       /* not comparable: why; "" when judged */
	struct judged j;
};

struct report {
	const struct ptb_compare_opts *o;
	const struct ptb_runfile *base, *next;
	struct point *pts;   /* base's points that new has too, in base's order */
	int npts;
	int m;               /* points judged: the Bonferroni divisor */
	double level;        /* of every CI: 1 - alpha/m */
	json_t *only_base, *only_new;
	int count[V_COUNT];
};

/* ---- which runs and points can be compared ------------------------------ */

const char *ptb_compare_unusable(const struct ptb_runfile *run)
{
	static const struct { const char *status, *why; } failed[] = {
		/* status         why */
		{ "running",     "the run is still going or was killed (status running)" },
		{ "interrupted", "the run was interrupted (status interrupted)" },
	};
	for (size_t i = 0; i < sizeof failed / sizeof failed[0]; i++)
		if (run->status && !strcmp(run->status, failed[i].status))
			return failed[i].why;
	if (run->n == 0)
		return "the run has no results";
	for (size_t i = 0; i < run->n; i++)
		if (run->rec[i].has_value)
			return NULL;
	return "no point has a value (every one is na, timeout, crashed or error)";
}

/* Why a record has no trials to test, or NULL when it has. */
static const char *no_trials(const struct ptb_record *rec)
{
	if (!rec->has_value)
		return rec->status_name;
	if (rec->is_published)
		return "a transcribed figure, no trials";
	if (rec->is_derived)
		return "derived from other points, no trials";
	if (!rec->samples_are_trials)
		return "ptbench/1: its timings come from one run, not independent trials";
	return rec->nsamples ? NULL : "no trials";
}

/* ---- judging ------------------------------------------------------------ */

/* The statistics of a point from copies of its trials (sorted here). */
static int measure(struct report *r, struct judged *j, const struct ptb_record *b,
		   const struct ptb_record *n)
{
	struct ptb_mw mw;
	double *xb = malloc((size_t)b->nsamples * sizeof *xb);
	double *xn = malloc((size_t)n->nsamples * sizeof *xn);
	int rc = -1;
	if (xb && xn && ptb_mann_whitney(b->samples, b->nsamples, n->samples, n->nsamples,
					 r->level, &mw) == 0) {
		memcpy(xb, b->samples, (size_t)b->nsamples * sizeof *xb);
		memcpy(xn, n->samples, (size_t)n->nsamples * sizeof *xn);
		j->nb = b->nsamples;
		j->nn = n->nsamples;
		j->base_med = ptb_median_inplace(xb, j->nb);
		j->new_med = ptb_median_inplace(xn, j->nn);
		j->p = mw.p;
		j->change_pct = j->shift_pct = j->lo_pct = j->hi_pct = NAN;
		if (j->base_med > 0) {
			j->change_pct = 100 * (j->new_med - j->base_med) / j->base_med;
			j->shift_pct = 100 * mw.shift / j->base_med;
			j->lo_pct = 100 * mw.shift_lo / j->base_med;
			j->hi_pct = 100 * mw.shift_hi / j->base_med;
		}
		rc = 0;
	}
	free(xb);
	free(xn);
	return rc;
}

/* Regression or improvement, or else same / inconclusive, as the header says. */
static enum verdict decide(const struct report *r, struct judged *j)
{
	double t = r->o->threshold;
	int significant = j->p < r->o->alpha / r->m;
	if (isnan(j->lo_pct))
		return j->why = "too few trials for a CI at this level", V_INCONCLUSIVE;
	if (significant && j->lo_pct > t)
		return V_REGRESSION;
	if (significant && j->hi_pct < -t)
		return V_IMPROVEMENT;
	if (j->lo_pct >= -t && j->hi_pct <= t)
		return V_SAME;
	return j->why = significant ? "the CI reaches across the threshold"
				    : "not significant, and the CI is not within the threshold",
	       V_INCONCLUSIVE;
}

/* Pair the points (base's order), then judge those with trials on both sides
 * at the level their number sets. */
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
		const char *wb = no_trials(rec), *wn = no_trials(pt->next);
		if (wb && wn && !strcmp(wb, wn))
			snprintf(pt->why, sizeof pt->why, "both: %s", wb);
		else if (wb || wn)
			snprintf(pt->why, sizeof pt->why, "%s%s%s%s%s", wb ? "base: " : "",
				 wb ? wb : "", wb && wn ? "; " : "", wn ? "new: " : "", wn ? wn : "");
		else
			r->m++;
		r->npts++;
	}
	for (size_t i = 0; i < r->next->n; i++)
		if (!ptb_runfile_find(r->base, r->next->rec[i].key))
			json_array_append_new(r->only_new, json_string(r->next->rec[i].key));
	r->level = 1 - r->o->alpha / (r->m ? r->m : 1);
	for (int i = 0; i < r->npts; i++) {
		struct point *pt = &r->pts[i];
		if (pt->why[0])
			continue;
		if (measure(r, &pt->j, pt->base, pt->next) < 0)
			return -1;
		r->count[(pt->j.v = decide(r, &pt->j))]++;
	}
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
	char bm[32], nm[32], ch[32], p[32], sh[32], ci[64];
	int reg = j->v == V_REGRESSION, inc = j->v == V_INCONCLUSIVE;
	ptb_fmt_us(bm, sizeof bm, j->base_med);
	ptb_fmt_us(nm, sizeof nm, j->new_med);
	fmt_pct(ch, sizeof ch, j->change_pct);
	fmt_p(p, sizeof p, j->p);
	fmt_pct(sh, sizeof sh, j->shift_pct);
	fmt_ci(ci, sizeof ci, j->lo_pct, j->hi_pct);
	printf("| %s | %d / %d | %s | %s | %s | %s | %s %s | %s%s%s%s%s |\n", pt->key, j->nb,
	       j->nn, bm, nm, ch, p, sh, ci, reg ? "**" : "", verdict_name[j->v],
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
	const struct ptb_compare_opts *o = r->o;
	run_label(r->base, b, sizeof b);
	run_label(r->next, n, sizeof n);
	printf("base: %s (%s)\nnew:  %s (%s)\n", r->base->path, b, r->next->path, n);
	if (warning)
		printf("warning: %s\n", warning);
	if (r->m == 0) {
		printf("No point has trials in both runs: nothing to judge.\n");
		return;
	}
	printf("Judged from each point's trials, Bonferroni over the %d points compared: a "
	       "regression needs p < %.3g (two-sided Mann-Whitney U) and the whole %.4g %% CI "
	       "of the Hodges-Lehmann shift above +%g %% of the base median; same: that CI "
	       "within +-%g %%.\n", r->m, o->alpha / r->m, 100 * r->level, o->threshold,
	       o->threshold);
	printf("The chance of any false regression or improvement is at most %g; a change of "
	       "the machine's state between the two runs is not covered (ptbench ab "
	       "interleaves the two sides).\n\n", o->alpha);
	printf("| Point | Trials base / new | Base median (µs) | New median (µs) | Change "
	       "| p | Shift, CI (%%) | Verdict |\n");
	printf("|---|---:|---:|---:|---:|---:|---|---|\n");
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
	for (int i = 0; r->m && i < r->npts; i++)
		if (!r->pts[i].why[0])
			md_point(&r->pts[i]);
	for (int i = 0; i < r->npts; i++)
		if (r->pts[i].why[0])
			printf("%s- %s: %s\n", n++ ? "" : "\nNot comparable:\n", r->pts[i].key,
			       r->pts[i].why);
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
	return json_pack("{s:s?, s:O?, s:s, s:i, s:i, s:o, s:o, s:o, s:o, s:o, s:[o,o], s:s, s:s?}",
			 "bench", pt->base->bench, "params", pt->base->params, "key", pt->key,
			 "trials_base", j->nb, "trials_new", j->nn,
			 "base_median_ns", jnum_or_null(j->base_med),
			 "new_median_ns", jnum_or_null(j->new_med),
			 "change_pct", jnum_or_null(j->change_pct), "p", jnum_or_null(j->p),
			 "shift_pct", jnum_or_null(j->shift_pct),
			 "shift_ci_pct", jnum_or_null(j->lo_pct), jnum_or_null(j->hi_pct),
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
		"{s:s, s:{s:s, s:s}, s:{s:s, s:s}, s:s?, s:f, s:f, s:s, s:i, s:f, "
		"s:o, s:O, s:O, s:o, s:{s:i, s:i, s:i, s:i}}",
		"schema", "ptbench-compare/2",
		"base", "file", r->base->path, "run", b, "new", "file", r->next->path, "run", n,
		"warning", machine_warning(r),
		"alpha", r->o->alpha, "threshold_pct", r->o->threshold,
		"correction", "bonferroni", "points_compared", r->m, "ci_level", r->level,
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
	struct report r = { .o = o, .base = base, .next = next };
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
