/* SPDX-License-Identifier: MIT */
/* The registry of the ptbench program, expanded from bench/list.h. */
#include "ptbench.h"

#define PTB_BENCH(file, sym) extern const struct ptb_bench ptb_bench_##sym;
#include "bench/list.h"
#undef PTB_BENCH

#define PTB_BENCH(file, sym) &ptb_bench_##sym,
const struct ptb_bench *const ptb_registry[] = {
#include "bench/list.h"
};
#undef PTB_BENCH

const int ptb_registry_count = sizeof ptb_registry / sizeof ptb_registry[0];
