/* SPDX-License-Identifier: MIT */
/*
 * `ptbench compare BASE NEW`: the regression gate over two stored runs.
 */
#ifndef PTB_TOOLS_COMPARE_H
#define PTB_TOOLS_COMPARE_H

#include <stdbool.h>

#include "record/model.h"

struct ptb_compare_opts {
	double alpha;        /* significance level of the U test */
	double threshold;    /* smallest shift that counts, % of the base median */
	bool json;           /* --format json rather than Markdown */
};

/* Judge every point of both runs and print the report on stdout.
 * 0 no regression, 1 regression, -1 out of memory. */
int ptb_compare(const struct ptb_runfile *base, const struct ptb_runfile *next,
		const struct ptb_compare_opts *o);

#endif
