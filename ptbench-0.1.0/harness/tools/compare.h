/* SPDX-License-Identifier: MIT */
/*
 * `ptbench compare BASE NEW`: two stored runs compared point by point from
 * their trials, with the chance of any false verdict bounded over all the
 * points (Bonferroni).  The gate in one sitting is `ptbench ab` (run/ab.h).
 */
#ifndef PTB_TOOLS_COMPARE_H
#define PTB_TOOLS_COMPARE_H

#include <stdbool.h>

#include "record/model.h"

struct ptb_compare_opts {
	double alpha;        /* the chance of any false verdict over all points */
	double threshold;    /* smallest shift that counts, % of the base median */
	bool json;           /* --format json rather than Markdown */
};

/* Why a run cannot be compared -- it failed, was cut short, or has no
 * value to compare -- or NULL when it can. */
const char *ptb_compare_unusable(const struct ptb_runfile *run);

/* Judge every point of both runs and print the report on stdout.
 * 0 no regression, 1 regression, -1 out of memory. */
int ptb_compare(const struct ptb_runfile *base, const struct ptb_runfile *next,
		const struct ptb_compare_opts *o);

#endif
