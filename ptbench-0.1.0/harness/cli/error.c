/* SPDX-License-Identifier: MIT */
/* One line on stderr for bad input, the same for every command. */
#include "config.h"

#include <stdarg.h>
#include <stdio.h>

#include "cli/error.h"
#include "text/text.h"

int ptb_bad_input(const char *command, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;
	va_start(ap, fmt);
	ptb_verrf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "ptbench%s%s: %s\n", command ? " " : "", command ? command : "", msg);
	return 2;
}
