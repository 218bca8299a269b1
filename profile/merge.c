/* SPDX-License-Identifier: MIT
 * ptbprof: each thread's stream of accesses in its own logical time, and
 * their merge.  Valgrind runs one thread at a time for long stretches; the
 * model instead lets the threads run side by side in lockstep, a quantum of
 * instructions each in turn (slot order within a quantum).  A thread's
 * logical time is its count of instructions outside the C library
 * (main.c), pushed forward only where it must follow another: when it
 * reads or overwrites a word another thread wrote later in logical time
 * (the value it saw proves that write came first), and when it is woken
 * (sync.c).  Events are merged once every running thread has passed their
 * quantum, so the order does not depend on Valgrind's scheduler. */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_mallocfree.h>
#include <pub_tool_hashtable.h>
#include <pub_tool_threadstate.h>
#include "profile/prof.h"
#include "profile/shadow.h"


ULong pp_ic;
Int pp_cur = -1;
PP_Thread pp_thr[PP_SLOTS];
UInt pp_nthreads;
ULong pp_forced;
ULong pp_yield_now;

static ULong floor_ts;        /* every event before it has been merged */

/* The fast path (fast() below): an access folds into its line's latest
 * event without order() and fold(), where they would do nothing else: the
 * line's entry in this table is open -- the running thread's latest event
 * on the line is one of its current quantum and takes folds, and the line
 * has no written word to follow (its owner is the thread or nobody) -- and
 * logical time is short of both that quantum's end and the next lead
 * check (until).  A write also needs the event to be a write and the line
 * the thread's alone (wkey), and then stores itself as the last writer of
 * its words in the line's shadow (w).  on_access() opens the entry of
 * each line it handles; whatever could change one of those facts but time
 * closes them all: a heap or marker event, a moved buffer, a merge,
 * another thread, with finite caches any event (only the very last one
 * takes folds). */
typedef struct {
	UWord key, wkey;          /* the line open to reads, to writes; NOKEY none */
	ULong until;
	ULong *more, *wmore;      /* the event's bytes read, written */
	ULong *w;                 /* the line's last writers */
	void *line;               /* its node's model part */
	UInt owner;               /* its owner when opened: the thread or NOSLOT */
} Fast;
static Fast fast_tab[PP_FAST];
static ULong fast_opened;         /* a bit per entry that may be open */
static ULong fast_dummy, fast_dummy_w[16];   /* a closed entry's: no line's */
static ULong next_check;          /* check_ahead's next logical time */

static inline void fast_close_at(UInt i)
{
	fast_tab[i].key = fast_tab[i].wkey = NOKEY;
	fast_tab[i].more = fast_tab[i].wmore = &fast_dummy;
	fast_tab[i].w = fast_dummy_w;
	fast_opened &= ~(1ULL << i);
}

void pp_fast_close(void)
{
	while (fast_opened)
		fast_close_at((UInt)__builtin_ctzll(fast_opened));
}

static inline void fast_close_key(UWord key)
{
	UInt i = (UInt)(key & (PP_FAST - 1));
	if (fast_tab[i].key == key)
		fast_close_at(i);
}

void pp_merge_init(void)
{
	UInt i;
	pp_slots_init();
	pp_shadow_init();
	for (i = 0; i < PP_FAST; i++)
		fast_close_at(i);
}

ULong pp_floor(void) { return floor_ts; }

/* The earliest time at which slot `me` may follow slot w's event at wts:
 * a higher slot runs after a lower one within a quantum. */
ULong pp_after(Int me, UInt w, ULong wts)
{
	return (UInt)me > w ? wts + 1 : (wts / pp_cfg.quantum + 1) * pp_cfg.quantum;
}

static void check_ahead(void);

