/* SPDX-License-Identifier: MIT */
/*
 * The facts that decide whether the TSC is a clock here (x86): RDTSCP,
 * invariance and the kernel's own verdict.  Chosen by the Makefile for x86
 * hosts; platform/clock-other.c is the fallback everywhere else.
 */
#include "config.h"

#include <cpuid.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "cpuinfo.h"

/*
 * The TSC is a time base only when it is invariant: it ticks at one rate
 * whatever the P-state and does not stop in deep C-states.  The CPU says
 * so in CPUID 0x80000007 EDX bit 8.  Hypervisors often hide that leaf while
 * giving the guest a perfectly stable TSC; Linux then still reports
 * constant_tsc and nonstop_tsc, which together mean the same thing, so
 * they are accepted as the second piece of evidence.
 */
bool ptb_tsc_invariant(char *why, unsigned len)
{
	unsigned a, b, c, d;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
	    __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) {
		snprintf(why, len, "CPUID 0x80000007 EDX bit 8");
		return true;
	}
	if (ptb_cpuinfo_has_flag("/proc/cpuinfo", "constant_tsc") &&
	    ptb_cpuinfo_has_flag("/proc/cpuinfo", "nonstop_tsc")) {
		snprintf(why, len, "Linux flags constant_tsc and nonstop_tsc "
			 "(CPUID 0x80000007 EDX bit 8 not set)");
		return true;
	}
	snprintf(why, len, "TSC not invariant: neither CPUID 0x80000007 EDX bit 8 "
		 "nor Linux's constant_tsc+nonstop_tsc flags");
	return false;
}

/* Linux drops "tsc" from the clocksources it offers when its watchdog has
 * caught the TSC drifting, the CPUs' TSCs disagree, or it was booted with
 * tsc=unstable -- evidence the CPUID bits cannot give.  Where the file
 * cannot be read (no sysfs in a container), nothing is known. */
static int kernel_offers_tsc(void)
{
	char line[256] = "";
	FILE *f = fopen(PTB_CLOCKSOURCES, "r");
	bool read;

	if (!f)
		return -1;
	read = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	if (!read)
		return -1;
	for (char *t = strtok(line, " \n"); t; t = strtok(NULL, " \n"))
		if (strcmp(t, "tsc") == 0)
			return 1;
	return 0;
}

void ptb_clock_facts_read(struct ptb_clock_facts *f)
{
	unsigned a, b, c, d;

	memset(f, 0, sizeof *f);
	f->counter = PTB_HW_CLOCK_NAME;
	f->rdtscp = __get_cpuid(0x80000001, &a, &b, &c, &d) && (d & (1u << 27));
	f->invariant = ptb_tsc_invariant(f->invariant_why, sizeof f->invariant_why);
	f->kernel_tsc = kernel_offers_tsc();
}
