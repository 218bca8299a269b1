/* SPDX-License-Identifier: MIT */
/*
 * `ptbench worker`: the process a run starts for its trials (run/worker.c).
 * It takes no options: its requests come on stdin.
 */
#include "config.h"

#include <stdio.h>

#include "cli/commands.h"
#include "cli/error.h"
#include "run/worker.h"

int ptb_cmd_worker(int argc, char **argv)
{
	if (argc > 1)
		return ptb_bad_input("worker", "takes no arguments (it is started by 'ptbench run')");
	(void)argv;
	return ptb_worker_main(stdin, stdout);
}
