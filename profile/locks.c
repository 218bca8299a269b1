/* SPDX-License-Identifier: MIT
 * ptbprof: mutexes in logical time.  The program's pthread_mutex_lock,
 * trylock and unlock are wrapped (profile/preload.c).  A thread about to
 * take a mutex waits until every other running thread has reached its
 * quantum of logical time (a lower slot: passed it), so the acquisitions
 * happen in the merge's order (merge.c) whatever Valgrind's schedule;
 * a thread that gets the mutex moves past the logical time of the release
 * it acquired, so critical sections follow one another in the model as on
 * hardware; one that waits for a held mutex sleeps in the kernel (a futex:
 * sync.c) and advances nothing.  A thread whose turn does not come while
 * the others make no progress for PTBPROF_TURN_TRIES of its yields and
 * PTBPROF_TURN_MS milliseconds (another is stuck where the model cannot
 * see, e.g. spinning in the C library) takes the mutex unordered, counted. */
#include <pub_tool_basics.h>
#include <pub_tool_libcbase.h>
#include <pub_tool_mallocfree.h>
#include <pub_tool_hashtable.h>
#include <pub_tool_threadstate.h>
#include <pub_tool_libcproc.h>
#include "profile/prof.h"
#include "profile/lockreq.h"

ULong pp_unordered;

/* The C library's instructions take no logical time (main.c), so a mutex
 * taken and released would cost nothing and a loop of short critical
 * sections would pack dozens of them into a quantum.  A lock counts as
 * many instructions as glibc 2.36's uncontended pthread_mutex_lock on
 * x86-64 executes (31, by callgrind), an unlock as its unlock (26):
 * fixed, whatever spinning or waiting the call really did. */
#define LOCK_COST 31
#define UNLOCK_COST 26

typedef struct Mutex {
	struct Mutex *next;
	UWord key;             /* the mutex's address */
	Int slot;              /* who released it last, -1 none */
	ULong ts;              /* at what logical time */
	Bool held;             /* taken (in the model) and not yet released */
} Mutex;
static VgHashTable *mutexes;

/* A barrier's rounds: the threads of round r leave after its latest
 * arrival.  Two rounds are enough: no thread arrives at round r + 2 before
 * every thread has left round r. */
typedef struct Barrier {
	struct Barrier *next;
	UWord key;             /* the barrier's address */
	UInt count;            /* threads per round */
	ULong arrived;         /* arrivals ever */
	Int slot[2];           /* the latest arrival of round r % 2: who */
	ULong ts[2];           /* and when */
	ULong left_round[PP_SLOTS];  /* the round each slot arrived at, + 1 */
} Barrier;
static VgHashTable *barriers;

static Bool before(UInt s, ULong qs, Int me, ULong q);

static Barrier *barrier_of(Addr a)
{
	Barrier *b;
	if (!barriers)
		barriers = VG_(HT_construct)("ptbprof.barriers");
	b = VG_(HT_lookup)(barriers, a);
	if (!b) {
		b = VG_(calloc)("ptbprof.barrier", 1, sizeof *b);
		b->key = a;
		VG_(HT_add_node)(barriers, b);
	}
	return b;
}

/* The round's last arrival (by Valgrind's schedule) releases the others
 * at once, in logical time after the round's latest arrival: a thread
 * still on its way into the C library's wait (Valgrind switched threads
 * between its arrival and the futex call) would otherwise be counted as
 * blocked there, and resume at whatever frontier the merge had reached
 * meanwhile -- which depends on the schedule.  Their waits at the barrier
 * from now on end as soon as the last arrival's wake-up comes, so they
 * block nothing (sync.c). */
