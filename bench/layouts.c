/* SPDX-License-Identifier: MIT */
/*
 * The benchmarks in every code layout (docs/design.md section 17): the
 * copies bench/mksources.sh compiles of each benchmark file, copy k with
 * its code 8k bytes past a 64-byte boundary and its own static data, its
 * descriptors renamed ptb_bench_SYMBOL_Lk.  A trial measures one layout,
 * so that a point's trials span them and its figure holds for any build,
 * not only for where this build's compiler happened to put a loop.
 *
 * Apart from bench/registry.c so that a program with a registry of its
 * own (the tests') still finds the layouts of the real benchmarks.
 */
#include <string.h>

#include "ptbench.h"

#define PTB_BENCH(file, sym) extern const struct ptb_bench \
	ptb_bench_##sym##_L0, ptb_bench_##sym##_L1, ptb_bench_##sym##_L2, \
	ptb_bench_##sym##_L3, ptb_bench_##sym##_L4, ptb_bench_##sym##_L5, \
	ptb_bench_##sym##_L6, ptb_bench_##sym##_L7;
#include "bench/list.h"
#undef PTB_BENCH

#define PTB_BENCH(file, sym) { \
	&ptb_bench_##sym##_L0, &ptb_bench_##sym##_L1, &ptb_bench_##sym##_L2, \
	&ptb_bench_##sym##_L3, &ptb_bench_##sym##_L4, &ptb_bench_##sym##_L5, \
	&ptb_bench_##sym##_L6, &ptb_bench_##sym##_L7 },
static const struct ptb_bench *const layouts[][PTB_LAYOUT_COUNT] = {
#include "bench/list.h"
};
#undef PTB_BENCH

const struct ptb_bench *ptb_bench_in_layout(const struct ptb_bench *b, int layout)
{
	if (layout < 0 || layout >= PTB_LAYOUT_COUNT)
		return b;
	for (size_t i = 0; i < sizeof layouts / sizeof layouts[0]; i++)
		if (!strcmp(layouts[i][0]->name, b->name))
			return layouts[i][layout];
	return b;
}
