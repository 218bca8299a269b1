/* SPDX-License-Identifier: MIT */
/*
 * Printing an A/B comparison (see ab.h).  The Markdown states the rule and
 * the false-verdict rate it promises before the table, so that a reader of
 * a CI log knows what "same" means.  A point not compared has its pairs and
 * why, and no figure: an empty or zero cell would read as a measurement.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "record/runfile.h"
#include "report/ab.h"
#include "report/format.h"
#include "text/text.h"

#define NOT_COMPARED "not compared"

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
	if (*p->not_compared) {
		fprintf(out, "| %s | %d | - | - | - | - | - | " NOT_COMPARED ": %s |\n", name,
			p->judged.n, p->not_compared);
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

void ptb_ab_absent_text(char *buf, size_t len, const json_t *absent)
{
	const char *name;
	json_t *why;
	buf[0] = 0;
	json_object_foreach((json_t *)absent, name, why)
		ptb_appendf(buf, len, "%s%s", buf[0] ? ", " : "", name);
	int k = 0;
	json_object_foreach((json_t *)absent, name, why) {
		/* "needs 2 packages; this process may use ...": the need is enough */
		const char *w = json_string_value(why);
		ptb_appendf(buf, len, "%s%.*s", k++ ? "; " : " (", w ? (int)strcspn(w, ";") : 0,
			    w ? w : "");
	}
	if (buf[0])
		ptb_appendf(buf, len, ")");
}

static void print_md(FILE *out, const struct ptb_ab_report *r)
{
	char absent[512];
	int count[4] = { 0 }, failed = 0;
	fprintf(out, "base: %s\nhead: %s\n", r->base, r->head);
	fprintf(out, "Each point's trials alternate between base and head in pairs, in a random "
		"order\n(seed %llu), %s.\nA point is a regression when the whole CI of head/base "
		"(the median of its pairs'\nratios of median timings) lies above +%g %%, an "
		"improvement below -%g %%, the\nsame within +-%g %%; otherwise inconclusive.  The "
		"CI is %.4g %% at a point's last\nlook and %.4g %% at each of up to %d earlier "
		"looks, so that the\nchance of any false verdict in this comparison is at most "
		"%g %% over its %d point%s.\n%s\n\n",
		r->seed, r->layout && !strcmp(r->layout, "fixed") ?
		"each side in its own build's code layout" :
		"both trials of a pair in one code layout drawn for it",
		r->threshold_pct, r->threshold_pct, r->threshold_pct, 100 * r->level,
		100 * r->interim_level, r->looks, 100 * r->alpha, r->n, r->n == 1 ? "" : "s",
		r->interrupted ? "INTERRUPTED: the verdicts are incomplete." : "");
	fprintf(out, "| Point | Pairs | Base (µs) | Head (µs) | Change | CI | Detectable | "
		"Verdict |\n|---|---:|---:|---:|---:|---|---:|---|\n");
	for (int i = 0; i < r->n; i++) {
		md_row(out, &r->pts[i]);
		if (*r->pts[i].not_compared)
			failed++;
		else
			count[r->pts[i].judged.verdict]++;
	}
	fprintf(out, "\n%d regression%s, %d improvement%s, %d same, %d inconclusive, %d not "
		"compared; %.1f s.\n", count[PTB_REGRESSION], count[PTB_REGRESSION] == 1 ? "" : "s",
		count[PTB_IMPROVEMENT], count[PTB_IMPROVEMENT] == 1 ? "" : "s", count[PTB_SAME],
		count[PTB_INCONCLUSIVE], failed, r->seconds);
	ptb_ab_absent_text(absent, sizeof absent, r->absent);
	if (*absent)
		fprintf(out, "Not on this machine, left out: %s.\n", absent);
}

/* One row per point; a figure that does not exist is an empty field. */
static void csv_num(FILE *out, double x, const char *sep)
{
	if (isfinite(x))
		fprintf(out, "%.17g", x);
	fputs(sep, out);
}

static void print_csv(FILE *out, const struct ptb_ab_report *r)
{
	char params[1024];
	fputs("bench,params,verdict,reason,pairs,base_ns,head_ns,ratio,ratio_ci95_lo,"
	      "ratio_ci95_hi,detectable_pct\n", out);
	for (int i = 0; i < r->n; i++) {
		const struct ptb_ab_point *p = &r->pts[i];
		bool judged = !*p->not_compared;
		ptb_fmt_params(params, sizeof params, p->params, ";");
		ptb_csv_field(out, p->bench);
		fputc(',', out);
		ptb_csv_field(out, params);
		fputc(',', out);
		ptb_csv_field(out, judged ? ptb_verdict_name(p->judged.verdict) : NOT_COMPARED);
		fputc(',', out);
		ptb_csv_field(out, p->not_compared);
		fprintf(out, ",%d,", p->judged.n);
		csv_num(out, judged ? p->base_ns : NAN, ",");
		csv_num(out, judged ? p->head_ns : NAN, ",");
		csv_num(out, judged ? p->judged.ratio : NAN, ",");
		csv_num(out, judged ? p->judged.ratio_lo : NAN, ",");
		csv_num(out, judged ? p->judged.ratio_hi : NAN, ",");
		csv_num(out, judged ? p->judged.detectable_pct : NAN, "\n");
	}
}

