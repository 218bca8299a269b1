/* SPDX-License-Identifier: MIT */
/*
 * The command line's front door: which command runs.  Commands and their
 * options are tables; every value is parsed strictly, and bad input gets
 * one line on stderr and exit status 2 before anything runs or is
 * written.  The texts of --help follow man/ptbench.1, which is the
 * reference.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/commands.h"
#include "cli/error.h"
#include "text/text.h"

static const char main_usage[] =
	"usage: ptbench [COMMAND] [OPTIONS]\n"
	"\n"
	"A Pthreads microbenchmark suite after de Supinski & May (1999).\n"
	"\n"
	"commands:\n"
	"  run       measure benchmarks (the default command; see 'ptbench run --help')\n"
	"  list      benchmarks, their variables and domains\n"
	"  info      this machine: CPU, caches, topology, clock, OS  [--json]\n"
	"  report    print a saved run again: report FILE [--format FMT];\n"
	"            a page of runs: report FILE... --format html\n"
	"  table     cross-platform table: table FILE... [--format md|csv|html]\n"
	"            [--stat mean|median|min]\n"
	"  compare   compare two stored runs: compare BASE NEW [--alpha A]\n"
	"            [--threshold PCT] [--format md|json]; exit 0, 1 regression, 2\n"
	"  ab        regression gate in one sitting: ab [OPTIONS] BASE HEAD [RUN-OPTION...]\n"
	"            paired trials of two programs; exit 0, 1 regression, 2 error\n"
	"  plot      draw result files with gnuplot: plot FILE... [-o OUT.svg|.png]\n"
	"            [--kind table|trials|c2c|cache|scaling|flow|parallelism|profile]\n"
	"            [--script DIR]\n"
	"  record    run a threaded program once on one PU with its Pthreads calls\n"
	"            recorded: record [-o TRACE] [--cpu N] [--sched fifo|other]\n"
	"            -- PROGRAM [ARGS...]\n"
	"  predict   its wall time and speed-up on other counts of CPUs, and what\n"
	"            bounds it: predict TRACE [--cpus LIST] [--machine RESULT.json]\n"
	"            [--corun FILE] [--format table|json] [--chrome-trace FILE]\n"
	"  corun     how much more CPU time a program takes while copies of it run at\n"
	"            once, one per core, for predict --corun: corun [-o FILE]\n"
	"            [--copies LIST] [--rounds N] [--input FILE] [--sched fifo|other]\n"
	"            [--format table|json] -- PROGRAM [ARGS...]\n"
	"  profile   which objects of a threaded program move cache lines between\n"
	"            the CPUs: profile [--line-size B] [--quantum N] [--format table|json]\n"
	"            [-o FILE] -- PROGRAM [ARGS...]  (Valgrind)\n"
	"\n"
	"  -h, --help       this text     --version   the version\n"
	"\n"
	"exit status: 0 success, 1 a point failed (timeout, crash, error) or a\n"
	"regression, 2 bad input, 130 interrupted.  See ptbench(1).\n";

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
} commands[] = {
	/* name       handler */
	{ "run",      ptb_cmd_run },
	{ "list",     ptb_cmd_list },
	{ "info",     ptb_cmd_info },
	{ "report",   ptb_cmd_report },
	{ "table",    ptb_cmd_table },
	{ "compare",  ptb_cmd_compare },
	{ "ab",       ptb_cmd_ab },
	{ "plot",     ptb_cmd_plot },
	{ "record",   ptb_cmd_record },
	{ "predict",  ptb_cmd_predict },
	{ "corun",    ptb_cmd_corun },
	{ "profile",  ptb_cmd_profile },
	{ "worker",   ptb_cmd_worker },     /* started by run, not by people */
};

char ptb_typed_command[4096];
const char *ptb_invoked_as;

static void join_args(int argc, char **argv, char *buf, size_t len)
{
	size_t off = 0;
	buf[0] = '\0';
	for (int i = 0; i < argc && off < len; i++)
		off += snprintf(buf + off, len - off, "%s%s", i ? " " : "", argv[i]);
	ptb_utf8_fix(buf, len);     /* it goes into the result file */
}

/* Output that could not be written (a full disk, a closed pipe) is a
 * failure, said on stderr: stdio would otherwise lose it in silence. */
static int checked_output(int rc)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return rc;
	fprintf(stderr, "ptbench: cannot write the output: %s\n",
		errno ? strerror(errno) : "write error");
	return rc ? rc : 2;
}

static int dispatch(int argc, char **argv)
{
	ptb_invoked_as = argv[0];
	argv[0] = "ptbench";
	join_args(argc, argv, ptb_typed_command, sizeof ptb_typed_command);
	if (argc < 2 || argv[1][0] == '-') {
		bool help = argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
		bool version = argc >= 2 && !strcmp(argv[1], "--version");
		if ((help || version) && argc > 2)
			return ptb_bad_input(NULL, "%s takes nothing after it (got '%s')", argv[1],
					     argv[2]);
		if (help)
			return fputs(main_usage, stdout), 0;
		if (version)
			return puts(PACKAGE_STRING), 0;
		argv[0] = "run";
		return ptb_cmd_run(argc, argv);
	}
	for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].fn(argc - 1, argv + 1);
	return ptb_bad_input(NULL, "unknown command '%s' (see 'ptbench --help')", argv[1]);
}

int ptb_cli_main(int argc, char **argv)
{
	return checked_output(dispatch(argc, argv));
}
