/* SPDX-License-Identifier: MIT */
/*
 * The trace file of `ptbench record`, shared by the interposer that writes
 * it and the reader that loads it (docs/design.md, "record and predict").
 *
 *   header   struct ptb_trace_header (128 bytes)
 *   chunks   struct ptb_trace_chunk, then `count` events of one thread
 *   maps     struct ptb_trace_chunk with tid PTB_TRACE_MAPS_TID: the text
 *            of the executable mappings, so call sites can be symbolized
 *   trailer  struct ptb_trace_trailer: the number of chunks and events and
 *            the sum of every chunk's checksum
 *
 * Chunks are written as threads fill them, in any order; each carries its
 * own checksum, and the trailer proves that none is missing.  A file with
 * a foreign magic, another version, or no valid trailer is refused.
 * Integers are in the byte order of the recording machine (the header's
 * endian field says which).
 */
#ifndef PTB_TRACE_FORMAT_H
#define PTB_TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define PTB_TRACE_MAGIC     "PTBTRACE"
#define PTB_TRACE_END_MAGIC "PTBTREND"
#define PTB_TRACE_VERSION   3       /* 2 added the I/O kinds, 3 remote_latency;
				     * 1 and 2 are still read */
#define PTB_TRACE_VERSION_MIN 1
#define PTB_TRACE_ENDIAN    0x01020304u
#define PTB_TRACE_CHUNK_MAGIC 0x4b4e4843u     /* "CHNK" */
#define PTB_TRACE_MAPS_TID  0xffffffffu
#define PTB_TRACE_MAX_THREADS (1u << 20)

/* What an event is.  The numbers are part of the file format. */
enum ptb_ev_kind {
	PTB_EV_START = 1,      /* a thread begins; arg = parent thread (UINT32_MAX:
				* the main thread, whose obj is the ns from the
				* exec to the interposer's start, 0 unknown) */
	PTB_EV_EXIT,           /* a thread ends */
	PTB_EV_CREATE,         /* arg = the new thread */
	PTB_EV_JOIN,           /* arg = the joined thread (UINT32_MAX: not traced) */
	PTB_EV_DETACH,
	PTB_EV_LOCK,           /* mutex acquired (an enter/leave pair when it waited);
				* arg 1: of a kind its owner cannot take again (not
				* recursive), 0 recursive or not known (older traces) */
	PTB_EV_TRYLOCK,        /* outcome 0 acquired, else busy; arg as LOCK's */
	PTB_EV_UNLOCK,         /* arg 1: another thread than the owner may unlock it (the
				* default and adaptive kinds), 0 not, or not known */
	PTB_EV_COND_WAIT,      /* enter: arg = the object's sequence at entry; leave: outcome */
	PTB_EV_COND_SIGNAL,    /* arg = the object's sequence after this signal */
	PTB_EV_COND_BROADCAST, /* arg likewise */
	PTB_EV_BARRIER_INIT,   /* arg = count */
	PTB_EV_BARRIER_WAIT,
	PTB_EV_SEM_INIT,       /* arg = value */
	PTB_EV_SEM_WAIT,       /* outcome 0 taken, else not (trywait, timeout) */
	PTB_EV_SEM_POST,
	PTB_EV_RD_LOCK,        /* arg 1: a new reader goes in while a writer waits
				* (glibc's default), 0 not, or not known */
	PTB_EV_WR_LOCK,        /* arg as RD_LOCK's */
	PTB_EV_RW_UNLOCK,
	PTB_EV_SPIN_LOCK,
	PTB_EV_SPIN_UNLOCK,
	PTB_EV_ONCE,
	PTB_EV_YIELD,
	PTB_EV_SLEEP,          /* enter/leave: off-CPU for the time between; leave's arg
				* (version 2): 1 + the us of it the thread then spent
				* ready but waiting for the PU, 0 not known */
	PTB_EV_CPU,            /* obj = the thread's CPU time in ns, read at a blocking point;
				* after an I/O call (version 2), arg = 1 + the us of the call
				* the thread spent ready but waiting for the PU (0: not known) */
	/* Blocking I/O (version 2).  obj = the byte stream (below), arg = the
	 * bytes moved, outcome = enum ptb_fd_kind | PTB_IO_FAILED.  A call
	 * that took long is an enter/leave pair followed by a CPU reading (the
	 * wait is the call's wall time less the CPU time it used); a short one
	 * is an instant event, recorded only on a pipe or socket pair, whose
	 * bytes a sibling may be waiting for. */
	PTB_EV_READ,           /* read, pread, readv, recv, recvfrom */
	PTB_EV_WRITE,          /* write, pwrite, writev, send, sendto */
	PTB_EV_POLL,           /* poll or select that waited for one readable stream */
	PTB_EV_IO,             /* any other wait: accept, connect, fsync, epoll_wait, ... */
	PTB_EV_KIND_COUNT
};

