/* SPDX-License-Identifier: MIT */
/*
 * The clock: its calibration agrees with CLOCK_MONOTONIC within 0.1 % over
 * a window of its own (an independent check of the calibrated rate), the
 * counter is positive and never goes backwards when read on each allowed
 * CPU in turn, and PTBENCH_CLOCK=gettime really switches to clock_gettime.
 * Which counter is chosen is tested on injected facts -- other machines'
 * CPUs and kernels -- and on the live machine only for agreement between
 * its facts and the choice made.  No speed is asserted: overhead and
 * resolution only have to be physical.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "platform/clock.h"
#include "tap.h"
#include "platform/topology.h"

#define WINDOW_NS   150000000L   /* long enough that 0.1 % is 150 us */
#define READS_PER_CPU 10000

static double mono_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* The counter read between two CLOCK_MONOTONIC reads; tightest of 5. */
static void stamp(uint64_t *ticks, double *ns)
{
	double best = 1e30;
	for (int i = 0; i < 5; i++) {
		double m0 = mono_ns();
		uint64_t t = ptb_ticks();
		double m1 = mono_ns();
		if (m1 - m0 < best) {
			best = m1 - m0;
			*ticks = t;
			*ns = (m0 + m1) / 2;
		}
	}
}

/* Ticks converted with the calibrated rate, over CLOCK_MONOTONIC. */
static double rate_ratio(const struct ptb_clock *clk)
{
	struct timespec nap = { 0, WINDOW_NS };
	uint64_t t0, t1;
	double n0, n1;

	stamp(&t0, &n0);
	nanosleep(&nap, NULL);
	stamp(&t1, &n1);
	return ptb_ticks_to_ns(clk, ptb_ticks_elapsed(t0, t1)) / (n1 - n0);
}

static void check_init(struct ptb_clock *clk)
{
	double t0 = mono_ns(), took;
	int rc = ptb_clock_init(clk);
	char why[160];
	bool inv;

	took = (mono_ns() - t0) / 1e9;
	tap_ok(rc == 0, "clock initialises: %s at %.0f Hz%s%s", clk->source, clk->hz,
	       clk->refused[0] ? ", refused: " : "", clk->refused);
	tap_ok(took < 1.0, "calibration took %.3f s (aim 0.3 s; bound 1 s on a busy machine)", took);
	tap_ok(clk->hz > 1e6 && clk->hz < 1e11, "rate %.0f Hz is physical", clk->hz);
	/* 0 is honest where a tick outlasts a read (a 24 MHz cntvct, or one
	 * read under emulation): most back-to-back pairs then see no tick. */
	tap_ok(clk->overhead_ns >= 0 && clk->overhead_ns < 10000,
	       "read overhead %.2f ns is physical (0 when a tick outlasts a read)",
	       clk->overhead_ns);
	tap_ok(clk->resolution_ns > 0 && clk->resolution_ns < 1e6,
	       "resolution %.2f ns is physical", clk->resolution_ns);
	inv = ptb_tsc_invariant(why, sizeof why);
	tap_ok(why[0] != '\0', "TSC invariance answered with its evidence: %s (%s)",
	       inv ? "yes" : "no", why);
	if (strcmp(clk->source, "tsc") == 0)
		tap_ok(inv && clk->invariant && !clk->refused[0], "the TSC is used only when invariant");
}

static void check_agreement(const struct ptb_clock *clk, const char *what)
{
	double r = rate_ratio(clk);
	tap_ok(r > 0.999 && r < 1.001, "%s agrees with CLOCK_MONOTONIC within 0.1 %% "
	       "over 150 ms (off by %+.5f %%)", what, (r - 1) * 100);
}

/* "0-1,4" -> PUs. */
static int parse_list(const char *s, int *pu, int max)
{
	int n = 0;
	while (*s && n < max) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;
		if (end == s)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long i = lo; i <= hi && n < max; i++)
			pu[n++] = (int)i;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

/* Reads on each CPU in turn must form one non-decreasing sequence: a
 * counter that is not synchronised across CPUs would fail here. */
