/* SPDX-License-Identifier: MIT */
/*
 * The report of `ptbench ab`: one line per point compared -- its pairs,
 * each side's median, HEAD/BASE with its CI, the smallest slowdown these
 * pairs could detect, and the verdict -- as Markdown, CSV or JSON.  A
 * point that could not be judged (a side failed, too few pairs before the
 * time ran out or the comparison was interrupted) is "not compared", with
 * why, and no figures: a verdict is never made up from pairs that were
 * not measured.
 */
#ifndef PTB_REPORT_AB_H
#define PTB_REPORT_AB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stats/paired.h"

struct ptb_ab_point {
	const char *bench;
	json_t *params;
	struct ptb_paired judged;
	double base_ns, head_ns;       /* medians of each side's trials' estimates */
	/* Every completed pair, in order: each side's estimate (the trial's
	 * median timing, which is judged), the code layout both ran in (-1:
	 * each its own) and each side's mean timing; npairs may exceed
	 * judged.n by pairs measured after the last look. */
	const double *pair_ns[2];
	const double *pair_mean[2];
	const int *pair_layout;
	int npairs;
	char not_compared[256];        /* why it has no verdict, or "" */
};

struct ptb_ab_report {
	const char *base, *head;       /* the programs, as given */
	double threshold_pct, alpha;
	double level;                  /* of a point's last look */
	double interim_level;          /* of each look before it */
	unsigned long long seed;
	double seconds;
	bool interrupted;
	int n;
	int looks;                     /* interim looks per point, at most */
	struct ptb_ab_point *pts;
	/* Placements this machine cannot have, whose points were left out:
	 * { "smt": "needs 2 PUs in one core; ..." }, or NULL. */
	const json_t *absent;
	const char *layout;            /* "varied": pairs in a drawn layout; "fixed" */
};

enum ptb_ab_format { PTB_AB_MD, PTB_AB_CSV, PTB_AB_JSON, PTB_AB_FORMATS };
#define PTB_AB_FORMAT_NAMES "md, csv, json"
/* -1 when the name is unknown. */
int ptb_ab_format_from_name(const char *name);

void ptb_ab_print(FILE *out, const struct ptb_ab_report *r, enum ptb_ab_format f);
/* The report in format f, whole: atomically at path (record/runfile.h),
 * or on out when path is NULL or cannot be written.  0, or -1 with err
 * when it was not saved at path. */
int ptb_ab_write(const struct ptb_ab_report *r, enum ptb_ab_format f, const char *path,
		 FILE *out, char *err, size_t errlen);
/* "smt, cross_package (needs 2 PUs in one core; needs 2 packages)": the
 * placements left out, with what each needs; "" when none. */
void ptb_ab_absent_text(char *buf, size_t len, const json_t *absent);

#endif
