/* SPDX-License-Identifier: MIT */
/*
 * Blocking I/O under the interposer.  What a wait on a descriptor means
 * depends on what the descriptor is: a regular file, a device, a terminal
 * or a socket to another process is a delay the thread spends off the CPU
 * whatever the other threads do; a pipe or a socket pair between threads
 * of this process is a channel, whose reader waits for its writer.  So
 * every call records the descriptor's kind (trace/interpose-fd.c) and, for
 * a pipe or a socket pair, the stream and the bytes moved.
 *
 * The cost stays low: two CLOCK_MONOTONIC readings around the call; a
 * call shorter than LONG_NS records nothing on a file (it did not wait)
 * and one instant event on a channel (its bytes matter to the reader); a
 * longer call is an enter/leave pair and one reading of the thread's CPU
 * clock, so that predict can tell the wait from the call's own CPU time.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace/interpose.h"

#define LONG_NS 20000u               /* shorter: the call did not wait to speak of */

/* The run-queue time before a call on a descriptor that has waited
 * before (a read of /proc, some microseconds: not for every call). */
static uint64_t runq_before(int waited) { return waited ? ptb_tr_runq_ns() : UINT64_MAX; }

/* The part of a call that began at run-queue time q0 spent ready but
 * waiting for the PU (on the one PU of the recording, behind a sibling);
 * UINT64_MAX: not known. */
static uint64_t runq_since(uint64_t q0)
{
	uint64_t q1 = q0 == UINT64_MAX ? UINT64_MAX : ptb_tr_runq_ns();
	return q1 == UINT64_MAX || q1 < q0 ? UINT64_MAX : q1 - q0;
}

/* A call on descriptor fd, described by d, ran from t0 to now and returned
 * rc; q0: the run-queue time before it. */
static void io_done(int kind, int fd, uint64_t d, uint64_t t0, ssize_t rc, const void *site,
		    uint64_t q0)
{
	uint64_t t1 = ptb_tr_now();
	ptb_tr_io_end();
	int chan = ptb_tr_fd_channel(d);
	const void *stream = (const void *)(uintptr_t)ptb_tr_fd_stream(d, kind);
	uint32_t bytes = rc <= 0 ? 0 : (uint64_t)rc > UINT32_MAX ? UINT32_MAX : (uint32_t)rc;
	int out = ptb_tr_fd_kind(d) | (rc < 0 ? PTB_IO_FAILED : 0);
	ptb_tr_fd_mark_waited(fd, d, t1 - t0 >= LONG_NS);
	if (t1 - t0 >= LONG_NS) {
		ptb_tr_span(kind, t0, t1, stream, bytes, out, site, runq_since(q0));
	} else if (chan && rc >= 0) {
		ptb_tr_event_at(t1, kind, PTB_PH_INSTANT, stream, bytes, out, site);
		if (kind == PTB_EV_WRITE)
			ptb_tr_order_wrote(stream);
	} else if (ptb_tr_fd_kind(d) == PTB_FD_WAKE && kind == PTB_EV_READ && rc >= 0) {
		/* a wake-up taken without a wait: counted by predict --check */
		ptb_tr_event_at(t1, kind, PTB_PH_INSTANT, stream, bytes, out, site);
	}
}

uint64_t ptb_tr_io_runq_before(uint64_t d) { return runq_before(ptb_tr_fd_waited(d)); }

/* A call through stdio (trace/interpose-stdio.c): only a long one is
 * recorded, as a wait of its own (PTB_EV_IO, the descriptor's kind): the
 * bytes that reached the descriptor inside it are not known, so it is
 * never a channel operation. */
void ptb_tr_io_wait(int fd, uint64_t d, uint64_t t0, const void *site, uint64_t q0)
{
	uint64_t t1 = ptb_tr_now();
	ptb_tr_io_end();
	ptb_tr_fd_mark_waited(fd, d, t1 - t0 >= LONG_NS);
	if (t1 - t0 < LONG_NS)
		return;
	ptb_tr_span(PTB_EV_IO, t0, t1, NULL, 0, ptb_tr_fd_kind(d), site, runq_since(q0));
}

/* The body of a wrapper of a call on one descriptor: the real call, timed. */
#define IO_ON(kind, fd, call) \
	do { \
		if (!ptb_tr_recording()) \
			return (call); \
		const void *site_ = PTB_SITE; \
		uint64_t d_ = ptb_tr_fd_describe(fd); \
		uint64_t q0_ = runq_before(ptb_tr_fd_waited(d_)), t0_ = ptb_tr_io_begin(); \
		ssize_t rc_ = (call); \
		int errno_ = errno; \
		io_done(kind, fd, d_, t0_, rc_, site_, q0_); \
		errno = errno_; \
		return rc_; \
	} while (0)

