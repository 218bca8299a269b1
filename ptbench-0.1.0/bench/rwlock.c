/* SPDX-License-Identifier: MIT */
/*
 * rwlock.lockunlock, rwlock.readers and rwlock.writer: reader-writer locks
 * uncontended, shared by N readers, and taken for writing among readers.
 *
 * rwlock.lockunlock: read-lock (mode=read) or write-lock (mode=write) and
 * unlock one rwlock in the main thread, n times, with an idle thread alive
 * (as mutex.lockunlock threads=2).
 *
 * rwlock.readers: N threads, one per PU in compact or spread order (see
 * bench/barrier.c), each read-lock and unlock the same rwlock n times at
 * once.  The figure is the time of one lock+unlock in one thread while
 * the others do the same: flat with N if readers scale, rising as they
 * fight over the lock's cache line.
 *
 * rwlock.writer: R readers, one per PU (compact, after the main thread's),
 * read-lock and unlock in a loop until the main thread has write-locked
 * and unlocked n times; the figure is one write lock+unlock among them.
 * The library's default rwlock kind is used (glibc's prefers readers, so
 * the writer waits until no reader holds the lock); `reads_per_write`
 * notes how much the readers got done meanwhile.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "bench/common.h"

struct reader {
	_Alignas(64) uint64_t reads;     /* this thread's alone */
	struct rw_state *st;
};

struct rw_state {
	pthread_rwlock_t l;
	_Alignas(64) atomic_bool stop;    /* rwlock.writer: the writer is done */
	int threads;
	uint64_t writes;
	struct reader r[PTB_MAX_CLIENTS + 1];
};

static struct rw_state st;

static void rw_init(struct ptb_point *p)
{
	memset(&st, 0, sizeof st);
	pthread_rwlock_init(&st.l, NULL);
	for (int i = 0; i <= PTB_MAX_CLIENTS; i++)
		st.r[i].st = &st;
	p->state = &st;
}

static void rw_teardown(struct ptb_point *p)
{
	ptb_bench_idle_stop();
	pthread_rwlock_destroy(&st.l);
	ptb_bench_unpin(p);
}

/* --- rwlock.lockunlock ---------------------------------------------------- */

static int lockunlock_setup(struct ptb_point *p)
{
	rw_init(p);
	if (ptb_bench_idle_helper(p) == 0)
		return 0;
	pthread_rwlock_destroy(&st.l);
	return -1;
}

static void lockunlock_run(struct ptb_point *p, uint64_t n)
{
	pthread_rwlock_t *l = &((struct rw_state *)p->state)->l;
	if (strcmp(ptb_point_str(p, "mode"), "write") == 0)
		for (uint64_t i = 0; i < n; i++) {
			pthread_rwlock_wrlock(l);
			pthread_rwlock_unlock(l);
		}
	else
		for (uint64_t i = 0; i < n; i++) {
			pthread_rwlock_rdlock(l);
			pthread_rwlock_unlock(l);
		}
}

/* --- rwlock.readers ------------------------------------------------------- */

static void read_n(void *arg, uint64_t n)
{
	pthread_rwlock_t *l = &((struct reader *)arg)->st->l;
	for (uint64_t i = 0; i < n; i++) {
		pthread_rwlock_rdlock(l);
		pthread_rwlock_unlock(l);
	}
}

static const struct ptb_client_ops reader_ops = { .body = read_n };

/* Threads on pus[0..n), the main thread first, clients running `ops`. */
static int rw_group(struct ptb_point *p, const char *order, int n,
		    const struct ptb_client_ops *ops)
{
	static int pus[PTB_MAX_CLIENTS + 1];
	if (ptb_bench_place_group(p, order, n, pus) < 0)
		return -1;
	rw_init(p);
	st.threads = n;
	if (n == 1 && ptb_bench_idle_helper(p) < 0)
		goto fail;
	for (int i = 1; i < n; i++)
		if (ptb_client_start_on(p, pus[i], ops, &st.r[i]) < 0)
			goto fail;   /* the harness cancels the clients started */
	return 0;
fail:
	pthread_rwlock_destroy(&st.l);
	return -1;
}

static int readers_setup(struct ptb_point *p)
{
	return rw_group(p, ptb_point_str(p, "order"), (int)ptb_point_long(p, "threads"),
			&reader_ops);
}

static void readers_run(struct ptb_point *p, uint64_t n)
{
	read_n(&((struct rw_state *)p->state)->r[0], n);
}

/* --- rwlock.writer -------------------------------------------------------- */

static void read_until_stop(void *arg, uint64_t n)
{
	struct reader *r = arg;
	uint64_t reads = 0;
	(void)n;
	while (!atomic_load_explicit(&r->st->stop, memory_order_relaxed)) {
		pthread_rwlock_rdlock(&r->st->l);
		pthread_rwlock_unlock(&r->st->l);
		reads++;
	}
	r->reads += reads;
}

