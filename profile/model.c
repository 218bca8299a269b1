/* SPDX-License-Identifier: MIT
 * ptbprof: the caches.  One private, unbounded cache per thread slot, kept
 * coherent by MESI through a directory entry per line (the set of caches
 * holding it and whether the one holder has modified it).  A miss is cold
 * on a cache's first reference to the line, a coherence miss otherwise:
 * a read that finds the line taken away, or a write that must fetch it or
 * invalidate other copies (an upgrade).
 *
 * True or false sharing, after Dubois et al.: a coherence miss starts a
 * lifetime of the line in the cache that lasts until the line is taken
 * away again.  The miss was needed (true sharing) if during that lifetime
 * the cache touches a byte that another cache wrote while this one had no
 * copy; otherwise it only moved bytes nobody here used (false sharing).
 * The verdict is therefore given when the lifetime ends. */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_mallocfree.h>
#include <pub_tool_hashtable.h>
#include "profile/prof.h"
#include <pub_tool_libcprint.h>

#define LIFE_OBJS 4

typedef struct Rec {           /* one cache's history of one line */
	struct Rec *next;
	UInt slot;
	Bool open, truesh;
	Bool evicted;              /* lost its copy to replacement, not to another cache */
	ULong inval;               /* bytes others wrote since this copy was lost */
	ULong pending;             /* those of them the current lifetime may use */
	UInt nm;                   /* coherence misses in this lifetime, by object */
	UInt obj[LIFE_OBJS], cnt[LIFE_OBJS];
} Rec;

typedef struct Line {          /* in the line's node (merge.c), zeroed at first */
	UWord key;
	ULong sharers, ever;       /* caches holding it; caches that ever did */
	Bool init;                 /* key set */
	Bool dirty;                /* the one holder has modified it */
	Bool ovalid;
	UInt oid, ogen;
	Addr olo, ohi;             /* the object last found in it */
	Rec *recs;
	Rec first;                 /* the first cache's record, here: most lines have one */
} Line;

static Bool counting = True, roi_seen;   /* the region of interest */

typedef char line_fits[sizeof(Line) <= PP_LINE_BYTES ? 1 : -1];

void pp_model_init(void)
{
}

static inline Line *line_at(void *node, UWord key)
{
	Line *l = node;
	if (!l->init) {
		l->init = True;
		l->key = key;
	}
	return l;
}

static inline Line *line_of(UWord key)
{
	return line_at(pp_line_of(key), key);
}

static Rec *rec_of(Line *l, UInt s)
{
	Rec *r;
	for (r = l->recs; r; r = r->next)
		if (r->slot == s)
			return r;
	r = l->recs ? pp_bump(sizeof *r) : &l->first;
	r->slot = s;
	r->next = l->recs;
	l->recs = r;
	return r;
}

static UInt object_of(Line *l, Addr a)
{
	if (l->ovalid && a >= l->olo && a < l->ohi) {
		UInt k = pp_objs[l->oid]->kind;
		if (k == PP_OBJ_STATIC || k == PP_OBJ_STACK || l->ogen == pp_heap_gen)
			return l->oid;
	}
	l->oid = pp_object_at(a, &l->olo, &l->ohi);
	l->ogen = pp_heap_gen;
	l->ovalid = True;
	return l->oid;
}

static void close_life(Rec *r)
{
	UInt i;
	if (!r->open)
		return;
	for (i = 0; i < r->nm; i++) {
		if (r->truesh)
			pp_objs[r->obj[i]]->true_sh += r->cnt[i];
		else
			pp_objs[r->obj[i]]->false_sh += r->cnt[i];
	}
	r->open = False;
	r->nm = 0;
}

static void count_miss(Line *l, Rec *r, UInt s, Addr a, Addr ip, Bool write)
{
	UInt id, i;
	PP_Object *o;
	if (!counting)
		return;
	id = object_of(l, a);
	o = pp_objs[id];
	if (write) {
		o->wr[s]++;
		pp_thr[s].wr++;
	} else {
		o->rd[s]++;
		pp_thr[s].rd++;
	}
	pp_object_line(o, ip);
	for (i = 0; i < r->nm && r->obj[i] != id; i++)
		;
	if (i == r->nm) {
		if (r->nm < LIFE_OBJS) {
			r->obj[i] = id;
			r->cnt[i] = 0;
			r->nm++;
		} else
			i = LIFE_OBJS - 1;     /* more objects in one line: lump the rest */
	}
	r->cnt[i]++;
}

