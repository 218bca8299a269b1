/* SPDX-License-Identifier: MIT */
/*
 * Number and text formatting shared by every printed table (see format.h).
 * Nothing here depends on the user's locale: ptb_report prints in the C
 * locale, and the cross-platform table formats numbers itself.
 */
#include <config.h>

#include <ctype.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/format.h"
#include "text/text.h"
#include "text/size.h"

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

/* The significant digits of a number as written: "0.00120" has 3. */
static int sig_digits(const char *s, size_t n)
{
	int digits = 0, lead = 1;
	for (size_t i = 0; i < n && s[i] != 'e' && s[i] != 'E'; i++) {
		if (s[i] < '0' || s[i] > '9')
			continue;
		lead &= s[i] == '0';
		digits += !lead;
	}
	return digits;
}

/* x to sig significant digits, in fixed notation where it is readable. */
static void round_number(char *buf, size_t len, double x, int sig)
{
	int exp10 = x != 0 ? (int)floor(log10(fabs(x))) : 0;
	snprintf(buf, len, "%.*g", sig, x);
	if (strchr(buf, 'e') && exp10 >= -4 && exp10 < 9) {
		double r = strtod(buf, NULL);
		snprintf(buf, len, "%.*f", sig - 1 - exp10 > 0 ? sig - 1 - exp10 : 0, r);
	}
}

void ptb_fmt_round(char *buf, size_t len, const char *text, int sig)
{
	const char *s = text;
	buf[0] = 0;
	while (*s) {
		bool starts = *s >= '0' && *s <= '9' &&
			      (s == text || !(isalnum((unsigned char)s[-1]) || s[-1] == '_' ||
					      s[-1] == '.'));
		char *end;
		double x = starts ? strtod(s, &end) : 0;
		size_t n = starts ? (size_t)(end - s) : 0;
		/* decimal only: "0x1e5" is a name, not a number to round */
		bool real = n && strcspn(s, ".eE") < n && strspn(s, "0123456789.eE+-") >= n;
		/* not a number: "v1.2.3", "x86_64", a word that starts with digits */
		bool whole = n && !isalnum((unsigned char)s[n]) && s[n] != '_' &&
			     !(s[n] == '.' && s[n + 1] >= '0' && s[n + 1] <= '9');
		if (real && whole && isfinite(x) && sig_digits(s, n) > sig) {
			char num[320];
			round_number(num, sizeof num, x, sig);
			ptb_appendf(buf, len, "%s", num);
			s += n;
		} else {
			size_t k = n ? n : 1;
			if (!n)   /* the rest of a word, or one character */
				while (s[k] && (isalnum((unsigned char)s[k]) || s[k] == '_' ||
						s[k] == '.') && isalnum((unsigned char)*s))
					k++;
			ptb_appendf(buf, len, "%.*s", (int)k, s);
			s += k;
		}
	}
}

/* Wrapping that starts at column col of a line already begun. */
static void wrap_from(FILE *out, const char *text, int width, int indent, int col)
{
	const char *s = text;
	while (*s) {
		size_t n = strcspn(s, " ");
		char *word = strndup(s, n);
		int w = word ? ptb_text_width(word) : (int)n;
		if (col > indent && col + 1 + w > width) {
			fprintf(out, "\n%*s", indent, "");
			col = indent;
		} else if (col > 0 && s != text) {
			fputc(' ', out);
			col++;
		}
		fwrite(s, 1, n, out);
		free(word);
		col += w;
		s += n;
		s += strspn(s, " ");
	}
	fputc('\n', out);
}

void ptb_fputs_wrapped(FILE *out, const char *text, int width, int indent)
{
	wrap_from(out, text, width, indent, 0);
}

void ptb_fmt_params(char *buf, size_t len, const json_t *params, const char *sep)
{
	const char *var;
	json_t *v;
	size_t used = 0;
	buf[0] = 0;
	json_object_foreach((json_t *)params, var, v) {
		char num[64] = "?";
		if (json_is_number(v))   /* a cluster file's counts (record/cluster.h) */
			ptb_fmt_jnum(num, sizeof num, v);
		int n = snprintf(buf + used, len - used, "%s%s=%s", used ? sep : "", var,
				 json_is_string(v) ? json_string_value(v) : num);
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
		int cap = ptb_next_cap(f->cap, 8);
		char **t = cap > 0 ? ptb_array_realloc(f->text, (size_t)cap, sizeof *t) : NULL;
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

void ptb_footnotes_print_wrapped(FILE *out, const struct ptb_footnotes *f, int width)
{
	char head[16];
	for (int i = 0; i < f->n; i++) {
		int n = snprintf(head, sizeof head, "[%d] ", i + 1);
		fputs(head, out);
		/* the head counts as the first line's start */
		wrap_from(out, f->text[i], width, n, n);
	}
}

void ptb_footnotes_free(struct ptb_footnotes *f)
{
	for (int i = 0; i < f->n; i++)
		free(f->text[i]);
	free(f->text);
	json_decref(f->index);
	*f = (struct ptb_footnotes){ 0 };
}
