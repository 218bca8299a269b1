/* SPDX-License-Identifier: MIT */
/*
 * ptbench-mpi: `cluster` measures across the ranks of an MPI job and
 * writes a ptbench-cluster/1 file; `report FILE` prints a stored one
 * (without starting MPI).  Bad input: one line, exit 2, before MPI_Init.
 */
#include "config.h"
#include "cluster/cluster.h"
#include "record/cluster.h"
#include "record/runfile.h"
#include "record/target.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char usage[] =
	"usage: mpirun -n N ptbench-mpi cluster [--suite default|hybrid] [--node-args ARGS]\n"
	"                 [--threads T] [--thread-level funneled|multiple]\n"
	"                 [--as-nodes] [--rounds N] [--episodes N] [--check-episodes N]\n"
	"                 [--control] [--target PCT] [--timeout S]\n"
	"                 [--clock skampi|hierarchical] [-o FILE]\n"
	"       ptbench-mpi report FILE\n"
	"       ptbench-mpi merge FILE... -o OUT [--target PCT]\n"
	"       ptbench-mpi launch LAUNCHER ARG...   (its status made 0 or 2)\n"
	"       ptbench-mpi --help | --version\n";

static void bad(const char *fmt, const char *arg)
{
	fputs("ptbench-mpi: ", stderr);
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	exit(2);
}

static int int_arg(const char *opt, const char *v, int lo, int hi)
{
	char *end;
	long x = v ? strtol(v, &end, 10) : 0;
	if (!v || !*v || *end || x < lo || x > hi) {
		fprintf(stderr, "ptbench-mpi: %s wants an integer from %d to %d, got '%s'\n", opt,
			lo, hi, v ? v : "");
		exit(2);
	}
	return (int)x;
}

static void parse(struct ptb_cl *c, int argc, char **argv)
{
	*c = (struct ptb_cl){ .threads = 2, .level = MPI_THREAD_MULTIPLE, .rounds = 10,
			      .episodes = 1000, .check_episodes = 300, .timeout_s = 60,
			      .node_suite = true, .target_pct = 2, .node_gate = -1 };
	for (int i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
		if (!strcmp(a, "--as-nodes")) { c->as_nodes = true; continue; }
		if (!strcmp(a, "--control")) { c->check_control = true; continue; }
		if (!v)
			bad("unknown option or missing value: '%s'", a);
		i++;
		if (!strcmp(a, "--threads"))
			c->threads = int_arg(a, v, 1, PTB_CL_MAX_THREADS);
		else if (!strcmp(a, "--rounds"))
			c->rounds = int_arg(a, v, 1, 1000);
		else if (!strcmp(a, "--episodes"))
			c->episodes = int_arg(a, v, 1, 10000000);
		else if (!strcmp(a, "--check-episodes"))
			c->check_episodes = int_arg(a, v, 0, 1000000);
		else if (!strcmp(a, "--target"))
			c->target_pct = int_arg(a, v, 1, 100);
		else if (!strcmp(a, "--timeout"))
			c->timeout_s = int_arg(a, v, 1, 86400);
		else if (!strcmp(a, "-o"))
			c->out = v;
		else if (!strcmp(a, "--node-args"))
			c->node_args = v;
		else if (!strcmp(a, "--suite")) {
			if (strcmp(v, "default") && strcmp(v, "hybrid"))
				bad("--suite wants default or hybrid, got '%s'", v);
			c->node_suite = !strcmp(v, "default");
		}
		else if (!strcmp(a, "--clock")) {
			if (strcmp(v, "skampi") && strcmp(v, "hierarchical"))
				bad("--clock wants skampi or hierarchical, got '%s'", v);
			c->clock_hierarchical = !strcmp(v, "hierarchical");
		}
		else if (!strcmp(a, "--thread-level")) {
			if (!strcmp(v, "funneled"))
				c->level = MPI_THREAD_FUNNELED;
			else if (!strcmp(v, "multiple"))
				c->level = MPI_THREAD_MULTIPLE;
			else
				bad("--thread-level wants funneled or multiple, got '%s'", v);
		} else
			bad("unknown option: '%s'", a);
	}
}

