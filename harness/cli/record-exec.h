/* SPDX-License-Identifier: MIT */
/*
 * How `ptbench record` starts the program (harness/cli/record-exec.c):
 * in the child it forked, on the recording's PU, with the interposer
 * preloaded and told where to write and when the program began.
 */
#ifndef PTB_CLI_RECORD_EXEC_H
#define PTB_CLI_RECORD_EXEC_H

/* Exec argv (execvp's search) with lib preloaded before any library the
 * environment preloads, the trace to go to tmp; never returns (exit 127
 * with one line when argv cannot be run). */
void ptb_record_exec(char **argv, const char *lib, const char *tmp) __attribute__((noreturn));

/* Whether PROGRAM can be exec'd as execvp would find it (a file to run,
 * named by a path or found on PATH): asked before anything is started. */
int ptb_program_findable(const char *prog);

#endif
