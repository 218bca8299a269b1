/* SPDX-License-Identifier: MIT */
/*
 * What the platform offers a benchmark through the contract
 * (harness/ptbench.h), since bench/ calls nothing of platform/ directly:
 * working-set memory on huge pages, noted on the point, and user-level
 * contexts.
 */
#include "config.h"

#include <stdio.h>

#include "ptbench.h"

int ptb_point_mem(struct ptb_point *p, struct ptb_hugemem *m, size_t bytes)
{
	/* A note's text must outlive the point: one point per process. */
	static char why[sizeof m->why];
	if (ptb_hugemem_alloc(m, bytes) < 0) {
		ptb_point_error(p, "%s", m->why);
		return -1;
	}
	if (m->huge_fraction >= 0)
		ptb_point_note(p, "huge_pages", m->huge_fraction);
	if (m->why[0]) {
		snprintf(why, sizeof why, "%s", m->why);
		ptb_point_note_text(p, "pages", why);
	}
	return 0;
}

void ptb_point_mem_free(struct ptb_hugemem *m)
{
	ptb_hugemem_free(m);
}

const char *ptb_uthread_missing(void)
{
	return ptb_uctx_missing();
}

struct ptb_uctx *ptb_uthread_new(size_t stack_bytes)
{
	return ptb_uctx_new(stack_bytes);
}

void ptb_uthread_free(struct ptb_uctx *c)
{
	ptb_uctx_free(c);
}

int ptb_uthread_make(struct ptb_uctx *c, void (*fn)(void))
{
	return ptb_uctx_make(c, fn);
}

int ptb_uthread_switch(struct ptb_uctx *from, struct ptb_uctx *to)
{
	return ptb_uctx_swap(from, to);
}
