/* SPDX-License-Identifier: MIT */
/*
 * What every command does with its options: getopt_long over an option
 * table, one line and exit status 2 for an unknown option or a missing
 * value, --help, and strict parsing of numbers -- a value is a whole
 * decimal number or it is refused (" 2", "0x2", "2x", "inf" are).
 */
#ifndef PTB_CLI_OPTIONS_H
#define PTB_CLI_OPTIONS_H

#include <getopt.h>
#include <stdint.h>

/* Called for every option but -h/--help; returns 0, or 2 after saying why. */
typedef int ptb_option_fn(void *ctx, int opt, const char *arg);

/*
 * Parse argv[0..argc) (argv[0] is the command word).  `opts` must map
 * "help" to 'h'; `shortopts` lists the short options after the leading
 * ':' that asks getopt to report a missing value.  Returns 0 with *first
 * = the index of the first operand, 2 after one line on stderr, or -1
 * after printing `usage` for --help.
 */
int ptb_options(const char *cmd, int argc, char **argv, const char *shortopts,
		const struct option *opts, const char *usage, ptb_option_fn *fn, void *ctx,
		int *first);

/* A decimal number in [lo, hi]: 0, or 2 after one line naming the option. */
int ptb_parse_double(const char *cmd, const char *opt, const char *s, double lo, double hi,
		     double *out);
int ptb_parse_int(const char *cmd, const char *opt, const char *s, long lo, long hi, int *out);
/* A seed: an integer JSON carries exactly, in [0, 2^53 - 1]. */
#define PTB_SEED_MAX ((1ull << 53) - 1)
int ptb_parse_seed(const char *cmd, const char *opt, const char *s, uint64_t *out);
/* Whether s is a decimal number as people write it: optional sign,
 * digits, optional fraction and exponent, nothing else. */
int ptb_is_decimal(const char *s);

#endif
