/* SPDX-License-Identifier: MIT */
/*
 * How ptbench writes numbers and text wherever it prints them, so that a
 * value reads the same in a run's table, the cross-platform table and the
 * regression report: times in µs as Table 1 prints them, numbers as data,
 * variables as "k=v", CSV fields quoted as RFC 4180 says, HTML escaped, and
 * numbered footnotes.
 */
#ifndef PTB_REPORT_FORMAT_H
#define PTB_REPORT_FORMAT_H

#include <jansson.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdio.h>

/* ns as µs the way Table 1 prints it: three significant digits, never
 * fewer integer digits than the value has, never scientific notation
 * (265.9 -> "266", 0.0383 -> "0.0383").  "" for NAN. */
void ptb_fmt_us(char *buf, size_t len, double ns);

/* What a value marked PTB_DISTURBED_MARK means, said once under a table
 * (docs/design.md section 11). */
extern const char ptb_disturbed_legend[];
/* As the run's own table marks an unstable value. */
#define PTB_UNSTABLE_MARK "*"
/* The marks a table's values carry, each with its legend: their count. */
int ptb_mark_legends(bool unstable, bool disturbed, const char *mark[2], const char *text[2]);
/* A number as data: integers exactly, reals in the fewest digits that
 * read back to the same double.  "" for NULL or a non-number. */
void ptb_fmt_jnum(char *buf, size_t len, const json_t *v);
/* "k=v" pairs of a params object joined by sep ("placement=cross_core"). */
void ptb_fmt_params(char *buf, size_t len, const json_t *params, const char *sep);

/* The strings of an array joined by sep (other elements are skipped). */
void ptb_fmt_join(char *buf, size_t len, const json_t *array, const char *sep);

/* One CSV field, quoted when it holds a comma or a quote; control
 * characters (line breaks too) escaped as ptb_printable does. */
void ptb_csv_field(FILE *out, const char *s);
/* Text with &, <, > and " escaped for HTML and XML, and control characters
 * written as ptb_printable does. */
void ptb_html_text(FILE *out, const char *s);

/*
 * Numbered footnotes of a table, "[1] reason".  Identical texts share a
 * number, so ten cells that are N/A for the same reason point at one note.
 */
struct ptb_footnotes {
	char **text;
	int n, cap;
	json_t *index;          /* text -> number, so that lookups stay O(1) */
};
/* The note's number (1-based), or 0 when out of memory. */
int ptb_footnote(struct ptb_footnotes *f, const char *text);
void ptb_footnotes_print(FILE *out, const struct ptb_footnotes *f);
void ptb_footnotes_free(struct ptb_footnotes *f);

#endif
