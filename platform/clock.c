/* SPDX-License-Identifier: MIT */
/*
 * Calibration of the counter behind ptb_ticks().  Once per run the counter
 * is compared with CLOCK_MONOTONIC over a few short windows (the median
 * rate wins), its read overhead and resolution are measured, and on x86
 * the TSC is accepted only when it is invariant.  Otherwise, or when the
 * user sets PTBENCH_CLOCK=gettime, every timing is taken with
 * clock_gettime(CLOCK_MONOTONIC_RAW) and the reason is kept in
 * ptb_clock.refused so that results and `ptbench info` say so.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "cpuinfo.h"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

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

#if defined(__x86_64__) || defined(__i386__)
/*
 * The TSC is a time base only when it is invariant: it ticks at one rate
 * whatever the P-state and does not stop in deep C-states.  The CPU says
 * so in CPUID 0x80000007 EDX bit 8.  Hypervisors often hide that leaf while
 * giving the guest a perfectly stable TSC; Linux then still reports
 * constant_tsc and nonstop_tsc, which together mean the same thing, so
 * they are accepted as the second piece of evidence.
 */
bool ptb_tsc_invariant(char *why, unsigned len)
{
	unsigned a, b, c, d;

	if (__get_cpuid(0x80000000, &a, &b, &c, &d) && a >= 0x80000007 &&
	    __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8))) {
		snprintf(why, len, "CPUID 0x80000007 EDX bit 8");
		return true;
	}
	if (ptb_cpuinfo_has_flag("/proc/cpuinfo", "constant_tsc") &&
	    ptb_cpuinfo_has_flag("/proc/cpuinfo", "nonstop_tsc")) {
		snprintf(why, len, "Linux flags constant_tsc and nonstop_tsc "
			 "(CPUID 0x80000007 EDX bit 8 not set)");
		return true;
	}
	snprintf(why, len, "TSC not invariant: neither CPUID 0x80000007 EDX bit 8 "
		 "nor Linux's constant_tsc+nonstop_tsc flags");
	return false;
}

#define CLOCKSOURCES "/sys/devices/system/clocksource/clocksource0/available_clocksource"

/* Linux drops "tsc" from the clocksources it offers when its watchdog has
 * caught the TSC drifting or the CPUs' TSCs disagreeing -- evidence the
 * CPUID bit cannot give.  Where the file cannot be read, nothing is known. */
static bool kernel_dropped_tsc(void)
{
	char line[256] = "";
	FILE *f = fopen(CLOCKSOURCES, "r");
	if (!f)
		return false;
	bool read = fgets(line, sizeof line, f) != NULL;
	fclose(f);
	for (char *t = strtok(line, " \n"); read && t; t = strtok(NULL, " \n"))
		if (strcmp(t, "tsc") == 0)
			return false;
	return read;
}

/* ptb_ticks_hw() executes RDTSCP, which faults on CPUs without it. */
static const char *hw_unusable(char *why, unsigned len)
{
	unsigned a, b, c, d;

	if (!__get_cpuid(0x80000001, &a, &b, &c, &d) || !(d & (1u << 27)))
		return "CPU lacks RDTSCP (CPUID 0x80000001 EDX bit 27)";
	if (kernel_dropped_tsc())
		return "the kernel no longer offers tsc as a clocksource (" CLOCKSOURCES
		       "): it found it unstable";
	return ptb_tsc_invariant(why, len) ? NULL : why;
}
#else
bool ptb_tsc_invariant(char *why, unsigned len)
{
	snprintf(why, len, "not x86");
	return false;
}

/* cntvct_el0 runs at the fixed CNTFRQ_EL0 rate by architecture, and the
 * generic fallback is clock_gettime itself: nothing to refuse. */
static const char *hw_unusable(char *why, unsigned len)
{
	return NULL;
}
#endif

/*
 * clock_gettime(CLOCK_MONOTONIC_RAW) is answered in user space by the vDSO
 * (20-50 ns a read) only while the kernel's clocksource is one it can read
 * there -- tsc, or kvm-clock/hyperv on guests.  With hpet, acpi_pm or an
 * unstable TSC every read is a system call costing around a microsecond,
 * which the measured overhead then shows and the harness's minimum timing
 * length absorbs.
 */
static void use_gettime(struct ptb_clock *clk, const char *reason)
{
	ptb_tick_source = PTB_TICKS_GETTIME;
	clk->source = "clock_gettime";
	clk->hz = 1e9;                 /* the ticks are nanoseconds */
	clk->invariant = true;         /* CLOCK_MONOTONIC_RAW is never slewed */
	snprintf(clk->refused, sizeof clk->refused, "%s", reason);
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
		use_gettime(clk, "PTBENCH_CLOCK=gettime asked for clock_gettime");
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

/* The hardware counter if it can be trusted, else clock_gettime. */
static void choose_counter(struct ptb_clock *clk)
{
	char why[sizeof clk->refused];
	const char *bad;
	double spread;

	if (strcmp(PTB_HW_CLOCK_NAME, "clock_gettime") == 0) {
		use_gettime(clk, "");
		return;
	}
	bad = hw_unusable(why, sizeof why);
	if (bad) {
		use_gettime(clk, bad);
		return;
	}
	ptb_tick_source = PTB_TICKS_HW;
	clk->source = PTB_HW_CLOCK_NAME;
	clk->invariant = true;
	clk->hz = calibrate(&spread);
	if (!(clk->hz > 0) || spread > CAL_MAX_SPREAD) {
		snprintf(why, sizeof why, "%s rate varied by %.2f %% between "
			 "calibration windows", PTB_HW_CLOCK_NAME, spread * 100);
		use_gettime(clk, why);
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
