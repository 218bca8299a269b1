/* SPDX-License-Identifier: MIT */
/*
 * The clock's facts where there is no TSC: aarch64's cntvct_el0 runs at
 * the fixed CNTFRQ_EL0 rate by architecture, and elsewhere the counter is
 * clock_gettime itself, so there is nothing to refuse.  The fallback of
 * platform/clock-x86.c.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "clock.h"

bool ptb_tsc_invariant(char *why, unsigned len)
{
	snprintf(why, len, "not x86");
	return false;
}

void ptb_clock_facts_read(struct ptb_clock_facts *f)
{
	memset(f, 0, sizeof *f);
	f->counter = PTB_HW_CLOCK_NAME;
	f->kernel_tsc = -1;
}
