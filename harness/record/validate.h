/* SPDX-License-Identifier: MIT */
/*
 * Validation of a result document before anything reads it: the gate in
 * front of the typed model, `report`, `table` and `compare`.
 */
#ifndef PTB_RECORD_VALIDATE_H
#define PTB_RECORD_VALIDATE_H

#include <jansson.h>
#include <stddef.h>

/* The schema's version (1 or 2), or -1 with err = one line.  Every field
 * a reader uses has its type checked.  In ptbench/1 an ok or unstable
 * record needs mean, median and samples -- only mean if it has a "source"
 * (a figure transcribed from a publication); in ptbench/2 it needs value
 * and trials, and each trial is checked as a ptbench/1 measurement. */
int ptb_run_validate(const json_t *run, char *err, size_t errlen);

/* Bounds on every value of a document, wherever it is: a string or key
 * holds at most PTB_STRING_MAX bytes, a number (and a variable's value
 * that is a number) lies within +-PTB_NUMBER_MAX.  A file beyond them is
 * refused.  ptbench writes shorter strings (the longest, the command line,
 * is cut at 4095 bytes); a name far longer would be printed once per row
 * of a table whose column it sets. */
#define PTB_STRING_MAX 4096
#define PTB_NUMBER_MAX 0x1p63

/* s as a number when it is wholly one, finite and within the bounds;
 * NAN otherwise (a name, or a number no reader may use). */
double ptb_number_text(const char *s);

#endif
