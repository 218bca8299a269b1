/* SPDX-License-Identifier: MIT */
/*
 * Every benchmark, in the order of the paper's Table 1 (create.join, an
 * extra row, beside create), then the ones the paper does not list (the
 * LogP gaps).  Tables list the rows of a section in this order.  Adding a
 * benchmark is a new file in bench/ plus one line here.
 * PTB_BENCH(symbol) names the descriptor `ptb_bench_<symbol>` defined at
 * the bottom of its file.
 */
PTB_BENCH(create)
PTB_BENCH(create_join)
PTB_BENCH(yield)
PTB_BENCH(timeslice)
PTB_BENCH(cond_pingpong)
PTB_BENCH(cond_signal)
PTB_BENCH(cond_wait)
PTB_BENCH(mutex_pingpong)
PTB_BENCH(mutex_nocontention)
PTB_BENCH(mutex_lockunlock)
PTB_BENCH(mutex_lock)
PTB_BENCH(mutex_unlock)
PTB_BENCH(cond_gap)
PTB_BENCH(mutex_gap)
