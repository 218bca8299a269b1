/* SPDX-License-Identifier: MIT */
/*
 * Linux: /proc/PID/task/TID/schedstat gives each thread's time on a CPU
 * and its time ready on a run queue, in ns.  A thread whose policy is
 * changed to SCHED_OTHER and back is queued at the tail of its real-time
 * priority's list (sched(7)).  Elsewhere: nothing to sample.
 */
#include "config.h"
#include "platform/threads.h"

#include <dirent.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <errno.h>
#include <linux/perf_event.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#endif

#define SPIN_SPAN 512               /* bytes of code a spin's samples fall in, */
#define SPIN_IPS 12                 /* at so many addresses at most */
#define POLL_IPS 16                 /* a poll's, anywhere: its loop, the C library's
				       call, the interposer's wrapper */

/* A loop of work may be short too (a hash of 4 s in under 512 bytes): a
 * spin also has few instructions to be found at.  A loop that polls
 * through a system call is sampled in the program and in the C library
 * too, as is a loop of work that reads a clock: the two cannot be told
 * apart by addresses, but a poll's time is mostly the kernel's, which
 * user-only samples do not see.  Nor does the kernel's share tell a poll
 * from work that makes many short system calls (a pread of a cached file
 * in 4 KiB pieces, summed: 141-149 samples of 500): its code does, 34-38
 * addresses there (the interposer's read wrapper alone some 25), where a
 * poll of waitpid through the interposer came to 6-11 on the development
 * VM and on a 16-vCPU Xeon guest (tests/test_spin.c). */
int ptb_samples_spin(const uint64_t *ip, size_t n, size_t polls_below)
{
	if (n < 20)
		return -1;
	uint64_t lo = UINT64_MAX, hi = 0, seen[POLL_IPS];
	size_t distinct = 0;
	for (size_t i = 0; i < n; i++) {
		lo = ip[i] < lo ? ip[i] : lo, hi = ip[i] > hi ? ip[i] : hi;
		if (distinct > POLL_IPS)          /* more than either limit already */
			continue;
		size_t k = 0;
		while (k < distinct && seen[k] != ip[i])
			k++;
		if (k < distinct)
			continue;
		if (distinct == POLL_IPS)
			distinct++;
		else
			seen[distinct++] = ip[i];
	}
	return (distinct <= SPIN_IPS && hi - lo < SPIN_SPAN) ||
	       (distinct <= POLL_IPS && n < polls_below);
}

#ifdef __linux__
static int read_schedstat(pid_t pid, long tid, unsigned long long *run, unsigned long long *ready)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/schedstat", (long)pid, tid);
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;                    /* it ended meanwhile */
	int got = fscanf(f, "%llu %llu", run, ready);
	fclose(f);
	return got == 2 ? 0 : -1;
}

/* The fields of a stat file (/proc/PID/stat, /proc/PID/task/TID/stat)
 * after the name in parentheses, which may hold any byte, a parenthesis
 * too: from the state letter on, in line; NULL. */
static const char *stat_fields(const char *path, char *line, size_t len)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;                  /* it ended meanwhile */
	size_t n = fread(line, 1, len - 1, f);
	fclose(f);
	line[n] = 0;
	char *close = strrchr(line, ')');
	return close && close[1] == ' ' && close[2] ? close + 2 : NULL;
}

/* The state letter of thread tid of process pid. */
static int read_state(pid_t pid, long tid, char *state)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%ld/task/%ld/stat", (long)pid, tid);
	const char *f = stat_fields(path, line, sizeof line);
	if (!f)
		return -1;
	*state = f[0];
	return 0;
}

/* The parent of process pid, from its stat; -1. */
static long parent_of(long pid)
{
	char path[64], line[512];
	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	const char *f = stat_fields(path, line, sizeof line);
	long ppid = -1;
	return f && sscanf(f, "%*c %ld", &ppid) == 1 ? ppid : -1;
}

/* Process pid's threads, after the n already in out, up to max: the new n. */
static size_t sample_process(long pid, struct ptb_thread_time *out, size_t n, size_t max)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task", pid);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && n < max && (e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10);
		if (tid <= 0)
			continue;
		unsigned long long run, ready;
		char state;
		if (read_schedstat(pid, tid, &run, &ready) == 0 && read_state(pid, tid, &state) == 0)
			out[n++] = (struct ptb_thread_time){ (pid_t)tid, (pid_t)pid, run, ready,
							     state == 'R' };
	}
	if (d)
		closedir(d);
	return n;
}

static int by_parent(const void *a, const void *b)
{
	const long *x = a, *y = b;
	return (x[1] > y[1]) - (x[1] < y[1]);
}

