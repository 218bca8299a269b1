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

struct ptb_row {
	int order;              /* sort key: section, benchmark, rule, placement */
	char group[64];         /* "Mutex Ping-pong"; "" for a lone row */
	char label[96];         /* "Different CPUs (cross_core)"; a lone row's
	                           whole name ("Thread Yield") */
	const char *footnote;   /* how our test differs from the paper's, or NULL */
};

/* params is the record's "params" object (may be NULL or empty). */
void ptb_row_of(const char *bench, const json_t *params, struct ptb_row *row);
/* Table order: by order, then by name in version order ("n=16" before
 * "n=1024"); 0 for rows that may keep the order they came in. */
int ptb_row_cmp(const struct ptb_row *a, const struct ptb_row *b);

#endif
