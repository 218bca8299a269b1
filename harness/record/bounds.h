/* SPDX-License-Identifier: MIT */
/*
 * Bounds that hold for every value of a result document, wherever it is,
 * so that no reader loops, overflows or prints without end on a value it
 * does not check itself.  A file beyond them is refused, never clipped.
 */
#ifndef PTB_RECORD_BOUNDS_H
#define PTB_RECORD_BOUNDS_H

#include <jansson.h>
#include <stddef.h>

/* Bounds on every value of a document, wherever it is: a string or key
 * holds at most PTB_STRING_MAX bytes, a number (and a variable's value
 * that is a number) lies within +-PTB_NUMBER_MAX.  A file beyond them is
 * refused.  ptbench writes shorter strings (the longest, the command line,
 * is cut at 4095 bytes); a name far longer would be printed once per row
 * of a table whose column it sets. */
#define PTB_STRING_MAX 4096
/* A point's name, "bench var=value ...", which some formats repeat for
 * each of its trials (gbench's repetitions), is at most PTB_NAME_MAX
 * bytes; ptbench's are a few dozen. */
#define PTB_NAME_MAX 1024
#define PTB_NUMBER_MAX 0x1p63

/* s as a number when it is wholly one, finite and within the bounds;
 * NAN otherwise (a name, or a number no reader may use). */
double ptb_number_text(const char *s);

/* 0 when every value of doc is within the bounds; -1 with err = one line
 * naming the first that is not ("context.host: a string of ...").  A
 * value of a point's "params" that is wholly a number is a number here. */
int ptb_run_bounds(const json_t *doc, char *err, size_t errlen);

#endif