static const struct ptb_client_ops until_stop_ops = { .body = read_until_stop };

static int writer_setup(struct ptb_point *p)
{
	return rw_group(p, "compact", (int)ptb_point_long(p, "readers") + 1, &until_stop_ops);
}

static void writer_run(struct ptb_point *p, uint64_t n)
{
	struct rw_state *s = p->state;
	for (uint64_t i = 0; i < n; i++) {
		pthread_rwlock_wrlock(&s->l);
		pthread_rwlock_unlock(&s->l);
	}
	atomic_store_explicit(&s->stop, true, memory_order_relaxed);
}

/* Untimed, the readers stopped: count their reads, ready the next timing. */
static void writer_check(struct ptb_point *p, uint64_t n)
{
	struct rw_state *s = p->state;
	uint64_t reads = 0;
	s->writes += n;
	for (int i = 1; i < s->threads; i++)
		reads += s->r[i].reads;
	ptb_point_note(p, "reads_per_write", (double)reads / (double)s->writes);
	atomic_store(&s->stop, false);
}

static const struct ptb_param lockunlock_params[] = {
	{ "mode", "read,write", "read,write", 0, 0, "read: rdlock+unlock; write: wrlock+unlock" },
	{ 0 }
};

static const struct ptb_param readers_params[] = {
	{ "threads", NULL, "1,2,4,8,16,32,64,128,256", 1, PTB_MAX_CLIENTS + 1,
	  "reading threads, one per PU (na beyond the allowed PUs)" },
	{ "order", PTB_ORDERS, PTB_ORDERS, 0, 0,
	  "compact: fill a core's, then a package's PUs first; spread: one PU per core first" },
	{ 0 }
};

static const struct ptb_param writer_params[] = {
	{ "readers", NULL, "1,2,4,8,16,32,64,128,255", 1, PTB_MAX_CLIENTS,
	  "threads reading meanwhile, one per PU (na beyond the allowed PUs - 1)" },
	{ 0 }
};

static const struct ptb_row_rule lockunlock_rows[] = {
	/* match        group                 label                 footnote */
	{ "mode=read",  "Reader-writer lock", "Read lock+unlock",  NULL },
	{ "mode=write", "Reader-writer lock", "Write lock+unlock", NULL },
	{ NULL }
};

static const struct ptb_row_rule readers_rows[] = {
	/* match                      group                           label          footnote */
	{ "threads=* order=compact", "Reader-writer lock, readers, compact", "%s threads", NULL },
	{ "threads=* order=spread",  "Reader-writer lock, readers, spread",  "%s threads", NULL },
	{ NULL }
};

static const struct ptb_row_rule writer_rows[] = {
	/* match        group                                  label          footnote */
	{ "readers=*", "Reader-writer lock, writer among readers", "%s readers", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_rwlock_lockunlock = {
	.name = "rwlock.lockunlock",
	.summary = "read- or write-lock and unlock one uncontended rwlock",
	.per = "lock+unlock",
	.ops_per_iter = 1,
	.params = lockunlock_params,
	.setup = lockunlock_setup,
	.run = lockunlock_run,
	.teardown = rw_teardown,
	.plausible_ns = { 1, 5e3 },   /* two calls: 1 ns .. 5 us */
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = lockunlock_rows,
};

const struct ptb_bench ptb_bench_rwlock_readers = {
	.name = "rwlock.readers",
	.summary = "N threads, one per PU, read-lock and unlock one rwlock at once",
	.per = "lock+unlock",
	.ops_per_iter = 1,
	.params = readers_params,
	.setup = readers_setup,
	.run = readers_run,
	.teardown = rw_teardown,
	.target_s = 0.01,
	/* two calls alone, 1 ns; a contended line on a loaded machine, 1 ms */
	.plausible_ns = { 1, 1e6 },
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = readers_rows,
};

const struct ptb_bench ptb_bench_rwlock_writer = {
	.name = "rwlock.writer",
	.summary = "write-lock and unlock one rwlock while R threads read-lock it in a loop",
	.per = "lock+unlock",
	.ops_per_iter = 1,
	.params = writer_params,
	.setup = writer_setup,
	.run = writer_run,
	.check = writer_check,
	.teardown = rw_teardown,
	.target_s = 0.01,
	/* uncontended, 1 ns; waiting out readers on a loaded machine, 10 ms */
	.plausible_ns = { 1, 1e7 },
	.suite = PTB_SUITE_EXTENDED,
	.section = PTB_SECTION_EXTRA,
	.rows = writer_rows,
};
