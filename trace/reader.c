/* SPDX-License-Identifier: MIT */
/* Reading a trace: every promise of trace/format.h is checked before a
 * simulation sees an event. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/reader.h"

static int fail(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

#define FAIL(...) fail(err, errlen, __VA_ARGS__)

/* No chunk the interposer writes is near this (16384 events, or the
 * maps' 1 MiB): a larger one is damage, not a reason to read on. */
#define CHUNK_MAX (64u << 20)

/* Whether the first n bytes can still be the start of a trace: the magic,
 * a header this reader knows, then chunks back to back (*scan: where the
 * next one starts) up to a trailer, which ends the file.  Reading stops
 * at the first byte that cannot be, so that no input (/dev/zero, a file
 * of zeros after a header) is read to its end or into memory whole. */
static int plausible(const unsigned char *b, size_t n, size_t *scan)
{
	struct ptb_trace_header h;
	if (memcmp(b, PTB_TRACE_MAGIC, n < 8 ? n : 8))
		return 0;
	if (n < sizeof h)
		return 1;
	memcpy(&h, b, sizeof h);
	if (h.endian != PTB_TRACE_ENDIAN || h.version < PTB_TRACE_VERSION_MIN ||
	    h.version > PTB_TRACE_VERSION || h.header_size != sizeof h)
		return 0;
	if (*scan < sizeof h)
		*scan = sizeof h;
	while (*scan <= n && n - *scan >= sizeof(struct ptb_trace_chunk)) {
		struct ptb_trace_chunk c;
		memcpy(&c, b + *scan, sizeof c);
		if (!memcmp(b + *scan, PTB_TRACE_END_MAGIC, 8))
			*scan = SIZE_MAX;              /* the trailer: the end, checked later */
		else if (c.magic == PTB_TRACE_CHUNK_MAGIC && c.bytes <= CHUNK_MAX)
			*scan += sizeof c + c.bytes;
		else
			return 0;
	}
	return 1;
}

static int read_all(const char *path, unsigned char **buf, size_t *len, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return FAIL("cannot open %s: %s", path, strerror(errno));
	size_t cap = 1 << 16, n = 0, scan = 0;
	unsigned char *b = malloc(cap);
	size_t r;
	while (b && (r = fread(b + n, 1, cap - n, f)) > 0) {
		n += r;
		if (!plausible(b, n, &scan))
			break;           /* the reader says what is wrong with it */
		if (n == cap) {
			unsigned char *nb = realloc(b, cap *= 2);
			if (!nb)
				free(b);
			b = nb;
		}
	}
	int bad = ferror(f);
	fclose(f);
	if (!b || bad)
		return free(b), FAIL("cannot read %s", path);
	*buf = b, *len = n;
	return 0;
}

/* The program's name as printable UTF-8: a control byte, or a byte that
 * starts no valid sequence, becomes '?' -- the interposer cuts a long name
 * anywhere, and a file may be named in any bytes -- so that the table and
 * the JSON can carry it. */
static void printable_name(char *s)
{
	static const uint32_t least[5] = { 0, 0, 0x80, 0x800, 0x10000 };   /* no overlong forms */
	for (unsigned char *p = (unsigned char *)s; *p;) {
		int n = *p < 0x80 ? 1 : *p >> 5 == 6 ? 2 : *p >> 4 == 14 ? 3 : *p >> 3 == 30 ? 4 : 0;
		uint32_t c = n == 1 ? *p : n ? *p & (0x7f >> n) : 0;
		int ok = n > 0;
		for (int i = 1; ok && i < n; i++)
			ok = p[i] >> 6 == 2, c = c << 6 | (p[i] & 0x3f);
		ok = ok && c >= least[n] && c <= 0x10ffff && (c < 0xd800 || c > 0xdfff) && c >= 0x20 &&
		     c != 0x7f;
		if (!ok)
			*p = '?', n = 1;
		p += n;
	}
}

