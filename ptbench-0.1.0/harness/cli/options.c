/* SPDX-License-Identifier: MIT */
/*
 * Option parsing shared by every command (see options.h).  getopt_long
 * keeps global state, so each call starts a fresh scan (optind = 0 also
 * resets GNU getopt's internal state).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "cli/error.h"
#include "cli/options.h"

int ptb_options(const char *cmd, int argc, char **argv, const char *shortopts,
		const struct option *opts, const char *usage, ptb_option_fn *fn, void *ctx,
		int *first)
{
	int c, rc;
	opterr = 0;
	optind = 0;
	while ((c = getopt_long(argc, argv, shortopts, opts, NULL)) != -1) {
		if (c == 'h') {
			fputs(usage, stdout);
			return -1;
		}
		if (c == '?')
			return ptb_bad_input(cmd, "unknown option '%s' (see 'ptbench %s --help')",
					     argv[optind - 1], cmd);
		if (c == ':')
			return ptb_bad_input(cmd, "option '%s' needs a value", argv[optind - 1]);
		if ((rc = fn(ctx, c, optarg)))
			return rc;
	}
	*first = optind;
	return 0;
}

int ptb_is_decimal(const char *s)
{
	const char *p = s + (*s == '+' || *s == '-');
	int digits = 0;
	while (isdigit((unsigned char)*p))
		p++, digits++;
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits++;
	if (!digits)
		return 0;
	if (*p == 'e' || *p == 'E') {
		p += 1 + (p[1] == '+' || p[1] == '-');
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	return *p == '\0';
}

int ptb_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi,
		     double *out)
{
	double v;
	errno = 0;
	v = ptb_is_decimal(s) ? strtod(s, NULL) : NAN;
	if (errno || !isfinite(v) || v < lo || v > hi)
		return ptb_bad_input(cmd, "%s: '%s' is not a number in [%g, %g]", opt, s, lo, hi);
	*out = v;
	return 0;
}

int ptb_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, int *out)
{
	char *end;
	long v;
	errno = 0;
	v = strtol(s, &end, 10);
	if (!ptb_is_decimal(s) || errno || *end || v < lo || v > hi)
		return ptb_bad_input(cmd, "%s: '%s' is not an integer in [%ld, %ld]", opt, s, lo, hi);
	*out = (int)v;
	return 0;
}

int ptb_parse_seed(const char *cmd, const char *opt, const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (!ptb_is_decimal(s) || s[0] == '-' || s[0] == '+' || errno || *end ||
	    v > PTB_SEED_MAX)
		return ptb_bad_input(cmd, "%s: '%s' is not an integer in [0, %llu]", opt, s,
				     (unsigned long long)PTB_SEED_MAX);
	*out = v;
	return 0;
}
