/* SPDX-License-Identifier: MIT */
/*
 * Blocking I/O under the interposer.  What a wait on a descriptor means
 * depends on what the descriptor is: a regular file, a device, a terminal
 * or a socket to another process is a delay the thread spends off the CPU
 * whatever the other threads do; a pipe or a socket pair between threads
 * of this process is a channel, whose reader waits for its writer.  So
 * every call records the descriptor's kind (fstat once per descriptor,
 * cached until close, dup2, open or a new pipe reuses the number) and, for a
 * pipe or a socket pair, the stream and the bytes moved.
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
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "trace/interpose.h"

#define LONG_NS 20000u               /* shorter: the call did not wait to speak of */
#define FDS 4096                     /* descriptors cached; above, fstat every call */
#define PAIRS 1024                   /* socket pairs remembered (a power of two) */
#define INO_MASK ((UINT64_C(1) << 60) - 1)

/* fd -> (kind + 1) << 60 | inode; 0: not known yet. */
static _Atomic uint64_t fdcache[FDS];
/* One end of a socket pair -> the other end (inodes). */
static struct { _Atomic uint64_t ino, peer; } pairs[PAIRS];

static unsigned pair_hash(uint64_t ino) { return (unsigned)((ino * 0x9e3779b97f4a7c15ull) >> 54) & (PAIRS - 1); }

static void pair_add(uint64_t a, uint64_t b)
{
	for (unsigned i = pair_hash(a), n = 0; n < PAIRS; i = (i + 1) & (PAIRS - 1), n++) {
		uint64_t zero = 0;
		if (atomic_load(&pairs[i].ino) == a ||
		    atomic_compare_exchange_strong(&pairs[i].ino, &zero, a)) {
			atomic_store(&pairs[i].peer, b);
			return;
		}
	}
}

static uint64_t pair_peer(uint64_t a)
{
	for (unsigned i = pair_hash(a), n = 0; n < PAIRS; i = (i + 1) & (PAIRS - 1), n++) {
		uint64_t k = atomic_load(&pairs[i].ino);
		if (k == a)
			return atomic_load(&pairs[i].peer);
		if (!k)
			return 0;
	}
	return 0;
}

static void forget(int fd)
{
	if (fd >= 0 && fd < FDS)
		atomic_store_explicit(&fdcache[fd], 0, memory_order_relaxed);
}

static uint64_t inode_of(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 ? (uint64_t)st.st_ino & INO_MASK : 0;
}

/* What fd is, from the cache or from fstat. */
static uint64_t describe(int fd)
{
	uint64_t c = fd >= 0 && fd < FDS ? atomic_load_explicit(&fdcache[fd], memory_order_relaxed) : 0;
	if (c)
		return c;
	struct stat st;
	if (fd < 0 || fstat(fd, &st))
		return (uint64_t)(PTB_FD_OTHER + 1) << 60;
	static const struct { mode_t mode; int kind; } kinds[] = {
		{ S_IFREG, PTB_FD_FILE }, { S_IFBLK, PTB_FD_BLOCK }, { S_IFCHR, PTB_FD_CHAR },
		{ S_IFIFO, PTB_FD_PIPE }, { S_IFSOCK, PTB_FD_SOCKET },
	};
	int kind = PTB_FD_OTHER;
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if ((st.st_mode & S_IFMT) == kinds[i].mode)
			kind = kinds[i].kind;
	uint64_t ino = (uint64_t)st.st_ino & INO_MASK;
	if (kind == PTB_FD_SOCKET && pair_peer(ino))
		kind = PTB_FD_PAIR;
	c = (uint64_t)(kind + 1) << 60 | ino;
	if (fd < FDS)
		atomic_store_explicit(&fdcache[fd], c, memory_order_relaxed);
	return c;
}

static int kind_of(uint64_t d) { return (int)(d >> 60) - 1; }
static int is_channel(uint64_t d) { return kind_of(d) == PTB_FD_PIPE || kind_of(d) == PTB_FD_PAIR; }

/* The stream a call on fd moves bytes through (0: no channel): a pipe's
 * inode; on a socket pair, the inode of the end that writes. */
static uint64_t stream_of(uint64_t d, int kind)
{
	uint64_t ino = d & INO_MASK;
	if (kind_of(d) == PTB_FD_PIPE)
		return ino;
	if (kind_of(d) == PTB_FD_PAIR)
		return kind == PTB_EV_WRITE ? ino : pair_peer(ino);
	return 0;
}

