/* SPDX-License-Identifier: MIT */
/*
 * Inside the interposer (libptbtrace.so, loaded by LD_PRELOAD under
 * `ptbench record`): the per-thread event buffers, the file, and the real
 * functions found with dlsym(RTLD_NEXT).  Nothing here is called by
 * ptbench itself.
 */
#ifndef PTB_TRACE_INTERPOSE_H
#define PTB_TRACE_INTERPOSE_H

#include <stdint.h>

#include "trace/format.h"

/* Whether this process records (the first image that claimed the file). */
extern int ptb_tr_on;

/* Append one event of the calling thread; t is taken now. */
void ptb_tr_event(int kind, int phase, const void *obj, uint32_t arg, int outcome,
		  const void *site);
/* The same at a time taken earlier (CLOCK_MONOTONIC ns). */
void ptb_tr_event_at(uint64_t t, int kind, int phase, const void *obj, uint32_t arg,
		     int outcome, const void *site);
/* CLOCK_MONOTONIC ns; and whether this thread records now. */
uint64_t ptb_tr_now(void);
/* This thread's CPU clock, ns. */
uint64_t ptb_tr_thread_cpu(void);
int ptb_tr_recording(void);
/* A call that waited from t0 to t1: an enter/leave pair, then the
 * thread's CPU time, whose event carries runq_ns (the part of the call
 * the thread spent ready but waiting for the PU; UINT64_MAX: not known)
 * as microseconds + 1 in its arg (0: not known). */
void ptb_tr_span(int kind, uint64_t t0, uint64_t t1, const void *obj, uint32_t arg, int outcome,
		 const void *site, uint64_t runq_ns);
/* ns this thread has waited for a CPU since it began (UINT64_MAX: not known). */
uint64_t ptb_tr_runq_ns(void);
/* The order of the recording (trace/interpose-order.c): after a release
 * of obj, let the thread it released run; before an acquire of obj, let
 * the threads run that would have come to it first on many CPUs. */
void ptb_tr_handoff(const void *obj, const void *site);
void ptb_tr_handoff_cond(const void *c, const void *site);   /* a signal or broadcast */
void ptb_tr_gate(const void *obj, const void *site);
/* What the order follows: each thread's creation (before it can run),
 * start, end (or failed creation), waits (kind, object, time, outcome),
 * blocking I/O (a read of a channel between its threads: chan, its
 * stream), writes to such a channel, and the program's own yields. */
void ptb_tr_order_init(int fifo);
void ptb_tr_order_create(uint32_t child, const void *start);
void ptb_tr_order_started(uint32_t tid);
void ptb_tr_order_resumed(void);
void ptb_tr_order_unborn(uint32_t tid);
void ptb_tr_order_exited(void);
void ptb_tr_order_enter(int kind, const void *obj, const void *site, uint64_t t);
void ptb_tr_order_relock(const void *mutex);   /* the condition wait about to begin: its mutex */
void ptb_tr_order_leave(int kind, const void *obj, uint32_t arg, int out, uint64_t t);
void ptb_tr_order_span(uint64_t t0, uint64_t t1, uint64_t runq_ns, uint64_t cpu1,
		       const void *chan);
void ptb_tr_order_wrote(const void *chan);
/* A call that may block on I/O: its start (CLOCK_MONOTONIC ns, as
 * ptb_tr_now) and its end, around every such wrapper. */
uint64_t ptb_tr_io_begin(void);
void ptb_tr_io_end(void);
void ptb_tr_order_pause(void);
/* The thread's CPU time as an event: called before a call that may block. */
void ptb_tr_cpu(void);
/* After a wait with a time limit that timed out: the CPU clock and the
 * time the thread waited for the PU since q0 (ptb_tr_runq_ns before it). */
void ptb_tr_cpu_queued(uint64_t q0);
/* This thread's number in the trace (0 is the first thread). */
uint32_t ptb_tr_tid(void);
/* A new thread's number, and the start of a thread with that number. */
uint32_t ptb_tr_new_tid(void);
void ptb_tr_thread_start(uint32_t tid, uint32_t parent);

/* A per-object counter (condition variables' signal sequence) and a
 * pthread_t -> thread number map: lock-free open addressing, fixed size. */
uint32_t ptb_tr_seq_next(const void *obj);
uint32_t ptb_tr_seq_peek(const void *obj);
void ptb_tr_thread_map(uint64_t pthread_id, uint32_t tid);
uint32_t ptb_tr_thread_lookup(uint64_t pthread_id);

/* What descriptor fd is (trace/interpose-fd.c): (kind + 1) << 60 | inode;
 * its kind (enum ptb_fd_kind); whether it is a pipe or a socket pair end;
 * the stream a call of this kind (PTB_EV_READ, _WRITE) moves bytes
 * through (0: not a channel).  ptb_tr_fd_new(fd): fd was just handed out,
 * what was cached under it goes; returns fd. */
