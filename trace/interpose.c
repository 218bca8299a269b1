/* SPDX-License-Identifier: MIT */
/*
 * The interposer's core: the first process image that loads the library
 * claims the trace's file (trace/interpose-file.c), so an exec'd image or
 * a child process records nothing; every thread appends to its own buffer
 * and writes it as one chunk when full or when the thread ends (the buffer
 * then serves the next thread); the end of the process (exit, _exit, a
 * signal whose default ends it, exec) writes the rest, the maps and the
 * trailer.  The program's output is never touched.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/interpose.h"

#define BUF_EVENTS 16384            /* 512 KiB a thread, then a chunk is written */

struct tbuf {
	struct tbuf *next;
	uint32_t tid;
	_Atomic uint32_t n;
	uint32_t sent;               /* of those, written already by another thread (under the file lock) */
	_Atomic int free;            /* its thread ended and it was written: a new one may take it */
	struct ptb_tev ev[BUF_EVENTS];
};

int ptb_tr_on;
static uint64_t t0;
static _Atomic int finished;
static _Atomic int in_exec;          /* execs under way: events are kept, nothing written */
static int maps_written;
static char **follow_env;            /* an exec's environment that keeps the trace */
static struct tbuf *_Atomic threads;
static _Atomic uint32_t next_tid;
static __thread struct tbuf *mine;
static __thread uint32_t my_tid;
static __thread int exited;
static __thread int in_event;
static __thread uint64_t last_t;     /* the thread's latest event: times never go back */
static struct ptb_trace_header header;

void *ptb_tr_real(const char *name)
{
	void *f = NULL;
	if (!strncmp(name, "pthread_cond_", 13))
		f = dlvsym(RTLD_NEXT, name, "GLIBC_2.3.2");
	return f ? f : dlsym(RTLD_NEXT, name);
}

static uint64_t now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ptb_tr_now(void) { return now(); }
int ptb_tr_recording(void) { return mine && !atomic_load_explicit(&finished, memory_order_relaxed); }

/* For the tests only (PTB_TRACE_TEST_PAUSE_US): a pause after writing
 * another thread's buffer, as if the writer lost its PU there, so that the
 * thread adds events meanwhile. */
static long test_pause_us;

static void test_pause(const struct tbuf *b)
{
	if (test_pause_us > 0 && b != mine) {
		struct timespec ts = { 0, test_pause_us * 1000 };
		syscall(SYS_nanosleep, &ts, NULL);
	}
}

/* Another thread's buffer, under the file lock: what it has counted and
 * not yet written, which it may be adding to as this runs.  Only its own
 * thread starts it again from 0 (flush_own): an event written but not yet
 * counted stays for a later flush, neither lost nor written twice. */
static void flush(struct tbuf *b)
{
	uint32_t n = atomic_load_explicit(&b->n, memory_order_acquire);
	if (n > b->sent)
		ptb_tr_file_chunk(b->tid, b->ev + b->sent, n - b->sent,
				  (n - b->sent) * (uint32_t)sizeof(struct ptb_tev));
	test_pause(b);
	b->sent = n;
}

/* The calling thread's own buffer, under the file lock. */
static void flush_own(struct tbuf *b)
{
	flush(b);
	b->sent = 0;
	atomic_store(&b->n, 0);
}

/* A buffer for thread tid: one an ended thread left, else a new one, so
 * that a program that starts threads one after another for ever holds as
 * many buffers as it ever had threads at once. */
