/* SPDX-License-Identifier: MIT */
/*
 * The marks a table sets beside a figure or a label instead of a footnote
 * per row, each explained once in a legend under the table: "*" for a
 * figure whose trials disagree more than the stopping rule allows, "~" for
 * one whose trials fall into modes, "!" for one measured while other
 * processes used its PUs, "(time slice)" for a row bounded by the
 * scheduler.  A new mark is one enum value and one row of ptb_legend.
 */
#ifndef PTB_REPORT_LEGEND_H
#define PTB_REPORT_LEGEND_H

#include <stdbool.h>
#include <stdio.h>

#include "record/model.h"

enum ptb_mark {
	PTB_MARK_UNSTABLE,       /* status unstable */
	PTB_MARK_MODES,          /* the trials fall into more than one mode */
	PTB_MARK_DISTURBED,      /* "disturbed": others used the point's PUs */
	PTB_MARK_TIME_SLICE,     /* a row label's: struct ptb_row.time_sliced */
	PTB_MARK_COUNT
};

struct ptb_legend_entry {
	const char *mark;        /* as printed beside the figure or label */
	const char *text;        /* one line in plain words */
};
extern const struct ptb_legend_entry ptb_legend[PTB_MARK_COUNT];

/* The marks of a record's figure (bits 1 << enum ptb_mark); modes stand
 * for unstable, which they make a point. */
unsigned ptb_record_marks(const struct ptb_record *r);
/* The marks of the bits as printed beside a figure: "*", "~", "". */
void ptb_marks_text(char *buf, size_t len, unsigned marks);
/* "MARK  TEXT" of the i-th mark set in used, or NULL past the last. */
const char *ptb_legend_line(unsigned used, int i, char *buf, size_t len);
/* Every used mark's line, each prefixed by indent. */
void ptb_legend_print(FILE *out, unsigned used, const char *indent);

/* A record's reason less what its marks already say (the harness's words
 * for an unstable point or its modes, a derived figure's unstable inputs),
 * so that a footnote keeps only what the reader needs beyond the mark; ""
 * when nothing is left. */
void ptb_reason_unmarked(char *buf, size_t len, const struct ptb_record *r);

#endif
