/* SPDX-License-Identifier: MIT */
/* The layout of each trial (see layout.h). */
#include "config.h"

#include <string.h>

#include "run/layout.h"

#define STACK_STEP 16   /* the stack's own alignment */

void ptb_layout_deck_init(struct ptb_layout_deck *d)
{
	for (int k = 0; k < PTB_LAYOUT_COUNT; k++)
		d->order[k] = k;
	d->next = PTB_LAYOUT_COUNT;
}

struct ptb_layout ptb_layout_draw(struct ptb_layout_deck *d, struct ptb_rng *rng)
{
	if (d->next >= PTB_LAYOUT_COUNT) {
		ptb_rng_shuffle(rng, d->order, PTB_LAYOUT_COUNT);
		d->next = 0;
	}
	struct ptb_layout l = { d->order[d->next++], 0 };
	l.stack = (int)ptb_rng_below(rng, (PTB_STACK_OFFSET_MAX + 1) / STACK_STEP) * STACK_STEP;
	return l;
}

void ptb_layout_request(json_t *req, enum ptb_layout_mode mode, struct ptb_layout l)
{
	if (mode != PTB_LAYOUT_VARIED)
		return;
	json_object_set_new(req, "layout", json_integer(l.code));
	json_object_set_new(req, "stack_offset", json_integer(l.stack));
}

static const char *const mode_names[] = {
	[PTB_LAYOUT_VARIED] = "varied", [PTB_LAYOUT_FIXED] = "fixed",
};

const char *ptb_layout_mode_name(enum ptb_layout_mode m)
{
	return mode_names[m];
}

int ptb_layout_mode_from_name(const char *name)
{
	for (int m = 0; m < (int)(sizeof mode_names / sizeof *mode_names); m++)
		if (!strcmp(name, mode_names[m]))
			return m;
	return -1;
}

json_t *ptb_layout_context(enum ptb_layout_mode m)
{
	if (m == PTB_LAYOUT_FIXED)
		return json_pack("{s:s}", "mode", "fixed");
	return json_pack("{s:s, s:i, s:s, s:i}", "mode", "varied", "code_layouts",
			 PTB_LAYOUT_COUNT, "method", PTB_LAYOUT_METHOD, "stack_offset_max",
			 PTB_STACK_OFFSET_MAX);
}
