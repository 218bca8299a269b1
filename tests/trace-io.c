/* SPDX-License-Identifier: MIT */
/*
 * Programs that wait off the CPU, with exact answers, for the tests of
 * record and predict (tests/trace-io.sh).  Each does fixed CPU work in
 * units of WORK iterations and prints the CPU time of one unit
 * ("work_ns N", the median), from which the test derives the wall time.
 *
 *   trace-io sleep THREADS WORK     each thread: work, sleep 50 ms, work
 *   trace-io psleep, ssleep ...     the same, sleeping in ppoll or pselect
 *                                   of no descriptor with a timeout
 *   trace-io timer THREADS WORK     each thread: work, read a timer
 *                                   descriptor that fires 50 ms later, work
 *   trace-io stdio THREADS WORK     the same through stdio: fread (even
 *                                   threads) or getc (odd) on a FILE of
 *                                   the timer descriptor, whose internal
 *                                   read no interposer sees
 *   trace-io behind 1 WORK          the main thread reads a timer that fires
 *                                   in 30 ms while a sibling works W (more
 *                                   than 30 ms on the one PU of a recording,
 *                                   the read returns only when it is done),
 *                                   then works W
 *   trace-io nap 1 WORK             the same with a sleep of 30 ms, no timer
 *   trace-io pnap, snap, onap ...   the same, sleeping in ppoll, pselect or
 *                                   poll of no descriptor
 *   trace-io pipe COUNT WORK        a producer works and writes 4096 bytes
 *                                   COUNT times; a consumer reads them and
 *                                   works on each: a pipeline of two
 *   trace-io pair COUNT WORK        the same through a socket pair, the
 *                                   consumer polling before each read and
 *                                   reading on to the end of the stream
 *   trace-io eventfd COUNT WORK     the same pipeline through an eventfd
 *                                   (a semaphore: a post of 1 per block)
 *   trace-io epoll COUNT WORK       the same through a pipe, the consumer
 *                                   waiting in epoll_wait before each read
 *                                   (predict models neither: --check must
 *                                   refuse them)
 *   trace-io epwait COUNT WORK      the same, waiting in epoll_pwait
 *   trace-io ep2wait COUNT WORK     the same, waiting in epoll_pwait2
 *   trace-io epchild COUNT WORK     epoll_wait on a pipe from a child
 *                                   process that naps 2 ms before each
 *                                   write: delays, no wake-ups
 *   trace-io pingpong COUNT WORK    two threads take turns through a pair
 *                                   of pipes, working at each turn
 *   trace-io futex COUNT WORK       the same through raw futexes, which no
 *                                   interposer sees
 *
 * On N CPUs, with T threads and one unit taking W:  sleep, timer and stdio take
 * 2 W max(1, T/N) + 50 ms; behind takes 1 + max(30, W) + W ms on
 * one CPU and 1 + 30 + W on two or more (its first 1 ms: a read that
 * shows the descriptor waits), nap max(30, W) + W and 30 + W; pipe and pair take 2 K W on one CPU and (K + 1) W on
 * two or more; pingpong and futex take 2 K W whatever N.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <signal.h>
#include <sys/select.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAXT 16
#define MAXK 1024
#define BLOCK 4096                    /* PIPE_BUF: written and read whole */

static long work, count;
static double unit_ns[MAXT * MAXK * 2];
static _Atomic int nunits;
static volatile double sink;

static double cpu_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

/* One unit of CPU work, its CPU time kept. */
static void unit(void)
{
	double c = cpu_ns(), x = 1.0;
	for (long i = 0; i < work; i++)
		x = x * 1.0000001 + 1e-9;
	sink = x;
	int k = atomic_fetch_add(&nunits, 1);
	if (k < MAXT * MAXK * 2)
		unit_ns[k] = cpu_ns() - c;
}

static void full_read(int fd, void *buf, size_t n)
{
	for (ssize_t r; n; n -= (size_t)r, buf = (char *)buf + r)
		if ((r = read(fd, buf, n)) <= 0)
			exit(3);
}

static void full_write(int fd, const void *buf, size_t n)
{
	if (write(fd, buf, n) != (ssize_t)n)
		exit(3);
}

/* --- sleep --------------------------------------------------------------- */
static char sleep_by = 'n';      /* nanosleep, ppoll or pselect of no descriptor */