/* The processes below this one, children first: their count, their
 * numbers in *below (to be freed); -1 where /proc cannot be read. */
static long processes_below(long **below)
{
	size_t n = 0, cap = 1024;
	long (*all)[2] = malloc(cap * sizeof *all);   /* pid, parent */
	DIR *d = opendir("/proc");
	int listed = d != NULL;
	struct dirent *e;
	while (all && d && (e = readdir(d))) {
		long pid = strtol(e->d_name, NULL, 10), ppid = pid > 0 ? parent_of(pid) : -1;
		if (ppid <= 0)
			continue;
		if (n == cap) {
			long (*more)[2] = realloc(all, 2 * cap * sizeof *all);
			if (!more)
				break;
			all = more, cap *= 2;
		}
		all[n][0] = pid, all[n++][1] = ppid;
	}
	if (d)
		closedir(d);
	long *out = all && listed ? malloc((n + 1) * sizeof *out) : NULL;
	if (!out) {
		free(all);
		return -1;
	}
	/* breadth first from this process, each one's children found by a
	 * search among the pairs sorted by parent */
	qsort(all, n, sizeof *all, by_parent);
	size_t found = 0;
	out[0] = (long)getpid();
	for (size_t next = 0; next <= found && found < n; next++) {
		long key[2] = { 0, out[next] };
		long (*hit)[2] = bsearch(key, all, n, sizeof *all, by_parent);
		while (hit && hit > all && hit[-1][1] == out[next])
			hit--;
		for (; hit && hit < all + n && (*hit)[1] == out[next] && found < n; hit++)
			out[++found] = (*hit)[0];
	}
	free(all);
	memmove(out, out + 1, found * sizeof *out);
	*below = out;
	return (long)found;
}

/* Append the children of process pid, from each of its threads'
 * children file, to the n numbers in *out (room for *cap): 0, or -1 when
 * none of the files can be read (a kernel without CONFIG_PROC_CHILDREN;
 * the process ended) or memory runs out.  (A thread that ended meanwhile
 * has no file, and had no children to speak of.) */
static int children_of(long pid, long **out, size_t *n, size_t *cap)
{
	char path[96];
	snprintf(path, sizeof path, "/proc/%ld/task", pid);
	DIR *d = opendir(path);
	struct dirent *e;
	int rc = -1, failed = 0;
	while (d && !failed && (e = readdir(d))) {
		long tid = strtol(e->d_name, NULL, 10), child;
		if (tid <= 0)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%ld/children", pid, tid);
		FILE *f = fopen(path, "r");
		if (!f)
			continue;
		rc = 0;
		while (!failed && fscanf(f, "%ld", &child) == 1) {
			if (*n == *cap) {
				long *more = realloc(*out, 2 * *cap * sizeof **out);
				if (!more) {
					failed = 1;
					break;
				}
				*out = more, *cap *= 2;
			}
			(*out)[(*n)++] = child;
		}
		fclose(f);
	}
	if (d)
		closedir(d);
	return failed ? -1 : rc;
}

/* processes_below by the children files, from this process down: its
 * cost the tree's, not the machine's (a scan of all of /proc took 15 ms
 * a sample beside 1,500 other processes, 0.6 ms beside 70; this, 0.12 ms
 * in both).  A child created or reaped while a file is read may be missed
 * there, and is found at the next sample; -1 where the files cannot be
 * read, or the test asks for the scan (PTB_TEST_SCAN_PROC). */
static long processes_below_by_children(long **below)
{
	size_t n = 0, cap = 64, next = 0;
	long *out = malloc(cap * sizeof *out);
	if (!out || getenv("PTB_TEST_SCAN_PROC") || children_of((long)getpid(), &out, &n, &cap)) {
		free(out);
		return -1;
	}
	for (; next < n && n < 1u << 20; next++)
		children_of(out[next], &out, &n, &cap);      /* (one that ended: none) */
	*below = out;
	return (long)n;
}

int ptb_threads_sample_below(struct ptb_thread_time *out, size_t max)
{
	long *pids;
	long count = processes_below_by_children(&pids);
	if (count < 0)
		count = processes_below(&pids);
	if (count < 0)
		return -1;
	size_t n = 0;
	for (long i = 0; i < count && n < max; i++)
		n = sample_process(pids[i], out, n, max);
	free(pids);
	return (int)n;
}

