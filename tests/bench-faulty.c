/* SPDX-License-Identifier: MIT */
/*
 * Test-only benchmarks that misbehave on purpose, to show that the runner
 * contains them: test.hang never returns from run(), test.crash dies of
 * SIGSEGV in its second point, and test.slow takes a known time per point
 * so that a test can interrupt a run between points; test.flaky crashes or
 * hangs in one trial only -- the first to find the file named by
 * $PTB_TEST_FLAKY, which it removes -- so that a test can see a point go
 * on after a lost trial; test.negative has a reference twice as long as
 * its run (1 us against 2 us an iteration), so its figure, the difference,
 * is -1 us.  They are linked into tests/ptbench-t only and
 * are hidden even there.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ptbench.h"

static const struct ptb_param point_param[] = {
	/* name    domain         defaults       min max help */
	{ "k",     "1,2,3,4,5,6", "1,2,3,4,5,6", 0,  0,  "which point", 0 },
	{ 0 }
};

static int nothing_setup(struct ptb_point *p) { (void)p; return 0; }

static void spin_ns(uint64_t ns)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	do
		clock_gettime(CLOCK_MONOTONIC, &b);
	while ((uint64_t)((b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec)) < ns);
}

static void hang_run(struct ptb_point *p, uint64_t n)
{
	(void)p; (void)n;
	for (;;)
		pause();
}

static int crash_setup(struct ptb_point *p)
{
	if (ptb_point_long(p, "k") == 2)
		raise(SIGSEGV);
	return 0;
}

/* 1 us per iteration: converges at once. */
static void busy_run(struct ptb_point *p, uint64_t n)
{
	(void)p;
	spin_ns(n * 1000);
}

/* Each point spends 0.3 s in setup, so a run of six takes about 2 s. */
/* A line in $PTB_TEST_SLOW_LOG as each trial starts: trials run one after
 * another, so a second line means that a first trial was answered and
 * kept -- a test can send its signal then, not after a guessed sleep. */
static int slow_setup(struct ptb_point *p)
{
	const char *log = getenv("PTB_TEST_SLOW_LOG");
	(void)p;
	if (log) {
		int fd = open(log, O_WRONLY | O_APPEND | O_CREAT, 0644);
		if (fd < 0 || write(fd, "trial\n", 6) != 6 || close(fd) < 0)
			return -1;
	}
	spin_ns(300000000);
	return 0;
}

static const struct ptb_param flaky_param[] = {
	/* name    domain       defaults  min max help */
	{ "mode",  "crash,hang", "crash", 0,  0,  "how the one bad trial fails", 0 },
	{ 0 }
};

/* unlink() succeeds for one process only: exactly one trial misbehaves. */
static int flaky_setup(struct ptb_point *p)
{
	const char *file = getenv("PTB_TEST_FLAKY");
	if (file && unlink(file) == 0) {
		if (!strcmp(ptb_point_str(p, "mode"), "crash"))
			raise(SIGSEGV);
		for (;;)
			pause();
	}
	return 0;
}

const struct ptb_bench ptb_bench_test_flaky = {
	.name = "test.flaky", .summary = "one trial crashes or hangs", .per = "call",
	.ops_per_iter = 1, .params = flaky_param, .setup = flaky_setup, .run = busy_run,
	.hidden = true,
};

const struct ptb_bench ptb_bench_test_hang = {
	.name = "test.hang", .summary = "never returns (watchdog test)", .per = "call",
	.ops_per_iter = 1, .params = point_param, .setup = nothing_setup, .run = hang_run,
	.hidden = true,
};

const struct ptb_bench ptb_bench_test_crash = {
	.name = "test.crash", .summary = "crashes in its second point", .per = "call",
	.ops_per_iter = 1, .params = point_param, .setup = crash_setup, .run = busy_run,
	.hidden = true,
};

const struct ptb_bench ptb_bench_test_slow = {
	.name = "test.slow", .summary = "0.3 s per point (interrupt test)", .per = "call",
	.ops_per_iter = 1, .params = point_param, .setup = slow_setup, .run = busy_run,
	.hidden = true,
};

static void busy2_run(struct ptb_point *p, uint64_t n)
{
	(void)p;
	spin_ns(n * 2000);
}

const struct ptb_bench ptb_bench_test_negative = {
	.name = "test.negative", .summary = "a reference longer than the run: -1 us",
	.per = "call", .ops_per_iter = 1, .params = point_param, .setup = nothing_setup,
	.run = busy_run, .reference = busy2_run, .hidden = true,
};