static int check_header(struct ptb_trace_header *h, const char *path, char *err, size_t errlen)
{
	if (memcmp(h->magic, PTB_TRACE_MAGIC, 8))
		return FAIL("%s is not a ptbench trace", path);
	if (h->endian == __builtin_bswap32(PTB_TRACE_ENDIAN))
		return FAIL("%s was recorded on a machine of the other byte order", path);
	if (h->endian != PTB_TRACE_ENDIAN)
		return FAIL("%s is damaged (its header is not one ptbench record writes)", path);
	if (h->version < PTB_TRACE_VERSION_MIN || h->version > PTB_TRACE_VERSION)
		return FAIL("%s is a trace of format version %" PRIu32 ", this ptbench reads %d to %d",
			    path, h->version, PTB_TRACE_VERSION_MIN, PTB_TRACE_VERSION);
	if (h->header_size != sizeof *h || h->event_size != sizeof(struct ptb_tev))
		return FAIL("%s is damaged (a header of %" PRIu32 " bytes and events of %" PRIu32
			    ", where its version has %zu and %zu)", path, h->header_size,
			    h->event_size, sizeof *h, sizeof(struct ptb_tev));
	if (h->version < 3) {                  /* a name of 72 bytes, no latency */
		uint32_t tail = h->remote_latency;
		h->remote_latency = 0;
		if (memchr(&tail, '\0', sizeof tail))
			h->program[sizeof h->program - 1] = '\0';   /* ended there */
	}
	if (!memchr(h->program, '\0', sizeof h->program))
		return FAIL("%s is damaged (the program's name has no end)", path);
	printable_name(h->program);
	return 0;
}

static int add_events(struct ptb_trace *t, uint32_t tid, const struct ptb_tev *ev, uint32_t n)
{
	if (tid >= t->nthreads) {
		struct ptb_trace_thread *nt = realloc(t->th, (tid + 1) * sizeof *nt);
		if (!nt)
			return -1;
		memset(nt + t->nthreads, 0, (tid + 1 - t->nthreads) * sizeof *nt);
		t->th = nt, t->nthreads = tid + 1;
	}
	struct ptb_trace_thread *th = &t->th[tid];
	if (!n)                  /* an empty chunk: the thread is known, nothing to copy */
		return 0;
	if (th->n + n > th->cap) {
		size_t cap = (th->n + n) * 2;
		struct ptb_tev *e = realloc(th->ev, cap * sizeof *e);
		if (!e)
			return -1;
		th->ev = e, th->cap = cap;
	}
	memcpy(th->ev + th->n, ev, n * sizeof *ev);
	th->n += n;
	return 0;
}

/* Every chunk between the header and the trailer, checked one by one. */
static int read_chunks(struct ptb_trace *t, const unsigned char *b, size_t end, const char *path,
		       uint64_t *sum, uint64_t *nchunks, char *err, size_t errlen)
{
	size_t off = sizeof(struct ptb_trace_header);
	while (off < end) {
		struct ptb_trace_chunk c;
		if (end - off < sizeof c)
			return FAIL("%s is truncated or damaged (a chunk is cut off)", path);
		memcpy(&c, b + off, sizeof c);
		off += sizeof c;
		int maps = c.tid == PTB_TRACE_MAPS_TID;
		if (c.magic != PTB_TRACE_CHUNK_MAGIC || c.bytes > end - off || c.bytes > CHUNK_MAX ||
		    (!maps && ((uint64_t)c.count * sizeof(struct ptb_tev) != c.bytes ||
			       c.tid >= PTB_TRACE_MAX_THREADS)))
			return FAIL("%s is truncated or damaged (a bad chunk at byte %zu)", path, off - sizeof c);
		if (ptb_trace_sum(b + off, c.bytes) != c.checksum)
			return FAIL("%s is damaged (a chunk's checksum does not match)", path);
		if (maps) {
			free(t->maps);
			t->maps = strndup((const char *)b + off, c.bytes);
		} else if (add_events(t, c.tid, (const void *)(b + off), c.count)) {
			return FAIL("out of memory reading %s", path);
		}
		*sum += c.checksum, (*nchunks)++;
		off += c.bytes;
	}
	return 0;
}

