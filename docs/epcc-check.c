/* SPDX-License-Identifier: MIT */
/*
 * An independent check of the omp.* benchmarks' method: a minimal
 * EPCC-syncbench loop (Bull et al.), written apart from ptbench, for the
 * parallel, barrier and reduction directives.  For each: time `reps`
 * repetitions of the directive around the delay with omp_get_wtime, time
 * the same delays by one thread, and print the difference per repetition
 * in ns over OUTER such measurements: their mean (EPCC's figure) and
 * their median.
 *
 *   cc -O2 -fopenmp docs/epcc-check.c -o epcc-check
 *   OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES='{0},{1}' ./epcc-check
 *
 * docs/design.md section 15 gives the figures beside ptbench's.
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define DELAY 256
#define OUTER 21

static void delay(int len)
{
	int a = 0;
	for (int i = 0; i < len; i++) {
		a += i;
		__asm__ volatile("" : "+r"(a));
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static double reference(long reps)
{
	double t = omp_get_wtime();
	for (long j = 0; j < reps; j++)
		delay(DELAY);
	return omp_get_wtime() - t;
}

static double directive(int which, long reps)
{
	int sum = 0;
	double t = omp_get_wtime();
	if (which == 0) {
		for (long j = 0; j < reps; j++) {
#pragma omp parallel
			delay(DELAY);
		}
	} else if (which == 1) {
#pragma omp parallel
		for (long j = 0; j < reps; j++) {
			delay(DELAY);
#pragma omp barrier
		}
	} else {
		for (long j = 0; j < reps; j++) {
#pragma omp parallel reduction(+ : sum)
			{
				delay(DELAY);
				sum += 1;
			}
		}
	}
	t = omp_get_wtime() - t;
	if (which == 2 && sum != reps * omp_get_max_threads())
		fprintf(stderr, "reduction lost updates\n");
	return t;
}

int main(int argc, char **argv)
{
	static const char *names[] = { "parallel", "barrier", "reduction" };
	long reps = argc > 1 ? atol(argv[1]) : 2000;
	for (int w = 0; w < 3; w++) {
		double over[OUTER], mean = 0;
		directive(w, reps);   /* warm-up: the team started */
		for (int k = 0; k < OUTER; k++) {
			double d = directive(w, reps);
			over[k] = (d - reference(reps)) / (double)reps * 1e9;
			mean += over[k] / OUTER;
		}
		qsort(over, OUTER, sizeof over[0], cmp);
		printf("%s mean %.1f median %.1f\n", names[w], mean, over[OUTER / 2]);
	}
	return 0;
}
