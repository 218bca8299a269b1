/* SPDX-License-Identifier: MIT */
/*
 * User-level contexts on the C library's ucontext (platform/uctx.h).
 */
#include "config.h"

#include <stdlib.h>
#include <ucontext.h>

#include "uctx.h"

struct ptb_uctx {
	ucontext_t uc;
	void *stack;
	size_t stack_bytes;
};

const char *ptb_uctx_missing(void)
{
	return NULL;
}

struct ptb_uctx *ptb_uctx_new(size_t stack_bytes)
{
	struct ptb_uctx *c = calloc(1, sizeof *c);
	if (!c || !stack_bytes)
		return c;
	if (!(c->stack = malloc(stack_bytes))) {
		free(c);
		return NULL;
	}
	c->stack_bytes = stack_bytes;
	return c;
}

void ptb_uctx_free(struct ptb_uctx *c)
{
	if (c)
		free(c->stack);
	free(c);
}

int ptb_uctx_make(struct ptb_uctx *c, void (*fn)(void))
{
	if (!c->stack || getcontext(&c->uc) != 0)
		return -1;
	c->uc.uc_stack.ss_sp = c->stack;
	c->uc.uc_stack.ss_size = c->stack_bytes;
	c->uc.uc_link = NULL;
	makecontext(&c->uc, fn, 0);
	return 0;
}

int ptb_uctx_swap(struct ptb_uctx *from, struct ptb_uctx *to)
{
	return swapcontext(&from->uc, &to->uc);
}
