/* SPDX-License-Identifier: MIT */
/*
 * Sizes that cannot wrap (harness/text/size.h) and a mapping whose size
 * would: exact answers at the edges of size_t and int, and the platform's
 * huge-page mapping refusing a size that rounds past SIZE_MAX instead of
 * mapping a few pages.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "platform/hugemem.h"
#include "text/size.h"
#include "tap.h"

static void products_and_sums(void)
{
	size_t r;
	tap_ok(ptb_size_mul(3, 5, &r) && r == 15, "3 x 5 = 15");
	tap_ok(ptb_size_mul(0, SIZE_MAX, &r) && r == 0, "0 x SIZE_MAX = 0");
	tap_ok(ptb_size_mul(SIZE_MAX, 1, &r) && r == SIZE_MAX, "SIZE_MAX x 1 fits");
	tap_ok(!ptb_size_mul(SIZE_MAX / 2 + 1, 2, &r) && r == SIZE_MAX,
	       "(SIZE_MAX / 2 + 1) x 2 does not fit");
	tap_ok(!ptb_size_mul((size_t)1 << (sizeof(size_t) * 4), (size_t)1 << (sizeof(size_t) * 4), &r),
	       "2^(w/2) x 2^(w/2) does not fit");
	tap_ok(ptb_size_add(SIZE_MAX - 1, 1, &r) && r == SIZE_MAX, "SIZE_MAX - 1 + 1 fits");
	tap_ok(!ptb_size_add(SIZE_MAX, 1, &r), "SIZE_MAX + 1 does not fit");
}

static void arrays(void)
{
	/* the case: n doubled to 2^61, then 2 n x sizeof(pthread_t) */
	size_t n = (size_t)1 << (sizeof(size_t) * 8 - 3);
	errno = 0;
	int *p = ptb_array_realloc(NULL, 2 * n, sizeof(uint64_t));
	tap_ok(!p && errno == ENOMEM, "2^(w-2) elements of 8 bytes: NULL, ENOMEM (not a 0-byte block)");
	int *q = ptb_array_realloc(NULL, 4, sizeof *q);
	tap_ok(q != NULL, "4 ints: a block");
	int *kept = q;
	int *r = ptb_array_realloc(q, SIZE_MAX, sizeof *r);
	tap_ok(!r, "growing it past SIZE_MAX bytes fails, and the block stays the caller's");
	free(kept);
	void *z = ptb_array_realloc(NULL, 0, 8);
	tap_ok(z != NULL, "0 elements: still a block, so NULL always means failure");
	free(z);
}

static void capacities(void)
{
	size_t c;
	tap_ok(ptb_next_cap(0, 16) == 16 && ptb_next_cap(16, 16) == 32, "int caps: first, then doubled");
	tap_ok(ptb_next_cap(INT_MAX / 2, 16) == INT_MAX / 2 * 2, "INT_MAX / 2 still doubles");
	tap_ok(ptb_next_cap(INT_MAX / 2 + 1, 16) == -1, "past INT_MAX: -1, not a negative wrap");
	tap_ok(ptb_grow_cap(0, 5, 4, &c) && c == 8, "size_t caps: 4 doubled to hold 5");
	tap_ok(ptb_grow_cap(0, 1, 0, &c) && c == 1, "first 0 still grows");
	tap_ok(!ptb_grow_cap(SIZE_MAX / 2 + 1, SIZE_MAX, 4, &c), "a cap that cannot double: false");
}

static void mapping(void)
{
	struct ptb_hugemem m;
	int rc = ptb_hugemem_alloc(&m, SIZE_MAX - 100);
	tap_ok(rc < 0 && strstr(m.why, "too large"),
	       "a mapping of SIZE_MAX - 100 bytes is refused, not rounded to a few pages (%s)",
	       rc < 0 ? m.why : "mapped");
	if (rc == 0)
		ptb_hugemem_free(&m);
}

int main(void)
{
	products_and_sums();
	arrays();
	capacities();
	mapping();
	tap_done();
	return tap_exit();
}