static int check_order(struct ptb_trace *t, const char *path, char *err, size_t errlen)
{
	int kinds = t->h.version == 1 ? PTB_EV_READ : PTB_EV_KIND_COUNT;   /* 1 had no I/O */
	for (uint32_t i = 0; i < t->nthreads; i++) {
		const struct ptb_trace_thread *th = &t->th[i];
		for (size_t k = 0; k < th->n; k++) {
			const struct ptb_tev *e = &th->ev[k];
			if (e->kind == 0 || e->kind >= kinds || e->phase > PTB_PH_LEAVE ||
			    (k && e->t < th->ev[k - 1].t))
				return FAIL("%s is damaged (thread %u, event %zu)", path, i, k);
			if (e->t > t->end_t)
				t->end_t = e->t;
		}
		t->events += th->n;
	}
	if (!t->nthreads || !t->th[0].n)
		return FAIL("%s holds no events of the program's first thread", path);
	return 0;
}

int ptb_trace_load(const char *path, struct ptb_trace *t, char *err, size_t errlen)
{
	unsigned char *b = NULL;
	size_t len = 0;
	memset(t, 0, sizeof *t);
	if (read_all(path, &b, &len, err, errlen))
		return -1;
	struct ptb_trace_trailer tr;
	uint64_t sum, nchunks = 0;
	int rc = -1;
	if (len < 8 || memcmp(b, PTB_TRACE_MAGIC, 8)) {
		FAIL("%s is not a ptbench trace", path);
		goto out;
	}
	if (len < sizeof t->h) {
		FAIL("%s is truncated (its header is cut off)", path);
		goto out;
	}
	memcpy(&t->h, b, sizeof t->h);
	if (check_header(&t->h, path, err, errlen))
		goto out;
	memcpy(&tr, b + len - sizeof tr, len >= sizeof t->h + sizeof tr ? sizeof tr : 0);
	if (len < sizeof t->h + sizeof tr || memcmp(tr.magic, PTB_TRACE_END_MAGIC, 8)) {
		FAIL("%s is truncated (no trailer: the program may have been killed)", path);
		goto out;
	}
	sum = ptb_trace_sum(b, sizeof t->h);       /* as written: the name may be mended */
	if (read_chunks(t, b, len - sizeof tr, path, &sum, &nchunks, err, errlen))
		goto out;
	if (sum != tr.checksum || nchunks != tr.chunks) {
		FAIL("%s is damaged (its trailer does not match its chunks)", path);
		goto out;
	}
	rc = check_order(t, path, err, errlen);
	if (!rc && t->events != tr.events)
		rc = FAIL("%s is damaged (its trailer counts other events)", path);
out:
	free(b);
	if (rc)
		ptb_trace_free(t);
	return rc;
}

uint32_t ptb_trace_threads(const struct ptb_trace *t)
{
	uint32_t n = 0;
	for (uint32_t i = 0; i < t->nthreads; i++)
		n += t->th[i].n > 0;
	return n;
}

uint64_t ptb_trace_start_up(const struct ptb_trace *t)
{
	if (!t->nthreads || !t->th[0].n)
		return 0;
	const struct ptb_tev *e = &t->th[0].ev[0];   /* no more than the trace spans */
	return e->kind == PTB_EV_START && e->arg == UINT32_MAX && e->obj <= t->end_t ? e->obj : 0;
}

void ptb_trace_free(struct ptb_trace *t)
{
	for (uint32_t i = 0; i < t->nthreads; i++)
		free(t->th[i].ev);
	free(t->th);
	free(t->maps);
	memset(t, 0, sizeof *t);
}

void ptb_trace_site(const struct ptb_trace *t, uint64_t addr, char *buf, size_t len)
{
	snprintf(buf, len, "0x%" PRIx64, addr);
	for (const char *l = t->maps, *nl; l && *l; l = nl ? nl + 1 : "") {
		/* one line at a time: sscanf on the rest of the text measured all
		 * of it at every line, and a short line took fields from the next */
		char line[1024];
		nl = strchr(l, '\n');
		size_t n = nl ? (size_t)(nl - l) : strlen(l);
		if (n >= sizeof line)
			continue;
		memcpy(line, l, n), line[n] = '\0';
		unsigned long long lo, hi, off;
		char perm[8], file[512] = "";
		if (sscanf(line, "%llx-%llx %7s %llx %*s %*s %511[^\n]", &lo, &hi, perm, &off, file) < 4)
			continue;
		if (addr >= lo && addr < hi && perm[2] == 'x' && file[0] == '/') {
			snprintf(buf, len, "%s+0x%llx", file, addr - lo + off);
			return;
		}
	}
}