static struct tbuf *new_buf(uint32_t tid)
{
	for (struct tbuf *b = atomic_load(&threads); b; b = b->next) {
		int one = 1;
		if (atomic_load_explicit(&b->free, memory_order_relaxed) &&
		    atomic_compare_exchange_strong(&b->free, &one, 0)) {
			b->tid = tid;           /* n and sent were left at 0 */
			return b;
		}
	}
	struct tbuf *b = mmap(NULL, sizeof *b, PROT_READ | PROT_WRITE,
			      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (b == MAP_FAILED)
		return NULL;
	b->tid = tid;
	b->next = atomic_load(&threads);
	while (!atomic_compare_exchange_weak(&threads, &b->next, b))
		;
	return b;
}

uint32_t ptb_tr_tid(void) { return my_tid; }
uint32_t ptb_tr_new_tid(void) { return atomic_fetch_add(&next_tid, 1); }

void ptb_tr_thread_start(uint32_t tid, uint32_t parent)
{
	my_tid = tid;
	mine = ptb_tr_on ? new_buf(tid) : NULL;
	ptb_tr_order_started(tid);
	ptb_tr_event(PTB_EV_START, PTB_PH_INSTANT, NULL, parent, 0, NULL);
}

void ptb_tr_event(int kind, int phase, const void *obj, uint32_t arg, int outcome,
		  const void *site)
{
	ptb_tr_event_at(now(), kind, phase, obj, arg, outcome, site);
}

/* A full buffer is written by its own thread, unless the trace has ended
 * or an exec is under way; one left full by an exec is written at the
 * next event after it failed. */
static int make_room(struct tbuf *b)
{
	ptb_tr_file_lock();
	if (!atomic_load(&finished) && !atomic_load(&in_exec))
		flush_own(b);
	ptb_tr_file_unlock();
	return atomic_load_explicit(&b->n, memory_order_relaxed) < BUF_EVENTS;
}

static void append(struct tbuf *b, uint64_t t, int kind, int phase, const void *obj,
		   uint32_t arg, int outcome, const void *site)
{
	uint32_t n = atomic_load_explicit(&b->n, memory_order_relaxed);
	if (n >= BUF_EVENTS) {
		if (!make_room(b))
			return;
		n = 0;
	}
	struct ptb_tev *e = &b->ev[n];
	if (t < last_t)            /* a signal handler's event inside a call recorded at its end */
		t = last_t;
	last_t = t;
	e->t = t - t0;
	e->obj = (uint64_t)(uintptr_t)obj;
	e->site = (uint64_t)(uintptr_t)site;
	e->arg = arg;
	e->kind = (uint8_t)kind;
	e->phase = (uint8_t)phase;
	e->outcome = (uint16_t)outcome;
	atomic_store_explicit(&b->n, n + 1, memory_order_release);
	if (n + 1 == BUF_EVENTS)
		make_room(b);
}

static uint64_t thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t ptb_tr_thread_cpu(void) { return thread_cpu(); }

/* Under the normal policy a thread may be preempted anywhere, by its
 * siblings or by other programs: every event but the end of a wait then
 * carries the thread's CPU clock, so that no preemption is taken for work
 * (dearer, ~0.5 us an event; under SCHED_FIFO only blocking points read it). */
void ptb_tr_event_at(uint64_t t, int kind, int phase, const void *obj, uint32_t arg,
		     int outcome, const void *site)
{
	struct tbuf *b = mine;
	if (!b || in_event || atomic_load_explicit(&finished, memory_order_relaxed))
		return;
	in_event = 1;              /* a signal handler's write() in the middle records nothing */
	if (header.sched != PTB_SCHED_FIFO && kind != PTB_EV_CPU && phase != PTB_PH_LEAVE)
		append(b, t, PTB_EV_CPU, PTB_PH_INSTANT, (const void *)(uintptr_t)thread_cpu(), 0, 0, NULL);
	append(b, t, kind, phase, obj, arg, outcome, site);
	if (phase == PTB_PH_ENTER)
		ptb_tr_order_enter(kind, obj, site, t);
	else if (phase == PTB_PH_LEAVE)
		ptb_tr_order_leave(kind, obj, arg, outcome, t);
	in_event = 0;
}

/* A call that waited from t0 to t1, and the thread's CPU clock now: the
 * wait is the call's wall time less the CPU time it used (trace/ops.c
 * splits it).  No reading before the call, under either policy: under the
 * normal one the previous event carried one already. */
void ptb_tr_span(int kind, uint64_t t0, uint64_t t1, const void *obj, uint32_t arg, int outcome,
		 const void *site, uint64_t runq_ns)
{
	struct tbuf *b = mine;
	if (!b || in_event || atomic_load_explicit(&finished, memory_order_relaxed))
		return;
	in_event = 1;
	uint64_t us = runq_ns == UINT64_MAX ? 0 : runq_ns / 1000 + 1;
	append(b, t0, kind, PTB_PH_ENTER, obj, 0, outcome, site);
	append(b, t1, kind, PTB_PH_LEAVE, obj, arg, outcome, site);
	uint64_t cpu1 = thread_cpu();
	append(b, t1, PTB_EV_CPU, PTB_PH_INSTANT, (const void *)(uintptr_t)cpu1,
	       us > UINT32_MAX ? UINT32_MAX : (uint32_t)us, 0, NULL);
	int reads = kind == PTB_EV_READ || kind == PTB_EV_POLL;
	ptb_tr_order_span(t0, t1, runq_ns, cpu1, reads ? obj : NULL);
	if (kind == PTB_EV_WRITE)
		ptb_tr_order_wrote(obj);
	in_event = 0;
}

/* After a wait that timed out: the CPU clock, and the time the thread
 * spent ready but waiting for the PU since q0 (ptb_tr_runq_ns: the
 * timeout fired while a sibling held the PU), as after an I/O call. */
void ptb_tr_cpu_queued(uint64_t q0)
{
	uint64_t q1 = ptb_tr_runq_ns();
	uint64_t us = q1 == UINT64_MAX || q1 < q0 ? 0 : (q1 - q0) / 1000 + 1;
	ptb_tr_event(PTB_EV_CPU, PTB_PH_INSTANT, (const void *)(uintptr_t)thread_cpu(),
		     us > UINT32_MAX ? UINT32_MAX : (uint32_t)us, 0, NULL);
}

void ptb_tr_cpu(void)
{
	if (mine && header.sched == PTB_SCHED_FIFO)    /* else every event reads it */
		ptb_tr_event(PTB_EV_CPU, PTB_PH_INSTANT, (const void *)(uintptr_t)thread_cpu(), 0, 0, NULL);
}

/* The executable mappings, so that predict can name a call site as
 * "file+offset" (what addr2line takes). */
static void write_maps(void)
{
	static char text[1 << 20];      /* a large program's maps pass 64 KiB */
	size_t len = 0;
	int m = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (m < 0)
		return;
	ssize_t r;
	while (len < sizeof text && (r = syscall(SYS_read, m, text + len, sizeof text - len)) > 0)
		len += (size_t)r;
	syscall(SYS_close, m);
	ptb_tr_file_chunk(PTB_TRACE_MAPS_TID, text, 0, (uint32_t)len);
}

void ptb_tr_thread_exit(void)
{
	if (exited++)
		return;
	ptb_tr_cpu();
	ptb_tr_event(PTB_EV_EXIT, PTB_PH_INSTANT, NULL, 0, 0, NULL);
	ptb_tr_order_exited();
}

/* A thread other than the first ends: its events are written now and its
 * buffer is left for the next thread (what it does after, in key
 * destructors, is not recorded). */
static void release_buf(void)
{
	struct tbuf *b = mine;
	if (!b || my_tid == 0)
		return;
	mine = NULL;
	ptb_tr_file_lock();
	if (!atomic_load(&finished) && !atomic_load(&in_exec)) {
		flush_own(b);
	} else {                   /* an exec under way: its events go, not to the next thread */
		b->sent = 0;
		atomic_store(&b->n, 0);
	}
	ptb_tr_file_unlock();
	atomic_store(&b->free, 1);
}

void ptb_tr_thread_end(void)
{
	ptb_tr_thread_exit();
	release_buf();
}

/* Whether this process owns the trace: a child made by vfork (or by clone
 * sharing memory) runs in its parent's memory until it execs or exits,
 * and must leave the parent's trace alone. */
static int owner(void) { return (uint32_t)syscall(SYS_getpid) == header.pid; }

static void finish(int from_signal)
{
	if (!ptb_tr_on || !owner())
		return;
	ptb_tr_thread_exit();          /* the thread that ends the process */
	if (!from_signal)
		ptb_tr_file_lock();
	else if (ptb_tr_file_lock_bounded())
		return;
	if (atomic_exchange(&finished, 1)) {
		ptb_tr_file_unlock();
		return;
	}
	for (struct tbuf *b = atomic_load(&threads); b; b = b->next)
		flush(b);
	write_maps();
	ptb_tr_file_trailer();
	ptb_tr_file_close();
	ptb_tr_file_unlock();
}

void ptb_tr_finish(void) { finish(0); }
void ptb_tr_finish_in_handler(void) { finish(1); }

/* An exec: the trace is written as it stands, its trailer after the last
 * chunk, and nothing more is written while the exec runs -- the threads
 * go on recording into their buffers -- since the new image finds the file
 * claimed and records nothing and the descriptor closes on exec.  The
 * exec'ing thread's CPU clock is read first, whatever the policy (its last
 * stretch of work).  The maps are written at the first exec only (a
 * program may try execs in a loop; the end writes them again, and the
 * reader keeps the last).  1 when counted, for ptb_tr_exec_failed. */
int ptb_tr_exec_begin(char *const **envp)
{
	if (!ptb_tr_on || !owner())
		return 0;
	ptb_tr_event(PTB_EV_CPU, PTB_PH_INSTANT, (const void *)(uintptr_t)thread_cpu(), 0, 0, NULL);
	ptb_tr_file_lock();
	if (atomic_load(&finished)) {
		ptb_tr_file_unlock();
		return 0;
	}
	if (atomic_fetch_add(&in_exec, 1) == 0) {
		for (struct tbuf *b = atomic_load(&threads); b; b = b->next)
			flush(b);
		if (!maps_written)
			write_maps();
		maps_written = 1;
		ptb_tr_file_trailer();  /* the next chunk writes over it */
	}
	char state[160];
	if (atomic_load(&next_tid) == 1 && !follow_env && !ptb_tr_file_state(state, sizeof state) &&
	    (follow_env = ptb_tr_follow_env(*envp, state)))
		*envp = follow_env;     /* no thread was ever started: the new image goes on */
	ptb_tr_file_unlock();
	return 1;
}

/* The exec failed and the program goes on: so does the trace. */
void ptb_tr_exec_failed(void)
{
	ptb_tr_file_lock();
	atomic_fetch_sub(&in_exec, 1);
	if (follow_env)
		ptb_tr_free_env(follow_env);
	follow_env = NULL;
	ptb_tr_file_unlock();
}

/* The events this thread has in its buffer, for the probe's calibration
 * (trace/interpose-cost.c), which then drops them. */
const struct ptb_tev *ptb_tr_own_events(uint32_t *n)
{
	*n = atomic_load(&mine->n);
	return mine->ev;
}

void ptb_tr_own_drop(void) { atomic_store(&mine->n, 0); }

static void name_program(void)
{
	char exe[4096];
	const char *base = program_invocation_short_name;   /* as the user named it: */
	if (!base || !*base) {                    /* /proc/self/exe resolves a link */
		ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);   /* (redis-server */
		exe[n > 0 ? n : 0] = '\0';            /* read redis-check-rdb) */
		base = strrchr(exe, '/');
		base = base ? base + 1 : exe;
	}
	size_t len = strlen(base);
	memset(header.program, 0, sizeof header.program);
	memcpy(header.program, base, len < sizeof header.program ? len : sizeof header.program - 1);
}

