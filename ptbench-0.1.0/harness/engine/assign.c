/* SPDX-License-Identifier: MIT */
/*
 * Assignments of independent variables, `-p VAR=V1,V2` and `-p VAR=LO..HI`:
 * values checked strictly against a variable's domain -- an enumerated
 * value must be in the domain, a numeric one a whole base-10 integer in
 * [min, max] -- the run's assignments checked against the selected
 * benchmarks before anything runs, and each benchmark's share of them.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/assign.h"
#include "text/text.h"

/* A whole base-10 integer: no blanks, no trailing text, no overflow. */
static bool parse_long(const char *s, size_t len, long *out)
{
	char buf[32], *end;
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	if (!(buf[0] >= '0' && buf[0] <= '9') && buf[0] != '-' && buf[0] != '+')
		return false;
	errno = 0;
	*out = strtol(buf, &end, 10);
	return errno == 0 && *end == '\0';
}

bool ptb_in_domain(const char *domain, const char *v, size_t len)
{
	for (const char *d = domain; *d;) {
		size_t n = strcspn(d, ",");
		if (n == len && strncmp(d, v, len) == 0)
			return true;
		d += n + (d[n] == ',');
	}
	return false;
}

bool ptb_assign_is_range(const struct ptb_param *par, const char *list)
{
	return !par->domain && strstr(list, "..") && !strchr(list, ',');
}

int ptb_assign_split(const char *a, const char **list)
{
	const char *eq = strchr(a, '=');
	if (!eq || eq == a)
		return -1;
	*list = eq + 1;
	return (int)(eq - a);
}

static void malformed(const char *a, char *err, size_t errlen)
{
	ptb_errf(err, errlen, "-p '%s': expected VAR=V1,V2,... or VAR=LO..HI", a);
}

int ptb_value_check(const struct ptb_bench *b, const struct ptb_param *par,
		      const char *v, size_t len, char *canon, size_t canonlen,
		      char *err, size_t errlen)
{
	long x;
	if (par->domain) {
		if (!ptb_in_domain(par->domain, v, len)) {
			ptb_errf(err, errlen, "%s: %s: '%.*s' is not one of %s", b->name,
			     par->name, (int)len, v, par->domain);
			return -1;
		}
		if (canon)
			snprintf(canon, canonlen, "%.*s", (int)len, v);
		return 0;
	}
	if (!parse_long(v, len, &x) || x < par->min || x > par->max) {
		ptb_errf(err, errlen, "%s: %s: '%.*s' is not an integer in [%ld, %ld]", b->name,
		     par->name, (int)len, v, par->min, par->max);
		return -1;
	}
	if (canon)
		snprintf(canon, canonlen, "%ld", x);
	return 0;
}

int ptb_range_parse(const struct ptb_bench *b, const struct ptb_param *par,
		       const char *list, long *lo, long *hi, char *err, size_t errlen)
{
	const char *dots = strstr(list, "..");
	if (!parse_long(list, dots - list, lo) || !parse_long(dots + 2, strlen(dots + 2), hi) ||
	    *lo > *hi || *lo < par->min || *hi > par->max) {
		ptb_errf(err, errlen, "%s: %s: '%s' is not a range LO..HI of integers in [%ld, %ld] "
		     "with LO <= HI", b->name, par->name, list, par->min, par->max);
		return -1;
	}
	return 0;
}

int ptb_assign_syntax(const char *const *assign, int nassign, char *err,
			       size_t errlen)
{
	const char *list;
	for (int i = 0; i < nassign; i++)
		if (ptb_assign_split(assign[i], &list) < 0) {
			malformed(assign[i], err, errlen);
			return -1;
		}
	return 0;
}

static const struct ptb_param *find_param(const struct ptb_bench *b, const char *name,
					  size_t len)
{
	for (int i = 0; b->params && b->params[i].name; i++)
		if (strlen(b->params[i].name) == len && strncmp(b->params[i].name, name, len) == 0)
			return &b->params[i];
	return NULL;
}