static void *sleeper(void *arg)
{
	struct timespec d = { 0, 50 * 1000 * 1000 };
	unit();
	if (sleep_by == 'p')
		ppoll(NULL, 0, &d, NULL);
	else if (sleep_by == 's')
		pselect(0, NULL, NULL, NULL, &d, NULL);
	else
		nanosleep(&d, NULL);
	unit();
	return arg;
}

/* --- timer: a wait on a descriptor the kernel answers 50 ms later ------- */
static void *timer_client(void *arg)
{
	struct itimerspec in50 = { { 0, 0 }, { 0, 50 * 1000 * 1000 } };
	uint64_t ticks;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	unit();
	if (fd < 0 || timerfd_settime(fd, 0, &in50, NULL))
		exit(3);
	full_read(fd, &ticks, sizeof ticks);
	close(fd);
	unit();
	return arg;
}

/* --- stdio: the same wait through a FILE (its buffer refilled inside) ---- */
static void *stdio_client(void *arg)
{
	struct itimerspec in50 = { { 0, 0 }, { 0, 50 * 1000 * 1000 } };
	uint64_t ticks;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "r");
	unit();
	if (!f || timerfd_settime(fd, 0, &in50, NULL))
		exit(3);
	if (arg ? getc(f) == EOF : fread(&ticks, sizeof ticks, 1, f) != 1)
		exit(4);
	fclose(f);
	unit();
	return arg;
}

/* --- behind: a timer's answer that comes while a sibling holds the PU --- */
static void *worker(void *arg)
{
	unit();
	return arg;
}

static void behind(void)
{
	struct itimerspec in1 = { { 0, 0 }, { 0, 1000 * 1000 } };
	struct itimerspec in30 = { { 0, 0 }, { 0, 30 * 1000 * 1000 } };
	uint64_t ticks;
	pthread_t t;
	int fd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
	if (fd < 0 || timerfd_settime(fd, 0, &in1, NULL))
		exit(3);
	full_read(fd, &ticks, sizeof ticks);
	pthread_create(&t, NULL, worker, NULL);
	if (timerfd_settime(fd, 0, &in30, NULL))
		exit(3);
	full_read(fd, &ticks, sizeof ticks);
	unit();
	pthread_join(t, NULL);
	close(fd);
}

static void nap(void)
{
	struct timespec d = { 0, 30 * 1000 * 1000 };
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	if (sleep_by == 'p')
		ppoll(NULL, 0, &d, NULL);
	else if (sleep_by == 's')
		pselect(0, NULL, NULL, NULL, &d, NULL);
	else if (sleep_by == 'o')
		poll(NULL, 0, 30);
	else
		nanosleep(&d, NULL);
	unit();
	pthread_join(t, NULL);
}

/* --- pipe and pair: producer and consumer ------------------------------- */
static int chan[2];

static int by_eventfd, epoll_fd = -1;

/* How the consumer waits before each read, and on what. */
enum waiter { READ_ONLY, POLL, EPOLL_WAIT, EPOLL_PWAIT, EPOLL_PWAIT2 };
static enum waiter waiter;
static const struct {
	const char *mode;
	enum waiter waiter;
	int pair, eventfd;       /* a socket pair, an eventfd: else a pipe */
} pipelines[] = {
	{ "pipe", READ_ONLY, 0, 0 },     { "pair", POLL, 1, 0 },
	{ "eventfd", READ_ONLY, 0, 1 },  { "epoll", EPOLL_WAIT, 0, 0 },
	{ "epwait", EPOLL_PWAIT, 0, 0 },  { "ep2wait", EPOLL_PWAIT2, 0, 0 },
};

/* The consumer's wait in epoll_pwait2: 0, or -1; exit 77 where it cannot
 * be had -- a C library before 2.35, a kernel before 5.11 or qemu's user
 * mode (ENOSYS), a container's seccomp list that predates it (EPERM). */
static int epoll_pwait2_once(struct epoll_event *ev, const sigset_t *mask)
{
#ifdef HAVE_EPOLL_PWAIT2
	if (epoll_pwait2(epoll_fd, ev, 1, NULL, mask) == 1)
		return 0;
	if (errno != ENOSYS && errno != EPERM)
		return -1;
#else
	(void)ev, (void)mask;
#endif
	fprintf(stderr, "trace-io: no epoll_pwait2 here\n");
	exit(77);
}

