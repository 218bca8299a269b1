/* SPDX-License-Identifier: MIT */
/*
 * Blocking I/O through the C library's stdio.  fread, fgets, getline,
 * getc and the rest refill their buffer by the library's internal read,
 * which no interposer sees, so a program that reads its input through a
 * FILE waited where the trace showed nothing (left out as untraced time,
 * as if the threads had not waited at all).  These wrappers time the calls
 * that can reach the descriptor: one that the buffer can serve (the bytes
 * asked for, or the line's end, are already in it; the room to write is
 * there) goes straight to the library, untimed, so that a getc loop costs
 * a comparison; any other is timed like read(), and one of 20 us or more
 * is recorded as a wait on the FILE's descriptor (trace/interpose-io.c,
 * ptb_tr_io_wait): a delay of its wait, never a channel, since how many
 * bytes reached the descriptor inside the call is not known.
 *
 * The test of the buffer reads glibc's FILE fields (public in its
 * <stdio.h>; the interposer is glibc's already: dlvsym) without the
 * stream's lock: a stale view only times a call that did not need it, or
 * leaves one out.  Formatted I/O (printf, scanf) is not wrapped.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "trace/interpose.h"

#undef getc
#undef putc
#undef getchar
#undef putchar
#undef fgetc_unlocked
#undef fputc_unlocked
#undef fread_unlocked
#undef fwrite_unlocked

/* Bytes the read buffer holds; room left in the write buffer. */
static size_t held(const FILE *f)
{
	return f->_IO_read_end > f->_IO_read_ptr ? (size_t)(f->_IO_read_end - f->_IO_read_ptr) : 0;
}

static size_t room(const FILE *f)
{
	return f->_IO_write_end > f->_IO_write_ptr ? (size_t)(f->_IO_write_end - f->_IO_write_ptr)
						   : 0;
}

/* Whether a read of size * n bytes is served from the buffer. */
static int holds(const FILE *f, size_t size, size_t n)
{
	size_t want;
	return !__builtin_mul_overflow(size, n, &want) && want <= held(f);
}

/* Whether the buffer holds `delim` within its first `max` bytes. */
static int holds_delim(const FILE *f, int delim, size_t max)
{
	size_t h = held(f);
	return h && memchr(f->_IO_read_ptr, delim, h < max ? h : max) != NULL;
}

/* The run-queue time before a call that goes to the descriptor.  read()
 * reads it only on a descriptor that has waited before, to keep it off
 * every short call; here the call is a refill or a write-out of a whole
 * buffer, so on a pipe, socket or device (not a file, which does not wait
 * to speak of) it is read every time: the first wait on the FILE, too, is
 * told apart from the time its thread then queued for the PU -- behind a
 * sibling, or another program's thread under SCHED_FIFO. */
static uint64_t runq_before(uint64_t d)
{
	int k = ptb_tr_fd_kind(d);
	return k == PTB_FD_FILE || k == PTB_FD_BLOCK ? ptb_tr_io_runq_before(d) : ptb_tr_runq_ns();
}

/* The body of a wrapper: the real call, straight when `quick` (the buffer
 * serves it) or the FILE has no descriptor, else timed. */
#define STDIO_ON(type, f, quick, call) \
	do { \
		FILE *f_ = (f); \
		if (!f_ || (quick) || !ptb_tr_recording() || f_->_fileno < 0) \
			return (call); \
		const void *site_ = PTB_SITE; \
		uint64_t d_ = ptb_tr_fd_describe(f_->_fileno); \
		uint64_t q0_ = runq_before(d_), t0_ = ptb_tr_io_begin(); \
		type rc_ = (call); \
		int errno_ = errno; \
		ptb_tr_io_wait(f_->_fileno, d_, t0_, site_, q0_); \
		errno = errno_; \
		return rc_; \
	} while (0)

/* --- reading -------------------------------------------------------------- */

size_t fread(void *p, size_t size, size_t n, FILE *f)
{
	PTB_REAL(size_t, "fread", (void *, size_t, size_t, FILE *));
	STDIO_ON(size_t, f, holds(f, size, n), real_fn(p, size, n, f));
}

size_t fread_unlocked(void *p, size_t size, size_t n, FILE *f)
{
	PTB_REAL(size_t, "fread_unlocked", (void *, size_t, size_t, FILE *));
	STDIO_ON(size_t, f, holds(f, size, n), real_fn(p, size, n, f));
}

size_t __fread_chk(void *p, size_t len, size_t size, size_t n, FILE *f)
{
	PTB_REAL(size_t, "__fread_chk", (void *, size_t, size_t, size_t, FILE *));
	STDIO_ON(size_t, f, holds(f, size, n), real_fn(p, len, size, n, f));
}

/* fgets reads up to n - 1 bytes or through a newline. */
#define LINE_HELD(f, n) (n <= 1 || holds_delim(f, '\n', (size_t)n - 1) || held(f) >= (size_t)n - 1)