/* A call on a descriptor described by d ran from t0 to now and returned rc. */
static void io_done(int kind, uint64_t d, uint64_t t0, ssize_t rc, const void *site)
{
	uint64_t t1 = ptb_tr_now();
	int chan = is_channel(d);
	const void *stream = (const void *)(uintptr_t)stream_of(d, kind);
	uint32_t bytes = rc <= 0 ? 0 : (uint64_t)rc > UINT32_MAX ? UINT32_MAX : (uint32_t)rc;
	int out = kind_of(d) | (rc < 0 ? PTB_IO_FAILED : 0);
	if (t1 - t0 >= LONG_NS)
		ptb_tr_span(kind, t0, t1, stream, bytes, out, site);
	else if (chan && rc >= 0)
		ptb_tr_event_at(t1, kind, PTB_PH_INSTANT, stream, bytes, out, site);
}

/* The body of a wrapper of a call on one descriptor: the real call, timed. */
#define IO_ON(kind, fd, call) \
	do { \
		if (!ptb_tr_recording()) \
			return (call); \
		const void *site_ = PTB_SITE; \
		uint64_t d_ = describe(fd), t0_ = ptb_tr_now(); \
		ssize_t rc_ = (call); \
		int errno_ = errno; \
		io_done(kind, d_, t0_, rc_, site_); \
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

/* A wait for any of several things: a delay, unless it ended with a
 * channel readable (the first one: that is the wait predict replays). */
static void wait_done(uint64_t t0, int ready_fd, int rc, const void *site)
{
	uint64_t t1 = ptb_tr_now();
	if (t1 - t0 < LONG_NS)
		return;                  /* what it found ready was there already */
	uint64_t d = ready_fd >= 0 ? describe(ready_fd) : (uint64_t)(PTB_FD_OTHER + 1) << 60;
	if (rc > 0 && ready_fd >= 0 && is_channel(d))
		ptb_tr_span(PTB_EV_POLL, t0, t1, (const void *)(uintptr_t)stream_of(d, PTB_EV_READ),
			    0, kind_of(d), site);
	else
		ptb_tr_span(PTB_EV_IO, t0, t1, NULL, 0, kind_of(d) | (rc < 0 ? PTB_IO_FAILED : 0), site);
}

static int first_readable(const struct pollfd *fds, nfds_t n, int rc)
{
	for (nfds_t i = 0; rc > 0 && i < n; i++)
		if (fds[i].revents & POLLIN)
			return fds[i].fd;
	return -1;
}

int poll(struct pollfd *fds, nfds_t n, int timeout)
{
	PTB_REAL(int, "poll", (struct pollfd *, nfds_t, int));
	if (!ptb_tr_recording())
		return real_fn(fds, n, timeout);
	const void *site = PTB_SITE;
	uint64_t t0 = ptb_tr_now();
	int rc = real_fn(fds, n, timeout), e = errno;
	wait_done(t0, first_readable(fds, n, rc), rc, site);
	errno = e;
	return rc;
}

int __poll_chk(struct pollfd *fds, nfds_t n, int timeout, size_t len)
{
	PTB_REAL(int, "__poll_chk", (struct pollfd *, nfds_t, int, size_t));
	if (!ptb_tr_recording())
		return real_fn(fds, n, timeout, len);
	const void *site = PTB_SITE;
	uint64_t t0 = ptb_tr_now();
	int rc = real_fn(fds, n, timeout, len), e = errno;
	wait_done(t0, first_readable(fds, n, rc), rc, site);
	errno = e;
	return rc;
}

int select(int n, fd_set *r, fd_set *w, fd_set *x, struct timeval *tv)
{
	PTB_REAL(int, "select", (int, fd_set *, fd_set *, fd_set *, struct timeval *));
	if (!ptb_tr_recording())
		return real_fn(n, r, w, x, tv);
	const void *site = PTB_SITE;
	uint64_t t0 = ptb_tr_now();
	int rc = real_fn(n, r, w, x, tv), e = errno, ready = -1;
	for (int fd = 0; rc > 0 && r && ready < 0 && fd < n && fd < FD_SETSIZE; fd++)
		if (FD_ISSET(fd, r))
			ready = fd;
	wait_done(t0, ready, rc, site);
	errno = e;
	return rc;
}

int epoll_wait(int ep, struct epoll_event *ev, int n, int timeout)
{
	PTB_REAL(int, "epoll_wait", (int, struct epoll_event *, int, int));
	if (!ptb_tr_recording())
		return real_fn(ep, ev, n, timeout);
	const void *site = PTB_SITE;
	uint64_t t0 = ptb_tr_now();
	int rc = real_fn(ep, ev, n, timeout), e = errno;
	wait_done(t0, -1, rc, site);          /* the ready descriptors are not named */
	errno = e;
	return rc;
}

static int new_fd(int fd)
{
	forget(fd);
	return fd;
}

int accept(int fd, struct sockaddr *a, socklen_t *al)
{
	PTB_REAL(int, "accept", (int, struct sockaddr *, socklen_t *));
	if (!ptb_tr_recording())
		return new_fd(real_fn(fd, a, al));
	const void *site = PTB_SITE;
	uint64_t d = describe(fd), t0 = ptb_tr_now();
	int rc = new_fd(real_fn(fd, a, al)), e = errno;
	io_done(PTB_EV_IO, d, t0, rc < 0 ? -1 : 0, site);
	errno = e;
	return rc;
}

int accept4(int fd, struct sockaddr *a, socklen_t *al, int flags)
{
	PTB_REAL(int, "accept4", (int, struct sockaddr *, socklen_t *, int));
	if (!ptb_tr_recording())
		return new_fd(real_fn(fd, a, al, flags));
	const void *site = PTB_SITE;
	uint64_t d = describe(fd), t0 = ptb_tr_now();
	int rc = new_fd(real_fn(fd, a, al, flags)), e = errno;
	io_done(PTB_EV_IO, d, t0, rc < 0 ? -1 : 0, site);
	errno = e;
	return rc;
}

/* A descriptor number that open hands out may have been closed where no
 * wrapper saw it (inside the C library: pclose, closedir): what was
 * cached under it goes. */
static mode_t mode_arg(int flags, va_list ap)
{
	return flags & (O_CREAT | O_TMPFILE) ? (mode_t)va_arg(ap, int) : 0;
}

int open(const char *path, int flags, ...)
{
	PTB_REAL(int, "open", (const char *, int, ...));
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return new_fd(real_fn(path, flags, m));
}

int open64(const char *path, int flags, ...)
{
	PTB_REAL(int, "open64", (const char *, int, ...));
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return new_fd(real_fn(path, flags, m));
}

int openat(int dir, const char *path, int flags, ...)
{
	PTB_REAL(int, "openat", (int, const char *, int, ...));
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return new_fd(real_fn(dir, path, flags, m));
}

int openat64(int dir, const char *path, int flags, ...)
{
	PTB_REAL(int, "openat64", (int, const char *, int, ...));
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return new_fd(real_fn(dir, path, flags, m));
}

int __open_2(const char *path, int flags)
{
	PTB_REAL(int, "__open_2", (const char *, int));
	return new_fd(real_fn(path, flags));
}

int __open64_2(const char *path, int flags)
{
	PTB_REAL(int, "__open64_2", (const char *, int));
	return new_fd(real_fn(path, flags));
}

int creat(const char *path, mode_t m)
{
	PTB_REAL(int, "creat", (const char *, mode_t));
	return new_fd(real_fn(path, m));
}

int socket(int dom, int type, int proto)
{
	PTB_REAL(int, "socket", (int, int, int));
	return new_fd(real_fn(dom, type, proto));
}

/* Descriptors made or unmade: their cached kind goes. */
int close(int fd)
{
	PTB_REAL(int, "close", (int));
	forget(fd);
	return real_fn(fd);
}

int dup(int fd)
{
	PTB_REAL(int, "dup", (int));
	return new_fd(real_fn(fd));
}

int dup2(int fd, int to)
{
	PTB_REAL(int, "dup2", (int, int));
	forget(to);
	return real_fn(fd, to);
}

int dup3(int fd, int to, int flags)
{
	PTB_REAL(int, "dup3", (int, int, int));
	forget(to);
	return real_fn(fd, to, flags);
}

int fclose(FILE *f)
{
	PTB_REAL(int, "fclose", (FILE *));
	if (f)
		forget(fileno(f));
	return real_fn(f);
}

int pipe(int p[2])
{
	PTB_REAL(int, "pipe", (int *));
	int rc = real_fn(p);
	if (!rc)
		forget(p[0]), forget(p[1]);
	return rc;
}

int pipe2(int p[2], int flags)
{
	PTB_REAL(int, "pipe2", (int *, int));
	int rc = real_fn(p, flags);
	if (!rc)
		forget(p[0]), forget(p[1]);
	return rc;
}

/* Both ends are this process's: a channel between its threads. */
int socketpair(int dom, int type, int proto, int sv[2])
{
	PTB_REAL(int, "socketpair", (int, int, int, int *));
	int rc = real_fn(dom, type, proto, sv);
	if (rc)
		return rc;
	forget(sv[0]), forget(sv[1]);
	uint64_t a = inode_of(sv[0]), b = inode_of(sv[1]);
	if (a && b)
		pair_add(a, b), pair_add(b, a);
	return rc;
}
