/* SPDX-License-Identifier: MIT */
/*
 * The cycle-accurate clock every timing in ptbench is read from.
 * ptb_ticks() is a raw counter read, inline so that its cost stays a few
 * cycles; ptb_clock_init() calibrates it once per run against
 * CLOCK_MONOTONIC and records its frequency, read overhead and resolution,
 * and -- for the TSC -- whether it is invariant.  Whether the counter can
 * be trusted is a pure decision over facts (struct ptb_clock_facts) that
 * the tests feed with any machine's; when it cannot, the clock falls back
 * to clock_gettime(CLOCK_MONOTONIC_RAW) and every reason is kept in
 * ptb_clock.refused.
 */
#ifndef PTB_CLOCK_H
#define PTB_CLOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct ptb_clock {
	const char *source;     /* "tsc", "cntvct", "clock_gettime" */
	double hz;              /* ticks per second, calibrated */
	bool invariant;         /* rate independent of P/C-states (TSC) */
	double overhead_ns;     /* cost of one back-to-back pair of reads */
	double resolution_ns;   /* smallest non-zero difference seen */
	char refused[320];      /* every reason the hardware counter was not
				 * used, joined by "; ", or "" */
	const char *read;       /* how a reading is taken: "rdtscp;lfence",
				 * "lfence;rdtsc;lfence", ... */
};

/* Which counter ptb_ticks() reads; set once by ptb_clock_init().  FENCED
 * is the TSC read without RDTSCP, ordered by LFENCE on both sides. */
enum ptb_tick_source { PTB_TICKS_HW, PTB_TICKS_GETTIME, PTB_TICKS_HW_FENCED };
extern enum ptb_tick_source ptb_tick_source;

/* Where Linux lists the clocksources it still trusts. */
#define PTB_CLOCKSOURCES "/sys/devices/system/clocksource/clocksource0/available_clocksource"

/* What decides the counter.  ptb_clock_facts_read() gathers them on the
 * live machine; a test may fill them with another machine's. */
struct ptb_clock_facts {
	const char *counter;        /* PTB_HW_CLOCK_NAME: "tsc", "cntvct", "clock_gettime" */
	bool rdtscp;                /* x86: CPUID 0x80000001 EDX bit 27 */
	bool invariant;             /* x86: ptb_tsc_invariant() */
	char invariant_why[160];    /* its evidence, or why not */
	int kernel_tsc;             /* Linux offers tsc as a clocksource: 1 yes,
				     * 0 dropped (unstable, or tsc=unstable), -1 unknown */
};

static inline uint64_t ptb_ticks_gettime(void)
{
	struct timespec ts;
#ifdef CLOCK_MONOTONIC_RAW
	/* RAW is not slewed by NTP, so a timing never stretches or shrinks
	 * while the daemon corrects the clock. */
	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
#else
	clock_gettime(CLOCK_MONOTONIC, &ts);
#endif
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

#if defined(__x86_64__) || defined(__i386__)
/*
 * x86: RDTSC is not ordered with respect to earlier instructions, so a bare
 * read can be hoisted above the end of the timed work.  RDTSCP waits until
 * all earlier instructions have executed, and the LFENCE after it keeps
 * later instructions from starting before the read.  Caveats: the TSC is
 * only a time base when it is invariant (CPUID 0x80000007 EDX bit 8);
 * under a hypervisor it may be offset or scaled per vCPU, and a migrated
 * thread may see a small jump -- which is why callers compute differences
 * and clamp at zero (see ptb_ticks_elapsed).
 */
#define PTB_HW_CLOCK_NAME "tsc"
#define PTB_HW_READ "rdtscp;lfence"
#define PTB_HW_FENCED_READ "lfence;rdtsc;lfence"
static inline uint64_t ptb_ticks_hw(void)
{
	uint32_t lo, hi, aux;
	__asm__ __volatile__("rdtscp\n\tlfence" : "=a"(lo), "=d"(hi), "=c"(aux) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}

/* Without RDTSCP: the leading LFENCE lets RDTSC execute only once every
 * earlier instruction has completed locally (Intel's definition; AMD gives
 * LFENCE that meaning where Linux enables it, which it does since the
 * Spectre fixes), and the trailing one holds back later instructions. */
static inline uint64_t ptb_ticks_hw_fenced(void)
{
	uint32_t lo, hi;
	__asm__ __volatile__("lfence\n\trdtsc\n\tlfence" : "=a"(lo), "=d"(hi) :: "memory");
	return ((uint64_t)hi << 32) | lo;
}
#elif defined(__aarch64__)
/*
 * aarch64: the generic timer's virtual count runs at CNTFRQ_EL0 (often only
 * 24-100 MHz, so resolution is 10-40 ns).  ISB keeps the read from being
 * speculated ahead of the timed work.
 */
#define PTB_HW_CLOCK_NAME "cntvct"
#define PTB_HW_READ "isb;mrs cntvct_el0"
#define PTB_HW_FENCED_READ PTB_HW_READ
static inline uint64_t ptb_ticks_hw(void)
{
	uint64_t v;
	__asm__ __volatile__("isb\n\tmrs %0, cntvct_el0" : "=r"(v) :: "memory");
	return v;
}
static inline uint64_t ptb_ticks_hw_fenced(void) { return ptb_ticks_hw(); }
#else
/* No known counter: the portable clock is the hardware clock. */
#define PTB_HW_CLOCK_NAME "clock_gettime"
#define PTB_HW_READ "clock_gettime"
#define PTB_HW_FENCED_READ PTB_HW_READ
static inline uint64_t ptb_ticks_hw(void) { return ptb_ticks_gettime(); }
static inline uint64_t ptb_ticks_hw_fenced(void) { return ptb_ticks_gettime(); }
#endif

static inline uint64_t ptb_ticks(void)
{
	switch (ptb_tick_source) {
	case PTB_TICKS_HW:        return ptb_ticks_hw();
	case PTB_TICKS_HW_FENCED: return ptb_ticks_hw_fenced();
	default:                  return ptb_ticks_gettime();
	}
}

/* Counters are 64-bit and start near zero at boot, so unsigned subtraction
 * is rollover-safe; a reading that went backwards (a cross-CPU skew) is 0. */
static inline uint64_t ptb_ticks_elapsed(uint64_t start, uint64_t end)
{
	return end >= start ? end - start : 0;
}

/* Calibrate and choose the counter.  Returns 0, or -1 with clk->refused set
 * when even the fallback failed. */
int ptb_clock_init(struct ptb_clock *clk);

/* Convert a tick difference with the calibrated rate. */
double ptb_ticks_to_ns(const struct ptb_clock *clk, uint64_t ticks);

/* Whether the CPU reports an invariant TSC, with the reason when not
 * (tests and `ptbench info` use it; non-x86 answers false, "not x86"). */
bool ptb_tsc_invariant(char *why, unsigned len);

/* The facts of the live machine (platform/clock-<arch>.c). */
void ptb_clock_facts_read(struct ptb_clock_facts *f);

/* The counter the facts allow, without touching the machine: the hardware
 * counter (fenced where the TSC is trusted but RDTSCP is missing), or
 * clock_gettime with every reason against the counter written to refused
 * (joined by "; "; "" when none). */
enum ptb_tick_source ptb_clock_decide(const struct ptb_clock_facts *f, char *refused,
				      size_t len);

#endif
