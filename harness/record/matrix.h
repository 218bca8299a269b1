/* SPDX-License-Identifier: MIT */
/*
 * Matrices of PU pairs derived from measured points (docs/design.md): a
 * benchmark whose descriptor names a `matrix` measures one ordered pair of
 * PUs per point and notes its "sender", "receiver" and placement "class";
 * after the run its points become one record of that name holding `pus`
 * (every PU of a pair), `matrix` (matrix[i][j]: the figure of sender
 * pus[i] and receiver pus[j], null where no pair was measured or it has no
 * value) and `classes` (per placement class: min, median, max and the
 * number of pairs with a value).  Nothing is measured here.
 */
#ifndef PTB_RECORD_MATRIX_H
#define PTB_RECORD_MATRIX_H

#include <jansson.h>

#include "ptbench.h"
#include "record/model.h"

/* The classes a matrix is summarized by, in the order readers show them. */
#define PTB_MATRIX_NCLASSES 4
extern const enum ptb_placement ptb_matrix_classes[PTB_MATRIX_NCLASSES];

struct ptb_matrix_class {
	int pairs;                  /* with a value */
	double min, median, max;    /* NAN when pairs == 0 */
};

/* The summary of n pairs, each a class name and a figure (NAN: none), per
 * class of ptb_matrix_classes; pairs of another class are left out. */
void ptb_matrix_summarize(const char *const *cls, const double *ns, int n,
			  struct ptb_matrix_class out[PTB_MATRIX_NCLASSES]);

/* New derived records, one per benchmark with a `matrix` that has points
 * in the run; an empty array when there are none. */
json_t *ptb_matrix_derive(const struct ptb_runfile *run);

/* The PU a matrix point noted as its "sender" or "receiver", or -1 when
 * it noted none (a point may lack either). */
int ptb_matrix_note_pu(const json_t *notes, const char *key);

/* Whether a record is a derived matrix (it has one). */
bool ptb_matrix_is(const struct ptb_record *rec);

#endif
