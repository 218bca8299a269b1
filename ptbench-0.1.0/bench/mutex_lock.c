/* SPDX-License-Identifier: MIT */
/*
 * mutex.lock and mutex.unlock: the individual overheads of the two calls,
 * measured as the paper does by locking a large array of mutexes and then
 * unlocking the same array (array indexing keeps the calls from
 * overlapping, as the paper notes).  Only the measured call is timed.
 *
 * Why this shape.  A mutex can be locked once before it must be unlocked,
 * so a timing of n locks needs n distinct, unlocked mutexes, and the
 * unlocks must happen outside run().  ops_per_iter is a constant, so one
 * iteration must be one call, and the harness picks n (hundreds of
 * thousands, for a 1 ms timing).  So: run(p, n) locks n consecutive
 * mutexes of an array and check() -- untimed, after every timing -- unlocks
 * them (mutex.unlock: run unlocks, check relocks).  The logical array
 * holds max(mutexes, n) mutexes and each timing starts where the previous
 * one stopped, wrapping round: with mutexes <= n every timing walks the
 * same n mutexes (a working set of n x sizeof(pthread_mutex_t)); with a
 * larger `mutexes` successive timings walk the whole array, so an array
 * larger than the caches is measured cold.  The default 1024 is therefore
 * below the harness's n and the working set is n mutexes; the `array` note
 * records the size actually walked.  Storage grows untimed in check() (see
 * struct ptb_mutex_pool: a timing the pool cannot serve is padded, counted
 * in the note `padded_timings`, and only ever a growth or warm-up timing).
 */
#include <pthread.h>

#include "bench/common.h"

struct array {
	struct ptb_mutex_pool pool;
	size_t mutexes;                 /* the variable */
	size_t cursor;                  /* where the next timing starts */
	size_t start, done, cycle;      /* what the last timing did */
};

static struct array arr;

typedef void span_fn(pthread_mutex_t *m, size_t from, size_t to);

/* done calls on m[start...] of a circular array of `cycle` mutexes */
static void circular(span_fn *op, pthread_mutex_t *m, size_t start, size_t done, size_t cycle)
{
	size_t end = start + done;
	if (end <= cycle) {
		op(m, start, end);
	} else {
		op(m, start, cycle);
		op(m, 0, end - cycle);
	}
}

static int array_setup(struct ptb_point *p, bool held)
{
	arr = (struct array){ .mutexes = ptb_point_long(p, "mutexes") };
	p->state = &arr;
	if (ptb_mutex_pool_init(&arr.pool, arr.mutexes > 4096 ? arr.mutexes : 4096, held) < 0) {
		ptb_point_error(p, "out of memory for %zu mutexes", arr.mutexes);
		return -1;
	}
	return ptb_bench_idle_helper(p);
}

static int lock_setup(struct ptb_point *p)   { return array_setup(p, false); }
static int unlock_setup(struct ptb_point *p) { return array_setup(p, true); }

/* Plan a timing of n calls; returns how many the pool can serve. */
static size_t plan(struct array *st, uint64_t n)
{
	size_t want = n > st->mutexes ? n : st->mutexes;
	st->cycle = want < st->pool.cap ? want : st->pool.cap;
	st->start = st->cursor % st->cycle;
	st->done = n < st->cycle ? n : st->cycle;
	return st->done;
}

static void pad_with_spare(struct array *st, uint64_t from, uint64_t n)
{
	for (uint64_t i = from; i < n; i++) {
		pthread_mutex_lock(&st->pool.spare);
		pthread_mutex_unlock(&st->pool.spare);
	}
}

static void lock_run(struct ptb_point *p, uint64_t n)
{
	struct array *st = p->state;
	size_t k = plan(st, n);
	circular(ptb_mutex_lock_span, st->pool.m, st->start, k, st->cycle);
	pad_with_spare(st, k, n);
}

static void unlock_run(struct ptb_point *p, uint64_t n)
{
	struct array *st = p->state;
	size_t k = plan(st, n);
	circular(ptb_mutex_unlock_span, st->pool.m, st->start, k, st->cycle);
	pad_with_spare(st, k, n);
}

/* Untimed: undo the timing, move on, and make room for the next one. */
static void restore(struct ptb_point *p, uint64_t n, span_fn *undo)
{
	struct array *st = p->state;

	circular(undo, st->pool.m, st->start, st->done, st->cycle);
	st->cursor = (st->start + st->done) % st->cycle;
	ptb_point_note(p, "array", st->cycle);
	if (st->done < n)
		ptb_point_note(p, "padded_timings", ++st->pool.padded);
	if (ptb_mutex_pool_reserve(&st->pool, 2 * n) < 0)
		ptb_point_error(p, "out of memory for %llu mutexes", 2 * (unsigned long long)n);
}

static void lock_check(struct ptb_point *p, uint64_t n)   { restore(p, n, ptb_mutex_unlock_span); }
static void unlock_check(struct ptb_point *p, uint64_t n) { restore(p, n, ptb_mutex_lock_span); }

static void array_teardown(struct ptb_point *p)
{
	ptb_bench_idle_stop();
	ptb_mutex_pool_fini(&((struct array *)p->state)->pool);
}

static const struct ptb_param array_params[] = {
	{ "mutexes", NULL, "1024", 1, 1000000,
	  "size of the mutex array; the array walked is max(mutexes, iterations)" },
	{ 0 }
};

static const struct ptb_row_rule lock_rows[] = {
	/* match        group         label                  footnote */
	{ "mutexes=*", "Mutex lock", "at least %s mutexes", NULL },
	{ NULL }
};

static const struct ptb_row_rule unlock_rows[] = {
	/* match        group           label                  footnote */
	{ "mutexes=*", "Mutex unlock", "at least %s mutexes", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_mutex_lock = {
	.name = "mutex.lock",
	.summary = "lock each mutex of an array (unlocked again untimed)",
	.per = "lock",
	.ops_per_iter = 1,
	.params = array_params,
	.setup = lock_setup,
	.run = lock_run,
	.check = lock_check,
	.teardown = array_teardown,
	.rows = lock_rows,
	.logp = { "mutex", PTB_LOGP_OR, false, NULL },
	.plausible_ns = { 0.5, 5e3 },   /* a call: 0.5 ns .. 5 us */
};

const struct ptb_bench ptb_bench_mutex_unlock = {
	.name = "mutex.unlock",
	.summary = "unlock each mutex of a locked array (relocked untimed)",
	.per = "unlock",
	.ops_per_iter = 1,
	.params = array_params,
	.setup = unlock_setup,
	.run = unlock_run,
	.check = unlock_check,
	.teardown = array_teardown,
	.rows = unlock_rows,
	.logp = { "mutex", PTB_LOGP_OS, false, NULL },
	.plausible_ns = { 0.5, 5e3 },   /* a call: 0.5 ns .. 5 us */
};
