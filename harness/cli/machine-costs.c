/* SPDX-License-Identifier: MIT */
/*
 * The target machine's costs from its result file (cli/machine-costs.h).
 * Each cost is the first of its candidate points that has a figure: the
 * placements across cores first (a predicted run on several CPUs wakes and
 * hands over across them), then unbound.  A ping-pong is a round trip,
 * two wake-ups or two hand-offs, so its figure is halved; it also holds
 * the CPU time of the calls, which the trace already counts -- tens of ns
 * against the microseconds of a wake-up.
 */
#include "config.h"

#include <string.h>

#include "cli/machine-costs.h"
#include "record/model.h"
#include "text/text.h"

#define MAX_CANDIDATES 3

static const struct {
	const char *name;
	const char *key[MAX_CANDIDATES];     /* point keys (record/model.h), NULL-ended */
	int divided_by;
} sources[PTB_COST_COUNT] = {
	[PTB_COST_WAKE]    = { "wake-up",  { "cond.pingpong placement=cross_core signal=locked",
					     "cond.pingpong placement=unbound signal=locked", NULL }, 2 },
	[PTB_COST_HANDOFF] = { "hand-off", { "mutex.pingpong placement=cross_core",
					     "mutex.pingpong placement=unbound", NULL }, 2 },
	[PTB_COST_CREATE]  = { "creation", { "create detach=no scope=system",
					     "create detach=yes scope=system", NULL }, 1 },
};

int ptb_machine_costs_load(const char *path, struct ptb_machine_costs *m, char *err,
			   size_t errlen)
{
	struct ptb_runfile *run = ptb_runfile_load(path, err, errlen);
	int found = 0;
	memset(m, 0, sizeof *m);
	if (!run)
		return -1;
	for (int c = 0; c < PTB_COST_COUNT; c++) {
		m->name[c] = sources[c].name;
		m->divided_by[c] = sources[c].divided_by;
		for (int k = 0; k < MAX_CANDIDATES && sources[c].key[k]; k++) {
			const struct ptb_record *r = ptb_runfile_find(run, sources[c].key[k]);
			if (!r || !r->has_value || !(r->value >= 0))
				continue;
			ptb_textf(m->key[c], sizeof m->key[c], "%s", sources[c].key[k]);
			m->ns[c] = r->value / sources[c].divided_by;
			found++;
			break;
		}
	}
	ptb_runfile_free(run);
	m->costs = (struct ptb_sim_costs){ m->ns[PTB_COST_WAKE], m->ns[PTB_COST_HANDOFF],
					   m->ns[PTB_COST_CREATE] };
	if (!found)
		ptb_errf(err, errlen, "%s: none of cond.pingpong, mutex.pingpong or create has a "
			 "figure: no cost of the machine to apply", path);
	return found ? 0 : -1;
}
