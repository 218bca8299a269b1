/* SPDX-License-Identifier: MIT */
/*
 * Calibration of the counter behind ptb_ticks().  Once per run the counter
 * is compared with CLOCK_MONOTONIC over a few short windows (the median
 * rate wins) and its read overhead and resolution are measured.  Which
 * counter is used is decided from facts (platform/clock-<arch>.c gathers
 * them): on x86 the TSC only when it is invariant and the kernel trusts
 * it.  Otherwise, or when the user sets PTBENCH_CLOCK=gettime, every
 * timing is taken with clock_gettime(CLOCK_MONOTONIC_RAW) and every reason
 * is kept in ptb_clock.refused so that results and `ptbench info` say so.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"

/* Until ptb_clock_init() has run only the nanosecond clock has a known
 * rate, so that is what an early ptb_ticks() reads. */
enum ptb_tick_source ptb_tick_source = PTB_TICKS_GETTIME;

#define CAL_WINDOWS     5          /* median of these many rate estimates */
#define CAL_WINDOW_NS   25000000L  /* 25 ms each: ~0.13 s in all */
#define CAL_STAMP_TRIES 8          /* keep the tightest bracket of these */
#define CAL_MAX_SPREAD  0.01       /* windows disagreeing more: not a clock */
#define OVH_PAIRS       4001       /* back-to-back reads for overhead */

static int64_t monotonic_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * One simultaneous reading of the counter and CLOCK_MONOTONIC: the counter
 * is read between two CLOCK_MONOTONIC reads and the tightest of a few
 * brackets is kept, so an interrupt or a vCPU preemption between the reads
 * costs a retry instead of a wrong endpoint.
 */