/* What a descriptor is (fstat), as an I/O event's outcome.  The stream of
 * a pipe is its inode; of one end of a socket pair, the inode of the end
 * that writes into it (so a write on one end and a read on the other name
 * the same stream); 0 for anything else. */
enum ptb_fd_kind {
	PTB_FD_FILE = 0, PTB_FD_BLOCK, PTB_FD_CHAR, PTB_FD_PIPE, PTB_FD_SOCKET,
	PTB_FD_PAIR,           /* one end of a socket pair made in this process */
	PTB_FD_OTHER,
	PTB_FD_WAKE,           /* an eventfd, a signalfd, or an epoll instance watching a
				* pipe, socket pair, eventfd or signalfd: threads may
				* wake each other through it, which predict does not
				* replay (its waits are delays) */
	PTB_FD_KIND_COUNT
};
#define PTB_IO_FAILED 0x100    /* the call failed (EAGAIN, EINTR, ...): it moved nothing */

/* Whether an event stands alone or opens or closes a call that waited. */
enum ptb_ev_phase { PTB_PH_INSTANT = 0, PTB_PH_ENTER = 1, PTB_PH_LEAVE = 2 };

/* An outcome other than 0: the call did not get what it asked for. */
enum ptb_ev_outcome { PTB_OUT_OK = 0, PTB_OUT_BUSY = 1, PTB_OUT_TIMEOUT = 2, PTB_OUT_ERROR = 3 };

struct ptb_tev {               /* 32 bytes: the thread is the chunk's */
	uint64_t t;            /* CLOCK_MONOTONIC ns since the header's t0 */
	uint64_t obj;          /* the object's address (or a value, see the kinds) */
	uint64_t site;         /* the caller's return address */
	uint32_t arg;
	uint8_t kind, phase;
	uint16_t outcome;
};

/* How the process was scheduled while it was recorded: the policy in the
 * low byte, and flags that `ptbench record` sets once the trace is
 * written: PTB_SCHED_PUT_BEHIND when it put a thread that ran 2 s on end
 * behind the others (harness/cli/record-hog.c): perhaps a spinner, whose
 * spin the trace holds as work; PTB_SCHED_UNTRACED_CPU when over a tenth
 * of the CPU time the program used is not in the trace (other processes,
 * an image exec'd once it had threads).  A reader from before the flags
 * sees a policy that is not SCHED_FIFO, and so trusts the trace less, not
 * more. */
enum ptb_trace_sched {
	PTB_SCHED_OTHER = 0, PTB_SCHED_FIFO = 1,
	PTB_SCHED_PUT_BEHIND = 0x100, PTB_SCHED_UNTRACED_CPU = 0x200
};
static inline uint32_t ptb_trace_policy(uint32_t sched) { return sched & 0xff; }

struct ptb_trace_header {
	char magic[8];
	uint32_t version, endian;
	uint32_t header_size, event_size;
	uint32_t sched;        /* enum ptb_trace_sched */
	int32_t cpu;           /* the PU it started on, -1 unknown */
	uint32_t pid, ncpus_allowed;
	uint64_t t0;           /* CLOCK_MONOTONIC at the start, ns */
	uint32_t probe_ns;     /* the cost of recording one event, measured at start */
	uint32_t remote_wake;  /* 1 + the ns that waking a thread asleep on another PU
				* costs the waker over waking it on its own PU,
				* measured by `ptbench record` before the start; 0:
				* not measured (one PU allowed; older traces) */
	char program[68];      /* the program's name, NUL-terminated (72 bytes
				* before version 3, the last 4 now read as 0) */
	uint32_t remote_latency;   /* 1 + the ns from that wake-up to the woken
				* thread running on its idle PU (version 3); 0: not
				* measured */
};

struct ptb_trace_chunk {
	uint32_t magic, tid;
	uint32_t count, bytes; /* events (or, for maps, text bytes) that follow */
	uint64_t checksum;     /* of what follows, ptb_trace_sum */
	uint64_t reserved;
};

struct ptb_trace_trailer {
	char magic[8];
	uint64_t chunks, events;
	uint64_t checksum;     /* header's sum + every chunk's, mod 2^64 */
};

/* FNV-1a over a byte range: the chunks' and the header's checksum. */
uint64_t ptb_trace_sum(const void *p, size_t n);
/* The CPUs of cpus (a cpu_set_t) as a list, "0-3,6"; -1 when it does not
 * fit in len: how ptbench record tells the interposer which CPUs the
 * program would have had (PTB_TRACE_SEEN_CPUS). */
int ptb_trace_cpu_list(const void *cpus, char *buf, size_t len);

#endif