ssize_t read(int fd, void *buf, size_t n)
{
	PTB_REAL(ssize_t, "read", (int, void *, size_t));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n));
}

ssize_t write(int fd, const void *buf, size_t n)
{
	PTB_REAL(ssize_t, "write", (int, const void *, size_t));
	IO_ON(PTB_EV_WRITE, fd, real_fn(fd, buf, n));
}

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
	PTB_REAL(ssize_t, "pread", (int, void *, size_t, off_t));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n, off));
}

ssize_t pwrite(int fd, const void *buf, size_t n, off_t off)
{
	PTB_REAL(ssize_t, "pwrite", (int, const void *, size_t, off_t));
	IO_ON(PTB_EV_WRITE, fd, real_fn(fd, buf, n, off));
}

ssize_t pread64(int fd, void *buf, size_t n, off64_t off)
{
	PTB_REAL(ssize_t, "pread64", (int, void *, size_t, off64_t));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n, off));
}

ssize_t pwrite64(int fd, const void *buf, size_t n, off64_t off)
{
	PTB_REAL(ssize_t, "pwrite64", (int, const void *, size_t, off64_t));
	IO_ON(PTB_EV_WRITE, fd, real_fn(fd, buf, n, off));
}

/* What _FORTIFY_SOURCE builds call instead, with the buffer's size. */
ssize_t __read_chk(int fd, void *buf, size_t n, size_t len)
{
	PTB_REAL(ssize_t, "__read_chk", (int, void *, size_t, size_t));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n, len));
}

ssize_t __pread64_chk(int fd, void *buf, size_t n, off64_t off, size_t len)
{
	PTB_REAL(ssize_t, "__pread64_chk", (int, void *, size_t, off64_t, size_t));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n, off, len));
}

ssize_t __recv_chk(int fd, void *buf, size_t n, size_t len, int flags)
{
	PTB_REAL(ssize_t, "__recv_chk", (int, void *, size_t, size_t, int));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n, len, flags));
}

ssize_t readv(int fd, const struct iovec *v, int n)
{
	PTB_REAL(ssize_t, "readv", (int, const struct iovec *, int));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, v, n));
}

ssize_t writev(int fd, const struct iovec *v, int n)
{
	PTB_REAL(ssize_t, "writev", (int, const struct iovec *, int));
	IO_ON(PTB_EV_WRITE, fd, real_fn(fd, v, n));
}

ssize_t recv(int fd, void *buf, size_t n, int flags)
{
	PTB_REAL(ssize_t, "recv", (int, void *, size_t, int));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n, flags));
}

ssize_t send(int fd, const void *buf, size_t n, int flags)
{
	PTB_REAL(ssize_t, "send", (int, const void *, size_t, int));
	IO_ON(PTB_EV_WRITE, fd, real_fn(fd, buf, n, flags));
}

ssize_t recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *a, socklen_t *al)
{
	PTB_REAL(ssize_t, "recvfrom", (int, void *, size_t, int, struct sockaddr *, socklen_t *));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, buf, n, flags, a, al));
}

ssize_t sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *a, socklen_t al)
{
	PTB_REAL(ssize_t, "sendto", (int, const void *, size_t, int, const struct sockaddr *, socklen_t));
	IO_ON(PTB_EV_WRITE, fd, real_fn(fd, buf, n, flags, a, al));
}

ssize_t recvmsg(int fd, struct msghdr *m, int flags)
{
	PTB_REAL(ssize_t, "recvmsg", (int, struct msghdr *, int));
	IO_ON(PTB_EV_READ, fd, real_fn(fd, m, flags));
}

ssize_t sendmsg(int fd, const struct msghdr *m, int flags)
{
	PTB_REAL(ssize_t, "sendmsg", (int, const struct msghdr *, int));
	IO_ON(PTB_EV_WRITE, fd, real_fn(fd, m, flags));
}

int fsync(int fd)
{
	PTB_REAL(int, "fsync", (int));
	IO_ON(PTB_EV_IO, fd, real_fn(fd));
}

int fdatasync(int fd)
{
	PTB_REAL(int, "fdatasync", (int));
	IO_ON(PTB_EV_IO, fd, real_fn(fd));
}

int connect(int fd, const struct sockaddr *a, socklen_t al)
{
	PTB_REAL(int, "connect", (int, const struct sockaddr *, socklen_t));
	IO_ON(PTB_EV_IO, fd, real_fn(fd, a, al));
}

/* Whether this thread's last poll, select or epoll_wait waited. */
static __thread int polls_waited;

