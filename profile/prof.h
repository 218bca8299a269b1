/* SPDX-License-Identifier: MIT
 * ptbprof: the multi-cache profiler, a Valgrind tool (docs/design.md,
 * section "The profiler").  Threads record their memory accesses stamped
 * with their own logical time (merge.c); the streams are merged in quanta
 * and fed to a model of one private cache per thread kept coherent by MESI
 * with a directory (model.c); misses are charged to objects (objects.c)
 * and written out at the end (output.c). */
#ifndef PTBPROF_H
#define PTBPROF_H

#include <pub_tool_basics.h>

#define PP_SLOTS 64          /* modelled caches; later threads share them */
#define PP_TOP_LINES 8       /* source lines kept per object */
#define PP_LEAD 20000   /* instructions a thread may run ahead before yielding */
#define PP_BUF_MAX (1u << 21) /* events one thread may hold before a forced merge */
#define PP_RECENT 16         /* lines whose latest event a thread remembers (merge.c) */

enum pp_kind { PP_READ, PP_WRITE, PP_RMW, PP_ALLOC, PP_FREE, PP_ROI, PP_CACHE };

typedef struct {
	ULong ts;      /* the thread's logical time of the event */
	Addr addr;
	UWord aux;     /* access: instruction address; alloc/free: block serial */
	UInt size;
	UInt kind;     /* enum pp_kind in the low 4 bits; alloc: object id above */
	/* Accesses folded into this one (merge.c): the thread's next accesses
	 * to the same line in the same quantum, which the merge would feed to
	 * the model right after it and which cannot miss there -- the bytes
	 * they read or wrote (more), and those they wrote (wmore), as
	 * pp_byte_mask gives them. */
	ULong more, wmore;
	void *line;    /* access: the model's part of its (first) line's node, NULL not known */
} PP_Event;

typedef struct {
	Bool used, blocked;
	Bool released;            /* its barrier round is complete: its waits there are short */
	Addr want;                /* the mutex it has its turn for and waits to hold, 0 none */
	ULong want_ts;            /* its logical time when it got that turn */
	UInt alive;               /* threads living on this slot */
	ULong ts;                 /* logical time while not running */
	PP_Event *buf;
	UWord head, n, cap;
	ULong fold_end;           /* the end of the quantum of its last event */
	UWord q_first;            /* the index in buf of its first event in that quantum */
	UWord solid;              /* events up to this index are not folded into */
	struct { UWord key; UInt pos, wr; } recent[PP_RECENT];  /* its latest event per line, whether it writes */
	ULong cold, rd, wr, repl; /* totals of the thread's cache (repl: after an eviction) */
	Addr stack_lo, stack_hi;
	Addr ctid;                /* cleared and woken by the kernel at its exit */
	Int ktid;                 /* the kernel's id of the thread, 0 not yet known */
	Addr waddr;               /* the futex it waits on while blocked */
	ULong wseq;               /* when it began waiting (first come, first woken) */
} PP_Thread;

typedef struct {
	UInt line, shift;         /* line size in bytes and its log2 */
	UInt mshift;              /* log2 of the bytes per bit of a line's byte mask */
	ULong quantum;            /* instructions per step of the lockstep */
	UInt cache_size, ways;    /* a finite LRU cache; ways 0: unbounded */
	const HChar *out;         /* where the result goes */
	Bool affinity;            /* threads pinned to one CPU share its cache */
	Bool private_lines;       /* a line one thread alone touched makes no events (merge.c) */
} PP_Config;

extern PP_Config pp_cfg;

/* The bytes [off, off+n) of a line as a 64-bit mask (coarser for longer
 * lines). */
static inline __attribute__((always_inline)) ULong pp_byte_mask_s(UInt off, UInt n, UInt mshift)
{
	UInt lo = off >> mshift, hi = (off + n - 1) >> mshift;
	ULong m = hi >= 63 ? ~0ULL : (2ULL << hi) - 1;
	return m & ~((1ULL << lo) - 1);
}
static inline __attribute__((always_inline)) ULong pp_byte_mask(UInt off, UInt n)
{
	return pp_byte_mask_s(off, n, pp_cfg.mshift);
}
extern PP_Thread pp_thr[PP_SLOTS];
extern UInt pp_nthreads;      /* threads ever started (slots used = min(this, PP_SLOTS)) */
extern ULong pp_forced;       /* merges forced by a full buffer */
extern ULong pp_skipped_until; /* every access skipped so far came before it (private.c) */

