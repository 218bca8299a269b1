/* SPDX-License-Identifier: MIT */
/*
 * The report of `ptbench ab`: one line per point compared -- its pairs,
 * each side's median, HEAD/BASE with its CI, the smallest slowdown these
 * pairs could detect, and the verdict -- as Markdown or JSON.
 */
#ifndef PTB_REPORT_AB_H
#define PTB_REPORT_AB_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "stats/paired.h"

struct ptb_ab_point {
	const char *bench;
	json_t *params;
	struct ptb_paired judged;
	double base_ns, head_ns;       /* medians of each side's trials */
	char failed[256];              /* why it could not be compared, or "" */
};

struct ptb_ab_report {
	const char *base, *head;       /* the programs, as given */
	double threshold_pct, alpha, level;
	unsigned long long seed;
	double seconds;
	bool interrupted;
	int n;
	int looks;                     /* per point, at most */
	struct ptb_ab_point *pts;
};

void ptb_ab_print_md(FILE *out, const struct ptb_ab_report *r);
void ptb_ab_print_json(FILE *out, const struct ptb_ab_report *r);

#endif