/* A wait for any of several things: a delay, unless it ended with a
 * channel readable (the first one: that is the wait predict replays);
 * ready_fd is an epoll instance for epoll_wait, never a channel.  One that
 * timed out after limit ns (UINT64_MAX: none) and took longer, with no
 * run-queue reading before it, was ready but behind a sibling on the PU
 * for the rest (and the timer's slack): taken off its wait as a reading
 * would be.  (Before, a nap in ppoll or poll of 30 ms while a sibling
 * worked 60 ms was predicted to take the sibling's 60.) */
static void wait_done(uint64_t t0, int ready_fd, int rc, const void *site, uint64_t q0,
		      uint64_t limit)
{
	uint64_t t1 = ptb_tr_now();
	ptb_tr_io_end();
	polls_waited = t1 - t0 >= LONG_NS;
	uint64_t d = ready_fd >= 0 ? ptb_tr_fd_describe(ready_fd) : (uint64_t)(PTB_FD_OTHER + 1) << 60;
	if (!polls_waited) {             /* what it found ready was there already: */
		if (ptb_tr_fd_kind(d) == PTB_FD_WAKE && rc > 0)   /* a wake-up, counted */
			ptb_tr_event_at(t1, PTB_EV_IO, PTB_PH_INSTANT, NULL, 0, PTB_FD_WAKE, site);
		return;
	}
	uint64_t runq = runq_since(q0);
	if (runq == UINT64_MAX && rc == 0 && limit != UINT64_MAX)
		runq = t1 - t0 > limit ? t1 - t0 - limit : 0;
	const void *stream = (const void *)(uintptr_t)ptb_tr_fd_stream(d, PTB_EV_READ);
	if (rc > 0 && ready_fd >= 0 && ptb_tr_fd_channel(d))
		ptb_tr_span(PTB_EV_POLL, t0, t1, stream, 0, ptb_tr_fd_kind(d), site, runq);
	else
		ptb_tr_span(PTB_EV_IO, t0, t1, NULL, 0,
			    ptb_tr_fd_kind(d) | (rc < 0 ? PTB_IO_FAILED : 0), site, runq);
}

static int first_readable(const struct pollfd *fds, nfds_t n, int rc)
{
	for (nfds_t i = 0; rc > 0 && i < n; i++)
		if (fds[i].revents & POLLIN)
			return fds[i].fd;
	return -1;
}

static int first_set(int n, const fd_set *r, int rc)
{
	for (int fd = 0; rc > 0 && r && fd < n && fd < FD_SETSIZE; fd++)
		if (FD_ISSET(fd, r))
			return fd;
	return -1;
}

/* The body of a wrapper of a wait for several things: the real call, the
 * descriptor it found readable (of its result, rc), and its time limit in
 * ns (UINT64_MAX: none).  An epoll instance's ready ones are not named:
 * the instance's kind is the wait's. */
#define MULTI_WAIT(call, ready, limit)                                              \
	do {                                                                        \
		if (!ptb_tr_recording())                                            \
			return (call);                                              \
		const void *site = PTB_SITE;                                        \
		uint64_t lim = (limit);            /* (select's is rewritten) */  \
		uint64_t q0 = runq_before(polls_waited), t0 = ptb_tr_io_begin();   \
		int rc = (call), e = errno;                                         \
		wait_done(t0, (ready), rc, site, q0, lim);                          \
		errno = e;                                                          \
		return rc;                                                          \
	} while (0)

