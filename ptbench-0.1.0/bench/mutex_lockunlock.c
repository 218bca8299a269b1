/* SPDX-License-Identifier: MIT */
/*
 * mutex.lockunlock: lock and unlock one mutex in the main thread, n times
 * (the paper's "Mutex lock and unlock", after Mueller).  Nobody else ever
 * touches the mutex, so this is the uncontended fast path of both calls.
 *
 * threads=2 is the paper's row: an idle thread exists for the whole
 * point, so the process is multi-threaded as the paper's SKaMPI process
 * was.  threads=1 measures a process that has never had another thread,
 * where a C library may skip the atomic (lock-prefixed) instruction.  Such
 * libraries remember that the process once had a second thread (glibc's
 * __libc_single_threaded is never set again), so threads=1 comes first in
 * the default sweep and is na when the C library says the process is
 * already multi-threaded.  Whether a library does is its build's choice:
 * Debian's glibc 2.36-9+deb12u14 on x86-64 tests __libc_single_threaded in
 * both calls and then uses a plain load and store instead of `lock
 * cmpxchg` and `xchg` (read from its disassembly), and threads=1 is about
 * a third of threads=2 there; an earlier build of the same version had no
 * such test, and both rows agreed.
 *
 * The variables type, protocol and robust choose the mutex kind
 * (bench/common.h); their defaults are the paper's mutex.
 */
#include <pthread.h>

#include "bench/common.h"

struct lockunlock {
	pthread_mutex_t m;
};

static int lockunlock_setup(struct ptb_point *p)
{
	static struct lockunlock st;
	int threads;

	if (ptb_bench_mutex_init(p, &st.m) < 0)
		return -1;
	p->state = &st;
	if (ptb_point_long(p, "threads") == 2) {
		if (ptb_bench_idle_helper(p) == 0)
			return 0;
	} else if ((threads = ptb_thread_count()) != 1) {
		ptb_point_na(p, "threads=1 needs a single-threaded process; this one has %d threads",
			     threads);
	} else if (ptb_process_single_threaded() == 0) {
		ptb_point_na(p, "threads=1: the C library already treats this process as "
			     "multi-threaded (an earlier point created a thread); run threads=1 first");
	} else {
		return 0;
	}
	pthread_mutex_destroy(&st.m);   /* a failed setup gets no teardown */
	return -1;
}

static void lockunlock_run(struct ptb_point *p, uint64_t n)
{
	struct lockunlock *st = p->state;
	for (uint64_t i = 0; i < n; i++) {
		pthread_mutex_lock(&st->m);
		pthread_mutex_unlock(&st->m);
	}
}

static void lockunlock_teardown(struct ptb_point *p)
{
	struct lockunlock *st = p->state;

	ptb_bench_idle_stop();
	pthread_mutex_destroy(&st->m);
}

static const struct ptb_param lockunlock_params[] = {
	{ "threads", "1,2", "1,2", 0, 0,
	  "1: the process has never had another thread; 2: an idle second thread exists (the paper's process)" },
	PTB_MUTEX_KIND_PARAMS,
	{ 0 }
};

#define SINGLE_NOTE "single-threaded process: a C library may skip the atomic instruction then (recent glibc builds do); the paper's process was multi-threaded"

static const struct ptb_row_rule lockunlock_rows[] = {
	/* The paper's mutex (older files lack the kind variables), then the
	 * other kinds, whose variables the label then shows. */
	/* match                                          group label                                             footnote */
	{ "threads=2? type=normal? protocol=none? robust=no?", "", "Mutex lock and unlock",                          NULL },
	{ "threads=1 type=normal? protocol=none? robust=no?",  "", "Mutex lock and unlock, single-threaded process", SINGLE_NOTE },
	{ "threads=2?",                                        "", "Mutex lock and unlock",                          NULL },
	{ "threads=1",                                         "", "Mutex lock and unlock, single-threaded process", SINGLE_NOTE },
	{ NULL }
};

const struct ptb_bench ptb_bench_mutex_lockunlock = {
	.name = "mutex.lockunlock",
	.summary = "lock and unlock one uncontended mutex",
	.per = "lock+unlock",
	.ops_per_iter = 1,
	.params = lockunlock_params,
	.setup = lockunlock_setup,
	.run = lockunlock_run,
	.teardown = lockunlock_teardown,
	.rows = lockunlock_rows,
	.keyless_defaults = PTB_MUTEX_KIND_VARS,
	.plausible_ns = { 1, 5e3 },   /* two calls: 1 ns .. 5 us */
};
