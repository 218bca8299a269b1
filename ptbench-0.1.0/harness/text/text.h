/* SPDX-License-Identifier: MIT */
/*
 * Text that ptbench writes for people: one-line error messages, widths of
 * UTF-8 strings on a terminal, and bounded copies that never cut a
 * character in half.  Every layer of the harness may use it; it uses
 * nothing but the C library.
 */
#ifndef PTB_TEXT_H
#define PTB_TEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/* Format into err as one line: a control character from a file name or a
 * parser message becomes '?', so a message can never spill over lines.
 * Does nothing when err is NULL or errlen is 0. */
void ptb_errf(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void ptb_verrf(char *err, size_t errlen, const char *fmt, va_list ap);

/* Append to a NUL-terminated buffer; stops at a character boundary when
 * the buffer is full. */
void ptb_appendf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Columns a UTF-8 string takes on a terminal (one per code point). */
int ptb_text_width(const char *s);

/* Shorten s in place to at most len - 1 bytes without splitting a UTF-8
 * sequence: a string that fills the buffer (snprintf cut it) loses the
 * incomplete sequence at its end. */
void ptb_utf8_trim(char *s, size_t len);

/* snprintf that never leaves half a UTF-8 character at the end of what it
 * cut: for text built from names read from a file. */
void ptb_textf(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Bytes of the valid UTF-8 sequence s starts with (1 to 4), or 0 when it is
 * none: a stray continuation, an overlong form, a surrogate, beyond
 * U+10FFFF, or cut short. */
size_t ptb_utf8_len(const char *s);
/* Make s valid UTF-8 in place, each invalid byte replaced by U+FFFD, within
 * cap bytes (cut at a character if the replacements do not fit): for
 * strings from the command line or the system on their way into a JSON
 * document, which holds only valid UTF-8. */
void ptb_utf8_fix(char *s, size_t cap);
/* A copy of s for a terminal or a document: control characters (C0, DEL,
 * C1) and invalid bytes written as \xNN or \u00NN, so that a name read
 * from a file cannot move the cursor or hide text.  Applying it twice
 * changes nothing more.  malloc'd; NULL when out of memory. */
char *ptb_printable(const char *s);
void ptb_fputs_printable(FILE *out, const char *s);

#endif
