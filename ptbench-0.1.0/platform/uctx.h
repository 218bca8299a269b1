/* SPDX-License-Identifier: MIT */
/*
 * User-level contexts: the C library's ucontext (getcontext, makecontext,
 * swapcontext) where it has them, for cooperative user-level threads that
 * switch without the kernel's scheduler.  Where the C library lacks them
 * (uctx-none.c) every call fails and ptb_uctx_missing says why, so that a
 * benchmark built on them is na there instead of absent.
 */
#ifndef PTB_UCTX_H
#define PTB_UCTX_H

#include <stddef.h>

struct ptb_uctx;

/* NULL where user-level contexts work, else why not. */
const char *ptb_uctx_missing(void);
/* A context with a stack of `stack_bytes` (0: none, for the thread that
 * calls ptb_uctx_swap from its own stack); NULL on failure. */
struct ptb_uctx *ptb_uctx_new(size_t stack_bytes);
void ptb_uctx_free(struct ptb_uctx *c);
/* Make c start fn on its own stack at the next switch into it; fn must
 * never return (it switches away for good instead).  0 or -1. */
int ptb_uctx_make(struct ptb_uctx *c, void (*fn)(void));
/* Save the running context in `from` and resume `to`; returns (0) when
 * something switches back to `from`, -1 on failure. */
int ptb_uctx_swap(struct ptb_uctx *from, struct ptb_uctx *to);

#endif
