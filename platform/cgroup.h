/* SPDX-License-Identifier: MIT */
/*
 * The CPU bandwidth a container or systemd slice grants this process:
 * the cgroup quota (v2 cpu.max, v1 cpu.cfs_quota_us / cpu.cfs_period_us)
 * of its own cgroup and every ancestor, the tightest winning.  A process
 * throttled by a quota measures the quota, not the primitive, so results
 * warn when it is below the PUs the run may use.
 */
#ifndef PTB_CGROUP_H
#define PTB_CGROUP_H

#include <stddef.h>

struct ptb_cpu_quota {
	double cpus;           /* quota / period in CPUs; -1 when no quota is set or none was readable */
	char file[448];        /* the file that set it (below root), or "" */
};

/* Read the quota of the cgroup named in ROOT/proc/self/cgroup under
 * ROOT/sys/fs/cgroup.  root is "" for the live machine; tests give a
 * directory holding a synthetic tree. */
void ptb_cpu_quota_read(const char *root, struct ptb_cpu_quota *q);

/* The path of the cgroup that holds this process's CPU controller (v1's
 * cpu hierarchy, else the unified one), as ROOT/proc/self/cgroup names it:
 * "/" for the root cgroup.  0, or -1 when none is named.  Real-time
 * scheduling may be refused in any other (real-time group scheduling
 * gives a new group no real-time time). */
int ptb_cpu_cgroup(const char *root, char *buf, size_t len);

#endif