static void check_across_cpus(void)
{
	char err[256], got[64];
	struct ptb_topo_counts n;
	struct ptb_topology *t = ptb_topology_load(NULL, err, sizeof err);
	int pus[1024], npus;
	uint64_t last = 0;

	if (!tap_ok(t != NULL, "topology loads (%s)", t ? "live" : err))
		return;
	ptb_topology_counts(t, &n);
	npus = parse_list(n.allowed, pus, 1024);
	for (int i = 0; i < npus; i++) {
		bool bound = ptb_bind_self(t, pus[i], err, sizeof err) == 0 &&
			     ptb_binding_self(t, got, sizeof got) == 0 && atoi(got) == pus[i];
		bool ok = true;
		if (!tap_ok(bound, "bound to PU %d", pus[i]))
			continue;
		for (int k = 0; k < READS_PER_CPU; k++) {
			uint64_t now = ptb_ticks();
			ok &= now > 0 && now >= last;
			last = now;
		}
		tap_ok(ok, "PU %d: %d reads positive and never below the previous one "
		       "(including the last read on the previous PU)", pus[i], READS_PER_CPU);
	}
	ptb_bind_self(t, -1, err, sizeof err);
	ptb_topology_free(t);
}

/* Facts of machines other than this one, and what each must get. */
static const struct {
	const char *what, *counter;
	bool rdtscp, invariant;
	int kernel_tsc;
	enum ptb_tick_source want;
	int reasons;
	const char *says[3];
} decisions[] = {
	{ "trusted invariant TSC with RDTSCP", "tsc", true, true, 1, PTB_TICKS_HW, 0, { NULL } },
	{ "trusted invariant TSC without RDTSCP", "tsc", false, true, 1, PTB_TICKS_HW_FENCED, 0,
	  { NULL } },
	{ "no sysfs: the kernel's verdict unknown", "tsc", false, true, -1, PTB_TICKS_HW_FENCED, 0,
	  { NULL } },
	{ "no RDTSCP and tsc=unstable (a bhyve guest)", "tsc", false, true, 0, PTB_TICKS_GETTIME, 2,
	  { "tsc=unstable", "RDTSCP" } },
	{ "RDTSCP but the kernel dropped tsc", "tsc", true, true, 0, PTB_TICKS_GETTIME, 1,
	  { "tsc=unstable" } },
	{ "TSC not invariant", "tsc", true, false, 1, PTB_TICKS_GETTIME, 1, { "FACT-NOT-INVARIANT" } },
	{ "nothing in its favour", "tsc", false, false, 0, PTB_TICKS_GETTIME, 3,
	  { "FACT-NOT-INVARIANT", "tsc=unstable", "RDTSCP" } },
	{ "aarch64 generic timer", "cntvct", false, false, -1, PTB_TICKS_HW, 0, { NULL } },
	{ "no counter known", "clock_gettime", false, false, -1, PTB_TICKS_GETTIME, 0, { NULL } },
};

static const char *const source_names[] = {
	[PTB_TICKS_HW] = "counter", [PTB_TICKS_GETTIME] = "clock_gettime",
	[PTB_TICKS_HW_FENCED] = "fenced counter",
};

static int count_reasons(const char *list)
{
	int n = *list != '\0';
	for (const char *p = list; (p = strstr(p, "; ")); p += 2)
		n++;
	return n;
}

static void check_decisions(void)
{
	for (size_t i = 0; i < sizeof decisions / sizeof decisions[0]; i++) {
		struct ptb_clock_facts f = { .counter = decisions[i].counter,
			.rdtscp = decisions[i].rdtscp, .invariant = decisions[i].invariant,
			.kernel_tsc = decisions[i].kernel_tsc };
		char refused[320];
		bool said = true;

		snprintf(f.invariant_why, sizeof f.invariant_why, "%s",
			 f.invariant ? "CPUID" : "FACT-NOT-INVARIANT");
		enum ptb_tick_source got = ptb_clock_decide(&f, refused, sizeof refused);
		for (int r = 0; r < decisions[i].reasons; r++)
			said &= strstr(refused, decisions[i].says[r]) != NULL;
		tap_ok(got == decisions[i].want && count_reasons(refused) == decisions[i].reasons &&
		       said, "%s: %s with %d reason(s) (got %s: \"%s\")", decisions[i].what,
		       source_names[decisions[i].want], decisions[i].reasons, source_names[got],
		       refused);
	}
}

