/* SPDX-License-Identifier: MIT */
/*
 * The job as the file records it: the MPI library and thread levels, the
 * launcher, each rank's host and cpuset, and the MPI-relevant environment
 * (rank 0's).  Every rank sends one fixed-size record to rank 0, which
 * also refuses a job whose ranks run different versions of ptbench or
 * share a host unless --as-nodes says that ranks stand for nodes.
 */
#include "config.h"
#include "cluster/cluster.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

extern char **environ;

struct rank_facts {
	char host[64];
	char version[32];
	char cpuset[160];
	int pus;
};

static const char *level_name(int l)
{
	switch (l) {
	case MPI_THREAD_SINGLE: return "single";
	case MPI_THREAD_FUNNELED: return "funneled";
	case MPI_THREAD_SERIALIZED: return "serialized";
	case MPI_THREAD_MULTIPLE: return "multiple";
	}
	return "unknown";
}

/* "0-3,8" from the affinity mask; the count of PUs in *pus. */
static void cpuset_text(char *buf, size_t len, int *pus)
{
	cpu_set_t set;
	buf[0] = 0;
	*pus = 0;
	if (sched_getaffinity(0, sizeof set, &set) != 0)
		return;
	for (int i = 0; i < CPU_SETSIZE; i++) {
		if (!CPU_ISSET(i, &set))
			continue;
		int j = i;
		while (j + 1 < CPU_SETSIZE && CPU_ISSET(j + 1, &set))
			j++;
		size_t u = strlen(buf);
		if (u + 24 < len)
			snprintf(buf + u, len - u, j > i ? "%s%d-%d" : "%s%d", u ? "," : "", i, j);
		*pus += j - i + 1;
		i = j;
	}
}

static json_t *environment(void)
{
	static const char *const prefixes[] = { "OMPI_MCA_", "MPICH_", "MPIR_CVAR_", "UCX_",
						"FI_", "SLURM_JOB_ID", "SLURM_NNODES", "PMIX_MCA_" };
	json_t *env = json_object();
	for (char **e = environ; *e; e++)
		for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
			const char *eq = strchr(*e, '=');
			if (eq && !strncmp(*e, prefixes[i], strlen(prefixes[i]))) {
				char key[128];
				snprintf(key, sizeof key, "%.*s", (int)(eq - *e), *e);
				json_object_set_new(env, key, json_string(eq + 1));
				break;
			}
		}
	return env;
}

static json_t *mpi_facts(const struct ptb_cl *c, const char *launcher)
{
	char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
	int len = 0, major = 0, minor = 0;
	MPI_Get_library_version(lib, &len);
	MPI_Get_version(&major, &minor);
	char *nl = strchr(lib, '\n');
	if (nl)
		*nl = 0;
	char *comma = strchr(lib, ',');   /* "Open MPI v4.1.4, package: ..." */
	char name[128];
	snprintf(name, sizeof name, "%.*s", comma ? (int)(comma - lib) : (int)strlen(lib), lib);
	char std[16];
	snprintf(std, sizeof std, "%d.%d", major, minor);
	return json_pack("{s:s,s:s,s:s,s:s,s:s,s:s,s:s}", "library", name, "version", lib,
			 "standard", std, "requested", level_name(c->level), "provided",
			 level_name(c->provided), "launcher", launcher, "configured_launcher",
			 PTB_MPIRUN);
}

json_t *ptb_cl_context(struct ptb_cl *c, const char *launcher)
{
	struct rank_facts mine = { 0 }, *all = NULL;
	snprintf(mine.host, sizeof mine.host, "%.63s", c->host);
	snprintf(mine.version, sizeof mine.version, "%s", PACKAGE_VERSION);
	cpuset_text(mine.cpuset, sizeof mine.cpuset, &mine.pus);
	if (c->rank == 0 && !(all = calloc((size_t)c->size, sizeof *all)))
		ptb_cl_fail(c, "out of memory");
	ptb_cl_watch_arm("gathering the nodes");
	MPI_Gather(&mine, sizeof mine, MPI_BYTE, all, sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD);
	ptb_cl_watch_disarm();
	if (c->rank != 0)
		return NULL;
	json_t *nodes = json_array();
	for (int r = 0; r < c->size; r++) {
		if (strcmp(all[r].version, PACKAGE_VERSION) != 0)
			ptb_cl_fail(c, "rank %d (%s) runs ptbench %s, rank 0 runs %s", r, all[r].host,
				    all[r].version, PACKAGE_VERSION);
		for (int q = 0; q < r && !c->as_nodes; q++)
			if (!strcmp(all[q].host, all[r].host))
				ptb_cl_fail(c, "ranks %d and %d share host %s: start one rank per "
					    "node (mpirun --map-by ppr:1:node) or give --as-nodes",
					    q, r, all[r].host);
		json_array_append_new(nodes, json_pack("{s:s,s:i,s:s,s:i,s:b}", "host", all[r].host,
			"rank", r, "cpuset", all[r].cpuset, "pus", all[r].pus,
			"fewer_pus_than_threads", all[r].pus < c->threads));
	}
	free(all);
	return json_pack("{s:o,s:o,s:b,s:i,s:o}", "mpi", mpi_facts(c, launcher), "nodes", nodes,
			 "as_nodes", c->as_nodes, "threads", c->threads, "environment", environment());
}
