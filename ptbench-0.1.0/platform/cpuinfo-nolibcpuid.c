/* SPDX-License-Identifier: MIT */
/*
 * The libcpuid path when configure found no libcpuid (or was given
 * --without-libcpuid): it always declines, so ptb_cpuinfo_read() uses
 * /proc/cpuinfo, and a CPUID dump cannot be replayed.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cpuinfo.h"

int ptb_cpuinfo_from_libcpuid(struct ptb_cpuinfo *ci, const char *dump)
{
	memset(ci, 0, sizeof *ci);
	ci->family = ci->model = ci->stepping = -1;
	snprintf(ci->note, sizeof ci->note, "built without libcpuid");
	return -1;
}
