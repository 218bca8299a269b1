/* SPDX-License-Identifier: MIT */
/*
 * Assignments of independent variables (`-p VAR=...`): strict parsing of
 * values against a variable's domain, checking a run's assignments against
 * its benchmarks, and the assignments that concern one benchmark.
 */
#ifndef PTB_ENGINE_ASSIGN_H
#define PTB_ENGINE_ASSIGN_H

#include <stdbool.h>
#include <stddef.h>

#include "ptbench.h"

/* "VAR=LIST": the name's length, with *list at the values; -1 when malformed. */
int ptb_assign_split(const char *a, const char **list);
/* Every assignment has the form VAR=LIST: 0, or -1 with err. */
int ptb_assign_syntax(const char *const *assign, int nassign, char *err, size_t errlen);
/* Whether LIST is one range LO..HI of a numeric variable. */
bool ptb_assign_is_range(const struct ptb_param *par, const char *list);
/* Whether v[0..len) is one of a comma-separated domain's values. */
bool ptb_in_domain(const char *domain, const char *v, size_t len);
/* One value v[0..len) of a variable: 0, with its canonical text in canon
 * (if given: "016" -> "16"), or -1 with err. */
int ptb_value_check(const struct ptb_bench *b, const struct ptb_param *par, const char *v,
		    size_t len, char *canon, size_t canonlen, char *err, size_t errlen);
/* A range LO..HI within the variable's [min, max]: 0, or -1 with err. */
int ptb_range_parse(const struct ptb_bench *b, const struct ptb_param *par, const char *list,
		    long *lo, long *hi, char *err, size_t errlen);

/* Validate assignments against a whole registry before anything runs: a
 * variable no selected benchmark has, or a value no benchmark accepts, is
 * an error.  0, or -1 with err = one line. */
int ptb_assign_check(const struct ptb_bench *const *benches, int n,
		     const char *const *assign, int nassign, char *err, size_t errlen);

/* The assignments that concern one benchmark, enumerated values outside
 * its domain dropped; NULL with why = one line when a variable it has
 * keeps no value (the benchmark is then skipped), or out of memory. */
struct ptb_assign_set {
	int n;
	char *assign[];
};
struct ptb_assign_set *ptb_assign_narrow(const struct ptb_bench *b, const char *const *assign,
					 int nassign, char *why, size_t whylen);
void ptb_assign_free(struct ptb_assign_set *set);

#endif
