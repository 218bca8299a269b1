/* SPDX-License-Identifier: MIT */
/*
 * The machine as a run sees it, collected once: the calibrated clock, the
 * CPU's identity, the OS state, and the topology with the pair of PUs (or
 * the reason there is none) for every placement.  Benchmarks read it
 * through struct ptb_system and never ask the platform layer themselves.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "machine/system.h"
#include "text/text.h"

/* What the system says goes into the result file, which holds only valid
 * UTF-8: a host name or brand string in another encoding is mended here. */
#define FIX(field) ptb_utf8_fix(field, sizeof field)
static void mend_text(struct ptb_system *sys)
{
	FIX(sys->sys.host); FIX(sys->sys.kernel); FIX(sys->sys.machine);
	FIX(sys->sys.libc); FIX(sys->sys.pthreads); FIX(sys->sys.compiler);
	FIX(sys->sys.governor); FIX(sys->sys.hypervisor); FIX(sys->sys.scheduler);
	FIX(sys->cpu.vendor); FIX(sys->cpu.brand); FIX(sys->cpu.hypervisor);
	FIX(sys->cpu.note); FIX(sys->clock.refused); FIX(sys->counts.allowed);
	for (int i = 0; i < sys->cpu.ncaches; i++)
		FIX(sys->cpu.caches[i].type);
}
#undef FIX

int ptb_system_init(struct ptb_system *sys, char *err, size_t errlen)
{
	memset(sys, 0, sizeof *sys);
	/* Topology first: it fails on a broken cpuset, and then nothing else
	 * is worth the clock's 0.1 s of calibration. */
	sys->topo = ptb_topology_load(NULL, err, errlen);
	if (!sys->topo)
		return -1;
	ptb_topology_counts(sys->topo, &sys->counts);
	for (int p = 0; p < PTB_PLACEMENT_COUNT; p++)
		ptb_placement_pair(sys->topo, p, &sys->pairs[p]);
	if (ptb_clock_init(&sys->clock) != 0) {
		snprintf(err, errlen, "clock: %s", sys->clock.refused);
		ptb_system_fini(sys);
		return -1;
	}
	/* An unidentified CPU is not fatal: the record says "procfs" and
	 * carries what could be read. */
	ptb_cpuinfo_read(&sys->cpu, NULL);
	ptb_sysinfo_read(&sys->sys);
	mend_text(sys);
	return 0;
}

void ptb_system_fini(struct ptb_system *sys)
{
	ptb_topology_free(sys->topo);
	sys->topo = NULL;
}