/* Folds the running thread's access into its latest event on the same
 * line when the merge would feed it to the model in the same run of the
 * thread's events and it cannot miss there: an event of this quantum (the
 * merge takes a thread's events of a quantum in a row, and events on
 * other lines change nothing of this line in the model), a read after
 * any access or a write after a write (the line is then valid, or the
 * thread's alone).  With finite caches only the last event qualifies:
 * the accesses in between change which line is least recently used.  No
 * event is folded into across a heap event or a region-of-interest
 * marker.  The model only has to know the folded bytes (model.c); most
 * accesses of a program -- a stack frame's, a structure's fields, a loop
 * over an array -- are such, and folding them saves their events. */
static inline UInt recent_ix(UWord key)
{
	return (UInt)(key ^ (key >> 7)) & (PP_RECENT - 1);
}

static inline PP_Event *fold(PP_Thread *t, Addr a, UInt size, UInt kind)
{
	UWord key = a >> pp_cfg.shift, pos;
	UInt r = recent_ix(key);
	if (pp_ic >= t->fold_end || t->recent[r].key != key)
		return NULL;
	pos = t->recent[r].pos;
	if (pos < t->q_first || pos < t->solid || pos < t->head || pos >= t->n ||
	    (pp_cfg.ways && pos != t->n - 1) || ((a + size - 1) >> pp_cfg.shift) != key)
		return NULL;
	/* The entry says what the event is (an access within this line, and
	 * whether it writes), so the event itself is only written to. */
	if (kind == PP_READ)
		t->buf[pos].more |= pp_byte_mask((UInt)(a & (pp_cfg.line - 1)), size);
	else if (t->recent[r].wr)
		t->buf[pos].wmore |= pp_byte_mask((UInt)(a & (pp_cfg.line - 1)), size);
	else
		return NULL;
	return &t->buf[pos];
}

/* Forgets every remembered event of t: their places in its buffer are
 * about to hold others. */
static void forget_recent(PP_Thread *t)
{
	UInt i;
	for (i = 0; i < PP_RECENT; i++)
		t->recent[i].key = NOKEY;
}

/* After the running thread's access at a: its line's entry, open when the
 * access is within one line, the line has nothing to follow and e (the
 * event the access went to) is one of this quantum. */
static inline void fast_open(Int me, Addr a, UInt size, PP_Event *e, UInt owner, Shadow *sh)
{
	UWord key = a >> pp_cfg.shift;
	PP_Thread *t = &pp_thr[me];
	Fast *f = &fast_tab[key & (PP_FAST - 1)];
	if (((a + size - 1) >> pp_cfg.shift) != key || (owner != (UInt)me && owner != NOSLOT) ||
	    e < t->buf + t->q_first || pp_ic >= t->fold_end) {
		fast_close_key(key);
		return;
	}
	f->key = key;
	fast_opened |= 1ULL << (key & (PP_FAST - 1));
	f->more = &e->more;
	f->until = t->fold_end < next_check ? t->fold_end : next_check;
	f->owner = owner;
	f->line = sh->line;
	f->w = sh->w;
	if ((e->kind & 0xf) != PP_READ && owner == (UInt)me) {
		f->wkey = key;
		f->wmore = &e->wmore;
	} else {
		f->wkey = NOKEY;
		f->wmore = &fast_dummy;
	}
}

/* Whether the access took the fast path.  The line size's shifts are
 * arguments so that the common 64-byte line gets its own copy, with
 * constants (pp_on_access_64). */
static inline __attribute__((always_inline)) Bool fast(Addr a, UInt size, UInt kind, UInt shift,
						      UInt mshift)
{
	UWord key = a >> shift;
	Fast *f = &fast_tab[key & (PP_FAST - 1)];
	UInt off, g, last;
	ULong m, v;
	if (f->key != key || ((a + size - 1) >> shift) != key || pp_ic >= f->until || !size)
		return False;
	off = (UInt)(a & ((1u << shift) - 1));
	m = pp_byte_mask_s(off, size, mshift);
	if (kind == PP_READ) {
		*f->more |= m;
		return True;
	}
	if (kind != PP_WRITE || f->wkey != key)
		return False;
	*f->wmore |= m;
	v = W_MAKE(pp_cur, pp_ic);
	last = (off + size - 1) >> 2;
	for (g = off >> 2; g <= last; g++)
		f->w[g] = v;
	return True;
}

