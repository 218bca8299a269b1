/* SPDX-License-Identifier: MIT */
/*
 * Between the omp benchmarks (bench/omp.c, compiled like the rest of
 * ptbench) and the module that holds their OpenMP code (bench/omp-rt.c,
 * the one file compiled with the compiler's OpenMP flag, built as
 * ptbench-omp.so).  The benchmark dlopens the module in its trial process
 * after it has set the runtime's affinity variables, so the runtime starts
 * there and nowhere else (docs/design.md section 15).
 */
#ifndef PTB_BENCH_OMP_RT_H
#define PTB_BENCH_OMP_RT_H

#include <stddef.h>
#include <stdint.h>

/* The directives, in the order of the table in bench/omp.c. */
enum ptbomp_kind {
	PTBOMP_PARALLEL, PTBOMP_FOR, PTBOMP_PARALLEL_FOR, PTBOMP_BARRIER, PTBOMP_SINGLE,
	PTBOMP_CRITICAL, PTBOMP_LOCK, PTBOMP_ORDERED, PTBOMP_ATOMIC, PTBOMP_REDUCTION
};

#define PTBOMP_MAX_THREADS 257

/* The module's entry points, found by dlsym as "ptbomp_module". */
struct ptbomp_module {
	/* Ask for a team of `threads` with the schedule ("static", "dynamic",
	 * "guided") of the loop directives and `delay` iterations of the
	 * delay loop; runs one region and writes each thread's CPU
	 * (sched_getcpu) into cpus.  Returns the team's size. */
	int (*prepare)(int threads, const char *schedule, int delay, int *cpus);
	/* n repetitions of the directive, EPCC's way. */
	void (*run)(enum ptbomp_kind kind, uint64_t n);
	/* The reference: the delays of n repetitions by one thread. */
	void (*reference)(enum ptbomp_kind kind, uint64_t n);
	/* Which library provides the runtime: its file, as the dynamic
	 * linker resolved omp_get_num_threads. */
	const char *(*runtime_file)(void);
	/* Whether the last run() did what it should (a counter checked); NULL
	 * or why not. */
	const char *(*verify)(enum ptbomp_kind kind, uint64_t n);
	/* Shut the runtime down, before the trial process leaves by _exit:
	 * LLVM's libomp registers every process in a file of /dev/shm
	 * (__KMP_REGISTERED_LIB_<pid>_<uid>) that only its shutdown removes. */
	void (*release)(void);
};

#endif