static void start_life(Line *l, Rec *r, UInt c, UInt s, Addr a, Addr ip, Bool write)
{
	ULong me = 1ULL << c;
	Bool cold = !(l->ever & me);
	l->ever |= me;
	r->open = True;
	r->truesh = False;
	r->pending = r->inval;
	r->inval = 0;
	r->nm = 0;
	VG_(memset)(r->cnt, 0, sizeof r->cnt);
	if (!counting)
		;
	else if (cold)
		pp_thr[s].cold++;
	else if (r->evicted)
		pp_thr[s].repl++;
	else
		count_miss(l, r, s, a, ip, write);
	r->evicted = False;
}

/* Slot s's cache evicted line `key` (~0: nothing) to make room. */
static void make_room(UInt s, UWord key)
{
	Line *l;
	Rec *r;
	if (key == ~(UWord)0)
		return;
	l = line_of(key);
	r = rec_of(l, s);
	close_life(r);
	r->evicted = True;
	l->sharers &= ~(1ULL << s);
	if (!l->sharers)
		l->dirty = False;         /* written back */
}

/* Thread s's access through cache c (its own, or its CPU's: --follow-affinity). */
static void access_line(Line *l, UInt c, UInt s, Addr a, UInt n, Bool write, Addr ip,
			ULong more, ULong wmore)
{
	Rec *r = rec_of(l, c), *o;
	ULong me = 1ULL << c, m = pp_byte_mask((UInt)(a & (pp_cfg.line - 1)), n);
	Bool valid = (l->sharers & me) != 0;
	if (!write) {
		if (!valid) {
			l->dirty = False;      /* a modified copy elsewhere is written back, shared */
			l->sharers |= me;
			start_life(l, r, c, s, a, ip, False);
		}
	} else {
		if (!valid || l->sharers != me) {
			for (o = l->recs; o; o = o->next)
				if (o != r && (l->sharers & (1ULL << o->slot))) {
					close_life(o);
					if (pp_cfg.ways)
						pp_cache_drop(o->slot, l->key);
				}
			l->sharers = me;
			if (valid)
				count_miss(l, r, s, a, ip, True);   /* an upgrade */
			else
				start_life(l, r, c, s, a, ip, True);
		}
		l->dirty = True;
		m |= wmore;            /* the writes folded in (only into a write) */
		for (o = l->recs; o; o = o->next)
			if (o != r)
				o->inval |= m;
	}
	if (r->pending & (m | more))
		r->truesh = True;
	if (pp_cfg.ways)
		make_room(c, pp_cache_touch(c, l->key));
}

/* Which cache each slot's accesses go through: its own unless it is
 * pinned to a CPU whose cache another slot opened first. */
static UInt cache_of[PP_SLOTS];
static Bool cache_set[PP_SLOTS];

void pp_model_cache(Int slot, UInt cache)
{
	cache_of[slot] = cache;
	cache_set[slot] = True;
}

void pp_model_event(Int slot, const PP_Event *e)
{
	UInt c = cache_set[slot] ? cache_of[slot] : (UInt)slot;
	Addr a = e->addr;
	UInt size = e->size, kind = e->kind & 0xf;
	void *node = e->line;     /* the first line's, where the recording knew it */
	while (size) {
		UInt off = (UInt)(a & (pp_cfg.line - 1));
		UInt n = pp_cfg.line - off < size ? pp_cfg.line - off : size;
		Line *l = node ? line_at(node, a >> pp_cfg.shift) : line_of(a >> pp_cfg.shift);
		node = NULL;
		access_line(l, c, (UInt)slot, a, n, kind != PP_READ, e->aux, e->more, e->wmore);
		a += n;
		size -= n;
	}
}

static void forget_misses(void *node)
{
	Rec *r;
	for (r = ((Line *)node)->recs; r; r = r->next)
		r->nm = 0;
}

static void close_lives(void *node)
{
	Rec *r;
	for (r = ((Line *)node)->recs; r; r = r->next)
		close_life(r);
}

/* PTBPROF_START (on) and PTBPROF_STOP: the first start forgets what was
 * counted before it, open lifetimes' misses included. */
void pp_model_roi(Bool on)
{
	UInt i;
	if (on && !roi_seen) {
		roi_seen = True;
		for (i = 0; i < pp_nobjs; i++) {
			VG_(memset)(pp_objs[i]->rd, 0, sizeof pp_objs[i]->rd);
			VG_(memset)(pp_objs[i]->wr, 0, sizeof pp_objs[i]->wr);
			VG_(memset)(pp_objs[i]->top_n, 0, sizeof pp_objs[i]->top_n);
			pp_objs[i]->true_sh = pp_objs[i]->false_sh = 0;
		}
		for (i = 0; i < PP_SLOTS; i++)
			pp_thr[i].cold = pp_thr[i].rd = pp_thr[i].wr = pp_thr[i].repl = 0;
		pp_lines_foreach(forget_misses);
	}
	counting = on;
}

/* Lifetimes still open at the end are decided by what they touched. */
void pp_model_finish(void)
{
	pp_lines_foreach(close_lives);
}