static void merge_upto(ULong h);
static void check_ahead(void);

/* Moves t's unmerged events to the start of its buffer, and the places
 * it remembers with them (the fast entries are closed by the caller). */
static void slide(PP_Thread *t)
{
	UWord d = t->head;
	UInt i;
	VG_(memmove)(t->buf, t->buf + d, (t->n - d) * sizeof *t->buf);
	t->n -= d;
	t->head = 0;
	t->solid = t->solid > d ? t->solid - d : 0;
	t->q_first = t->q_first > d ? t->q_first - d : 0;
	for (i = 0; i < PP_RECENT; i++) {
		if (t->recent[i].pos >= d)
			t->recent[i].pos -= (UInt)d;
		else
			t->recent[i].key = NOKEY;
	}
}

/* Makes room for one more event of t (a forced merge, a slide, a bigger
 * buffer). */
static void make_room(PP_Thread *t, ULong ts)
{
	if (t->n - t->head >= PP_BUF_MAX) {   /* a thread far ahead of a stalled one */
		pp_forced++;
		merge_upto(ts);
	}
	if (t->head > 0)
		slide(t);
	if (t->n == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 4096;
		t->buf = VG_(realloc)("ptbprof.buf", t->buf, t->cap * sizeof *t->buf);
	}
}

/* Writes t's next event, there being room, each field once. */
static inline PP_Event *fill(PP_Thread *t, ULong ts, Addr a, UWord aux, UInt size, UInt kind,
			     void *line)
{
	PP_Event *e = &t->buf[t->n++];
	e->ts = ts;
	e->addr = a;
	e->aux = aux;
	e->size = size;
	e->kind = kind;
	e->more = e->wmore = 0;
	e->line = line;
	if (ts >= t->fold_end) {
		t->fold_end = (ts / pp_cfg.quantum + 1) * pp_cfg.quantum;
		t->q_first = t->n - 1;
	}
	if ((kind & 0xf) > PP_RMW)
		t->solid = t->n;           /* nothing folds across it */
	else {
		UWord k0 = a >> pp_cfg.shift, k1 = (a + size - 1) >> pp_cfg.shift;
		UInt r0 = recent_ix(k0), r1 = recent_ix(k1);
		/* An access across two lines is folded into by none. */
		t->recent[r0].key = k0 == k1 ? k0 : NOKEY;
		t->recent[r0].pos = (UInt)(t->n - 1);
		t->recent[r0].wr = (kind & 0xf) != PP_READ;
		t->recent[r1].key = k0 == k1 ? k1 : NOKEY;
	}
	return e;
}

void pp_push(Int slot, ULong ts, Addr a, UWord aux, UInt size, UInt kind)
{
	PP_Thread *t = &pp_thr[slot];
	if (ts < floor_ts)
		ts = floor_ts;
	if ((kind & 0xf) > PP_RMW || pp_cfg.ways || t->n == t->cap || slot != pp_cur)
		pp_fast_close();          /* its events stop taking folds, or move */
	if (t->n == t->cap)
		make_room(t, ts);
	fill(t, ts, a, aux, size, kind, NULL);
}

/* pp_push of the running thread's access (pp_ic is past the floor), inline
 * where the buffer has room and the open lines stay open. */
static inline PP_Event *push_access(PP_Thread *t, Addr a, UWord ip, UInt size, UInt kind,
				    void *line)
{
	if (pp_cfg.ways || t->n == t->cap) {
		pp_fast_close();
		if (t->n == t->cap)
			make_room(t, pp_ic);
	}
	return fill(t, pp_ic, a, ip, size, kind, line);
}

/* The running thread's private line: open to the fast path until the
 * thread may skip no more or should check its lead, its bytes kept
 * nowhere. */
