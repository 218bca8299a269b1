/* SPDX-License-Identifier: MIT */
/*
 * cacheline.share: what cache lines moving between two threads' caches
 * cost (the multi-cache profiling seed's migratory lines, measured rather
 * than simulated).  Two threads at a placement each access their own
 * word n times, at the same time, and the timing ends when both are done:
 *
 *   true    both increment the same word (true sharing; the increments
 *           race and lose updates, which does not matter here)
 *   false   each increments its own word, both in one line (false sharing)
 *   padded  each increments its own word, in lines 256 bytes apart
 *   read    the main thread increments its word, the client reads another
 *           word of the same line (read misses from migration)
 *
 * (ptb_share_words places the words; a unit test checks where.)  An
 * increment is a load and a store of a volatile word.  Not every access
 * moves the line: on x86 the load is served from the thread's own store
 * buffer and several stores drain while the line is held, so the figure
 * is a contended store stream's throughput, far below one line transfer
 * (c2c.pair) per access.  The figure is the time per access of each thread, both
 * running together: at same_pu they take turns on one PU, so it is the
 * sum of their accesses; the false-sharing penalty of a placement is the
 * figure of `false` over that of `padded`, which tables print beside it
 * (`relative_to`).  The main thread waits for the client at the end of
 * run(), inside the timing, so that a slower client is not cut short.
 */
#include <stdalign.h>

#include "bench/cache.h"
#include "bench/common.h"

struct share {
	volatile uint64_t *w0, *w1;
	bool reader;                    /* the client reads instead of writing */
	_Atomic uint64_t done;          /* timings the client has finished */
	uint64_t started;               /* timings the main thread has begun */
	uint64_t sink;
};

static alignas(PTB_SHARE_SPAN) char block[2 * PTB_SHARE_SPAN];
static struct share sh;

static void client_body(void *arg, uint64_t n)
{
	struct share *s = arg;
	volatile uint64_t *w = s->w1;
	uint64_t sum = 0;
	if (s->reader)
		for (uint64_t i = 0; i < n; i++)
			sum += *w;
	else
		for (uint64_t i = 0; i < n; i++)
			*w = *w + 1;
	s->sink += sum;
	atomic_fetch_add_explicit(&s->done, 1, memory_order_release);
}

static const struct ptb_client_ops share_ops = { .body = client_body };

static int share_setup(struct ptb_point *p)
{
	int layout = ptb_share_layout_from_name(ptb_point_str(p, "layout"));
	sh = (struct share){ .reader = layout == PTB_SHARE_READ };
	ptb_share_words(layout, block, &sh.w0, &sh.w1);
	*sh.w0 = *sh.w1 = 0;
	p->state = &sh;
	return ptb_client_start(p, &share_ops, &sh);
}

static void share_run(struct ptb_point *p, uint64_t n)
{
	struct share *s = p->state;
	volatile uint64_t *w = s->w0;
	for (uint64_t i = 0; i < n; i++)
		*w = *w + 1;
	ptb_bench_await(&s->done, ++s->started);
}

static const struct ptb_param share_params[] = {
	{ "placement", "same_pu,smt,cross_core,cross_package,cross_numa",
	  "same_pu,smt,cross_core,cross_package,cross_numa", 0, 0, "where the two threads run" },
	{ "layout", PTB_SHARE_LAYOUTS, PTB_SHARE_LAYOUTS, 0, 0,
	  "true: one word; false: two words, one line; padded: two lines; read: one writes, one reads a line" },
	{ 0 }
};

static const struct ptb_row_rule share_rows[] = {
	/* match                       group                          label                          footnote */
	{ "placement=* layout=true",   "Cache line: true sharing",    "%s", NULL },
	{ "placement=* layout=false",  "Cache line: false sharing",   "%s", NULL },
	{ "placement=* layout=padded", "Cache line: padded",          "%s", NULL },
	{ "placement=* layout=read",   "Cache line: written and read", "%s", NULL },
	{ NULL }
};

const struct ptb_bench ptb_bench_cacheline_share = {
	.name = "cacheline.share",
	.summary = "two threads access one word, two words of one line, or two lines",
	.per = "access",
	.ops_per_iter = 1,
	.params = share_params,
	.setup = share_setup,
	.run = share_run,
	.plausible_ns = { 0.1, 1e5 },
	.section = PTB_SECTION_EXTRA,
	.rows = share_rows,
	.relative_to = "cacheline.share layout=padded",
	.suite = PTB_SUITE_EXTENDED,
};