/* The live choice is the decision over the live facts (or, for a counter,
 * a calibration that then failed, which adds its own reason). */
static void check_live_decision(const struct ptb_clock *clk)
{
	struct ptb_clock_facts f;
	char refused[320];
	enum ptb_tick_source want;

	ptb_clock_facts_read(&f);
	want = ptb_clock_decide(&f, refused, sizeof refused);
	tap_ok((ptb_tick_source == want && !strcmp(clk->refused, refused)) ||
	       (want != PTB_TICKS_GETTIME && strstr(clk->refused, "calibration")),
	       "live facts (rdtscp %d, invariant %d, kernel tsc %d) give the clock in use: %s "
	       "read with %s", f.rdtscp, f.invariant, f.kernel_tsc, clk->source, clk->read);
}

/* lfence;rdtsc (or the architecture's one read) on one PU: it advances
 * and never goes back, whatever clock is in use. */
static void check_fenced_read(void)
{
	char err[256];
	struct ptb_topology *t = ptb_topology_load(NULL, err, sizeof err);
	struct ptb_topo_counts n;
	struct timespec nap = { 0, 1000000 };
	uint64_t first, last, now;
	bool ok = true;
	int pu;

	if (!tap_ok(t != NULL, "topology loads (%s)", t ? "live" : err))
		return;
	ptb_topology_counts(t, &n);
	parse_list(n.allowed, &pu, 1);
	if (tap_ok(ptb_bind_self(t, pu, err, sizeof err) == 0, "bound to PU %d", pu)) {
		first = last = ptb_ticks_hw_fenced();
		for (int k = 0; k < READS_PER_CPU; k++) {
			now = ptb_ticks_hw_fenced();
			ok &= now >= last;
			last = now;
		}
		nanosleep(&nap, NULL);
		now = ptb_ticks_hw_fenced();
		tap_ok(ok && now > first, "%s: %d reads never below the previous one, and it "
		       "advanced over 1 ms", PTB_HW_FENCED_READ, READS_PER_CPU);
	}
	ptb_bind_self(t, -1, err, sizeof err);
	ptb_topology_free(t);
}

static void check_forced_gettime(const char *hw_source)
{
	struct ptb_clock clk;

	setenv("PTBENCH_CLOCK", "gettime", 1);
	tap_ok(ptb_clock_init(&clk) == 0 && strcmp(clk.source, "clock_gettime") == 0 &&
	       ptb_tick_source == PTB_TICKS_GETTIME && clk.hz == 1e9 &&
	       strstr(clk.refused, "PTBENCH_CLOCK"),
	       "PTBENCH_CLOCK=gettime forces clock_gettime (%s)", clk.refused);
	check_agreement(&clk, "clock_gettime");

	setenv("PTBENCH_CLOCK", "sundial", 1);
	tap_ok(ptb_clock_init(&clk) == -1 && strstr(clk.refused, "sundial"),
	       "an unknown PTBENCH_CLOCK is an error (%s)", clk.refused);

	unsetenv("PTBENCH_CLOCK");
	tap_ok(ptb_clock_init(&clk) == 0 && strcmp(clk.source, hw_source) == 0,
	       "without PTBENCH_CLOCK the clock is %s again", hw_source);
}

int main(void)
{
	struct ptb_clock clk;
	const char *env = getenv("PTBENCH_CLOCK");

	if (env && *env)
		tap_skip_all("PTBENCH_CLOCK is set in the environment");
	check_decisions();
	check_init(&clk);
	check_live_decision(&clk);
	check_agreement(&clk, clk.source);
	check_fenced_read();
	check_across_cpus();
	check_forced_gettime(clk.source);
	tap_done();
	return tap_exit();
}