static inline void private_open(Int me, UWord key, UInt owner, Shadow *sh)
{
	Fast *f = &fast_tab[key & (PP_FAST - 1)];
	f->key = key;
	fast_opened |= 1ULL << (key & (PP_FAST - 1));
	f->more = f->wmore = &fast_dummy;
	f->until = pp_drop_until < next_check ? pp_drop_until : next_check;
	pp_skipped = True;
	f->owner = owner;
	f->line = sh->line;
	f->w = sh->w;
	f->wkey = owner == (UInt)me ? key : NOKEY;
}

/* The rest of pp_on_access, apart so that the fast path's frame is small. */
static __attribute__((noinline)) void on_access(Addr a, UWord ip, UInt size, UInt kind, Bool lib)
{
	PP_Thread *t;
	PP_Event *e;
	UInt owner;
	UWord key = a >> pp_cfg.shift;
	Fast *f = &fast_tab[key & (PP_FAST - 1)];
	Shadow *sh;
	Bool priv, one = ((a + size - 1) >> pp_cfg.shift) == key;
	if (!size || pp_cur < 0)
		return;
	if (pp_ic < floor_ts)     /* not expected (pp_on_access) */
		pp_ic = floor_ts;
	check_ahead();
	if (f->key == key && ((a + size - 1) >> pp_cfg.shift) == key &&
	    (kind == PP_READ || (kind == PP_WRITE && f->wkey == key))) {
		/* The line's entry, its time run out, still knows the line: no
		 * other thread has run since it was opened and the thread's own
		 * writes kept it up to date, so the owner is still the thread
		 * or nobody -- nothing to follow -- or, open to writes, the
		 * thread: order() would only store the words written.  Nor can
		 * the line have lost its toucher meanwhile. */
		owner = f->owner;
		sh = (Shadow *)((UChar *)f->line - offsetof(Shadow, line));
		if (kind == PP_WRITE)
			stamp_words(sh->w, pp_cur, a, size);
		priv = pp_cfg.private_lines && sh->toucher == (UInt)pp_cur && pp_ic < pp_drop_until;
	} else {
		fast_close_key((a + size - 1) >> pp_cfg.shift);   /* its owner may change */
		sh = shadow_of(key);      /* nodes stay where they are */
		if (!pp_cfg.private_lines || (sh->toucher == MIXED && one))
			priv = False;     /* the common cases without a call */
		else if (sh->toucher == (UInt)pp_cur && one && pp_ic < pp_drop_until &&
			 kind == PP_READ && (sh->owner == (UInt)pp_cur || sh->owner == NOSLOT)) {
			priv = True;
			owner = sh->owner;
		} else
			priv = pp_touch_private(pp_cur, a, size, sh) &&
			       pp_private_order(pp_cur, a, size, kind, sh, &owner);
		if (!priv)
			owner = pp_order(pp_cur, a, size, kind, lib || kind == PP_RMW);
	}
	if (priv) {
		private_open(pp_cur, key, owner, sh);
		return;
	}
	t = &pp_thr[pp_cur];
	if (!(e = fold(t, a, size, kind)))
		e = push_access(t, a, ip, size, kind, sh->line);
	fast_open(pp_cur, a, size, e, owner, sh);
}

/* The call at each load and store (main.c).  The running thread's logical
 * time is never behind the merge's floor here: pp_start() and the lock
 * requests put it there, and no merge passes a running thread. */
#define ON_ACCESS(name, shift, mshift)                                                   \
	VG_REGPARM(3) void name(Addr a, UWord ip, UWord szkd)                             \
	{                                                                                 \
		UInt size = szkd & 0xffff, kind = (szkd >> 16) & 7;                        \
		pp_ic += szkd >> 20;                                                      \
		if (!fast(a, size, kind, shift, mshift))                                  \
			on_access(a, ip, size, kind, (szkd >> 19) & 1);                   \
	}
ON_ACCESS(pp_on_access, pp_cfg.shift, pp_cfg.mshift)
ON_ACCESS(pp_on_access_64, 6, 0)

/* The earliest logical time a running (not blocked) thread may still
 * record an event at. */