char *fgets(char *s, int n, FILE *f)
{
	PTB_REAL(char *, "fgets", (char *, int, FILE *));
	STDIO_ON(char *, f, LINE_HELD(f, n), real_fn(s, n, f));
}

char *fgets_unlocked(char *s, int n, FILE *f)
{
	PTB_REAL(char *, "fgets_unlocked", (char *, int, FILE *));
	STDIO_ON(char *, f, LINE_HELD(f, n), real_fn(s, n, f));
}

char *__fgets_chk(char *s, size_t len, int n, FILE *f)
{
	PTB_REAL(char *, "__fgets_chk", (char *, size_t, int, FILE *));
	STDIO_ON(char *, f, LINE_HELD(f, n), real_fn(s, len, n, f));
}

ssize_t getdelim(char **line, size_t *n, int delim, FILE *f)
{
	PTB_REAL(ssize_t, "getdelim", (char **, size_t *, int, FILE *));
	STDIO_ON(ssize_t, f, holds_delim(f, delim, SIZE_MAX), real_fn(line, n, delim, f));
}

ssize_t __getdelim(char **line, size_t *n, int delim, FILE *f)
{
	PTB_REAL(ssize_t, "__getdelim", (char **, size_t *, int, FILE *));
	STDIO_ON(ssize_t, f, holds_delim(f, delim, SIZE_MAX), real_fn(line, n, delim, f));
}

ssize_t getline(char **line, size_t *n, FILE *f)
{
	PTB_REAL(ssize_t, "getline", (char **, size_t *, FILE *));
	STDIO_ON(ssize_t, f, holds_delim(f, '\n', SIZE_MAX), real_fn(line, n, f));
}

int fgetc(FILE *f)
{
	PTB_REAL(int, "fgetc", (FILE *));
	STDIO_ON(int, f, held(f) > 0, real_fn(f));
}

int getc(FILE *f)
{
	PTB_REAL(int, "getc", (FILE *));
	STDIO_ON(int, f, held(f) > 0, real_fn(f));
}

int fgetc_unlocked(FILE *f)
{
	PTB_REAL(int, "fgetc_unlocked", (FILE *));
	STDIO_ON(int, f, held(f) > 0, real_fn(f));
}

int getchar(void)
{
	PTB_REAL(int, "getchar", (void));
	STDIO_ON(int, stdin, held(stdin) > 0, real_fn());
}

/* --- writing (a full buffer is written out, and may wait) --------------- */

size_t fwrite(const void *p, size_t size, size_t n, FILE *f)
{
	PTB_REAL(size_t, "fwrite", (const void *, size_t, size_t, FILE *));
	size_t want;
	STDIO_ON(size_t, f, !__builtin_mul_overflow(size, n, &want) && want < room(f),
		 real_fn(p, size, n, f));
}

size_t fwrite_unlocked(const void *p, size_t size, size_t n, FILE *f)
{
	PTB_REAL(size_t, "fwrite_unlocked", (const void *, size_t, size_t, FILE *));
	size_t want;
	STDIO_ON(size_t, f, !__builtin_mul_overflow(size, n, &want) && want < room(f),
		 real_fn(p, size, n, f));
}

int fputs(const char *s, FILE *f)
{
	PTB_REAL(int, "fputs", (const char *, FILE *));
	STDIO_ON(int, f, strlen(s) < room(f), real_fn(s, f));
}

int fputs_unlocked(const char *s, FILE *f)
{
	PTB_REAL(int, "fputs_unlocked", (const char *, FILE *));
	STDIO_ON(int, f, strlen(s) < room(f), real_fn(s, f));
}

int puts(const char *s)
{
	PTB_REAL(int, "puts", (const char *));
	STDIO_ON(int, stdout, strlen(s) + 1 < room(stdout), real_fn(s));
}

int fputc(int c, FILE *f)
{
	PTB_REAL(int, "fputc", (int, FILE *));
	STDIO_ON(int, f, room(f) > 1, real_fn(c, f));
}

int putc(int c, FILE *f)
{
	PTB_REAL(int, "putc", (int, FILE *));
	STDIO_ON(int, f, room(f) > 1, real_fn(c, f));
}

int fputc_unlocked(int c, FILE *f)
{
	PTB_REAL(int, "fputc_unlocked", (int, FILE *));
	STDIO_ON(int, f, room(f) > 1, real_fn(c, f));
}

int putchar(int c)
{
	PTB_REAL(int, "putchar", (int));
	STDIO_ON(int, stdout, room(stdout) > 1, real_fn(c));
}

/* fflush(NULL) flushes every stream, on no one descriptor: untimed. */
int fflush(FILE *f)
{
	PTB_REAL(int, "fflush", (FILE *));
	STDIO_ON(int, f, f->_IO_write_ptr <= f->_IO_write_base, real_fn(f));
}

int fflush_unlocked(FILE *f)
{
	PTB_REAL(int, "fflush_unlocked", (FILE *));
	STDIO_ON(int, f, f->_IO_write_ptr <= f->_IO_write_base, real_fn(f));
}
