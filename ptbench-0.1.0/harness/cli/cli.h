/* SPDX-License-Identifier: MIT */
/* The command line: list, info, run, report, table, compare. */
#ifndef PTB_CLI_H
#define PTB_CLI_H

/* Exit status: 0 success, 1 failure/regression, 2 bad input. */
int ptb_cli_main(int argc, char **argv);

#endif
