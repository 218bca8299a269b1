/* SPDX-License-Identifier: MIT */
/*
 * The checks a validation is made of (record/check.h): each says, in one
 * line naming where, what is wrong with a field.
 */
#include <config.h>

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

#include "record/check.h"
#include "text/text.h"

int ptb_check_bad(struct ptb_check *c, const char *fmt, ...)
{
	char msg[320];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ptb_errf(c->err, c->errlen, "%s%s%s", c->where, *c->where ? ": " : "", msg);
	return -1;
}

static const char *const kind_name[] = {
	[K_STRING] = "a string", [K_NUMBER] = "a number",
	[K_OBJECT] = "an object", [K_ARRAY] = "an array",
	[K_SCALAR] = "a number or a string", [K_BOOL] = "true or false",
};

static bool is_kind(const json_t *v, enum kind k)
{
	switch (k) {
	case K_STRING: return json_is_string(v);
	case K_NUMBER: return json_is_number(v);
	case K_OBJECT: return json_is_object(v);
	case K_ARRAY:  return json_is_array(v);
	case K_SCALAR: return json_is_number(v) || json_is_string(v);
	case K_BOOL:   return json_is_boolean(v);
	}
	return false;
}

bool ptb_check_in_domain(double v, enum domain d)
{
	switch (d) {
	case D_FINITE:   return isfinite(v) && fabs(v) <= PTB_SAMPLE_MAX_NS;
	case D_DURATION: return v >= 0 && v <= PTB_SAMPLE_MAX_NS;
	case D_COUNT:    return v >= 0 && v <= PTB_COUNT_MAX && v == floor(v);
	case D_NONNEG:   return v >= 0 && v <= PTB_SAMPLE_MAX_NS;
	case D_UNIT:     return v >= 0 && v <= 1;
	}
	return false;
}

static const char *const domain_names[] = {
	[D_FINITE] = "a finite number", [D_DURATION] = "a duration in [0, 1e15] ns",
	[D_COUNT] = "a whole number in [0, 2^31)", [D_NONNEG] = "a number in [0, 1e15]",
	[D_UNIT] = "a probability in [0, 1]",
};

const char *ptb_check_domain_name(enum domain d)
{
	return domain_names[d];
}

/* A field's presence, type and, for a number, domain; unless `need`
 * requires it for this record, it may be absent or null. */
int ptb_check_field_in(struct ptb_check *c, const json_t *obj, const char *key, enum kind k,
		    enum domain d, enum need need, enum origin origin)
{
	const json_t *v = json_object_get(obj, key);
	bool required = need == ALWAYS || (need == MEASURED && origin != NO_VALUE) ||
			(need == SAMPLED && origin == SAMPLES);
	if (!v)
		return required ? ptb_check_bad(c, "missing field '%s'", key) : 0;
	if (json_is_null(v))
		return required ? ptb_check_bad(c, "field '%s' is null", key) : 0;
	if (!is_kind(v, k))
		return ptb_check_bad(c, "field '%s' is not %s", key, kind_name[k]);
	if (d == D_DURATION && c->difference)
		d = D_FINITE;
	if (json_is_number(v) && !ptb_check_in_domain(json_number_value(v), d))
		return ptb_check_bad(c, "field '%s' = %g is not %s", key, json_number_value(v), ptb_check_domain_name(d));
	return 0;
}

/* The same, for a field that is no number. */
int ptb_check_field(struct ptb_check *c, const json_t *obj, const char *key, enum kind k,
		 enum need need, enum origin origin)
{
	return ptb_check_field_in(c, obj, key, k, D_FINITE, need, origin);
}

/* Every element of an array (or member of an object) of one kind. */
int ptb_check_members(struct ptb_check *c, const json_t *v, const char *name, enum kind k,
		   bool nullable)
{
	const char *key;
	json_t *e;
	size_t i;
	json_array_foreach(v, i, e)
		if (!is_kind(e, k) && !(nullable && json_is_null(e)))
			return ptb_check_bad(c, "%s[%zu] is not %s", name, i, kind_name[k]);
	json_object_foreach((json_t *)v, key, e)
		if (!is_kind(e, k) && !(nullable && json_is_null(e)))
			return ptb_check_bad(c, "%s.%s is not %s", name, key, kind_name[k]);
	return 0;
}

int ptb_check_fields(struct ptb_check *c, const json_t *rec, const struct ptb_field_rule *f, size_t n,
		  enum origin origin)
{
	for (size_t i = 0; i < n; i++)
		if (ptb_check_field_in(c, rec, f[i].key, f[i].kind, f[i].domain, f[i].need, origin) < 0)
			return -1;
	return 0;
}

/* Every object of an array by the rules; other elements are left to the
 * checks of their kind. */
int ptb_check_objects(struct ptb_check *c, const json_t *array, const char *name,
		   const struct ptb_field_rule *f, size_t n)
{
	char where[sizeof c->where];
	const json_t *e;
	size_t i;
	snprintf(where, sizeof where, "%s", c->where);
	json_array_foreach(array, i, e) {
		snprintf(c->where, sizeof c->where, "%.30s%s%.20s[%zu]", where, *where ? "." : "",
			 name, i % 1000000000);
		if (json_is_object(e) && ptb_check_fields(c, e, f, n, NO_VALUE) < 0)
			return -1;
	}
	snprintf(c->where, sizeof c->where, "%s", where);
	return 0;
}

/* Every number of an array in one domain. */
int ptb_check_numbers(struct ptb_check *c, const json_t *array, const char *name, enum domain d)
{
	const json_t *e;
	size_t i;
	json_array_foreach(array, i, e)
		if (json_is_number(e) && !ptb_check_in_domain(json_number_value(e), d))
			return ptb_check_bad(c, "%s[%zu] = %g is not %s", name, i, json_number_value(e),
				   ptb_check_domain_name(d));
	return 0;
}
