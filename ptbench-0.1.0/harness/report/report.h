/* SPDX-License-Identifier: MIT */
/*
 * Reporters turn a run (the typed model of a result file, record/model.h)
 * into text.  They never measure; benchmarks never print.  Each format has
 * a golden test.
 */
#ifndef PTB_REPORT_H
#define PTB_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "record/model.h"

enum ptb_format { PTB_FMT_TABLE, PTB_FMT_CSV, PTB_FMT_JSON, PTB_FMT_GBENCH, PTB_FMT_COUNT };

/* What a reporter may be asked beyond the run; formats without the choice
 * ignore it. */
struct ptb_report_opts {
	/* table: a row for every point, also those N/A at a placement the
	 * machine lacks (report/absent.h), which are otherwise one line */
	bool all_rows;
};

int ptb_format_from_name(const char *name);   /* -1 if unknown */
const char *ptb_format_name(enum ptb_format f);
/* 0, or -1 on a write error.  ptb_report uses the default options. */
int ptb_report(FILE *out, const struct ptb_runfile *run, enum ptb_format f);
int ptb_report_with(FILE *out, const struct ptb_runfile *run, enum ptb_format f,
		    const struct ptb_report_opts *o);

/* The formats, one file each; called by ptb_report in the C locale. */
void ptb_report_table(FILE *out, const struct ptb_runfile *run,
		      const struct ptb_report_opts *o);
void ptb_report_csv(FILE *out, const struct ptb_runfile *run,
		    const struct ptb_report_opts *o);
void ptb_report_json(FILE *out, const struct ptb_runfile *run,
		     const struct ptb_report_opts *o);
void ptb_report_gbench(FILE *out, const struct ptb_runfile *run,
		       const struct ptb_report_opts *o);
/* A derived matrix of PU pairs, for the table reporter (matrix-table.c). */
void ptb_report_matrix(FILE *out, const struct ptb_record *r);

#endif
