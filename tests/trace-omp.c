/* SPDX-License-Identifier: MIT */
/*
 * An OpenMP program for tests/trace-odd.sh: it prints how many threads
 * its runtime would start and how many a parallel region had.  libgomp
 * reads the CPUs it may use in its own constructor, which runs before the
 * interposer's: recorded, it must still see the CPUs ptbench had.
 */
#include <omp.h>
#include <stdio.h>

int main(void)
{
	int team = 0;
#pragma omp parallel
	{
#pragma omp atomic
		team++;
	}
	printf("max %d team %d\n", omp_get_max_threads(), team);
	return 0;
}