static void fill_header(void)
{
	memcpy(header.magic, PTB_TRACE_MAGIC, 8);
	header.version = PTB_TRACE_VERSION;
	header.endian = PTB_TRACE_ENDIAN;
	header.header_size = sizeof header;
	header.event_size = sizeof(struct ptb_tev);
	header.sched = sched_getscheduler(0) == SCHED_FIFO ? PTB_SCHED_FIFO : PTB_SCHED_OTHER;
	header.cpu = sched_getcpu();
	header.pid = (uint32_t)getpid();
	cpu_set_t set;
	header.ncpus_allowed = sched_getaffinity(0, sizeof set, &set) == 0 ? (uint32_t)CPU_COUNT(&set) : 0;
	header.t0 = t0;
	name_program();
}

static void child_after_fork(void)
{
	ptb_tr_on = 0;                  /* the parent's trace is the parent's */
	mine = NULL;
	ptb_tr_file_close();
}

static int from_exec;                   /* the trace begins at the exec */
static uint64_t exec_cpu;               /* then, the main thread's CPU time not the program's */

/* A new trace: the header, with the cost of an event measured. */
static int start_trace(const char *path)
{
	if (ptb_tr_file_open(path))
		return -1;
	t0 = now();
	ptb_tr_on = 1;
	atomic_store(&next_tid, 1);
	mine = new_buf(0);
	fill_header();
	ptb_tr_order_init(header.sched == PTB_SCHED_FIFO);
	header.probe_ns = ptb_tr_probe_cost();           /* through the gates, as calls pass them */
	header.remote_wake = ptb_tr_remote_wake_cost();
	header.remote_latency = ptb_tr_remote_latency();
	if (ptb_tr_start_from_exec(&t0, &exec_cpu))      /* the loader's time is the program's */
		header.t0 = t0, from_exec = 1, last_t = 0;
	ptb_tr_file_header(&header, sizeof header, ptb_trace_sum(&header, sizeof header));
	return 0;
}

