/* SPDX-License-Identifier: MIT
 * ptbprof: what an address belongs to.  Static variables by their symbol
 * (the debug information knows `static` ones too), heap blocks by the
 * source line of the call that allocated them (size: the largest block
 * from there), thread stacks, and the
 * rest.  The program's malloc family is replaced so that every block's
 * site is known; the model's view of the heap changes by events in the
 * threads' streams, so that a block is found as it was at the logical time
 * of the access, not when the merge happens. */
#include <pub_tool_basics.h>
#include <pub_tool_libcassert.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_libcprint.h>
#include <pub_tool_mallocfree.h>
#include <pub_tool_hashtable.h>
#include <pub_tool_oset.h>
#include <pub_tool_debuginfo.h>
#include <pub_tool_stacktrace.h>
#include <pub_tool_tooliface.h>
#include <pub_tool_replacemalloc.h>
#include "profile/prof.h"

PP_Object **pp_objs;
UInt pp_nobjs;
UInt pp_heap_gen;

typedef struct Key { struct Key *next; UWord key; UInt id; } Key;
typedef struct Live { struct Live *next; UWord key; SizeT size; UWord serial; } Live;
typedef struct { Addr start; SizeT size; UWord serial; UInt site; } Blk;

static VgHashTable *statics, *sites, *live;
static OSet *heap;             /* the model's heap, in logical time */
static Int other_id = -1, stack_ids[PP_SLOTS];
static UWord serials;

static Word blk_cmp(const void *key, const void *elem)
{
	Addr k = *(const Addr *)key;
	const Blk *b = elem;
	if (k < b->start)
		return -1;
	return k >= b->start + b->size ? 1 : 0;
}

void pp_objects_init(void)
{
	UInt i;
	statics = VG_(HT_construct)("ptbprof.statics");
	heap = VG_(OSetGen_Create)(offsetof(Blk, start), blk_cmp, VG_(malloc),
				   "ptbprof.heap", VG_(free));
	for (i = 0; i < PP_SLOTS; i++)
		stack_ids[i] = -1;
}

static UInt new_object(UInt kind, const HChar *name)
{
	PP_Object *o = VG_(calloc)("ptbprof.obj", 1, sizeof *o);
	o->kind = kind;
	o->name = VG_(strdup)("ptbprof.name", name);
	if ((pp_nobjs & (pp_nobjs - 1)) == 0)
		pp_objs = VG_(realloc)("ptbprof.objs", pp_objs,
				       (pp_nobjs ? pp_nobjs * 2 : 16) * sizeof *pp_objs);
	pp_objs[pp_nobjs] = o;
	return pp_nobjs++;
}

/* Is x inside the symbol that starts at base?  Symbols are contiguous. */
static Bool inside(Addr base, Addr x)
{
	const HChar *n;
	PtrdiffT off;
	return VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), x, &n, &off) &&
	       x - (Addr)off == base;
}

/* The debug information tells a symbol's start, not its size: find its
 * end by doubling, then bisection. */
static SizeT symbol_size(Addr base)
{
	SizeT in = 0, out = 1;
	while (out < (1u << 24) && inside(base, base + out)) {
		in = out;
		out *= 2;
	}
	while (out - in > 1) {
		SizeT mid = in + (out - in) / 2;
		if (inside(base, base + mid))
			in = mid;
		else
			out = mid;
	}
	return out;
}

static UInt static_at(Addr a, const HChar *name, PtrdiffT off, Addr *lo, Addr *hi)
{
	Addr base = a - (Addr)off;
	Key *k = VG_(HT_lookup)(statics, base);
	if (!k) {
		HChar *copy = VG_(strdup)("ptbprof.sym", name);
		k = VG_(malloc)("ptbprof.key", sizeof *k);
		k->key = base;
		k->id = new_object(PP_OBJ_STATIC, copy);
		VG_(free)(copy);
		pp_objs[k->id]->base = base;
		pp_objs[k->id]->size = symbol_size(base);
		VG_(HT_add_node)(statics, k);
	}
	*lo = base;
	*hi = base + pp_objs[k->id]->size;
	return k->id;
}

