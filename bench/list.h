/* SPDX-License-Identifier: MIT */
/*
 * Every benchmark, in the order of the paper's Table 1.  Adding one is a
 * new file in bench/ plus one line here.  PTB_BENCH(symbol) names the
 * descriptor `ptb_bench_<symbol>` defined at the bottom of its file.
 */
PTB_BENCH(mutex_lockunlock)
PTB_BENCH(cond_signal)
PTB_BENCH(mutex_pingpong)