int ptb_thread_to_tail(pid_t tid)
{
	struct sched_param other = { 0 }, own;
	if (sched_getscheduler(tid) != SCHED_FIFO || sched_getparam(tid, &own) != 0 ||
	    sched_setscheduler(tid, SCHED_OTHER, &other) != 0)
		return -1;
	return sched_setscheduler(tid, SCHED_FIFO, &own) != 0 ? -1 : 0;
}
#define SAMPLE_NS 200000            /* one sample per 200 us of its CPU time */
#define RING_PAGES 8                /* 32 KiB: 2000 samples of 16 bytes */
#define RING_SAMPLES (RING_PAGES * 4096 / 16)

/* The samples' addresses, in the order of a perf ring of PERF_SAMPLE_IP
 * records; how many, at most max. */
static size_t ring_ips(const struct perf_event_mmap_page *head, const char *data, size_t size,
		       uint64_t *ip, size_t max)
{
	uint64_t end = head->data_head;
	__sync_synchronize();                  /* the records, after data_head */
	size_t n = 0;
	for (uint64_t off = 0; off + sizeof(struct perf_event_header) <= end && off < size && n < max;) {
		const struct perf_event_header *h = (const void *)(data + off);
		if (h->size == 0 || off + h->size > size)
			break;
		if (h->type == PERF_RECORD_SAMPLE)
			memcpy(&ip[n++], h + 1, sizeof *ip);
		off += h->size;
	}
	return n;
}

int ptb_thread_spins(pid_t tid, int ms, int polls)
{
	struct perf_event_attr a = { .size = sizeof a, .type = PERF_TYPE_SOFTWARE,
		.config = PERF_COUNT_SW_TASK_CLOCK, .sample_period = SAMPLE_NS,
		.sample_type = PERF_SAMPLE_IP, .exclude_kernel = 1, .exclude_hv = 1 };
	int fd = (int)syscall(SYS_perf_event_open, &a, tid, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd < 0)
		return errno == ESRCH ? 0 : -1;   /* (ending: nothing to put behind) */
	size_t page = (size_t)sysconf(_SC_PAGESIZE), len = page * (1 + RING_PAGES);
	void *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int spins = -1;
	if (m != MAP_FAILED) {
		struct timespec ts = { ms / 1000, (ms % 1000) * 1000000l };
		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		/* Half the samples of the CPU time it had meanwhile, as many as
		 * the ring holds: the sleep can outlast ms by far where the watch
		 * shares the PU with other load (taskset -c 0 beside a loop: 998
		 * ms, and a poll's 729 samples in user space were taken for work
		 * against half of 100 ms's). */
		uint64_t ran;
		if (read(fd, &ran, sizeof ran) != (ssize_t)sizeof ran)
			ran = (uint64_t)ms * 1000000u;
		size_t all = (size_t)(ran / SAMPLE_NS);
		size_t half = polls ? (all < RING_SAMPLES ? all : RING_SAMPLES) / 2 : 0;
		static uint64_t ip[RING_SAMPLES];   /* (the watch's one thread) */
		size_t n = ring_ips(m, (const char *)m + page, page * RING_PAGES, ip, RING_SAMPLES);
		spins = ptb_samples_spin(ip, n, half);
		munmap(m, len);
	}
	close(fd);
	return spins;
}

int ptb_adopt_orphans(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -1;
}

/* Its threads off a real-time policy, on cpus. */
static void release(long pid, const void *cpus, size_t cpus_size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/%ld/task", pid);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		pid_t tid = (pid_t)strtol(e->d_name, NULL, 10);
		if (tid <= 0)
			continue;
		int policy = sched_getscheduler(tid);
		struct sched_param none = { 0 };
		if (policy == SCHED_FIFO || policy == SCHED_RR)
			sched_setscheduler(tid, SCHED_OTHER, &none);
		sched_setaffinity(tid, cpus_size, (const cpu_set_t *)cpus);
	}
	if (d)
		closedir(d);
}

int ptb_descendants_release(const void *cpus, size_t cpus_size)
{
	long *pids;
	long count = processes_below(&pids);
	if (count < 0)
		return 0;
	for (long i = 0; i < count; i++)
		release(pids[i], cpus, cpus_size);
	free(pids);
	return (int)count;
}
#else
int ptb_thread_spins(pid_t tid, int ms, int polls)
{
	(void)tid, (void)ms;
	return -1;
}

int ptb_adopt_orphans(void)
{
	return -1;
}

int ptb_descendants_release(const void *cpus, size_t cpus_size)
{
	(void)cpus, (void)cpus_size;
	return 0;
}

int ptb_threads_sample_below(struct ptb_thread_time *out, size_t max)
{
	(void)out, (void)max;
	return -1;
}

int ptb_thread_to_tail(pid_t tid)
{
	(void)tid;
	return -1;
}
#endif