/* Some benchmark having the variable accepts this item; else err is the
 * first such benchmark's complaint. */
static int item_accepted(const struct ptb_bench *const *benches, int n, const char *name,
			 size_t namelen, const char *list, const char *item, size_t len,
			 char *err, size_t errlen)
{
	bool complained = false;
	char scratch[256];
	for (int i = 0; i < n; i++) {
		const struct ptb_param *par = find_param(benches[i], name, namelen);
		long lo, hi;
		if (!par)
			continue;
		char *e = complained ? scratch : err;
		size_t elen = complained ? sizeof scratch : errlen;
		int rc = ptb_assign_is_range(par, list)
			? ptb_range_parse(benches[i], par, list, &lo, &hi, e, elen)
			: ptb_value_check(benches[i], par, item, len, NULL, 0, e, elen);
		if (rc == 0)
			return 0;
		complained = true;
	}
	return -1;
}

int ptb_assign_check(const struct ptb_bench *const *benches, int n,
		     const char *const *assign, int nassign, char *err, size_t errlen)
{
	if (ptb_assign_syntax(assign, nassign, err, errlen) < 0)
		return -1;
	for (int a = 0; a < nassign; a++) {
		const char *list = NULL;
		int namelen = ptb_assign_split(assign[a], &list);
		bool known = false;
		for (int i = 0; i < n && !known; i++)
			known = find_param(benches[i], assign[a], namelen) != NULL;
		if (!known) {
			ptb_errf(err, errlen, "no selected benchmark has a variable '%.*s'",
			     namelen, assign[a]);
			return -1;
		}
		for (const char *s = list;;) {
			size_t len = strcspn(s, ",");
			if (item_accepted(benches, n, assign[a], namelen, list, s, len,
					  err, errlen) < 0)
				return -1;
			if (!s[len])
				break;
			s += len + 1;
		}
	}
	return 0;
}

/*
 * A benchmark's own view of the run's assignments: the ones naming its
 * variables, each enumerated list cut down to the values of its domain
 * (another selected benchmark may accept the others).  Numeric lists are
 * kept whole: their range is checked by ptb_sweep_new.
 */
struct ptb_assign_set *ptb_assign_narrow(const struct ptb_bench *b, const char *const *assign,
					 int nassign, char *why, size_t whylen)
{
	struct ptb_assign_set *set = calloc(1, sizeof *set + nassign * sizeof set->assign[0]);
	if (!set) {
		ptb_errf(why, whylen, "out of memory");
		return NULL;
	}
	for (int i = 0; i < nassign; i++) {
		const char *list;
		int namelen = ptb_assign_split(assign[i], &list);
		const struct ptb_param *par = namelen > 0 ? find_param(b, assign[i], namelen) : NULL;
		if (!par)
			continue;
		char *out = malloc(strlen(assign[i]) + 1), *end = out;
		if (!out) {
			ptb_errf(why, whylen, "out of memory");
			ptb_assign_free(set);
			return NULL;
		}
		set->assign[set->n++] = out;
		end += sprintf(out, "%.*s=", namelen, assign[i]);
		char *first = end;
		for (const char *v = list; *v;) {
			size_t n = strcspn(v, ",");
			if (!par->domain || ptb_in_domain(par->domain, v, n))
				end += sprintf(end, "%s%.*s", end == first ? "" : ",", (int)n, v);
			v += n + (v[n] == ',');
		}
		if (end == first) {
			ptb_errf(why, whylen, "%s: it takes none of %s", b->name, assign[i]);
			ptb_assign_free(set);
			return NULL;
		}
	}
	return set;
}

void ptb_assign_free(struct ptb_assign_set *set)
{
	for (int i = 0; set && i < set->n; i++)
		free(set->assign[i]);
	free(set);
}
