/* SPDX-License-Identifier: MIT */
/* Minimal TAP producer for the C unit tests (Automake's tap-driver.sh). */
#ifndef PTB_TAP_H
#define PTB_TAP_H
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static int tap_n, tap_failed;

static inline void tap_plan(int n) { printf("1..%d\n", n); }
static inline void tap_done(void) { printf("1..%d\n", tap_n); }

__attribute__((format(printf, 2, 3)))
static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;
	printf("%s %d - ", cond ? "ok" : "not ok", ++tap_n);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!cond)
		tap_failed++;
	return cond;
}

/* |got - want| <= tol, printing both on failure. */
#define tap_near(got, want, tol, ...) do { \
	double g_ = (got), w_ = (want); \
	if (!tap_ok(fabs(g_ - w_) <= (tol), __VA_ARGS__)) \
		printf("#   got %.9g, want %.9g (tol %g)\n", g_, w_, (double)(tol)); \
} while (0)

static inline void tap_skip_all(const char *why) { printf("1..0 # SKIP %s\n", why); exit(0); }
static inline int tap_exit(void) { return tap_failed ? 1 : 0; }
#endif
