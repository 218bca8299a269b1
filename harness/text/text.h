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
 * sequence. */
void ptb_utf8_trim(char *s, size_t len);

#endif
