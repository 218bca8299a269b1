/* SPDX-License-Identifier: MIT */
/*
 * User-level contexts where configure found no getcontext, makecontext and
 * swapcontext (platform/uctx.h): every call fails, and the reason says so.
 */
#include "config.h"

#include <stddef.h>

#include "uctx.h"

const char *ptb_uctx_missing(void)
{
	return "the C library has no ucontext (getcontext, makecontext, swapcontext)";
}

struct ptb_uctx *ptb_uctx_new(size_t stack_bytes)
{
	(void)stack_bytes;
	return NULL;
}

void ptb_uctx_free(struct ptb_uctx *c)
{
	(void)c;
}

int ptb_uctx_make(struct ptb_uctx *c, void (*fn)(void))
{
	(void)c;
	(void)fn;
	return -1;
}

int ptb_uctx_swap(struct ptb_uctx *from, struct ptb_uctx *to)
{
	(void)from;
	(void)to;
	return -1;
}
