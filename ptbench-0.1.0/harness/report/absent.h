/* SPDX-License-Identifier: MIT */
/*
 * Placements a machine cannot have.  A run on one package has no
 * cross_package pair of PUs, one without SMT no smt pair, and each point
 * at such a placement is recorded N/A.  Tables fold those points into one
 * line per machine ("not on this machine: smt, cross_package, cross_numa")
 * instead of a footnoted N/A row per benchmark.  What the machine has is
 * read from the run file's context (the topology of the PUs the run could
 * use), so a point N/A for any other reason -- the library refused, an
 * input was missing -- keeps its row.
 */
#ifndef PTB_REPORT_ABSENT_H
#define PTB_REPORT_ABSENT_H

#include <stddef.h>

#include "record/model.h"

/* The placement (enum ptb_placement) that r is N/A at because the run's
 * machine lacks it, or -1: r has a value, names no placement, or the
 * context does not say what the machine has. */
int ptb_absent_placement(const struct ptb_runfile *run, const struct ptb_record *r);

/* The placements of a mask (bit p for placement p) with what the machine
 * lacks for each: "smt, cross_numa (1 PU per core, 1 NUMA node)". */
void ptb_absent_text(char *buf, size_t len, unsigned mask);

#endif
