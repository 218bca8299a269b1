/* SPDX-License-Identifier: MIT */
/*
 * Sizes that cannot wrap around.  Every byte count that is a product or a
 * sum of counts -- an array's elements times their size, a capacity that
 * doubles, a length plus its terminator -- goes through these, so that a
 * count grown from input (a result file, a benchmark's iteration count, a
 * thread that cannot be created and a loop that keeps doubling) gives a
 * failed allocation instead of a small block that is then overrun.  The
 * one allocation helper is ptb_array_realloc: realloc of n elements of
 * size bytes, NULL with errno ENOMEM when n x size does not fit.
 *
 * Header-only and depending on nothing but the C library, so that every
 * folder may use it (docs/design.md, section 2), the platform and the
 * benchmarks (through the contract) included.
 */
#ifndef PTB_TEXT_SIZE_H
#define PTB_TEXT_SIZE_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* *out = a * b; false (and *out = SIZE_MAX) when it does not fit. */
static inline bool ptb_size_mul(size_t a, size_t b, size_t *out)
{
	if (b != 0 && a > SIZE_MAX / b) {
		*out = SIZE_MAX;
		return false;
	}
	*out = a * b;
	return true;
}

/* *out = a + b; false (and *out = SIZE_MAX) when it does not fit. */
static inline bool ptb_size_add(size_t a, size_t b, size_t *out)
{
	if (a > SIZE_MAX - b) {
		*out = SIZE_MAX;
		return false;
	}
	*out = a + b;
	return true;
}

/* realloc(p, n * size), or NULL with errno ENOMEM (p left as it was) when
 * the product does not fit; n == 0 asks for one element, so that NULL
 * always means failure.  With p NULL it is malloc of an array. */
static inline void *ptb_array_realloc(void *p, size_t n, size_t size)
{
	size_t bytes;
	if (!ptb_size_mul(n ? n : 1, size ? size : 1, &bytes)) {
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, bytes);
}

/* The next capacity of a growing array counted in int: first, then
 * doubled; -1 once doubling would pass INT_MAX. */
static inline int ptb_next_cap(int cap, int first)
{
	return cap <= 0 ? first : cap <= INT_MAX / 2 ? 2 * cap : -1;
}

/* A capacity of at least need, doubled from cap (or first), for an array
 * that grows; false when it cannot grow that far without wrapping. */
static inline bool ptb_grow_cap(size_t cap, size_t need, size_t first, size_t *out)
{
	size_t c = cap ? cap : first ? first : 1;
	while (c < need)
		if (!ptb_size_mul(c, 2, &c))
			return false;
	*out = c;
	return true;
}

#endif
