/* SPDX-License-Identifier: MIT */
/*
 * Number and text formatting shared by every printed table (see format.h).
 * Nothing here depends on the user's locale: ptb_report prints in the C
 * locale, and the cross-platform table formats numbers itself.
 */
#include <config.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "record/model.h"
#include "report/format.h"
#include "text/text.h"

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

void ptb_fmt_join(char *buf, size_t len, const json_t *array, const char *sep)
{
	const json_t *v;
	size_t i;
	buf[0] = 0;
	json_array_foreach(array, i, v)
		if (json_is_string(v))
			ptb_appendf(buf, len, "%s%s", buf[0] ? sep : "", json_string_value(v));
}

void ptb_csv_field(FILE *out, const char *text)
{
	char *s = ptb_printable(text);
	if (!s) {
		fputs("?", out);
		return;
	}
	if (!s[strcspn(s, ",\"")]) {
		fputs(s, out);
	} else {
		fputc('"', out);
		for (const char *p = s; *p; p++) {
			if (*p == '"')
				fputc('"', out);
			fputc(*p, out);
		}
		fputc('"', out);
	}
	free(s);
}

void ptb_html_text(FILE *out, const char *s)
{
	/* A control character is no character of an XML document, not even
	 * as a reference: it goes as \xNN, as on a terminal. */
	char *text = ptb_printable(s);
	for (const char *c = text ? text : s; *c; c++)
		switch (*c) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		default: fputc(*c, out);
		}
	free(text);
}

int ptb_footnote(struct ptb_footnotes *f, const char *text)
{
	const json_t *known;
	if (!f->index && !(f->index = json_object()))
		return 0;
	if ((known = json_object_get(f->index, text)))
		return (int)json_integer_value(known);
	if (f->n == f->cap) {
		int cap = f->cap ? 2 * f->cap : 8;
		char **t = realloc(f->text, (size_t)cap * sizeof *t);
		if (!t)
			return 0;
		f->text = t;
		f->cap = cap;
	}
	if (!(f->text[f->n] = ptb_printable(text)) ||
	    json_object_set_new_nocheck(f->index, text, json_integer(f->n + 1))) {
		free(f->text[f->n]);
		return 0;
	}
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
	json_decref(f->index);
	*f = (struct ptb_footnotes){ 0 };
}

const char ptb_disturbed_legend[] =
	"Values marked " PTB_DISTURBED_MARK " were measured while other processes, or the "
	"hypervisor, took more than 10 % of the PUs they ran on: what the benchmark got "
	"on a busy machine, not its cost on a machine of its own.";

static const char unstable_legend[] =
	"Values marked " PTB_UNSTABLE_MARK " are unstable: the stopping rule never held; "
	"the figure is that of the timings taken.";

int ptb_mark_legends(bool unstable, bool disturbed, const char *mark[2], const char *text[2])
{
	int n = 0;
	if (unstable)
		mark[n] = PTB_UNSTABLE_MARK, text[n++] = unstable_legend;
	if (disturbed)
		mark[n] = PTB_DISTURBED_MARK, text[n++] = ptb_disturbed_legend;
	return n;
}
