/* SPDX-License-Identifier: MIT */
/*
 * The cgroup CPU quota.  /proc/self/cgroup names this process's cgroup in
 * each hierarchy: "0::/path" for the unified (v2) one, "N:cpu,cpuacct:/path"
 * for the v1 cpu controller, which wins on hybrid systems because it is the
 * one that throttles there.  The quota of every directory from that cgroup
 * up to the mount point applies, so the walk goes up and keeps the
 * smallest.  Inside a container without a cgroup namespace the path names
 * the host's hierarchy, which is not mounted; the walk then finds only the
 * container's own root, which is the cgroup that throttles it.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cgroup.h"

#define CGROUP_MOUNT "/sys/fs/cgroup"

/* One hierarchy's way of stating a quota. */
struct quota_files {
	const char *quota, *period;   /* period NULL: both in quota ("max 100000") */
};
static const struct quota_files v2_files = { "cpu.max", NULL };
static const struct quota_files v1_files = { "cpu.cfs_quota_us", "cpu.cfs_period_us" };

/* The quota in CPUs set in one directory, or -1 where none is. */
static double quota_in(const char *dir, const struct quota_files *qf)
{
	char path[600], quota[32] = "";
	double period = 0;
	FILE *in;

	snprintf(path, sizeof path, "%s/%s", dir, qf->quota);
	if (!(in = fopen(path, "r")))
		return -1;
	if (fscanf(in, "%31s %lf", quota, &period) < 1)
		quota[0] = '\0';
	fclose(in);
	if (qf->period) {
		snprintf(path, sizeof path, "%s/%s", dir, qf->period);
		if (!(in = fopen(path, "r")))
			return -1;
		if (fscanf(in, "%lf", &period) != 1)
			period = 0;
		fclose(in);
	}
	/* "max" (v2) and -1 (v1) mean no quota. */
	double q = strtod(quota, NULL);
	return q > 0 && period > 0 ? q / period : -1;
}

/* From the cgroup up to the mount point, the tightest quota. */
static void walk_up(const char *mount, const char *cgroup, const struct quota_files *qf,
		    struct ptb_cpu_quota *q)
{
	char rel[256], dir[512];

	snprintf(rel, sizeof rel, "%s", cgroup);
	for (;;) {
		char *slash;
		snprintf(dir, sizeof dir, "%s%s", mount, rel);
		double cpus = quota_in(dir, qf);
		if (cpus > 0 && (q->cpus < 0 || cpus < q->cpus)) {
			q->cpus = cpus;
			snprintf(q->file, sizeof q->file, "%.400s/%s", dir, qf->quota);
		}
		if (!(slash = strrchr(rel, '/')))
			break;
		*slash = '\0';
	}
}

/* Whether a v1 controller list ("cpu,cpuacct") holds the cpu controller. */
static int has_cpu_controller(const char *list)
{
	char copy[128], *save = NULL;

	snprintf(copy, sizeof copy, "%s", list);
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save))
		if (strcmp(t, "cpu") == 0)
			return 1;
	return 0;
}

/* v1 mounts the cpu controller at its controller list or at "cpu". */
static void read_v1(const char *root, const char *controllers, const char *cgroup,
		    struct ptb_cpu_quota *q)
{
	const char *names[] = { controllers, "cpu" };
	char mount[400];

	for (size_t i = 0; i < sizeof names / sizeof names[0] && q->cpus < 0; i++) {
		snprintf(mount, sizeof mount, "%s" CGROUP_MOUNT "/%.100s", root, names[i]);
		walk_up(mount, cgroup, &v1_files, q);
	}
}

/* This process's cgroups from ROOT/proc/self/cgroup: the unified (v2)
 * one and the v1 one holding the cpu controller, with that hierarchy's
 * controller list; "" for each not found.  -1 when the file is unreadable. */
struct own_cgroups {
	char v2[256], v1[256], v1_controllers[128];
};

static int own_cgroups_read(const char *root, struct own_cgroups *c)
{
	char path[400], line[512];
	FILE *in;

	*c = (struct own_cgroups){ "", "", "" };
	snprintf(path, sizeof path, "%s/proc/self/cgroup", root);
	if (!(in = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof line, in)) {
		char *controllers = strchr(line, ':'), *cgroup;
		if (!controllers || !(cgroup = strchr(controllers + 1, ':')))
			continue;
		*cgroup++ = '\0';
		*controllers++ = '\0';
		cgroup[strcspn(cgroup, "\n")] = '\0';
		if (strcmp(line, "0") == 0 && !controllers[0])
			snprintf(c->v2, sizeof c->v2, "%s", cgroup);
		else if (has_cpu_controller(controllers)) {
			snprintf(c->v1, sizeof c->v1, "%s", cgroup);
			snprintf(c->v1_controllers, sizeof c->v1_controllers, "%s", controllers);
		}
	}
	fclose(in);
	return 0;
}

void ptb_cpu_quota_read(const char *root, struct ptb_cpu_quota *q)
{
	struct own_cgroups c;
	char path[400];

	q->cpus = -1;
	q->file[0] = '\0';
	if (own_cgroups_read(root, &c))
		return;
	if (c.v1[0])
		read_v1(root, c.v1_controllers, strcmp(c.v1, "/") ? c.v1 : "", q);
	else if (c.v2[0]) {
		snprintf(path, sizeof path, "%s" CGROUP_MOUNT, root);
		walk_up(path, strcmp(c.v2, "/") ? c.v2 : "", &v2_files, q);
	}
}

int ptb_cpu_cgroup(const char *root, char *buf, size_t len)
{
	struct own_cgroups c;
	if (own_cgroups_read(root, &c) || !(c.v1[0] || c.v2[0]))
		return -1;
	snprintf(buf, len, "%s", c.v1[0] ? c.v1 : c.v2);
	return 0;
}