/* The trace an earlier image of this process began and exec'd away from
 * (trace/interpose-exec.c): its header read back, under this image's
 * name; thread 0 is the same thread, and its events go on. */
static int go_on_with(const char *path, const char *state)
{
	if (ptb_tr_file_continue(path, state, &header, sizeof header) ||
	    memcmp(header.magic, PTB_TRACE_MAGIC, 8) || header.header_size != sizeof header ||
	    header.pid != (uint32_t)getpid()) {
		ptb_tr_file_close();    /* another process's (a static image's child): not ours */
		return -1;
	}
	t0 = header.t0;
	ptb_tr_on = 1;
	atomic_store(&next_tid, 1);
	mine = new_buf(0);
	uint64_t was = ptb_trace_sum(&header, sizeof header);
	name_program();
	ptb_tr_file_rewrite_header(&header, sizeof header, was, ptb_trace_sum(&header, sizeof header));
	ptb_tr_order_init(header.sched == PTB_SCHED_FIFO);
	return 0;
}

__attribute__((constructor)) static void ptb_tr_init(void)
{
	ptb_tr_start_mark();
	const char *path = getenv("PTB_TRACE_FILE");
	if (!path || !*path)
		return;
	const char *follow = getenv("PTB_TRACE_FOLLOW");
	const char *pause = getenv("PTB_TRACE_TEST_PAUSE_US");
	test_pause_us = pause ? atol(pause) % 1000000 : 0;
	int rc = follow ? go_on_with(path, follow) : start_trace(path);
	ptb_tr_env_claimed();        /* the program's own environment, from here on */
	if (rc)
		return;
	pthread_atfork(NULL, NULL, child_after_fork);
	ptb_tr_signals_init();
	if (follow)
		return;
	uint64_t t = now();              /* the start, and the time the program ran before it */
	ptb_tr_event_at(from_exec ? t0 : t, PTB_EV_START, PTB_PH_INSTANT,
			(const void *)(uintptr_t)(from_exec ? t - t0 : 0), UINT32_MAX, 0, NULL);
	if (from_exec)                   /* the CPU time since the exec is the program's */
		ptb_tr_event_at(t0, PTB_EV_CPU, PTB_PH_INSTANT, (const void *)(uintptr_t)exec_cpu, 0, 0, NULL);
}

__attribute__((destructor)) static void ptb_tr_fini(void) { ptb_tr_finish(); }
