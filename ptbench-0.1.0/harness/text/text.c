/* SPDX-License-Identifier: MIT */
/*
 * Text for people: one-line messages and UTF-8-aware bounds (see text.h).
 * Widths count code points: the names ptbench prints are Latin text and
 * "µs", not wide or combining characters.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "text/text.h"

static bool is_continuation(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

/* Drop a sequence left incomplete at the end of s[0..n). */
static void cut_incomplete(char *s, size_t n)
{
	size_t start = n;
	while (start > 0 && n - start < 4 && is_continuation((unsigned char)s[start - 1]))
		start--;
	if (start > 0 && (unsigned char)s[start - 1] >= 0xC0)
		start--;
	else if (start == n)
		return;
	if (ptb_utf8_len(s + start) != n - start)
		s[start] = '\0';
}

void ptb_utf8_trim(char *s, size_t len)
{
	size_t n = strlen(s);
	if (len == 0 || n + 1 < len)
		return;
	n = len - 1;
	s[n] = '\0';
	cut_incomplete(s, n);
}

void ptb_textf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	if (!len)
		return;
	va_start(ap, fmt);
	int n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n >= len)
		ptb_utf8_trim(buf, len);
}

void ptb_verrf(char *err, size_t errlen, const char *fmt, va_list ap)
{
	if (!err || !errlen)
		return;
	vsnprintf(err, errlen, fmt, ap);
	ptb_utf8_trim(err, errlen);
	for (char *c = err; *c; c++)
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
}

void ptb_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	ptb_verrf(err, errlen, fmt, ap);
	va_end(ap);
}

void ptb_appendf(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;
	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
	if (strlen(buf) + 1 >= len)
		ptb_utf8_trim(buf, len);
}

int ptb_text_width(const char *s)
{
	int w = 0;
	for (; *s; s++)
		w += !is_continuation((unsigned char)*s);
	return w;
}
