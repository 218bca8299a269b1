/* SPDX-License-Identifier: MIT */
/*
 * Validation of a result document before anything reads it: the gate in
 * front of the typed model, `report`, `table` and `compare`.
 */
#ifndef PTB_RECORD_VALIDATE_H
#define PTB_RECORD_VALIDATE_H

#include <jansson.h>
#include <stddef.h>

#include "record/bounds.h"

/* The schema's version (1 or 2), or -1 with err = one line.  Every field
 * a reader uses has its type checked.  In ptbench/1 an ok or unstable
 * record needs mean, median and samples -- only mean if it has a "source"
 * (a figure transcribed from a publication); in ptbench/2 it needs value
 * and trials, and each trial is checked as a ptbench/1 measurement.
 * Last, every value is within the bounds of record/bounds.h. */
int ptb_run_validate(const json_t *run, char *err, size_t errlen);

#endif
