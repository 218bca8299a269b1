/* SPDX-License-Identifier: MIT */
/*
 * What the run table adds for the extended benchmarks: a figure as a
 * multiple of the one its descriptor sets it beside (`relative_to`: the
 * user-level switch beside the kernel's yield, false sharing beside padded
 * lines), and the derived cache levels as a section of their own.
 */
#ifndef PTB_REPORT_LEVELS_H
#define PTB_REPORT_LEVELS_H

#include <stdbool.h>
#include <stdio.h>

#include "record/model.h"
#include "report/format.h"

/*
 * The record a figure is set beside: the descriptor's relative_to is
 * "BENCH [VAR=VALUE ...]"; the reference is BENCH's record with those
 * values, the record's own values for every other variable both have, and
 * the first of its defaults for the rest.  NULL when there is none, or it
 * has no value, or it is the record itself.
 */
const struct ptb_record *ptb_relative_ref(const struct ptb_runfile *run,
					  const struct ptb_record *r);
/* "0.12 x yield" (ratio and the reference's name and set values) into
 * buf; false when the record has no reference. */
bool ptb_relative_text(const struct ptb_runfile *run, const struct ptb_record *r, char *buf,
		       size_t len);

/* The derived cache-levels records, as a section of the run table. */
void ptb_report_levels(FILE *out, const struct ptb_runfile *run, struct ptb_footnotes *fn);

#endif
