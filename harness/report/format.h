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
#include <stdio.h>

/* ns as µs the way Table 1 prints it: three significant digits, never
 * fewer integer digits than the value has, never scientific notation
 * (265.9 -> "266", 0.0383 -> "0.0383").  "" for NAN. */
void ptb_fmt_us(char *buf, size_t len, double ns);
/* A number as data: integers exactly, reals in the fewest digits that
 * read back to the same double.  "" for NULL or a non-number. */
void ptb_fmt_jnum(char *buf, size_t len, const json_t *v);
/* text with every number written with a decimal point or an exponent
 * rounded to `sig` significant digits ("cpu_share = 0.997580249135801" ->
 * "cpu_share = 0.998", "1.455e+04 ns" -> "14600 ns"); integers, which
 * count or name things, stay as they are. */
void ptb_fmt_round(char *buf, size_t len, const char *text, int sig);
/* Text wrapped at spaces to `width` terminal columns, every line after the
 * first indented by `indent` spaces; a word longer than a line stays whole. */
void ptb_fputs_wrapped(FILE *out, const char *text, int width, int indent);
/* "k=v" pairs of a params object joined by sep ("placement=cross_core");
 * a value may be a string or a number ("threads=2"). */
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
/* As ptb_footnotes_print, each note wrapped to `width` columns under its
 * text ("[12] " indents what follows). */
void ptb_footnotes_print_wrapped(FILE *out, const struct ptb_footnotes *f, int width);
void ptb_footnotes_free(struct ptb_footnotes *f);

#endif