/* merge.c */
extern ULong pp_ic;           /* logical time of the running thread */
extern Int pp_cur;            /* its slot, -1 when none runs */
void pp_merge_init(void);
void *pp_bump(SizeT n);
VG_REGPARM(3) void pp_on_access(Addr a, UWord ip, UWord szkd);
VG_REGPARM(3) void pp_on_access_64(Addr a, UWord ip, UWord szkd);   /* 64-byte lines */
#define PP_FAST 64            /* lines open to the fast path (merge.c); at most 64 */
void pp_fast_close(void);    /* closes them all */
/* private.c */
extern ULong pp_drop_until;  /* the running thread's accesses before it may be skipped */
void pp_drop_reset(void);    /* at the start of a thread's run */
extern Bool pp_skipped;      /* the running thread skipped an access in this run */
void pp_run_end(void);       /* at its end: pp_skipped_until */

/* A line's node holds its shadow (merge.c) and the model's record of it
 * (model.c), PP_LINE_BYTES zeroed when the line is first touched: the
 * model finds it through the event, without a lookup of its own. */
#define PP_LINE_BYTES 152
void *pp_line_of(UWord key);
void pp_lines_foreach(void (*fn)(void *line));
void pp_push(Int slot, ULong ts, Addr a, UWord aux, UInt size, UInt kind);
void pp_process(Bool all);
void pp_mark_exit(Int s, Addr a, ULong ts);
extern ULong pp_yield_now;    /* the running thread should let the others catch up */
ULong pp_floor(void);
ULong pp_after(Int me, UInt w, ULong wts);
void pp_slots_init(void);    /* slots.c */
Int pp_slot_of(ThreadId tid);
Int pp_slot_new(ThreadId tid);
void pp_slot_end(ThreadId tid);

/* model.c */
void pp_model_init(void);
void pp_model_event(Int slot, const PP_Event *e);
void pp_model_finish(void);
void pp_model_roi(Bool on);
void pp_model_cache(Int slot, UInt cache);

/* cache.c */
Bool pp_cache_finite(void);
UWord pp_cache_touch(UInt s, UWord key);
void pp_cache_drop(UInt s, UWord key);

/* objects.c */
typedef struct {
	UInt kind;                /* PP_OBJ_* */
	HChar *name, *site;       /* site: heap only, "file.c:LINE" */
	HChar *stack;             /* heap: the allocating stack, JSON array text */
	Addr base;
	SizeT size;
	ULong rd[PP_SLOTS], wr[PP_SLOTS];
	ULong true_sh, false_sh;
	Addr top_ip[PP_TOP_LINES];
	ULong top_n[PP_TOP_LINES];
} PP_Object;
enum { PP_OBJ_STATIC, PP_OBJ_HEAP, PP_OBJ_STACK, PP_OBJ_OTHER };

extern PP_Object **pp_objs;
extern UInt pp_nobjs;
extern UInt pp_heap_gen;      /* changes whenever the model's heap map does */
void pp_objects_init(void);
void pp_malloc_init(void);
UInt pp_object_at(Addr a, Addr *lo, Addr *hi);
void pp_heap_event(const PP_Event *e);
void pp_object_line(PP_Object *o, Addr ip);

/* sync.c */
void pp_pre_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs);
void pp_resume_unwoken(PP_Thread *t);
void pp_post_syscall(ThreadId tid, UInt no, UWord *args, UInt nargs, SysRes res);
void pp_thread_create(ThreadId parent, ThreadId child);
void pp_thread_exit(ThreadId tid);

/* locks.c */
extern ULong pp_unordered;  /* mutexes taken without waiting for their turn */
Bool pp_lock_request(ThreadId tid, UWord *args, UWord *ret);

/* output.c */
void pp_write_result(void);

#endif
