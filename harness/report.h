/* SPDX-License-Identifier: MIT */
/*
 * Reporters turn a run (a validated ptbench/1 document) into text.  They
 * never measure; benchmarks never print.  Each format has a golden test.
 */
#ifndef PTB_REPORT_H
#define PTB_REPORT_H

#include <jansson.h>
#include <stdio.h>

enum ptb_format { PTB_FMT_TABLE, PTB_FMT_CSV, PTB_FMT_JSON, PTB_FMT_GBENCH, PTB_FMT_COUNT };

int ptb_format_from_name(const char *name);   /* -1 if unknown */
const char *ptb_format_name(enum ptb_format f);
/* 0, or -1 on a write error. */
int ptb_report(FILE *out, const json_t *run, enum ptb_format f);

#endif
