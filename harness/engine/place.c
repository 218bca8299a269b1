/* SPDX-License-Identifier: MIT */
/*
 * Binding the threads of a point (see place.h and ptbench.h).  Binding
 * failure is never silent: a binding that reads back otherwise than asked
 * is an error of the point.
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "engine/place.h"
#include "platform/load.h"

int ptb_point_bind_self(struct ptb_point *p, int pu, char *buf, size_t len)
{
	char err[256], where[32] = "every allowed PU";
	if (pu >= 0)
		snprintf(where, sizeof where, "PU %d", pu);
	if (ptb_bind_self(p->sys->topo, pu, err, sizeof err) < 0) {
		ptb_point_error(p, "binding a thread to %s: %s", where, err);
		return -1;
	}
	ptb_binding_self(p->sys->topo, buf, len);
	if (!ptb_binding_is(buf, pu)) {
		ptb_point_error(p, "a thread was bound to %s but reads back '%s'", where, buf);
		return -1;
	}
	return 0;
}

/* Whether a binding read back is exactly the n PUs of pus. */
static bool binding_is_group(const char *readback, const int *pus, int n)
{
	struct ptb_pu_set got = { 0 };
	if (ptb_pu_set_add_list(&got, readback) < 0 || got.n != n)
		return false;
	for (int i = 0; i < n; i++)
		if (!ptb_pu_set_has(&got, pus[i]))
			return false;
	return true;
}

int ptb_point_bind_group(struct ptb_point *p, const int *pus, int n, char *buf, size_t len)
{
	char err[256], full[4 * PTB_LOAD_MAX_PUS];
	if (ptb_bind_self_set(p->sys->topo, pus, n, err, sizeof err) < 0) {
		ptb_point_error(p, "binding a thread to a group of %d PUs: %s", n, err);
		return -1;
	}
	ptb_binding_self(p->sys->topo, full, sizeof full);
	if (!binding_is_group(full, pus, n)) {
		ptb_point_error(p, "a thread bound to a group of %d PUs reads back '%s'", n, full);
		return -1;
	}
	if (strlen(full) >= len) {       /* a result keeps the list whole or not at all */
		ptb_point_na(p, "a group of %d PUs is listed in %zu characters, more than a result "
			     "keeps of a binding (%zu)", n, strlen(full), len - 1);
		return -1;
	}
	snprintf(buf, len, "%s", full);
	return 0;
}

int ptb_point_pu_now(const struct ptb_point *p)
{
	return ptb_last_pu(p->sys->topo);
}

int ptb_point_place(struct ptb_point *p)
{
	const char *placement = ptb_point_str(p, "placement");
	p->pu_main = p->pu_client = -1;
	if (placement) {
		const struct ptb_pair *pair = &p->sys->pairs[ptb_placement_from_name(placement)];
		if (!pair->possible) {
			ptb_point_na(p, "%s", pair->reason);
			return -1;
		}
		p->pu_main = pair->pu[0];
		p->pu_client = pair->pu[1];
	}
	return ptb_point_bind_self(p, p->pu_main, p->binding_main, sizeof p->binding_main);
}

int ptb_pus_in_order(struct ptb_point *p, const char *order, int *pus, int max)
{
	int o = ptb_order_from_name(order), n;
	if (o < 0) {
		ptb_point_error(p, "'%s' is not an order of threads (%s)", order, PTB_ORDERS);
		return -1;
	}
	if ((n = ptb_topology_order(p->sys->topo, o, pus, max)) < 0)
		ptb_point_error(p, "ordering the PUs: out of memory");
	return n;
}

int ptb_defaults_pu_counts(const struct ptb_system *sys, char *buf, size_t len)
{
	int n = sys->counts.pus;
	size_t used = 0;
	buf[0] = '\0';
	for (int t = 1; t < n && used < len; t *= 2)
		used += (size_t)snprintf(buf + used, len - used, "%d,", t);
	if (n < 1 || used + 12 > len)
		return -1;
	snprintf(buf + used, len - used, "%d", n);
	return 0;
}