uint64_t ptb_tr_fd_describe(int fd);
int ptb_tr_fd_kind(uint64_t d);
int ptb_tr_fd_channel(uint64_t d);
uint64_t ptb_tr_fd_stream(uint64_t d, int kind);
int ptb_tr_fd_new(int fd);
/* Whether a call on fd has waited (then the next one reads the thread's
 * run-queue time first: a pipe or socket that blocked blocks again), and
 * fd marked so after a call that waited or not.  On a regular file or a
 * block device only the latest call counts: a write that once met the page
 * cache's allocation, say, does not make every later call read /proc. */
int ptb_tr_fd_waited(uint64_t d);
void ptb_tr_fd_mark_waited(int fd, uint64_t d, int waited);

/* A call through stdio on fd (described by d): the run-queue time to pass
 * as q0 (UINT64_MAX unless fd has waited before), and the call, begun at
 * t0, done: recorded as a wait when it lasted 20 us or more. */
uint64_t ptb_tr_io_runq_before(uint64_t d);
void ptb_tr_io_wait(int fd, uint64_t d, uint64_t t0, const void *site, uint64_t q0);

/* The calling thread ends (its CPU time and an exit event; once). */
void ptb_tr_thread_exit(void);
/* The stand-ins for the default actions of the signals that end the
 * process, installed at the start (trace/interpose-signal.c). */
void ptb_tr_signals_init(void);
/* Write what is buffered, the maps and the trailer; once.  From a signal
 * handler, giving up should the lock be held too long. */
void ptb_tr_finish(void);
void ptb_tr_finish_in_handler(void);
/* A thread's end: its exit event, then its buffer written and left for the
 * next thread. */
void ptb_tr_thread_end(void);
/* Around an exec: the trace written as it stands (1), and on, should the
 * exec fail.  *envp is the environment the exec will pass: from an image
 * that never started a thread it becomes one with which the new image
 * goes on with the trace. */
int ptb_tr_exec_begin(char *const **envp);
void ptb_tr_exec_failed(void);
/* The trace's file (trace/interpose-file.c): claimed at path (-1: not),
 * its header at the start, chunks after it in turn, each written under
 * the lock (the bounded lock from a signal handler, which gives up: -1),
 * the trailer after the last chunk.  ptb_tr_owns_fd(f): whether f is the
 * trace's own descriptor (the program's close of it is answered without
 * closing it). */
int ptb_tr_file_open(const char *path);
/* The wait of a spin lock's try i: a yield, then sleeps (a holder of a
 * lower real-time priority must get the PU). */
void ptb_tr_spin_pause(unsigned i);
void ptb_tr_file_header(const void *h, size_t bytes, uint64_t checksum);
/* An exec that keeps the trace (trace/interpose-exec.c): where it stands,
 * and the new image's going on with it; its header written again. */
int ptb_tr_file_state(char *buf, size_t len);
int ptb_tr_file_continue(const char *path, const char *state, void *h, size_t bytes);
void ptb_tr_file_rewrite_header(const void *h, size_t bytes, uint64_t old_sum, uint64_t new_sum);
/* The environment (trace/interpose-exec.c): the interposer's variables
 * taken out once the trace is claimed (saved); the environment an exec
 * must pass for its new image to go on with the trace (a copy), or NULL. */
void ptb_tr_env_claimed(void);
/* The CPUs the program is told it may use (trace/interpose-affinity.c). */
void ptb_tr_affinity_init(const char *list);
int ptb_tr_affinity_list(char *buf, size_t len);
char **ptb_tr_follow_env(char *const *envp, const char *state);
void ptb_tr_free_env(char **env);
const char *ptb_tr_trace_path(void);
void ptb_tr_file_lock(void);
int ptb_tr_file_lock_bounded(void);
void ptb_tr_file_unlock(void);
void ptb_tr_file_chunk(uint32_t tid, const void *payload, uint32_t count, uint32_t bytes);
void ptb_tr_file_trailer(void);
void ptb_tr_file_close(void);
int ptb_tr_owns_fd(int f);

/* The calibration's view of this thread's buffer, and its drop. */
const struct ptb_tev *ptb_tr_own_events(uint32_t *n);
void ptb_tr_own_drop(void);
/* The header's probe_ns and remote_wake (trace/interpose-cost.c). */
uint32_t ptb_tr_probe_cost(void);
uint32_t ptb_tr_remote_wake_cost(void);
/* Likewise the woken thread's latency on its idle PU (its second figure). */
uint32_t ptb_tr_remote_latency(void);
/* The constructor's start, taken first thing (trace/interpose-start.c). */
void ptb_tr_start_mark(void);
/* For a program `ptbench record` exec'd (PTB_TRACE_EXEC): the trace's t0
 * at the exec, moved on by the constructor's setup so far so that now is
 * the constructor's start, and the main thread's CPU time that is not the
 * program's (before the exec, the setup): 1; 0 when not known. */
int ptb_tr_start_from_exec(uint64_t *t0, uint64_t *cpu_base);

/* The real function behind an interposed name (dlvsym first, for the
 * condition variables' current version). */
void *ptb_tr_real(const char *name);

#define PTB_REAL(type, name, args) \
	static type (*real_fn) args; \
	if (!real_fn) \
		real_fn = (type (*) args)ptb_tr_real(name)

#define PTB_SITE __builtin_extract_return_addr(__builtin_return_address(0))

#endif
