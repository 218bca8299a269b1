/* SPDX-License-Identifier: MIT */
/*
 * The layout of each trial (docs/design.md section 17): which copy of the
 * benchmark's code it runs and how far its stack is moved.  A point draws
 * its code layouts as from a shuffled deck, every copy once before any
 * twice, so that its trials cover the layouts evenly however few they
 * are; the stack offset is drawn afresh each time.
 */
#ifndef PTB_RUN_LAYOUT_H
#define PTB_RUN_LAYOUT_H

#include <jansson.h>
#include <stdbool.h>

#include "ptbench.h"
#include "stats/random.h"

enum ptb_layout_mode {
	PTB_LAYOUT_VARIED,   /* every trial in a layout drawn for it (default) */
	PTB_LAYOUT_FIXED,    /* the build's own layout: one binary's figure */
};

struct ptb_layout_deck {
	int order[PTB_LAYOUT_COUNT];
	int next;            /* PTB_LAYOUT_COUNT: shuffle before the next draw */
};

struct ptb_layout {
	int code;            /* a copy, 0 .. PTB_LAYOUT_COUNT-1 */
	int stack;           /* bytes, a multiple of 16 below 4096 */
};

void ptb_layout_deck_init(struct ptb_layout_deck *d);
struct ptb_layout ptb_layout_draw(struct ptb_layout_deck *d, struct ptb_rng *rng);
/* Adds the layout to a trial request (nothing when fixed). */
void ptb_layout_request(json_t *req, enum ptb_layout_mode mode, struct ptb_layout l);
const char *ptb_layout_mode_name(enum ptb_layout_mode m);
int ptb_layout_mode_from_name(const char *name);
/* context.harness.layout: how the run chose its layouts. */
json_t *ptb_layout_context(enum ptb_layout_mode m);

#endif
