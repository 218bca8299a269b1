/* SPDX-License-Identifier: MIT */
/*
 * Printing an A/B comparison (see ab.h).  The Markdown states the rule and
 * the false-verdict rate it promises before the table, so that a reader of
 * a CI log knows what "same" means.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report/ab.h"
#include "report/format.h"
#include "text/text.h"

static void point_name(char *buf, size_t len, const struct ptb_ab_point *p)
{
	char params[256];
	ptb_fmt_params(params, sizeof params, p->params, " ");
	snprintf(buf, len, "%s%s%s", p->bench, *params ? " " : "", params);
}

static void pct(char *buf, size_t len, double ratio)
{
	if (isfinite(ratio))
		snprintf(buf, len, "%+.1f %%", 100 * (ratio - 1));
	else
		snprintf(buf, len, "-");
}

static void md_row(FILE *out, const struct ptb_ab_point *p)
{
	char name[320], base[32], head[32], change[32], lo[32], hi[32], det[32];
	point_name(name, sizeof name, p);
	if (*p->failed) {
		fprintf(out, "| %s | | | | | | | not compared: %s |\n", name, p->failed);
		return;
	}
	ptb_fmt_us(base, sizeof base, p->base_ns);
	ptb_fmt_us(head, sizeof head, p->head_ns);
	pct(change, sizeof change, p->judged.ratio);
	pct(lo, sizeof lo, p->judged.ratio_lo);
	pct(hi, sizeof hi, p->judged.ratio_hi);
	snprintf(det, sizeof det, isfinite(p->judged.detectable_pct) ? "+%.1f %%" : "-",
		 p->judged.detectable_pct);
	fprintf(out, "| %s | %d | %s | %s | %s | [%s, %s] | %s | %s |\n", name, p->judged.n,
		base, head, change, lo, hi, det, ptb_verdict_name(p->judged.verdict));
}

void ptb_ab_print_md(FILE *out, const struct ptb_ab_report *r)
{
	int count[4] = { 0 }, failed = 0;
	fprintf(out, "base: %s\nhead: %s\n", r->base, r->head);
	fprintf(out, "Each point's trials alternate between base and head in pairs, in a random "
		"order (seed %llu).\nA point is a regression when the whole %.4g %% CI of "
		"head/base (the median of its pairs'\nratios) lies above +%g %%, an "
		"improvement below -%g %%, the same within +-%g %%;\notherwise "
		"inconclusive.  The chance of any false verdict in this comparison is at "
		"most\n%g %% (Bonferroni over %d points and up to %d looks at each).  %s\n\n",
		r->seed, 100 * r->level, r->threshold_pct, r->threshold_pct, r->threshold_pct,
		100 * r->alpha, r->n, r->looks,
		r->interrupted ? "INTERRUPTED: the verdicts are incomplete." : "");
	fprintf(out, "| Point | Pairs | Base (µs) | Head (µs) | Change | CI | Detectable | "
		"Verdict |\n|---|---:|---:|---:|---:|---|---:|---|\n");
	for (int i = 0; i < r->n; i++) {
		md_row(out, &r->pts[i]);
		if (*r->pts[i].failed)
			failed++;
		else
			count[r->pts[i].judged.verdict]++;
	}
	fprintf(out, "\n%d regression%s, %d improvement%s, %d same, %d inconclusive, %d not "
		"compared; %.1f s.\n", count[PTB_REGRESSION], count[PTB_REGRESSION] == 1 ? "" : "s",
		count[PTB_IMPROVEMENT], count[PTB_IMPROVEMENT] == 1 ? "" : "s", count[PTB_SAME],
		count[PTB_INCONCLUSIVE], failed, r->seconds);
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *point_json(const struct ptb_ab_point *p)
{
	json_t *o = json_pack("{s:s, s:O}", "bench", p->bench, "params", p->params);
	if (*p->failed) {
		json_object_set_new(o, "verdict", json_string("failed"));
		json_object_set_new(o, "reason", json_string(p->failed));
		return o;
	}
	json_object_set_new(o, "verdict", json_string(ptb_verdict_name(p->judged.verdict)));
	json_object_set_new(o, "ratio", num(p->judged.ratio));
	json_object_set_new(o, "ratio_ci95", json_pack("[o, o]", num(p->judged.ratio_lo),
						       num(p->judged.ratio_hi)));
	json_object_set_new(o, "pairs", json_integer(p->judged.n));
	json_object_set_new(o, "detectable_pct", num(p->judged.detectable_pct));
	json_object_set_new(o, "base_ns", num(p->base_ns));
	json_object_set_new(o, "head_ns", num(p->head_ns));
	return o;
}

void ptb_ab_print_json(FILE *out, const struct ptb_ab_report *r)
{
	json_t *pts = json_array();
	for (int i = 0; i < r->n; i++)
		json_array_append_new(pts, point_json(&r->pts[i]));
	json_t *doc = json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:I, s:i, s:f, s:b, s:o}",
				"schema", "ptbench-ab/1", "base", r->base, "head", r->head,
				"threshold_pct", r->threshold_pct, "alpha", r->alpha,
				"ci_level", r->level, "seed", (json_int_t)r->seed,
				"looks", r->looks,
				"seconds", r->seconds, "interrupted", r->interrupted,
				"points", pts);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
}
