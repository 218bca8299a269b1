/* SPDX-License-Identifier: MIT */
/*
 * A trace file read and checked whole (trace/format.h): the header, every
 * thread's events in order, the executable mappings.  A foreign,
 * truncated, altered or unordered file is refused with one sentence.
 */
#ifndef PTB_TRACE_READER_H
#define PTB_TRACE_READER_H

#include <stddef.h>
#include <stdint.h>

#include "trace/format.h"

struct ptb_trace_thread {
	size_t n, cap;
	struct ptb_tev *ev;      /* in the order the thread recorded them */
};

struct ptb_trace {
	struct ptb_trace_header h;
	uint32_t nthreads;       /* threads are numbered 0 .. nthreads-1 */
	struct ptb_trace_thread *th;
	uint64_t events;
	uint64_t end_t;          /* the last event's time, ns */
	char *maps;              /* /proc/self/maps of the recorded process, NUL-terminated */
};

/* 0, or -1 with err filled ("not a ptbench trace", "truncated ..."). */
int ptb_trace_load(const char *path, struct ptb_trace *t, char *err, size_t errlen);
/* The threads that left events: a number a failed create used up has none. */
uint32_t ptb_trace_threads(const struct ptb_trace *t);
/* The time from the program's exec to the interposer's start (the loader,
 * libraries initialized first), in ns: part of the trace, as the main
 * thread's first work; 0 when the trace does not say. */
uint64_t ptb_trace_start_up(const struct ptb_trace *t);

void ptb_trace_free(struct ptb_trace *t);

/* A call site as "file+0xOFFSET" (what addr2line -e file takes), or the
 * bare address when no mapping holds it. */
void ptb_trace_site(const struct ptb_trace *t, uint64_t addr, char *buf, size_t len);

#endif