static json_t *num(double x)
{
	return isfinite(x) ? json_real(x) : json_null();
}

static json_t *point_json(const struct ptb_ab_point *p)
{
	json_t *o = json_pack("{s:s, s:O}", "bench", p->bench, "params", p->params);
	bool judged = !*p->not_compared;
	json_object_set_new(o, "verdict", json_string(judged ? ptb_verdict_name(p->judged.verdict)
							       : NOT_COMPARED));
	json_object_set_new(o, "reason", judged ? json_null() : json_string(p->not_compared));
	json_object_set_new(o, "ratio", num(judged ? p->judged.ratio : NAN));
	json_object_set_new(o, "ratio_ci95", judged ? json_pack("[o, o]", num(p->judged.ratio_lo),
								num(p->judged.ratio_hi))
						    : json_null());
	json_object_set_new(o, "pairs", json_integer(p->judged.n));
	json_object_set_new(o, "detectable_pct", num(judged ? p->judged.detectable_pct : NAN));
	json_object_set_new(o, "base_ns", num(judged ? p->base_ns : NAN));
	json_object_set_new(o, "head_ns", num(judged ? p->head_ns : NAN));
	/* The pairs themselves, so that a verdict can be checked or judged
	 * again by another rule. */
	json_t *pairs = json_array();
	for (int i = 0; i < p->npairs && p->pair_ns[0] && p->pair_ns[1]; i++)
		json_array_append_new(pairs, json_pack("[o, o, i, o, o]", num(p->pair_ns[0][i]),
						       num(p->pair_ns[1][i]),
						       p->pair_layout ? p->pair_layout[i] : -1,
						       num(p->pair_mean[0] ? p->pair_mean[0][i] : NAN),
						       num(p->pair_mean[1] ? p->pair_mean[1][i] : NAN)));
	json_object_set_new(o, "pair_trials", pairs);
	return o;
}

static void print_json(FILE *out, const struct ptb_ab_report *r)
{
	json_t *pts = json_array();
	for (int i = 0; i < r->n; i++)
		json_array_append_new(pts, point_json(&r->pts[i]));
	json_t *absent = r->absent ? json_deep_copy(r->absent) : json_object();
	json_t *doc = json_pack("{s:s, s:s, s:s, s:f, s:f, s:f, s:f, s:I, s:i, s:s, s:f, s:b, "
				"s:o, s:o}",
				"schema", "ptbench-ab/3", "base", r->base, "head", r->head,
				"threshold_pct", r->threshold_pct, "alpha", r->alpha,
				"ci_level", r->level, "interim_ci_level", r->interim_level,
				"seed", (json_int_t)r->seed, "interim_looks", r->looks,
				"layout", r->layout ? r->layout : "varied",
				"seconds", r->seconds, "interrupted", r->interrupted,
				"not_on_this_machine", absent, "points", pts);
	json_dumpf(doc, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', out);
	json_decref(doc);
}

static const struct {
	const char *name;
	void (*print)(FILE *out, const struct ptb_ab_report *r);
} formats[PTB_AB_FORMATS] = {
	[PTB_AB_MD]   = { "md",   print_md },
	[PTB_AB_CSV]  = { "csv",  print_csv },
	[PTB_AB_JSON] = { "json", print_json },
};

int ptb_ab_format_from_name(const char *name)
{
	for (int f = 0; f < PTB_AB_FORMATS; f++)
		if (!strcmp(name, formats[f].name))
			return f;
	return -1;
}

void ptb_ab_print(FILE *out, const struct ptb_ab_report *r, enum ptb_ab_format f)
{
	formats[f].print(out, r);
}

int ptb_ab_write(const struct ptb_ab_report *r, enum ptb_ab_format f, const char *path,
		 FILE *out, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&text, &len);
	int rc = -1;
	if (!mem) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	ptb_ab_print(mem, r, f);
	bool whole = fclose(mem) == 0;
	if (!whole)
		snprintf(err, errlen, "out of memory");
	else if (!path || ptb_text_write_atomic(text, len, path, err, errlen) == 0)
		rc = 0;
	if (whole && (!path || rc))
		fwrite(text, 1, len, out);    /* stdout's errors: cli/cli.c */
	free(text);
	return rc;
}
