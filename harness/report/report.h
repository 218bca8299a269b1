/* SPDX-License-Identifier: MIT */
/*
 * Reporters turn a run (a validated ptbench/1 document) into text.  They
 * never measure; benchmarks never print.  Each format has a golden test.
 * The helpers below the formats are shared with the cross-platform table
 * so that a value reads the same wherever ptbench prints it.
 */
#ifndef PTB_REPORT_H
#define PTB_REPORT_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

enum ptb_format { PTB_FMT_TABLE, PTB_FMT_CSV, PTB_FMT_JSON, PTB_FMT_GBENCH, PTB_FMT_COUNT };

int ptb_format_from_name(const char *name);   /* -1 if unknown */
const char *ptb_format_name(enum ptb_format f);
/* 0, or -1 on a write error. */
int ptb_report(FILE *out, const json_t *run, enum ptb_format f);

/* The formats, one file each; called by ptb_report in the C locale. */
void ptb_report_table(FILE *out, const json_t *run);
void ptb_report_csv(FILE *out, const json_t *run);
void ptb_report_json(FILE *out, const json_t *run);
void ptb_report_gbench(FILE *out, const json_t *run);

/* Field access that never fails: NAN / NULL when absent or mistyped. */
double ptb_jnum(const json_t *obj, const char *key);
const char *ptb_jstr(const json_t *obj, const char *key);

/* ns as µs the way Table 1 prints it: three significant digits, never
 * fewer integer digits than the value has, never scientific notation
 * (265.9 -> "266", 0.0383 -> "0.0383").  "" for NAN. */
void ptb_fmt_us(char *buf, size_t len, double ns);
/* A number as data: integers exactly, reals in the fewest digits that
 * read back to the same double.  "" for NULL or a non-number. */
void ptb_fmt_jnum(char *buf, size_t len, const json_t *v);
/* "k=v" pairs of a params object joined by sep ("placement=cross_core"). */
void ptb_fmt_params(char *buf, size_t len, const json_t *params, const char *sep);
/* Columns a UTF-8 string takes on a terminal (one per code point). */
int ptb_text_width(const char *s);

/*
 * Numbered footnotes of a table, "[1] reason".  Identical texts share a
 * number, so ten cells that are N/A for the same reason point at one note.
 */
struct ptb_footnotes {
	char **text;
	int n, cap;
};
/* The note's number (1-based), or 0 when out of memory. */
int ptb_footnote(struct ptb_footnotes *f, const char *text);
void ptb_footnotes_print(FILE *out, const struct ptb_footnotes *f);
void ptb_footnotes_free(struct ptb_footnotes *f);

#endif