static uint64_t ms_limit(int ms) { return ms < 0 ? UINT64_MAX : (uint64_t)ms * 1000000u; }
static uint64_t ts_limit(const struct timespec *t)
{
	return t ? (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec : UINT64_MAX;
}
static uint64_t tv_limit(const struct timeval *t)
{
	return t ? (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_usec * 1000u : UINT64_MAX;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	PTB_REAL(int, "poll", (struct pollfd *, nfds_t, int));
	MULTI_WAIT(real_fn(fds, n, timeout), first_readable(fds, n, rc), ms_limit(timeout));
}

int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t len)
{
	PTB_REAL(int, "__poll_chk", (struct pollfd *, nfds_t, int, size_t));
	MULTI_WAIT(real_fn(fds, n, timeout, len), first_readable(fds, n, rc), ms_limit(timeout));
}

/* ppoll, pselect, epoll_pwait (and epoll_pwait2 below): the same waits, a
 * signal mask set for their length (OpenSSH waits in ppoll; unwrapped, such
 * a wait was time the trace could not place, and --check refused the
 * program) */
int ppoll(struct pollfd *fds, nfds_t n, const struct timespec *tmo, const sigset_t *mask)
{
	PTB_REAL(int, "ppoll", (struct pollfd *, nfds_t, const struct timespec *, const sigset_t *));
	MULTI_WAIT(real_fn(fds, n, tmo, mask), first_readable(fds, n, rc), ts_limit(tmo));
}

int __ppoll_chk(struct pollfd *fds, nfds_t n, const struct timespec *tmo, const sigset_t *mask,
		size_t len)
{
	PTB_REAL(int, "__ppoll_chk",
		 (struct pollfd *, nfds_t, const struct timespec *, const sigset_t *, size_t));
	MULTI_WAIT(real_fn(fds, n, tmo, mask, len), first_readable(fds, n, rc), ts_limit(tmo));
}

int select(int n, fd_set *r, fd_set *w, fd_set *x, struct timeval *tv)
{
	PTB_REAL(int, "select", (int, fd_set *, fd_set *, fd_set *, struct timeval *));
	MULTI_WAIT(real_fn(n, r, w, x, tv), first_set(n, r, rc), tv_limit(tv));
}

int pselect(int n, fd_set *r, fd_set *w, fd_set *x, const struct timespec *tmo,
	    const sigset_t *mask)
{
	PTB_REAL(int, "pselect",
		 (int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *));
	MULTI_WAIT(real_fn(n, r, w, x, tmo, mask), first_set(n, r, rc), ts_limit(tmo));
}

int epoll_wait(int ep, struct epoll_event *ev, int n, int timeout)
{
	PTB_REAL(int, "epoll_wait", (int, struct epoll_event *, int, int));
	MULTI_WAIT(real_fn(ep, ev, n, timeout), ep, ms_limit(timeout));
}

int epoll_pwait(int ep, struct epoll_event *ev, int n, int timeout, const sigset_t *mask)
{
	PTB_REAL(int, "epoll_pwait", (int, struct epoll_event *, int, int, const sigset_t *));
	MULTI_WAIT(real_fn(ep, ev, n, timeout, mask), ep, ms_limit(timeout));
}

/* glibc 2.35's epoll_pwait2, epoll_pwait with a timespec for its limit
 * (unwrapped, its wait was time the trace could not place, and a pipeline
 * through it passed --check with its wake-ups uncounted) */
int epoll_pwait2(int ep, struct epoll_event *ev, int n, const struct timespec *tmo,
		 const sigset_t *mask)
{
	PTB_REAL(int, "epoll_pwait2",
		 (int, struct epoll_event *, int, const struct timespec *, const sigset_t *));
	MULTI_WAIT(real_fn(ep, ev, n, tmo, mask), ep, ts_limit(tmo));
}

int accept(int fd, struct sockaddr *a, socklen_t *al)
{
	PTB_REAL(int, "accept", (int, struct sockaddr *, socklen_t *));
	if (!ptb_tr_recording())
		return ptb_tr_fd_new(real_fn(fd, a, al));
	const void *site = PTB_SITE;
	uint64_t d = ptb_tr_fd_describe(fd), q0 = runq_before(ptb_tr_fd_waited(d));
	uint64_t t0 = ptb_tr_io_begin();
	int rc = ptb_tr_fd_new(real_fn(fd, a, al)), e = errno;
	io_done(PTB_EV_IO, fd, d, t0, rc < 0 ? -1 : 0, site, q0);
	errno = e;
	return rc;
}

int accept4(int fd, struct sockaddr *a, socklen_t *al, int flags)
{
	PTB_REAL(int, "accept4", (int, struct sockaddr *, socklen_t *, int));
	if (!ptb_tr_recording())
		return ptb_tr_fd_new(real_fn(fd, a, al, flags));
	const void *site = PTB_SITE;
	uint64_t d = ptb_tr_fd_describe(fd), q0 = runq_before(ptb_tr_fd_waited(d));
	uint64_t t0 = ptb_tr_io_begin();
	int rc = ptb_tr_fd_new(real_fn(fd, a, al, flags)), e = errno;
	io_done(PTB_EV_IO, fd, d, t0, rc < 0 ? -1 : 0, site, q0);
	errno = e;
	return rc;
}

/* The second figure of /proc/thread-self/schedstat: ns this thread has
 * spent runnable but waiting for a CPU.  By syscall (no wrapper, no stdio:
 * a signal handler's read may come here). */
uint64_t ptb_tr_runq_ns(void)
{
	char buf[96];
	int f = (int)syscall(SYS_openat, AT_FDCWD, "/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (f < 0)
		return UINT64_MAX;
	ssize_t n = syscall(SYS_read, f, buf, sizeof buf - 1);
	syscall(SYS_close, f);
	if (n <= 0)
		return UINT64_MAX;
	buf[n] = '\0';
	const char *c = buf;
	while (*c >= '0' && *c <= '9')
		c++;
	if (*c++ != ' ' || *c < '0' || *c > '9')
		return UINT64_MAX;
	uint64_t v = 0;
	while (*c >= '0' && *c <= '9')
		v = v * 10 + (uint64_t)(*c++ - '0');
	return v;
}
