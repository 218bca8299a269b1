/* SPDX-License-Identifier: MIT */
/*
 * The commands that read result files rather than measure: the
 * cross-platform table and the regression gate.  Each takes the arguments
 * after its command word (argv[0] is the command word) and returns the
 * process exit status: table 0/2; compare 0 no regression, 1 regression,
 * 2 error (one line on stderr).
 */
#ifndef PTB_TOOLS_H
#define PTB_TOOLS_H

int ptb_table_main(int argc, char **argv);
int ptb_compare_main(int argc, char **argv);

#endif
