/* SPDX-License-Identifier: MIT */
/* The test program's registry: every real benchmark plus the faulty ones
 * that exercise the watchdog.  They never reach the installed ptbench. */
#include "ptbench.h"

#define PTB_BENCH(file, sym) extern const struct ptb_bench ptb_bench_##sym;
#include "bench/list.h"
PTB_BENCH(bench-faulty, test_hang)
PTB_BENCH(bench-faulty, test_crash)
PTB_BENCH(bench-faulty, test_slow)
PTB_BENCH(bench-faulty, test_flaky)
PTB_BENCH(bench-faulty, test_negative)
#undef PTB_BENCH

#define PTB_BENCH(file, sym) &ptb_bench_##sym,
const struct ptb_bench *const ptb_registry[] = {
#include "bench/list.h"
	PTB_BENCH(bench-faulty, test_hang)
	PTB_BENCH(bench-faulty, test_crash)
	PTB_BENCH(bench-faulty, test_slow)
	PTB_BENCH(bench-faulty, test_flaky)
	PTB_BENCH(bench-faulty, test_negative)
};
#undef PTB_BENCH

const int ptb_registry_count = sizeof ptb_registry / sizeof ptb_registry[0];
