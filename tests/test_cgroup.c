/* SPDX-License-Identifier: MIT */
/*
 * The cgroup CPU quota (platform/cgroup.c) on synthetic trees under
 * tests/data/cgroup: v2 with a quota set on an ancestor slice, none at
 * all, a cgroup namespace, a container without one; v1 with the cpu
 * controller mounted at its controller list or alone; and the path of
 * the cgroup holding the CPU controller in each.  The live machine is
 * only read for consistency: any quota found names its file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/cgroup.h"
#include "tap.h"

static const struct {
	const char *tree;        double cpus;  const char *file;      const char *cgroup;
} cases[] = {
	{ "v2-slice",            1.5,          "/sys/fs/cgroup/bench.slice/cpu.max", "/bench.slice/run.scope" },
	{ "v2-unlimited",        -1,           "",                   "/user.slice" },
	{ "v2-namespaced",       0.5,          "/sys/fs/cgroup/cpu.max", "/" },
	{ "v2-host-path",        1.0,          "/sys/fs/cgroup/cpu.max", "/docker/4f1c" },
	{ "v1",                  2.5,          "/sys/fs/cgroup/cpu,cpuacct/docker/4f1c/cpu.cfs_quota_us", "/docker/4f1c" },
	{ "v1-unlimited",        -1,           "",                   "/" },
	{ "no-such-tree",        -1,           "",                   NULL },
};

int main(void)
{
	const char *data = getenv("TESTDATA");
	struct ptb_cpu_quota q;
	char root[512], want[1024];

	if (!data)
		tap_skip_all("TESTDATA not set (run through make check)");
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		snprintf(root, sizeof root, "%s/cgroup/%s", data, cases[i].tree);
		snprintf(want, sizeof want, "%s%s", cases[i].file[0] ? root : "", cases[i].file);
		ptb_cpu_quota_read(root, &q);
		tap_ok(q.cpus == cases[i].cpus && strcmp(q.file, want) == 0,
		       "%s: %.2f CPUs from \"%s\" (got %.2f from \"%s\")", cases[i].tree,
		       cases[i].cpus, cases[i].file, q.cpus, q.file);
		char cg[256] = "";
		int rc = ptb_cpu_cgroup(root, cg, sizeof cg);
		const char *exp = cases[i].cgroup;
		tap_ok(exp ? rc == 0 && strcmp(cg, exp) == 0 : rc == -1,
		       "  the CPU controller's cgroup: %s (got %s)", exp ? exp : "none",
		       rc ? "none" : cg);
	}
	ptb_cpu_quota_read("", &q);
	tap_ok((q.cpus == -1 && !q.file[0]) || (q.cpus > 0 && strstr(q.file, "/sys/fs/cgroup/")),
	       "live: %s%.2f CPUs%s%s", q.cpus < 0 ? "no quota, " : "", q.cpus,
	       q.file[0] ? " from " : "", q.file);
	tap_done();
	return tap_exit();
}