static void stamp(uint64_t *ticks, double *ns)
{
	int64_t best = INT64_MAX;
	for (int i = 0; i < CAL_STAMP_TRIES; i++) {
		int64_t m0 = monotonic_ns();
		uint64_t t = ptb_ticks();
		int64_t m1 = monotonic_ns();
		if (m1 - m0 < best) {
			best = m1 - m0;
			*ticks = t;
			*ns = (double)m0 + (double)(m1 - m0) / 2;
		}
	}
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* Ticks per second of ptb_ticks(); the windows sleep rather than spin,
 * because the endpoints alone decide the rate and the machine is shared. */
static double calibrate(double *spread)
{
	double hz[CAL_WINDOWS];
	struct timespec nap = { 0, CAL_WINDOW_NS };

	for (int w = 0; w < CAL_WINDOWS; w++) {
		uint64_t t0, t1;
		double n0, n1;
		stamp(&t0, &n0);
		while (nanosleep(&nap, NULL) != 0 && errno == EINTR)
			;
		stamp(&t1, &n1);
		hz[w] = (double)ptb_ticks_elapsed(t0, t1) * 1e9 / (n1 - n0);
	}
	qsort(hz, CAL_WINDOWS, sizeof hz[0], cmp_double);
	*spread = (hz[CAL_WINDOWS - 1] - hz[0]) / hz[CAL_WINDOWS / 2];
	return hz[CAL_WINDOWS / 2];
}

/*
 * Median cost of one read (the difference of back-to-back reads) and the
 * smallest non-zero difference seen, both in ticks.  That smallest step is
 * what a timing can resolve: for the TSC it is the read itself (tens of
 * cycles), not the sub-nanosecond tick.
 */
static void read_cost(uint64_t *median, uint64_t *smallest)
{
	uint64_t d[OVH_PAIRS];

	*smallest = 0;
	for (int i = 0; i < OVH_PAIRS; i++) {
		uint64_t a = ptb_ticks();
		uint64_t b = ptb_ticks();
		d[i] = ptb_ticks_elapsed(a, b);
		if (d[i] && (!*smallest || d[i] < *smallest))
			*smallest = d[i];
	}
	qsort(d, OVH_PAIRS, sizeof d[0], cmp_u64);
	*median = d[OVH_PAIRS / 2];
}

double ptb_ticks_to_ns(const struct ptb_clock *clk, uint64_t ticks)
{
	return (double)ticks * 1e9 / clk->hz;
}

/* Append one reason to a "; "-joined list. */
static void add_reason(char *list, size_t len, const char *reason)
{
	size_t used = strlen(list);

	if (used < len)
		snprintf(list + used, len - used, "%s%s", used ? "; " : "", reason);
}

#define TSC_DROPPED "the kernel does not offer tsc as a clocksource (" PTB_CLOCKSOURCES \
	"): it found the TSC unstable or was booted with tsc=unstable"
#define NO_RDTSCP "CPU lacks RDTSCP (CPUID 0x80000001 EDX bit 27)"

/*
 * The TSC is a time base only when it is invariant and the kernel, which
 * watches it against other clocks and checks that the CPUs agree, still
 * trusts it.  RDTSCP only orders the read; without it LFENCE does, so its
 * absence alone refuses nothing -- but it is named beside the other reasons
 * when the TSC is refused, so that nothing seen is left out.
 */
enum ptb_tick_source ptb_clock_decide(const struct ptb_clock_facts *f, char *refused,
				      size_t len)
{
	refused[0] = '\0';
	if (strcmp(f->counter, "clock_gettime") == 0)
		return PTB_TICKS_GETTIME;
	if (strcmp(f->counter, "tsc") != 0)
		return PTB_TICKS_HW;      /* cntvct: fixed rate by architecture */
	if (!f->invariant)
		add_reason(refused, len, f->invariant_why);
	if (f->kernel_tsc == 0)
		add_reason(refused, len, TSC_DROPPED);
	if (!refused[0])
		return f->rdtscp ? PTB_TICKS_HW : PTB_TICKS_HW_FENCED;
	if (!f->rdtscp)
		add_reason(refused, len, NO_RDTSCP);
	return PTB_TICKS_GETTIME;
}

/*
 * clock_gettime(CLOCK_MONOTONIC_RAW) is answered in user space by the vDSO
 * (20-50 ns a read) only while the kernel's clocksource is one it can read
 * there -- tsc, or kvm-clock/hyperv on guests.  With hpet, acpi_pm or an
 * unstable TSC every read is a system call costing around a microsecond,
 * which the measured overhead then shows and the harness's minimum timing
 * length absorbs.
 */
static void use_gettime(struct ptb_clock *clk)
{
	ptb_tick_source = PTB_TICKS_GETTIME;
	clk->source = "clock_gettime";
	clk->read = "clock_gettime(CLOCK_MONOTONIC_RAW)";
	clk->hz = 1e9;                 /* the ticks are nanoseconds */
	clk->invariant = true;         /* CLOCK_MONOTONIC_RAW is never slewed */
}

/*
 * PTBENCH_CLOCK=gettime makes every timing use clock_gettime even where a
 * trusted hardware counter exists: to compare against the counter, or to
 * work around a counter this code wrongly trusts.  Any other value is an
 * error rather than being ignored.
 */
static int forced_gettime(struct ptb_clock *clk)
{
	const char *env = getenv("PTBENCH_CLOCK");

	if (!env || !*env)
		return 0;
	if (strcmp(env, "gettime") == 0) {
		use_gettime(clk);
		add_reason(clk->refused, sizeof clk->refused,
			   "PTBENCH_CLOCK=gettime asked for clock_gettime");
		return 1;
	}
	snprintf(clk->refused, sizeof clk->refused,
		 "PTBENCH_CLOCK=%.40s: unknown value (the only one is 'gettime')", env);
	return -1;
}

static void measure_reads(struct ptb_clock *clk)
{
	uint64_t median, smallest;

	read_cost(&median, &smallest);
	clk->overhead_ns = ptb_ticks_to_ns(clk, median);
	clk->resolution_ns = ptb_ticks_to_ns(clk, smallest ? smallest : 1);
}

/* The hardware counter if the facts allow it and its calibration holds,
 * else clock_gettime. */
static void choose_counter(struct ptb_clock *clk)
{
	struct ptb_clock_facts facts;
	char why[128];
	double spread;

	ptb_clock_facts_read(&facts);
	ptb_tick_source = ptb_clock_decide(&facts, clk->refused, sizeof clk->refused);
	if (ptb_tick_source == PTB_TICKS_GETTIME) {
		use_gettime(clk);
		return;
	}
	clk->source = PTB_HW_CLOCK_NAME;
	clk->read = ptb_tick_source == PTB_TICKS_HW ? PTB_HW_READ : PTB_HW_FENCED_READ;
	clk->invariant = true;
	clk->hz = calibrate(&spread);
	if (!(clk->hz > 0) || spread > CAL_MAX_SPREAD) {
		snprintf(why, sizeof why, "%s rate varied by %.2f %% between "
			 "calibration windows", PTB_HW_CLOCK_NAME, spread * 100);
		add_reason(clk->refused, sizeof clk->refused, why);
		use_gettime(clk);
	}
}

int ptb_clock_init(struct ptb_clock *clk)
{
	int forced;

	memset(clk, 0, sizeof *clk);
	forced = forced_gettime(clk);
	if (forced < 0)
		return -1;
	if (!forced)
		choose_counter(clk);
	measure_reads(clk);
	return 0;
}