UInt pp_object_at(Addr a, Addr *lo, Addr *hi)
{
	const HChar *name;
	PtrdiffT off;
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS;
	Blk *b = VG_(OSetGen_Lookup)(heap, &a);
	if (b) {
		*lo = b->start;
		*hi = b->start + b->size;
		return b->site;
	}
	for (s = 0; s < n; s++)
		if (a >= pp_thr[s].stack_lo && a < pp_thr[s].stack_hi) {
			if (stack_ids[s] < 0) {
				HChar nm[40];
				VG_(snprintf)(nm, sizeof nm, "stack of thread %u", s + 1);
				stack_ids[s] = (Int)new_object(PP_OBJ_STACK, nm);
			}
			pp_objs[stack_ids[s]]->size = pp_thr[s].stack_hi - pp_thr[s].stack_lo;
			*lo = pp_thr[s].stack_lo;
			*hi = pp_thr[s].stack_hi;
			return (UInt)stack_ids[s];
		}
	if (VG_(get_datasym_and_offset)(VG_(current_DiEpoch)(), a, &name, &off))
		return static_at(a, name, off, lo, hi);
	if (other_id < 0)
		other_id = (Int)new_object(PP_OBJ_OTHER, "other");
	*lo = a;
	*hi = a + 1;
	return (UInt)other_id;
}

/* Keeps the PP_TOP_LINES instructions that miss most (space-saving). */
void pp_object_line(PP_Object *o, Addr ip)
{
	UInt i, min = 0;
	for (i = 0; i < PP_TOP_LINES; i++) {
		if (o->top_ip[i] == ip && o->top_n[i]) {
			o->top_n[i]++;
			return;
		}
		if (o->top_n[i] < o->top_n[min])
			min = i;
	}
	o->top_ip[min] = ip;
	o->top_n[min]++;
}

void pp_heap_event(const PP_Event *e)
{
	Blk *b;
	if ((e->kind & 0xf) == PP_ALLOC) {
		Addr ends[2] = { e->addr, e->addr + (e->size ? e->size - 1 : 0) };
		UInt i;
		for (i = 0; i < 2; i++)   /* a block freed in reality, not yet here */
			while ((b = VG_(OSetGen_Remove)(heap, &ends[i])))
				VG_(OSetGen_FreeNode)(heap, b);
		b = VG_(OSetGen_AllocNode)(heap, sizeof *b);
		b->start = e->addr;
		b->size = e->size ? e->size : 1;
		b->serial = e->aux;
		b->site = e->kind >> 4;
		VG_(OSetGen_Insert)(heap, b);
	} else {
		b = VG_(OSetGen_Lookup)(heap, &e->addr);
		if (!b || b->start != e->addr || b->serial != e->aux)
			return;
		VG_(OSetGen_Remove)(heap, &e->addr);
		VG_(OSetGen_FreeNode)(heap, b);
	}
	pp_heap_gen++;
}

/* ---- the malloc family -------------------------------------------------- */

static Bool in_preload(Addr ip)
{
	const HChar *obj;
	return VG_(get_objname)(VG_(current_DiEpoch)(), ip, &obj) &&
	       VG_(strstr)(obj, "vgpreload_") != NULL;
}

