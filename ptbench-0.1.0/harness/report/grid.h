/* SPDX-License-Identifier: MIT */
/*
 * The one renderer of every table ptbench prints: a rectangle of strings,
 * filled by a reporter or a tool, printed as aligned text (a run's table),
 * Markdown, CSV or HTML -- so that no two tables align, quote or escape
 * differently.  The first `left` columns hold text and are left-aligned;
 * the others hold figures and are right-aligned.  Row 0 is the header.
 */
#ifndef PTB_REPORT_GRID_H
#define PTB_REPORT_GRID_H

#include <stdbool.h>
#include <stdio.h>

enum ptb_grid_style { PTB_GRID_TEXT, PTB_GRID_MD, PTB_GRID_CSV, PTB_GRID_HTML };

struct ptb_grid {
	int nrows, ncols, left;
	/* A text column 0 is printed on the first row of a run of equal
	 * values only, as the paper prints a group's name. */
	bool blank_repeats;
	char **cell;            /* nrows x ncols; NULL = "" */
	char **tail;            /* per row: marks printed after its last cell */
	bool *span;             /* per row: cell 0 spans the text columns */
};

/* 0, or -1 out of memory. */
int ptb_grid_init(struct ptb_grid *g, int nrows, int ncols, int left);
void ptb_grid_set(struct ptb_grid *g, int r, int c, const char *s);
const char *ptb_grid_at(const struct ptb_grid *g, int r, int c);
/* Text style only: the row's text is one cell spanning the text columns
 * (a row with no group), and `tail` follows its last non-empty cell
 * without alignment (footnote marks).  Other styles append the tail to
 * that cell. */
void ptb_grid_span(struct ptb_grid *g, int r);
void ptb_grid_tail(struct ptb_grid *g, int r, const char *tail);
/* CSV: each row prefixed by `lead` when not NULL and padded with empty
 * fields to `width` fields. */
void ptb_grid_print(FILE *out, const struct ptb_grid *g, enum ptb_grid_style style,
		    const char *lead, int width);
void ptb_grid_free(struct ptb_grid *g);

#endif