/* Wait until chan[0] is readable, as the mode says: 0, or -1. */
static int await_block(void)
{
	struct pollfd in = { chan[0], POLLIN, 0 };
	struct epoll_event ev;
	sigset_t none;
	sigemptyset(&none);
	switch (waiter) {
	case POLL: return poll(&in, 1, -1) == 1 ? 0 : -1;
	case EPOLL_WAIT: return epoll_wait(epoll_fd, &ev, 1, -1) == 1 ? 0 : -1;
	case EPOLL_PWAIT: return epoll_pwait(epoll_fd, &ev, 1, -1, &none) == 1 ? 0 : -1;
	case EPOLL_PWAIT2:
		return epoll_pwait2_once(&ev, &none);
	default: return 0;
	}
}

static void *producer(void *arg)
{
	static char block[BLOCK];
	uint64_t one = 1;
	for (long k = 0; k < count; k++) {
		unit();
		if (by_eventfd)
			full_write(chan[1], &one, sizeof one);
		else
			full_write(chan[1], block, BLOCK);
	}
	if (!by_eventfd)
		close(chan[1]);
	return arg;
}

static void *consumer(void *arg)
{
	static char block[BLOCK];
	for (long k = 0; k < count; k++) {
		if (await_block())
			exit(3);
		full_read(chan[0], block, by_eventfd ? sizeof(uint64_t) : BLOCK);
		unit();
	}
	if (waiter == POLL && read(chan[0], block, BLOCK) != 0)   /* the end: the producer closed */
		exit(3);
	return arg;
}

/* --- pingpong through pipes, and through raw futexes ------------------- */
static int ping[2], pong[2];
static _Atomic int turn;              /* futex: whose turn it is, 0 or 1 */