static void release_round(const Barrier *b, ULong round, Int me)
{
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS, i = (UInt)((round - 1) % 2);
	for (s = 0; s < n; s++) {
		ULong t;
		if ((Int)s == me || b->left_round[s] != round || !pp_thr[s].alive)
			continue;
		pp_thr[s].released = True;
		pp_thr[s].blocked = False;
		if ((Int)s == b->slot[i])
			continue;
		t = pp_after((Int)s, (UInt)b->slot[i], b->ts[i]);
		if (pp_thr[s].ts < t)
			pp_thr[s].ts = t;
	}
}

static void barrier_request(UWord req, Int me, ULong *now, Addr a, UWord n)
{
	Barrier *b = barrier_of(a);
	ULong r;
	UInt i;
	switch (req) {
	case PTBPROF_REQ_BARRIER_INIT:
		b->count = (UInt)n;
		b->arrived = 0;
		break;
	case PTBPROF_REQ_BARRIER_IN:
		if (!b->count)
			break;
		r = b->arrived++ / b->count;
		i = (UInt)(r % 2);
		/* The round's latest arrival in the merge's order (by quantum,
		 * then slot), which every other thread of the round then follows. */
		if (b->arrived % b->count == 1 || b->count == 1 ||
		    !before((UInt)me, *now / pp_cfg.quantum, b->slot[i], b->ts[i] / pp_cfg.quantum)) {
			b->ts[i] = *now;
			b->slot[i] = me;
		}
		b->left_round[me] = r + 1;
		if (b->arrived % b->count == 0)
			release_round(b, r + 1, me);
		break;
	case PTBPROF_REQ_BARRIER_OUT:
		if (!b->count || !b->left_round[me])
			break;
		i = (UInt)((b->left_round[me] - 1) % 2);
		if (b->slot[i] != me) {
			ULong t = pp_after(me, (UInt)b->slot[i], b->ts[i]);
			if (*now < t)
				*now = t;
		}
		b->left_round[me] = 0;
		pp_thr[me].released = False;
		break;
	}
}

static Mutex *mutex_of(Addr a)
{
	Mutex *m;
	if (!mutexes)
		mutexes = VG_(HT_construct)("ptbprof.mutexes");
	m = VG_(HT_lookup)(mutexes, a);
	if (!m) {
		m = VG_(malloc)("ptbprof.mutex", sizeof *m);
		m->key = a;
		m->slot = -1;
		m->ts = 0;
		m->held = False;
		VG_(HT_add_node)(mutexes, m);
	}
	return m;
}

/* Whether slot s comes before slot me in the merge's order at times qs
 * and q (quanta): by quantum, then by slot. */
static Bool before(UInt s, ULong qs, Int me, ULong q)
{
	return qs < q || (qs == q && (Int)s < me);
}

/* Whether slot `me`, at logical time now, comes first among the running
 * threads in the merge's order, and no thread that got its turn for mutex
 * m before it (in that order) still waits to hold it: a waiter may be
 * blocked in the kernel, or not yet running again after the release woke
 * it, and whether the releaser's next lock overtook it would depend on
 * Valgrind's schedule. */
static Bool my_turn(Int me, ULong now, Addr m)
{
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS;
	ULong q = now / pp_cfg.quantum;
	for (s = 0; s < n; s++) {
		ULong qs;
		if ((Int)s == me || !pp_thr[s].alive)
			continue;
		if (pp_thr[s].want == m && before(s, pp_thr[s].want_ts / pp_cfg.quantum, me, q))
			return False;
		if (pp_thr[s].blocked)
			continue;
		qs = ((Int)s == pp_cur ? pp_ic : pp_thr[s].ts) / pp_cfg.quantum;
		if (qs < q || (qs == q && (Int)s < me))
			return False;
	}
	return True;
}

/* Whether every other running thread is past slot `me`'s logical time
 * now (at it: a higher slot), so that what `me` reads next was written
 * before or at now whatever Valgrind's schedule.  Of the threads that
 * wait so, the one lowest in (time, slot) always may go. */
