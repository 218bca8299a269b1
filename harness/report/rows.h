/* SPDX-License-Identifier: MIT */
/*
 * Where a result appears in a table laid out like the paper's Table 1: the
 * row group ("Thread Create") and label ("Detached, system scope") of a
 * benchmark and its variable values, and the rows' order -- all read from
 * the benchmarks' descriptors (struct ptb_row_rule, harness/ptbench.h), so
 * a new benchmark's rows need no edit here.  One lookup serves the run
 * reporter and the cross-platform `ptbench table`.
 */
#ifndef PTB_REPORT_ROWS_H
#define PTB_REPORT_ROWS_H

#include <jansson.h>
#include <stdbool.h>

struct ptb_row {
	int order;              /* sort key: section, benchmark, rule, placement */
	char group[64];         /* "Mutex Ping-pong"; "" for a lone row */
	char label[96];         /* "Different CPUs (cross_core)"; a lone row's
	                           whole name ("Thread Yield") */
	const char *footnote;   /* how our test differs from the paper's, or NULL */
	double num;             /* sort key before the label: the value of a
	                           rule's numeric wildcard ("65536" of "64 KiB"),
	                           else NAN */
	bool time_sliced;       /* bounded by the scheduler, not the primitive
	                           (struct ptb_bench's time_sliced): the label
	                           ends with the legend's mark (report/legend.h) */
};

/* params is the record's "params" object (may be NULL or empty). */
void ptb_row_of(const char *bench, const json_t *params, struct ptb_row *row);
/* Table order: by order, then by group, by num where both have one, then
 * by label in version order ("n=16" before "n=1024"); 0 for rows that may
 * keep the order they came in. */
int ptb_row_cmp(const struct ptb_row *a, const struct ptb_row *b);

#endif