static void futex_pass(int to)
{
	atomic_store(&turn, to);
	syscall(SYS_futex, &turn, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static void futex_await(int me)
{
	int v;
	while ((v = atomic_load(&turn)) != me)
		syscall(SYS_futex, &turn, FUTEX_WAIT_PRIVATE, v, NULL, NULL, 0);
}

static void *partner(void *arg)
{
	int futex = arg != NULL;
	char c;
	for (long i = 0; i < count; i++) {
		if (futex)
			futex_await(1);
		else
			full_read(ping[0], &c, 1);
		unit();
		if (futex)
			futex_pass(0);
		else
			full_write(pong[1], &c, 1);
	}
	return NULL;
}

static void pingpong(int futex)
{
	pthread_t t;
	char c = 'x';
	if (pipe(ping) || pipe(pong))
		exit(1);
	pthread_create(&t, NULL, partner, futex ? &t : NULL);
	for (long i = 0; i < count; i++) {
		unit();
		if (futex) {
			futex_pass(1);
			futex_await(0);
		} else {
			full_write(ping[1], &c, 1);
			full_read(pong[0], &c, 1);
		}
	}
	pthread_join(t, NULL);
}

/* The bytes this process has read so far (/proc/self/io), -1 unknown. */
static long long rchar(void)
{
	char line[128];
	long long v = -1;
	FILE *f = fopen("/proc/self/io", "r");
	while (f && fgets(line, sizeof line, f))
		if (sscanf(line, "rchar: %lld", &v) == 1)
			break;
	if (f)
		fclose(f);
	return v;
}

/* epoll on a pipe from a child process that naps 2 ms before each of
 * count writes, the parent reading each and working a unit: its waits
 * are for another process, delays, not wake-ups between its threads. */
static void epoll_child(void)
{
	static char block[BLOCK];
	int p[2];
	if (pipe(p))
		exit(1);
	pid_t c = fork();
	if (c == 0) {
		struct timespec d = { 0, 2 * 1000 * 1000 };
		close(p[0]);
		for (long k = 0; k < count; k++)
			nanosleep(&d, NULL), full_write(p[1], block, BLOCK);
		_exit(0);
	}
	close(p[1]);
	struct epoll_event ev = { .events = EPOLLIN };
	if (c < 0 || (epoll_fd = epoll_create1(0)) < 0 || epoll_ctl(epoll_fd, EPOLL_CTL_ADD, p[0], &ev))
		exit(1);
	chan[0] = p[0], waiter = EPOLL_WAIT;
	for (long k = 0; k < count; k++) {
		if (await_block())
			exit(3);
		full_read(p[0], block, BLOCK);
		unit();
	}
	waitpid(c, NULL, 0);
}

/* One long write to a file (8 MiB), then count short ones (64 bytes):
 * prints on stderr the bytes read meanwhile -- what the interposer reads of
 * /proc, if it reads the run-queue time around every call on a file that
 * once waited. */
static void file_writes(void)
{
	static char big[8 << 20], small[64];
	FILE *f = tmpfile();
	if (!f)
		exit(1);
	int fd = fileno(f);
	memset(big, 'x', sizeof big);
	if (write(fd, big, sizeof big) != (ssize_t)sizeof big)
		exit(1);
	long long r0 = rchar();
	for (long i = 0; i < count; i++)
		if (write(fd, small, sizeof small) != (ssize_t)sizeof small)
			exit(1);
	fprintf(stderr, "rchar_delta %lld\n", rchar() - r0);
	fclose(f);
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* The index of a pipeline mode in pipelines[], or -1. */
static int pipeline(const char *mode)
{
	for (size_t i = 0; i < sizeof pipelines / sizeof pipelines[0]; i++)
		if (!strcmp(mode, pipelines[i].mode))
			return (int)i;
	return -1;
}

int main(int argc, char **argv)
{
	if (argc != 4)
		return fprintf(stderr, "usage: trace-io sleep|psleep|ssleep|timer|stdio|behind|nap|pnap|snap|onap|pipe|pair|eventfd|epoll|epwait|ep2wait|epchild|pingpong|futex|file N WORK\n"), 2;
	long n = atol(argv[2]);
	work = atol(argv[3]);
	count = n;
	pthread_t th[MAXT];
	if (!strcmp(argv[1], "psleep") || !strcmp(argv[1], "ssleep"))
		sleep_by = argv[1][0], argv[1] = "sleep";
	if (!strcmp(argv[1], "pnap") || !strcmp(argv[1], "snap") || !strcmp(argv[1], "onap"))
		sleep_by = argv[1][0], argv[1] = "nap";
	if (!strcmp(argv[1], "sleep") || !strcmp(argv[1], "timer") || !strcmp(argv[1], "stdio")) {
		void *(*fn)(void *) = argv[1][0] == 't' ? timer_client : argv[1][1] == 't' ? stdio_client
											: sleeper;
		if (n < 1 || n > MAXT)
			return fprintf(stderr, "trace-io: 1-%d threads\n", MAXT), 2;
		for (long i = 0; i < n; i++)
			pthread_create(&th[i], NULL, fn, (void *)(intptr_t)(i & 1));
		for (long i = 0; i < n; i++)
			pthread_join(th[i], NULL);
	} else if (pipeline(argv[1]) >= 0) {
		size_t p = (size_t)pipeline(argv[1]);
		waiter = pipelines[p].waiter;
		by_eventfd = pipelines[p].eventfd;
		if (n < 1 || n > MAXK)
			return fprintf(stderr, "trace-io: 1-%d blocks\n", MAXK), 2;
		if (by_eventfd)
			chan[0] = chan[1] = eventfd(0, EFD_SEMAPHORE);
		else if (pipelines[p].pair ? socketpair(AF_UNIX, SOCK_STREAM, 0, chan) : pipe(chan))
			return perror("trace-io"), 1;
		struct epoll_event ev = { .events = EPOLLIN };
		if (waiter >= EPOLL_WAIT &&
		    ((epoll_fd = epoll_create1(0)) < 0 || epoll_ctl(epoll_fd, EPOLL_CTL_ADD, chan[0], &ev)))
			return perror("trace-io"), 1;
		pthread_create(&th[0], NULL, producer, NULL);
		pthread_create(&th[1], NULL, consumer, NULL);
		pthread_join(th[0], NULL);
		pthread_join(th[1], NULL);
	} else if (!strcmp(argv[1], "behind") || !strcmp(argv[1], "nap")) {
		if (argv[1][0] == 'b')
			behind();
		else
			nap();
	} else if (!strcmp(argv[1], "pingpong") || !strcmp(argv[1], "futex")) {
		if (n < 1 || n > MAXK)
			return fprintf(stderr, "trace-io: 1-%d turns\n", MAXK), 2;
		pingpong(argv[1][0] == 'f');
	} else if (!strcmp(argv[1], "file")) {
		file_writes();
	} else if (!strcmp(argv[1], "epchild")) {
		epoll_child();
	} else {
		return fprintf(stderr, "trace-io: no mode '%s'\n", argv[1]), 2;
	}
	int k = atomic_load(&nunits);
	qsort(unit_ns, (size_t)k, sizeof unit_ns[0], cmp);
	printf("work_ns %.0f\n", unit_ns[k / 2]);
	return 0;
}
