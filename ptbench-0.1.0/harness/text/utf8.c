/* SPDX-License-Identifier: MIT */
/*
 * UTF-8 at the edges (see text.h): strings from the command line or the
 * system made valid before they enter a JSON document (jansson refuses the
 * whole document otherwise), and strings from a file made harmless before
 * they reach a terminal.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/text.h"

/* U+FFFD, the replacement character. */
static const char replacement[] = "\xEF\xBF\xBD";

size_t ptb_utf8_len(const char *s)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t n;
	unsigned cp;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xC2 && u[0] <= 0xDF)
		n = 2, cp = u[0] & 0x1F;
	else if (u[0] >= 0xE0 && u[0] <= 0xEF)
		n = 3, cp = u[0] & 0x0F;
	else if (u[0] >= 0xF0 && u[0] <= 0xF4)
		n = 4, cp = u[0] & 0x07;
	else
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)    /* also the terminating NUL */
			return 0;
		cp = cp << 6 | (u[i] & 0x3F);
	}
	/* Overlong three- and four-byte forms, surrogates, beyond Unicode. */
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
	    (cp >= 0xD800 && cp <= 0xDFFF))
		return 0;
	return n;
}

void ptb_utf8_fix(char *s, size_t cap)
{
	size_t in = 0, out = 0, n;
	char *fixed;
	if (!cap)
		return;
	for (n = 0; s[in]; in += n ? n : 1)
		if (!(n = ptb_utf8_len(s + in)))
			break;
	if (!s[in])
		return;                 /* already valid: the usual case */
	if (!(fixed = malloc(cap))) {
		for (; *s; s++)         /* no memory: '?' keeps the length */
			if ((unsigned char)*s >= 0x80)
				*s = '?';
		return;
	}
	for (in = 0; s[in]; in += n ? n : 1) {
		n = ptb_utf8_len(s + in);
		const char *piece = n ? s + in : replacement;
		size_t len = n ? n : sizeof replacement - 1;
		if (out + len >= cap)
			break;
		memcpy(fixed + out, piece, len);
		out += len;
	}
	fixed[out] = '\0';
	memcpy(s, fixed, out + 1);
	free(fixed);
}

/* The escape of the character at s of n bytes (0 = an invalid byte), or
 * NULL when it prints as it is. */
static const char *escape(const unsigned char *s, size_t n, char buf[8])
{
	if (n == 0 || (n == 1 && (s[0] < 0x20 || s[0] == 0x7F)))
		snprintf(buf, 8, "\\x%02X", s[0]);
	else if (n == 2 && s[0] == 0xC2 && s[1] < 0xA0)
		snprintf(buf, 8, "\\u%04X", (unsigned)s[1]);
	else
		return NULL;
	return buf;
}

char *ptb_printable(const char *s)
{
	size_t len = strlen(s), out = 0, n;
	char esc[8];
	/* An escape is at most 6 bytes for at most 1 byte (\xNN) or 2 (\u00NN). */
	char *p = malloc(6 * len + 1);
	if (!p)
		return NULL;
	for (size_t in = 0; s[in]; in += n ? n : 1) {
		n = ptb_utf8_len(s + in);
		const char *e = escape((const unsigned char *)s + in, n, esc);
		size_t m = e ? strlen(e) : n;
		memcpy(p + out, e ? e : s + in, m);
		out += m;
	}
	p[out] = '\0';
	return p;
}

void ptb_fputs_printable(FILE *out, const char *s)
{
	char *p = ptb_printable(s);
	fputs(p ? p : "?", out);
	free(p);
}
