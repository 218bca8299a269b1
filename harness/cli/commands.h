/* SPDX-License-Identifier: MIT */
/*
 * The commands of the command line, one file each (cli/cmd-*.c).  Each
 * takes the arguments after `ptbench` (argv[0] is the command word) and
 * returns the process's exit status.  The command line as typed is kept
 * for the result file's context.
 */
#ifndef PTB_CLI_COMMANDS_H
#define PTB_CLI_COMMANDS_H

int ptb_cmd_run(int argc, char **argv);
int ptb_cmd_list(int argc, char **argv);
int ptb_cmd_info(int argc, char **argv);
int ptb_cmd_report(int argc, char **argv);
int ptb_cmd_table(int argc, char **argv);
int ptb_cmd_compare(int argc, char **argv);
int ptb_cmd_worker(int argc, char **argv);
int ptb_cmd_ab(int argc, char **argv);
int ptb_cmd_plot(int argc, char **argv);
int ptb_cmd_record(int argc, char **argv);
int ptb_cmd_predict(int argc, char **argv);
int ptb_cmd_corun(int argc, char **argv);
int ptb_cmd_profile(int argc, char **argv);

struct ptb_run_opts;
/* The options of `run` (argv[0] is the command word, for messages): 0 with
 * *out filled, 2 after one line on stderr, -1 after --help. */
int ptb_run_parse(const char *cmd, int argc, char **argv, struct ptb_run_opts **out);

/* The whole command line as typed ("ptbench run --quick"). */
extern char ptb_typed_command[4096];
/* argv[0] as the program was started, where /proc cannot name it. */
extern const char *ptb_invoked_as;

#endif
