/* SPDX-License-Identifier: MIT */
/*
 * Where a result appears in a table laid out like the paper's Table 1: the
 * row group ("Thread Create") and label ("Detached, system scope") of a
 * benchmark and its variable values, and the rows' order.  One lookup
 * table serves the run reporter and the cross-platform `ptbench table`.
 */
#ifndef PTB_ROWS_H
#define PTB_ROWS_H

#include <jansson.h>
#include <stddef.h>

struct ptb_row {
	int order;              /* sort key: paper order first, others after */
	char group[64];         /* "Mutex Ping-pong"; "" for a lone row */
	char label[96];         /* "Different CPUs (cross_core)" */
	const char *footnote;   /* how our test differs from the paper's, or NULL */
};

/* params is the record's "params" object (may be NULL or empty). */
void ptb_row_of(const char *bench, const json_t *params, struct ptb_row *row);

#endif
