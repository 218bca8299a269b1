/* SPDX-License-Identifier: MIT */
/*
 * The target machine's costs from its result file (cli/machine-costs.h).
 * Which benchmark gives which cost, at which points and divided by what,
 * the benchmarks say in their descriptors (struct ptb_machine_role in
 * harness/ptbench.h); this file names none.  Each cost is the first of
 * its candidate points that has a figure: across cores first (a run on
 * several CPUs wakes and hands over across them), then unbound.  A
 * ping-pong is a round trip, two wake-ups or two hand-offs; it also holds
 * the CPU time of the calls, which the trace already counts -- tens of ns
 * against the microseconds of a wake-up.
 */
#include "config.h"

#include <string.h>

#include "cli/machine-costs.h"
#include "ptbench.h"
#include "record/model.h"
#include "text/text.h"

/* By enum ptb_machine_cost - 1: what the output calls each cost. */
static const char *const names[PTB_COST_COUNT] = { "wake-up", "hand-off", "creation" };

/* The first candidate point of bench b that has a figure in run: 0 found. */
static int cost_of(const struct ptb_runfile *run, const struct ptb_bench *b,
		   struct ptb_machine_costs *m, int c)
{
	char key[256];
	for (const char *p = b->machine.points; p && *p; p += *p == ';') {
		size_t len = strcspn(p, ";");
		ptb_textf(key, sizeof key, "%s %.*s", b->name, (int)len, p);
		p += len;
		const struct ptb_record *r = ptb_runfile_find(run, key);
		if (!r || !r->has_value || !(r->value >= 0))
			continue;
		ptb_textf(m->key[c], sizeof m->key[c], "%s", key);
		m->divided_by[c] = b->machine.per > 0 ? b->machine.per : 1;
		m->ns[c] = r->value / m->divided_by[c];
		return 0;
	}
	return -1;
}

int ptb_machine_costs_load(const char *path, struct ptb_machine_costs *m, char *err,
			   size_t errlen)
{
	struct ptb_runfile *run = ptb_runfile_load(path, err, errlen);
	int found = 0;
	memset(m, 0, sizeof *m);
	if (!run)
		return -1;
	for (int c = 0; c < PTB_COST_COUNT; c++)
		m->name[c] = names[c];
	for (int i = 0; i < ptb_registry_count; i++) {
		const struct ptb_bench *b = ptb_registry[i];
		int c = (int)b->machine.cost - 1;
		if (c >= 0 && c < PTB_COST_COUNT && !m->key[c][0])
			found += cost_of(run, b, m, c) == 0;
	}
	ptb_runfile_free(run);
	m->costs = (struct ptb_sim_costs){ m->ns[PTB_COST_WAKE], m->ns[PTB_COST_HANDOFF],
					   m->ns[PTB_COST_CREATE] };
	if (!found)
		ptb_errf(err, errlen, "%s: no figure of a wake-up, a hand-off or a thread creation "
			 "(a ptbench run of the default suite has them)", path);
	return found ? 0 : -1;
}
