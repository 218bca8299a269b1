/* SPDX-License-Identifier: MIT */
/*
 * The reporters' front door: format names, dispatch, and the helpers every
 * format shares -- tolerant field access, number formatting that does not
 * depend on the user's locale, and numbered footnotes.
 */
#include <config.h>

#include <locale.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"

/* One reporter per format; the order is enum ptb_format's. */
static const struct {
	const char *name;
	void (*print)(FILE *out, const json_t *run);
} formats[PTB_FMT_COUNT] = {
	/* name       print */
	{ "table",    ptb_report_table },
	{ "csv",      ptb_report_csv },
	{ "json",     ptb_report_json },
	{ "gbench",   ptb_report_gbench },
};

int ptb_format_from_name(const char *name)
{
	for (int f = 0; name && f < PTB_FMT_COUNT; f++)
		if (!strcmp(formats[f].name, name))
			return f;
	return -1;
}

const char *ptb_format_name(enum ptb_format f)
{
	return (unsigned)f < PTB_FMT_COUNT ? formats[f].name : "?";
}

int ptb_report(FILE *out, const json_t *run, enum ptb_format f)
{
	if ((unsigned)f >= PTB_FMT_COUNT)
		return -1;
	/* A decimal comma would break CSV and JSON: print in the C locale
	 * whatever the program set for its messages. */
	locale_t c = newlocale(LC_NUMERIC_MASK, "C", (locale_t)0);
	locale_t old = c ? uselocale(c) : (locale_t)0;
	formats[f].print(out, run);
	if (c) {
		uselocale(old);
		freelocale(c);
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}

double ptb_jnum(const json_t *obj, const char *key)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_number(v) ? json_number_value(v) : NAN;
}

const char *ptb_jstr(const json_t *obj, const char *key)
{
	return json_string_value(json_object_get(obj, key));
}

void ptb_fmt_us(char *buf, size_t len, double ns)
{
	double us = fabs(ns) / 1000, r;
	if (!isfinite(ns)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	/* Six decimals is a picosecond: anything smaller is noise. */
	int decimals = us > 0 ? 2 - (int)floor(log10(us)) : 0;
	decimals = decimals < 0 ? 0 : decimals > 6 ? 6 : decimals;
	/* 9.996 to two decimals is 10.00: one digit too many. */
	r = round(us * pow(10, decimals)) / pow(10, decimals);
	if (decimals > 0 && r > 0 && 2 - (int)floor(log10(r)) < decimals)
		decimals--;
	snprintf(buf, len, "%s%.*f", ns < 0 && r > 0 ? "-" : "", decimals, us);
}

void ptb_fmt_jnum(char *buf, size_t len, const json_t *v)
{
	if (json_is_integer(v)) {
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		return;
	}
	if (!json_is_real(v)) {
		snprintf(buf, len, "%s", "");
		return;
	}
	double x = json_real_value(v);
	int digits = 1;
	while (snprintf(buf, len, "%.*g", digits, x), digits < 17 && strtod(buf, NULL) != x)
		digits++;
	/* Spreadsheets read 1490 more reliably than 1.49e+03. */
	int exp10 = x != 0 ? (int)floor(log10(fabs(x))) : 0;
	if (strchr(buf, 'e') && exp10 >= -7 && exp10 < 17)
		snprintf(buf, len, "%.*f", digits - 1 - exp10 > 0 ? digits - 1 - exp10 : 0, x);
}

void ptb_fmt_params(char *buf, size_t len, const json_t *params, const char *sep)
{
	const char *var;
	json_t *v;
	size_t used = 0;
	buf[0] = 0;
	json_object_foreach((json_t *)params, var, v) {
		int n = snprintf(buf + used, len - used, "%s%s=%s", used ? sep : "", var,
				 json_is_string(v) ? json_string_value(v) : "?");
		if (n < 0 || (size_t)n >= len - used)
			return;
		used += (size_t)n;
	}
}

int ptb_text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += ((unsigned char)*s & 0xC0) != 0x80;
	return w;
}

int ptb_footnote(struct ptb_footnotes *f, const char *text)
{
	for (int i = 0; i < f->n; i++)
		if (!strcmp(f->text[i], text))
			return i + 1;
	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 8;
		char **t = realloc(f->text, (size_t)cap * sizeof *t);
		if (!t)
			return 0;
		f->text = t;
		f->cap = cap;
	}
	if (!(f->text[f->n] = strdup(text)))
		return 0;
	return ++f->n;
}

void ptb_footnotes_print(FILE *out, const struct ptb_footnotes *f)
{
	for (int i = 0; i < f->n; i++)
		fprintf(out, "[%d] %s\n", i + 1, f->text[i]);
}

void ptb_footnotes_free(struct ptb_footnotes *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->text[i]);
	free(f->text);
	*f = (struct ptb_footnotes){ 0 };
}