static Bool all_past(Int me, ULong now)
{
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS;
	for (s = 0; s < n; s++) {
		ULong ts;
		if ((Int)s == me || !pp_thr[s].alive || pp_thr[s].blocked)
			continue;
		ts = (Int)s == pp_cur ? pp_ic : pp_thr[s].ts;
		if (ts < now || (ts == now && (Int)s < me))
			return False;
	}
	return True;
}

/* Whether the waiting slot `me` should give up its turn: the others'
 * logical times and states have not changed over PTBPROF_TURN_TRIES of its
 * requests and PTBPROF_TURN_MS. */
static struct { ULong sig; UInt tries, since; } waiting[PP_SLOTS];
static Bool stuck(Int me)
{
	UInt s, n = pp_nthreads < PP_SLOTS ? pp_nthreads : PP_SLOTS, now = VG_(read_millisecond_timer)();
	ULong sig = 0;
	for (s = 0; s < n; s++)
		if ((Int)s != me && pp_thr[s].alive)
			sig = sig * 31 + pp_thr[s].ts * 2 + pp_thr[s].blocked;
	if (sig != waiting[me].sig || !waiting[me].tries) {
		waiting[me].sig = sig;
		waiting[me].tries = 1;
		waiting[me].since = now;
		return False;
	}
	return ++waiting[me].tries >= PTBPROF_TURN_TRIES && now - waiting[me].since >= PTBPROF_TURN_MS;
}

/* The thread's compare-and-swap that takes the mutex comes after the
 * release it finds: so the lock word's line moves in that order too. */
static void follow_release(Int me, ULong *now, const Mutex *m)
{
	if (m->slot >= 0 && m->slot != me) {
		ULong t = pp_after(me, (UInt)m->slot, m->ts);
		if (*now < t)
			*now = t;
	}
}

Bool pp_lock_request(ThreadId tid, UWord *args, UWord *ret)
{
	Int me;
	ULong *now;    /* the thread's logical time (Valgrind stopped it for the request) */
	Mutex *m;
	if (args[0] < PTBPROF_REQ_TURN || args[0] > PTBPROF_REQ_GAVE_UP)
		return False;
	*ret = 0;
	me = pp_slot_of(tid);
	now = me == pp_cur ? &pp_ic : &pp_thr[me].ts;
	if (*now < pp_floor())
		*now = pp_floor();
	if (args[0] == PTBPROF_REQ_YIELD) {
		*ret = all_past(me, *now) || stuck(me);
		if (*ret)
			waiting[me].tries = 0;
		return True;
	}
	if (args[0] >= PTBPROF_REQ_BARRIER_INIT && args[0] <= PTBPROF_REQ_BARRIER_OUT) {
		barrier_request(args[0], me, now, args[1], args[2]);
		return True;
	}
	m = mutex_of(args[1]);
	switch (args[0]) {
	case PTBPROF_REQ_TURN:
		/* The turn goes by when the threads arrive at the mutex, so a
		 * thread that waits for another's release is not overtaken by
		 * the releaser's next lock; a free mutex is then taken after
		 * its release. */
		*ret = my_turn(me, *now, args[1]);
		if (!*ret && stuck(me)) {
			pp_unordered++;
			*ret = 2;
		}
		if (*ret) {
			waiting[me].tries = 0;
			pp_thr[me].want = args[1];
			pp_thr[me].want_ts = *now;
		}
		if (*ret && !m->held)
			follow_release(me, now, m);
		break;
	case PTBPROF_REQ_GAVE_UP:  /* a trylock that found it held, an error */
		pp_thr[me].want = 0;
		break;
	case PTBPROF_REQ_ACQUIRED: /* after a wait, or with the turn given up */
		pp_thr[me].want = 0;
		follow_release(me, now, m);
		*now += LOCK_COST;
		m->held = True;
		break;
	case PTBPROF_REQ_RELEASE:
		*now += UNLOCK_COST;
		m->slot = me;
		m->ts = *now;
		m->held = False;
		break;
	}
	return True;
}