static ULong horizon(void)
{
	ULong h = ~0ULL;
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS;
	for (s = 0; s < n; s++) {
		ULong ts;
		if (!pp_thr[s].alive || pp_thr[s].blocked)
			continue;
		ts = (Int)s == pp_cur ? pp_ic : pp_thr[s].ts;
		if (ts < h)
			h = ts;
	}
	return h;
}

/* The model waits for memory: a line's node, with its first cache's
 * record, is a cache miss when the line was touched long ago.  The merge
 * asks for it a few events ahead (in the loop itself: GCC drops a helper
 * that only fetches, as having no effect); a fetch for an event that
 * comes later than expected (another thread's quantum first) only costs
 * the fetch. */
#define AHEAD_LINE 16
#define SLIDE_MIN 4096      /* merged events that make a slide of the rest worth it */

static void merge_upto(ULong h)
{
	ULong Q = pp_cfg.quantum, qh = h == ~0ULL ? ~0ULL : h / Q, last = floor_ts, qlo, qend;
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS;
	pp_fast_close();
	for (;;) {
		Int best = -1;
		ULong bq = 0;
		PP_Thread *t;
		for (s = 0; s < n; s++) {
			t = &pp_thr[s];
			if (t->head < t->n) {
				ULong q = t->buf[t->head].ts / Q;
				if (q < qh && (best < 0 || q < bq)) {
					best = (Int)s;
					bq = q;
				}
			}
		}
		if (best < 0)
			break;
		t = &pp_thr[best];
		qlo = bq * Q;            /* compares per event, not a division */
		qend = qlo + Q;
		while (t->head < t->n && t->buf[t->head].ts < qend && t->buf[t->head].ts >= qlo) {
			PP_Event *e = &t->buf[t->head++];
			if (t->head + AHEAD_LINE < t->n) {
				const UChar *p = t->buf[t->head + AHEAD_LINE].line;
				if (p) {
					__builtin_prefetch(p);
					__builtin_prefetch(p + 64);
					__builtin_prefetch(p + PP_LINE_BYTES - 1);
				}
			}
			if ((e->kind & 0xf) == PP_ROI)
				pp_model_roi(e->aux != 0);
			else if ((e->kind & 0xf) == PP_CACHE)
				pp_model_cache(best, (UInt)e->aux);
			else if ((e->kind & 0xf) >= PP_ALLOC)
				pp_heap_event(e);
			else
				pp_model_event(best, e);
		}
		last = (bq + 1) * Q;
	}
	if (h != ~0ULL)
		last = qh * Q;
	if (last > floor_ts)
		floor_ts = last;
	/* A buffer merged to its end starts again at its beginning; one with a
	 * few events left that a stalled thread holds back slides them there:
	 * so it stays where the cache has it, rather than walking through
	 * memory until it is full. */
	for (s = 0; s < n; s++) {
		PP_Thread *t = &pp_thr[s];
		if (t->head == t->n && t->n) {
			t->head = t->n = t->solid = t->q_first = 0;
			forget_recent(t);
		} else if (t->head >= SLIDE_MIN && t->n - t->head <= t->head / 8)
			slide(t);
	}
}

void pp_process(Bool all)
{
	merge_upto(all ? ~0ULL : horizon());
}

/* Whether the running thread should let the others catch up: Valgrind
 * would otherwise run it for some 100,000 blocks, and a thread reading
 * what a lagging one wrote would follow it far into the future.  Checked
 * every PP_LEAD / 4 instructions of logical time. */
static void check_ahead(void)
{
	ULong h = ~0ULL;
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS;
	if (pp_ic < next_check)
		return;
	next_check = pp_ic + PP_LEAD / 4;
	for (s = 0; s < n; s++)
		if ((Int)s != pp_cur && pp_thr[s].alive && !pp_thr[s].blocked && pp_thr[s].ts < h)
			h = pp_thr[s].ts;
	pp_yield_now = h != ~0ULL && pp_ic > h + PP_LEAD;
}
