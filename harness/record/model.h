/* SPDX-License-Identifier: MIT */
/*
 * The typed result model: a result file read once into structs, so that the
 * reporters, `table`, `compare` and the derivations ask each record the
 * same questions and get the same answers -- does it have a value, is it
 * derived from other records, what is its point key -- instead of each
 * re-deriving them from the JSON.  The JSON stays reachable (`json`) for
 * the fields only one reader needs (a benchmark's notes, LogP inputs).
 * See docs/design.md, "The result file".
 */
#ifndef PTB_RECORD_MODEL_H
#define PTB_RECORD_MODEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ptbench.h"

/* The reason of a point that would have been ok but for the disturbance
 * of its machine (docs/design.md section 13); tables mark such a point
 * with PTB_DISTURBED_MARK alone, explained once, instead of a footnote. */
#define PTB_DISTURBED_REASON "measured while other processes used the PUs it ran on"
#define PTB_DISTURBED_MARK "!"

/* One record of a result file. */
struct ptb_record {
	const json_t *json;         /* the record as read */
	const char *bench;
	const json_t *params;       /* an object of strings; never NULL */
	char *key;                  /* "bench var=value ..." in variable-name order */
	enum ptb_status status;
	const char *status_name;    /* as written, for messages */
	const char *reason;         /* NULL when there is none */
	bool has_value;             /* ok or unstable: the figures below mean something */
	bool is_derived;            /* computed from other records (LogP) */
	bool is_published;          /* transcribed from a publication (has "source") */
	double value;               /* the point's figure in ns; NAN without one */
	double ci_lo, ci_hi;        /* the 95 % CI of the figure; NAN when not known */
	/* ptbench/2: the kept trials' estimates, independent replications whose
	 * spread includes run-to-run variation; ptbench/1: the per-timing
	 * values of its one measurement, which share one state of the machine. */
	double *samples;            /* in ns, in file order */
	double *iterations;         /* of each sample's trial (v1: the point's); NAN unknown */
	int nsamples;
	bool samples_are_trials;
	bool disturbed;             /* "disturbed": true -- the machine was not the benchmark's */
	bool disturbed_only;        /* unstable for that reason alone */
};

/* A result file. */
struct ptb_runfile {
	json_t *doc;                /* the whole document (owned) */
	const char *path;           /* as given; NULL for a document in memory */
	const char *status;         /* complete, interrupted, running */
	int version;                /* of the schema: 1 or 2 */
	const json_t *context;
	const char *host, *brand, *date;   /* NULL when absent */
	size_t n;
	struct ptb_record *rec;     /* in file order */
	json_t *index;              /* point key -> the first record with it */
	const char *duplicate;      /* a point key that appears twice, or NULL */
};

/* Read, validate (record/validate.h) and model a file.  NULL with err = one
 * line naming the file on failure. */
struct ptb_runfile *ptb_runfile_load(const char *path, char *err, size_t errlen);
/* Model a document already in memory; takes a reference to doc. */
struct ptb_runfile *ptb_runfile_of(json_t *doc, char *err, size_t errlen);
void ptb_runfile_free(struct ptb_runfile *run);

/* The first record with this point key, or NULL. */
const struct ptb_record *ptb_runfile_find(const struct ptb_runfile *run, const char *key);

/* "bench var=value ..." with the variables in name order, so that the
 * order a writer put them in does not matter.  A malloc'd string. */
char *ptb_point_key(const char *bench, const json_t *params);

/* A variable's value as a number: NAN when it is a name, or absent.  The
 * one way a reader takes a number out of a point's variables, so that none
 * steps through a size of "inf" (record/validate.h bounds them). */
double ptb_param_num(const struct ptb_record *r, const char *var);

/* Field access that never fails: NAN / NULL when absent or mistyped. */
double ptb_jnum(const json_t *obj, const char *key);
const char *ptb_jstr(const json_t *obj, const char *key);

#endif
