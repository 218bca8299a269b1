/* SPDX-License-Identifier: MIT */
/*
 * Two tables of the interposer: every condition variable's signal
 * sequence, and pthread_t -> thread number.  Each grows as the program
 * makes more of them (a program may keep thousands of condition variables,
 * one to a job or a connection, and a full table would number every later
 * signal 0, which no wait can be matched to).  A key is never removed:
 * a condition variable made again at the same address carries on its
 * sequence, as the replay expects of one object.  Each table is guarded by
 * a spin lock of its own, taken by no pthread call; a signal handler that
 * comes back into a table its thread is in gets 0 or "not traced", never
 * a wait, and so does a child process (it records nothing), which may
 * have been forked while another thread held a lock.
 */
#define _GNU_SOURCE
#include <stdatomic.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace/interpose.h"

#define FIRST_SLOTS 8192                /* a power of two, as every size after */

struct slot { uint64_t key; uint32_t val; };

struct table {
	struct slot *s;
	size_t cap, used;
	_Atomic int lock;
};

static struct slot seq_first[FIRST_SLOTS], tid_first[FIRST_SLOTS];
static struct table seqs = { seq_first, FIRST_SLOTS, 0, 0 };
static struct table tids = { tid_first, FIRST_SLOTS, 0, 0 };
static __thread int inside;             /* this thread holds a table's lock */

static int enter(struct table *t)
{
	if (inside)
		return -1;
	inside = 1;
	for (unsigned i = 0; atomic_exchange_explicit(&t->lock, 1, memory_order_acquire); i++)
		ptb_tr_spin_pause(i);
	return 0;
}

static void leave(struct table *t)
{
	atomic_store_explicit(&t->lock, 0, memory_order_release);
	inside = 0;
}

static size_t home(uint64_t k, size_t cap)
{
	return (size_t)((k * 0x9e3779b97f4a7c15ull) >> (64 - __builtin_ctzll(cap)));
}

static struct slot *probe(struct slot *s, size_t cap, uint64_t k)
{
	size_t i = home(k, cap);
	while (s[i].key && s[i].key != k)
		i = (i + 1) & (cap - 1);
	return &s[i];
}

/* Twice the slots, every key moved over; the table as it was when no
 * memory is to be had (it then fills, and answers 0). */
static void grow(struct table *t)
{
	size_t cap = t->cap * 2;
	struct slot *s = mmap(NULL, cap * sizeof *s, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (s == MAP_FAILED)
		return;
	for (size_t i = 0; i < t->cap; i++)
		if (t->s[i].key)
			*probe(s, cap, t->s[i].key) = t->s[i];
	if (t->s != seq_first && t->s != tid_first)
		munmap(t->s, t->cap * sizeof *t->s);
	t->s = s, t->cap = cap;
}

/* The slot of key k (not 0), claimed if need be; NULL when the table is
 * full or k is not there. */
static struct slot *find(struct table *t, uint64_t k, int claim)
{
	if (claim && (t->used + 1) * 4 > t->cap * 3)
		grow(t);
	struct slot *s = probe(t->s, t->cap, k);
	if (s->key == k)
		return s;
	if (!claim || t->used + 1 >= t->cap)
		return NULL;
	s->key = k, s->val = 0;
	t->used++;
	return s;
}

uint32_t ptb_tr_seq_next(const void *obj)
{
	uint64_t k = (uint64_t)(uintptr_t)obj;
	if (!k || !ptb_tr_on || enter(&seqs))
		return 0;
	struct slot *s = find(&seqs, k, 1);
	uint32_t v = s ? ++s->val : 0;
	leave(&seqs);
	return v;
}

uint32_t ptb_tr_seq_peek(const void *obj)
{
	uint64_t k = (uint64_t)(uintptr_t)obj;
	if (!k || !ptb_tr_on || enter(&seqs))
		return 0;
	struct slot *s = find(&seqs, k, 0);
	uint32_t v = s ? s->val : 0;
	leave(&seqs);
	return v;
}

void ptb_tr_thread_map(uint64_t pthread_id, uint32_t tid)
{
	if (!pthread_id || !ptb_tr_on || enter(&tids))
		return;
	struct slot *s = find(&tids, pthread_id, 1);
	if (s)
		s->val = tid + 1;
	leave(&tids);
}

uint32_t ptb_tr_thread_lookup(uint64_t pthread_id)
{
	if (!pthread_id || !ptb_tr_on || enter(&tids))
		return UINT32_MAX;
	struct slot *s = find(&tids, pthread_id, 0);
	uint32_t v = s ? s->val : 0;
	leave(&tids);
	return v ? v - 1 : UINT32_MAX;
}