/* The allocation site: the first frame outside the replacement. */
static UInt site_of(ThreadId tid, SizeT size)
{
	Addr ips[16];
	UInt n = VG_(get_StackTrace)(tid, ips, 16, NULL, NULL, 0), i = 0, j;
	DiEpoch ep = VG_(current_DiEpoch)();
	const HChar *file, *dir, *fn;
	UInt line;
	HChar site[256], frame[320];
	Key *k;
	while (i + 1 < n && in_preload(ips[i]))
		i++;
	if ((k = VG_(HT_lookup)(sites, ips[i]))) {
		if (pp_objs[k->id]->size < size)
			pp_objs[k->id]->size = size;
		return k->id;
	}
	k = VG_(malloc)("ptbprof.key", sizeof *k);
	k->key = ips[i];
	if (VG_(get_filename_linenum)(ep, ips[i], &file, &dir, &line))
		VG_(snprintf)(site, sizeof site, "%s:%u", file, line);
	else
		VG_(snprintf)(site, sizeof site, "0x%lx", ips[i]);
	k->id = new_object(PP_OBJ_HEAP, site);
	pp_objs[k->id]->site = VG_(strdup)("ptbprof.site", site);
	pp_objs[k->id]->stack = VG_(calloc)("ptbprof.stack", 1, 8 * sizeof frame);
	for (j = i; j < n && j < i + 8; j++) {   /* the stack down to main */
		if (!VG_(get_fnname)(ep, ips[j], &fn) || !VG_(strcmp)(fn, "(below main)") ||
		    VG_(get_fnname_kind)(fn) == Vg_FnNameBelowMain)
			break;
		if (VG_(get_filename_linenum)(ep, ips[j], &file, &dir, &line))
			VG_(snprintf)(frame, sizeof frame, "%s %s:%u", fn, file, line);
		else
			VG_(snprintf)(frame, sizeof frame, "%s 0x%lx", fn, ips[j]);
		if (j > i)
			VG_(strcat)(pp_objs[k->id]->stack, "\n");
		VG_(strcat)(pp_objs[k->id]->stack, frame);
	}
	pp_objs[k->id]->size = size;
	VG_(HT_add_node)(sites, k);
	return k->id;
}

static void *track(ThreadId tid, void *p, SizeT n)
{
	Live *b;
	Int s;
	if (!p)
		return NULL;
	b = VG_(malloc)("ptbprof.live", sizeof *b);
	b->key = (UWord)p;
	b->size = n;
	b->serial = ++serials;
	VG_(HT_add_node)(live, b);
	s = pp_slot_of(tid);
	pp_push(s, s == pp_cur ? pp_ic : pp_thr[s].ts, (Addr)p, b->serial,
		n > 0xffffffffu ? 0xffffffffu : (UInt)n, PP_ALLOC | site_of(tid, n) << 4);
	return p;
}

static void *pp_memalign(ThreadId tid, SizeT align, SizeT n)
{
	return track(tid, VG_(cli_malloc)(align, n), n);
}
static void *pp_malloc(ThreadId tid, SizeT n) { return pp_memalign(tid, VG_(clo_alignment), n); }
static void *pp_new_aligned(ThreadId tid, SizeT n, SizeT al) { return pp_memalign(tid, al, n); }

static void *pp_calloc(ThreadId tid, SizeT m, SizeT n)
{
	void *p;
	if (n && m > ~(SizeT)0 / n)
		return NULL;
	p = VG_(cli_malloc)(VG_(clo_alignment), m * n);
	if (p)
		VG_(memset)(p, 0, m * n);
	return track(tid, p, m * n);
}

static void pp_free(ThreadId tid, void *p)
{
	Live *b = p ? VG_(HT_remove)(live, (UWord)p) : NULL;
	Int s;
	if (!b)
		return;            /* not ours: leave it alone */
	s = pp_slot_of(tid);
	pp_push(s, s == pp_cur ? pp_ic : pp_thr[s].ts, (Addr)p, b->serial, 0, PP_FREE);
	VG_(free)(b);
	VG_(cli_free)(p);
}
static void pp_free_aligned(ThreadId tid, void *p, SizeT al) { pp_free(tid, p); }

static void *pp_realloc(ThreadId tid, void *p, SizeT n)
{
	Live *b = p ? VG_(HT_lookup)(live, (UWord)p) : NULL;
	void *q;
	if (p && !b)
		return NULL;
	q = pp_malloc(tid, n);
	if (q && b)
		VG_(memcpy)(q, p, b->size < n ? b->size : n);
	if (q || n == 0)
		pp_free(tid, p);
	return q;
}

static SizeT pp_usable(ThreadId tid, void *p)
{
	Live *b = VG_(HT_lookup)(live, (UWord)p);
	return b ? b->size : 0;
}

void pp_malloc_init(void)
{
	sites = VG_(HT_construct)("ptbprof.sites");
	live = VG_(HT_construct)("ptbprof.live");
	VG_(needs_malloc_replacement)(pp_malloc, pp_malloc, pp_new_aligned, pp_malloc,
				      pp_new_aligned, pp_memalign, pp_calloc, pp_free,
				      pp_free, pp_free_aligned, pp_free, pp_free_aligned,
				      pp_realloc, pp_usable, 0);
}
