/* SPDX-License-Identifier: MIT */
/*
 * The bounds on every value of a result document (bounds.h), the last
 * pass of its validation (record/validate.c).
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "record/bounds.h"
#include "text/text.h"

__attribute__((format(printf, 3, 4)))
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ptb_verrf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The fields the readers know get their domains in validate.c.  This pass
 * bounds what they do not know, anywhere in the document: a string (or a
 * key) is at most PTB_STRING_MAX bytes, so no name can make a report print
 * gigabytes (a host is a column's width in every row); a number lies within
 * +-2^63 (an integer's own range), so that whatever a reader adds,
 * multiplies or steps through in powers stays finite and ends; a
 * variable's value that is a number ("size": "65536") is such a number
 * too.  A file that breaks them is refused, never clipped: its figures
 * could not be trusted either. */
double ptb_number_text(const char *s)
{
	char *end;
	double v = s && *s ? strtod(s, &end) : NAN;
	return !isnan(v) && !*end && isfinite(v) && fabs(v) <= PTB_NUMBER_MAX ? v : NAN;
}

/* A variable's value: a name, or a number within the bounds. */
static int check_number_text(char *err, size_t errlen, const char *path, const char *s)
{
	char *end;
	double v = strtod(s, &end);
	if (!*s || *end || (isfinite(v) && fabs(v) <= PTB_NUMBER_MAX))
		return 0;
	return fail(err, errlen, "%s = '%.40s' is not a finite number within +-2^63", path, s);
}

/* path + ".key" or "[i]", cut to fit: for messages only. */
static void step(char *out, size_t len, const char *path, const char *key, size_t i)
{
	if (key)
		snprintf(out, len, "%.120s%s%.40s", path, *path ? "." : "", key);
	else
		snprintf(out, len, "%.120s[%zu]", path, i);
}

/* The bytes of "bench var=value ..." when v is a point (it has params),
 * else 0. */
static size_t point_name_length(const json_t *v)
{
	const json_t *params = json_object_get(v, "params"), *e;
	const char *var;
	size_t n;
	if (!json_is_object(params))
		return 0;
	n = json_string_length(json_object_get(v, "bench"));
	json_object_foreach((json_t *)params, var, e)
		n += strlen(var) + 2 + json_string_length(e);
	return n;
}

/* What a value is to the pass: any value, a point's variables, or one
 * variable's value. */
enum place { ANY, PARAMS, VARIABLE };

static int check_values(char *err, size_t errlen, const json_t *v, const char *path, enum place place)
{
	char sub[200];
	const char *key;
	json_t *e;
	size_t i;
	if (json_is_string(v)) {
		size_t n = json_string_length(v);
		if (n > PTB_STRING_MAX)
			return fail(err, errlen, "%s: a string of %zu bytes; a result file's are at most %d",
				   path, n, PTB_STRING_MAX);
		return place == VARIABLE ? check_number_text(err, errlen, path, json_string_value(v)) : 0;
	}
	if (json_is_number(v)) {
		double x = json_number_value(v);
		if (!isfinite(x) || fabs(x) > PTB_NUMBER_MAX)
			return fail(err, errlen, "%s = %g is not a finite number within +-2^63", path, x);
		return 0;
	}
	if (point_name_length(v) > PTB_NAME_MAX)
		return fail(err, errlen, "%s: the point's name (its bench and variables) has %zu "
			    "bytes; a result file's have at most %d", path, point_name_length(v),
			    PTB_NAME_MAX);
	json_object_foreach((json_t *)v, key, e) {
		if (strlen(key) > PTB_STRING_MAX)
			return fail(err, errlen, "%s: a key of %zu bytes; a result file's are at most %d", path,
				   strlen(key), PTB_STRING_MAX);
		step(sub, sizeof sub, path, key, 0);
		if (check_values(err, errlen, e, sub, place == PARAMS ? VARIABLE
				 : !strcmp(key, "params") ? PARAMS : ANY) < 0)
			return -1;
	}
	json_array_foreach(v, i, e) {
		step(sub, sizeof sub, path, NULL, i);
		if (check_values(err, errlen, e, sub, ANY) < 0)
			return -1;
	}
	return 0;
}

int ptb_run_bounds(const json_t *doc, char *err, size_t errlen)
{
	return check_values(err, errlen, doc, "", ANY);
}
