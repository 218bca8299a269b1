/* SPDX-License-Identifier: MIT */
/*
 * Two fixed tables of the interposer, lock-free (a thread may be anywhere
 * in the program when it records): every condition variable's signal
 * sequence, and pthread_t -> thread number.  When a table is full the
 * answer is 0 or "not traced", never a wait.
 */
#define _GNU_SOURCE
#include <stdatomic.h>

#include "trace/interpose.h"

#define SLOTS 8192                     /* a power of two */

struct slot { _Atomic uint64_t key; _Atomic uint32_t val; };
static struct slot seqs[SLOTS], tids[SLOTS];

static unsigned hash(uint64_t k) { return (unsigned)((k * 0x9e3779b97f4a7c15ull) >> 51) & (SLOTS - 1); }

/* The slot of key k, claimed if need be; NULL when the table is full. */
static struct slot *find(struct slot *t, uint64_t k, int claim)
{
	if (!k)
		return NULL;
	for (unsigned i = hash(k), n = 0; n < SLOTS; i = (i + 1) & (SLOTS - 1), n++) {
		uint64_t have = atomic_load_explicit(&t[i].key, memory_order_acquire);
		if (have == k)
			return &t[i];
		if (have)
			continue;
		if (!claim)
			return NULL;
		uint64_t zero = 0;
		if (atomic_compare_exchange_strong(&t[i].key, &zero, k) || zero == k)
			return &t[i];
	}
	return NULL;
}

uint32_t ptb_tr_seq_next(const void *obj)
{
	struct slot *s = find(seqs, (uint64_t)(uintptr_t)obj, 1);
	return s ? atomic_fetch_add(&s->val, 1) + 1 : 0;
}

uint32_t ptb_tr_seq_peek(const void *obj)
{
	struct slot *s = find(seqs, (uint64_t)(uintptr_t)obj, 0);
	return s ? atomic_load(&s->val) : 0;
}

void ptb_tr_thread_map(uint64_t pthread_id, uint32_t tid)
{
	struct slot *s = find(tids, pthread_id, 1);
	if (s)
		atomic_store(&s->val, tid + 1);
}

uint32_t ptb_tr_thread_lookup(uint64_t pthread_id)
{
	struct slot *s = find(tids, pthread_id, 0);
	uint32_t v = s ? atomic_load(&s->val) : 0;
	return v ? v - 1 : UINT32_MAX;
}
