/* SPDX-License-Identifier: MIT */
/*
 * The vocabulary of a result document's validation (record/validate.c):
 * where a check is, the kinds and domains of values, and the checks of a
 * field, of an array's members and of a record against a table of rules.
 * Private to record/.
 */
#ifndef PTB_RECORD_CHECK_H
#define PTB_RECORD_CHECK_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* Where in the document a check is, for its message ("results[3]"). */
struct ptb_check {
	char *err;
	size_t errlen;
	char where[64];
	/* The record is a difference (harness/ptbench.h `reference`: its
	 * notes carry `reference_ns`): its times are overheads, which a
	 * noisy timing may put below zero. */
	bool difference;
};

enum kind { K_STRING, K_NUMBER, K_OBJECT, K_ARRAY, K_SCALAR, K_BOOL };

/*
 * The domain of a number: anything finite, a duration (not negative, under
 * PTB_SAMPLE_MAX_NS), a count (a whole number a reader can convert to any
 * integer type it uses), a figure not below 0, a probability.
 */
enum domain { D_FINITE, D_DURATION, D_COUNT, D_NONNEG, D_UNIT };

/* A per-iteration time is a duration: not negative, and under the 1e15 ns
 * (11 days) that keeps every sum and difference the readers form finite. */
#define PTB_SAMPLE_MAX_NS 1e15
/* Counts up to 2^31 - 1: an int holds them, and no run times more. */
#define PTB_COUNT_MAX 2147483647.0

/*
 * When a field must be there and not null: always, for every point with a
 * value (ok, unstable), or only for those ptbench measured itself -- a
 * figure transcribed from a publication (a record with a "source", like
 * the paper's Table 1 in results/) has a mean but no samples to give.
 */
enum need { OPTIONAL, ALWAYS, MEASURED, SAMPLED };
enum origin { NO_VALUE, PUBLISHED, SAMPLES };

/* Is v in the domain d; d in words ("a duration in [0, 1e15] ns"). */
bool ptb_check_in_domain(double v, enum domain d);
const char *ptb_check_domain_name(enum domain d);

/* One field of a record: its key, kind, domain (of a number) and need. */
struct ptb_field_rule {
	const char *key;
	enum kind kind;
	enum domain domain;
	enum need need;
};
#define NRULES(r) (sizeof (r) / sizeof *(r))

/* Says what is wrong, where (c->where), into c->err: -1. */
__attribute__((format(printf, 2, 3)))
int ptb_check_bad(struct ptb_check *c, const char *fmt, ...);
/* A field's presence, type and, for a number, domain; unless `need`
 * requires it for this record, it may be absent or null. */
int ptb_check_field_in(struct ptb_check *c, const json_t *obj, const char *key, enum kind k,
                       enum domain d, enum need need, enum origin origin);
/* The same, for a field that is no number. */
int ptb_check_field(struct ptb_check *c, const json_t *obj, const char *key, enum kind k,
                    enum need need, enum origin origin);
/* Every element of an array (or member of an object) of one kind. */
int ptb_check_members(struct ptb_check *c, const json_t *v, const char *name, enum kind k,
                      bool nullable);
/* Every rule of f, in order, on one record. */
int ptb_check_fields(struct ptb_check *c, const json_t *rec, const struct ptb_field_rule *f,
                     size_t n, enum origin origin);
/* Every object of an array by the rules; other elements are left to the
 * checks of their kind. */
int ptb_check_objects(struct ptb_check *c, const json_t *array, const char *name,
                      const struct ptb_field_rule *f, size_t n);
/* Every number of an array in one domain. */
int ptb_check_numbers(struct ptb_check *c, const json_t *array, const char *name, enum domain d);

#endif
