/* SPDX-License-Identifier: MIT */
/*
 * Placements a machine cannot have.  A run on one package has no
 * cross_package pair of PUs, one without SMT no smt pair, and each point
 * at such a placement is recorded N/A.  Tables fold those points into one
 * line per machine ("not on this machine: smt, cross_package, cross_numa")
 * instead of a footnoted N/A row per benchmark; so are the points of a
 * count of threads that needs more PUs than the run could use.  What the machine has is
 * read from the run file's context (the topology of the PUs the run could
 * use), so a point N/A for any other reason -- the library refused, an
 * input was missing -- keeps its row.
 */
#ifndef PTB_REPORT_ABSENT_H
#define PTB_REPORT_ABSENT_H

#include <stdbool.h>
#include <stddef.h>

#include "record/model.h"

/* The placement (enum ptb_placement) that r is N/A at because the run's
 * machine lacks it, or -1: r has a value, names no placement, or the
 * context does not say what the machine has. */
int ptb_absent_placement(const struct ptb_runfile *run, const struct ptb_record *r);

/* What a run's machine lacks for the points folded so far. */
struct ptb_absent {
	unsigned placements;    /* bit p: placement p (enum ptb_placement) */
	int need_pus;           /* the fewest PUs a folded point needed; 0: none */
	int pus;                /* the PUs the run could use */
};

/* Is r N/A for what its machine lacks: a placement, or more PUs than the
 * run could use ("needs N PUs", one thread each, from the harness, with N
 * above the context's count)?  If so, and a is not NULL, it is added to *a. */
bool ptb_absent_add(const struct ptb_runfile *run, const struct ptb_record *r,
		    struct ptb_absent *a);

/* What was folded, with what the machine has instead: "smt, cross_numa
 * (1 PU per core, 1 NUMA node); 3 or more PUs, one per thread (2 PUs)";
 * "" for nothing. */
void ptb_absent_text(char *buf, size_t len, const struct ptb_absent *a);

#endif
