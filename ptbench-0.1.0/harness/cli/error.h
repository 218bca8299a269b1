/* SPDX-License-Identifier: MIT */
/* How every command reports bad input: one line on stderr, exit status 2. */
#ifndef PTB_CLI_ERROR_H
#define PTB_CLI_ERROR_H

/* Print "ptbench COMMAND: message" (command may be NULL) as one line --
 * control characters in a file name become ? -- and return 2. */
int ptb_bad_input(const char *command, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