/* The launcher, from what each leaves in its processes' environment;
 * NULL when none started this process. */
static const char *launcher(void)
{
	static const struct { const char *var, *name; } known[] = {
		{ "OMPI_COMM_WORLD_SIZE", "mpirun (Open MPI)" },
		{ "SLURM_STEP_ID", "srun (Slurm)" },
		{ "PMI_RANK", "mpiexec (Hydra)" },
		{ "PMIX_RANK", "a PMIx launcher" },
	};
	for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
		if (getenv(known[i].var))
			return known[i].name;
	return NULL;
}

static int report(int argc, char **argv)
{
	char err[512];
	if (argc != 3)
		bad("report wants one FILE%s", "");
	json_t *doc = ptb_cluster_load(argv[2], err, sizeof err);
	if (!doc)
		bad("%s", err);
	ptb_cl_table(stdout, doc);
	json_decref(doc);
	return 0;
}

/* Several launches of one configuration as one file (record/cluster.h);
 * no MPI started. */
static int merge(int argc, char **argv)
{
	const char *out = NULL, *paths[256];
	json_t *docs[256];
	double target = 2;
	int n = 0, rc = 0;
	char err[512];
	for (int i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--target")) {
			if (i + 1 >= argc)
				bad("%s wants a value", argv[i]);
			if (!strcmp(argv[i], "-o"))
				out = argv[++i];
			else
				target = int_arg("--target", argv[++i], 1, 100);
		} else if (argv[i][0] == '-') {
			bad("merge: unknown option '%s'", argv[i]);
		} else if (n == 256) {
			bad("merge: at most 256 files%s", "");
		} else {
			paths[n++] = argv[i];
		}
	}
	if (n < 2 || !out)
		bad("usage: ptbench-mpi merge FILE... -o OUT (two files or more)%s", "");
	if (ptb_run_check_target(out, err, sizeof err) != 0)
		bad("%s", err);
	for (int k = 0; k < n; k++)
		if (!(docs[k] = ptb_cluster_load(paths[k], err, sizeof err))) {
			while (k--)
				json_decref(docs[k]);
			bad("%s", err);
		}
	json_t *m = ptb_cluster_merge(docs, paths, n, target, err, sizeof err);
	if (!m || ptb_run_write_atomic(m, out, err, sizeof err) != 0) {
		fprintf(stderr, "ptbench-mpi: %s\n", err);
		rc = 2;
	}
	json_decref(m);
	for (int k = 0; k < n; k++)
		json_decref(docs[k]);
	return rc;
}

static void start_mpi(struct ptb_cl *c, int *argc, char ***argv)
{
	MPI_Init_thread(argc, argv, c->level, &c->provided);
	MPI_Comm_rank(MPI_COMM_WORLD, &c->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &c->size);
	if (gethostname(c->host, sizeof c->host - 1) != 0)
		strcpy(c->host, "?");
	const char *inject = getenv("PTB_MPI_INJECT_OFFSET_NS");   /* tests */
	if (inject)
		c->inject_ns = strtoll(inject, NULL, 10) * c->rank;
	if (c->provided < MPI_THREAD_FUNNELED)
		ptb_cl_fail(c, "rank %d (%s): the MPI library gives only MPI_THREAD_SINGLE; "
			    "threads need at least FUNNELED", c->rank, c->host);
	if (c->size < 2)
		ptb_cl_fail(c, "cluster needs at least 2 ranks, this job has %d", c->size);
	ptb_cl_watch_start(c);
	ptb_cl_lifelines_open(c);
	ptb_cl_comms_open(c);
}

/* The launcher's rank 0 (which will write -o) makes sure, before the
 * per-node suite spends minutes, that it can create a file beside FILE.
 * It says so only after MPI_Init, through MPI_Abort: a process that ends
 * before MPI_Init leaves some launchers (MPICH's Hydra) waiting for ever. */
static char output_err[512];

static bool output_writable(const char *out)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID",
					    "PMIX_RANK" };
	const char *rank = NULL;
	for (size_t i = 0; i < sizeof vars / sizeof vars[0] && !rank; i++)
		rank = getenv(vars[i]);
	if (!out || (rank && strcmp(rank, "0") != 0))
		return true;
	/* a regular file only (the rename would replace a device node or a
	 * link), and locked against a second writer, as every -o of ptbench */
	return ptb_run_check_target(out, output_err, sizeof output_err) == 0;
}

