/* SPDX-License-Identifier: MIT */
/*
 * The data points of one benchmark: the cross product of the values of its
 * independent variables, from their defaults or from `-p VAR=V1,V2`.  A
 * numeric variable given as a range `-p VAR=LO..HI` is swept coarsely
 * (powers of two) and then refined SKaMPI-style: midpoints are added where
 * linear interpolation between neighbours errs most, up to a point budget.
 */
#ifndef PTB_ENGINE_SWEEP_H
#define PTB_ENGINE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>

#include "ptbench.h"

struct ptb_sweep;

/* assign: "VAR=V1,V2" strings that name this benchmark's variables (others
 * are ignored: they may belong to another benchmark of the run).  sys: the
 * machine whose defaults a variable with `defaults_here` takes, or NULL for
 * the descriptor's.  NULL with err = one line when a value is outside the
 * domain or malformed. */
struct ptb_sweep *ptb_sweep_new(const struct ptb_bench *b, const char *const *assign,
				int nassign, int max_points, const struct ptb_system *sys,
				char *err, size_t errlen);
enum ptb_sweep_step {
	PTB_SWEEP_POINT,    /* values[] and *id describe a point to measure */
	PTB_SWEEP_WAIT,     /* more points come once handed-out points are fed */
	PTB_SWEEP_DONE,
};
/* The next point that can be measured now, its values indexed like
 * b->params; *id names it to ptb_sweep_feed. */
enum ptb_sweep_step ptb_sweep_next(struct ptb_sweep *s, const char *values[PTB_MAX_PARAMS],
				   int *id);
/* The measured value of a point (refinement needs it), in any order; a
 * point that failed is fed NAN. */
void ptb_sweep_feed(struct ptb_sweep *s, int id, double value);
void ptb_sweep_free(struct ptb_sweep *s);

#endif
