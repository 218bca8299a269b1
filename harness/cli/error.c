/* SPDX-License-Identifier: MIT */
/* One line on stderr for bad input, the same for every command. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "cli/error.h"

int ptb_bad_input(const char *command, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "ptbench%s%s: ", command ? " " : "", command ? command : "");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 2;
}