/* PTB_MPI_FAULT=die:R, term:R or hang:R: rank R dies (SIGKILL), is sent
 * SIGTERM as a launcher ending the job would, or stops answering (tests).
 * Every rank first meets the others in a barrier, so that rank 0 has
 * written its first file by then: without it rank 1 could die while rank
 * 0 was still building its document (under a distcheck's load, once), and
 * no file is then kept, rightly, where the tests look for one. */
static void inject_fault(const struct ptb_cl *c)
{
	const char *f = getenv("PTB_MPI_FAULT");
	const char *colon = f ? strchr(f, ':') : NULL;
	if (!colon)
		return;
	MPI_Barrier(MPI_COMM_WORLD);
	if (atoi(colon + 1) != c->rank)
		return;
	if (!strncmp(f, "die", 3))
		raise(SIGKILL);
	if (!strncmp(f, "term", 4))
		kill(getpid(), SIGTERM);   /* to the process, as a launcher sends it */
	if (!strncmp(f, "hang", 4))
		for (;;)
			pause();
}

int main(int argc, char **argv)
{
	struct ptb_cl c;
	if (argc < 2 || !strcmp(argv[1], "--help")) {
		fputs(usage, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version")) {
		printf("ptbench-mpi %s\n", PACKAGE_VERSION);
		return 0;
	}
	if (!strcmp(argv[1], "report"))
		return report(argc, argv);
	if (!strcmp(argv[1], "merge"))
		return merge(argc, argv);
	if (!strcmp(argv[1], "launch"))
		return ptb_cl_launch(argc - 2, argv + 2);
	if (strcmp(argv[1], "cluster") != 0)
		bad("unknown command '%s' (cluster, report, merge, launch)", argv[1]);
	parse(&c, argc, argv);
	const char *by = launcher();
	if (!by)
		bad("not started by an MPI launcher: run it as mpirun -n N ptbench-mpi %s "
		    "(or srun, or mpiexec)", argv[1]);
	bool writable = output_writable(c.out);
	if (writable)   /* before MPI_Init: its processes must not carry MPI */
		ptb_cl_node_suite_run(&c);
	ptb_cl_signals_start(&c);   /* after the suite: its processes keep SIGTERM */
	start_mpi(&c, &argc, &argv);
	if (!writable)
		ptb_cl_fail(&c, "%s", output_err);
	json_t *ctx = ptb_cl_context(&c, by);
	if (c.rank == 0) {
		c.doc = json_pack("{s:s,s:s,s:s,s:o,s:[]}", "schema", PTB_CLUSTER_SCHEMA, "version",
				  PACKAGE_VERSION, "status", "running", "context", ctx, "results");
		char err[512];
		if (ptb_cl_write(&c, "running", err, sizeof err) != 0)
			ptb_cl_fail(&c, "%s", err);
	}
	inject_fault(&c);
	ptb_cl_node_rounds(&c);
	ptb_cl_rollcall(&c, "gathering the nodes");   /* a lost rank named, not waited on */
	ptb_cl_node_suite_gather(&c);
	ptb_cl_rollcall(&c, "clock synchronisation");
	json_t *clock = ptb_cl_clock_sync(&c);
	if (c.rank == 0)
		json_object_set_new(json_object_get(c.doc, "context"), "clock", clock);
	if (c.check_episodes > 0)
		ptb_cl_hybrid_check(&c);
	ptb_cl_rounds(&c);
	ptb_cl_rollcall(&c, "the end");
	if (c.rank == 0) {
		char err[512];
		if (ptb_cl_write(&c, "complete", err, sizeof err) != 0)
			ptb_cl_fail(&c, "%s", err);
		ptb_cl_table(stdout, c.doc);
	}
	ptb_cl_comms_close(&c);
	ptb_cl_lifeline_bye();
	ptb_cl_watch_arm("MPI_Finalize");
	MPI_Finalize();
	json_decref(c.doc);
	return 0;
}
