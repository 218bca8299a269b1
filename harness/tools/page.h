/* SPDX-License-Identifier: MIT */
/*
 * ptbench's HTML page: one self-contained file -- its style inline, no
 * script, nothing fetched -- readable at a phone's width (the viewport
 * set, a wide table scrolling sideways in its own box, a figure as wide as
 * the screen) and well-formed as XML as well as HTML, so that xmllint can
 * check it either way.  Every text from a result file is escaped.
 * `ptbench table --format html` is the table on such a page;
 * `ptbench report --format html` (ptb_page_report) is the machines, the
 * table, a profile's objects (--profile) and the plots.
 */
#ifndef PTB_TOOLS_PAGE_H
#define PTB_TOOLS_PAGE_H

#include <stdbool.h>
#include <stdio.h>
#include <jansson.h>

#include "record/model.h"
#include "report/grid.h"
#include "report/flow.h"
#include "tools/table.h"

/* The page's head, style and heading; then the body's end. */
void ptb_page_open(FILE *out, const char *title);
void ptb_page_close(FILE *out);
/* A grid as a table, in a box that scrolls sideways on a narrow screen. */
void ptb_page_grid(FILE *out, const struct ptb_grid *g);
/* <p class="CLS">TEXT</p>, the text escaped; no class when cls is NULL. */
void ptb_page_para(FILE *out, const char *cls, const char *text);

/* The document's section of the HTML page (page-profile.c): what was
 * profiled, then a table per object -- its rows per thread, its totals
 * with the true/false split and the verdict, its heap site and the
 * source lines that missed most -- as the text table has them.  0, or
 * -1 out of memory. */
int ptb_page_profile(FILE *out, const json_t *doc);

struct ptb_page_opts {
	enum ptb_table_stat stat;
	bool all_rows;          /* as struct ptb_table_opts's */
	bool plots;             /* false: the page says they were left out */
	bool verbose;           /* as struct ptb_table_opts's */
	const struct ptb_flow *flow;   /* a trace's replay (--trace) for its plots; NULL */
	const json_t *profile;         /* a ptbench-profile/1 document (--profile); NULL */
};

/* The report page of n runs (none: a profile's page).  With a profile,
 * its table per object and its plot.  0, or -1 when out of memory. */
int ptb_page_report(FILE *out, struct ptb_runfile *const *runs, int n,
		    const struct ptb_page_opts *o);

#endif
