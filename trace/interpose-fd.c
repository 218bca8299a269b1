/* SPDX-License-Identifier: MIT */
/*
 * What each descriptor is, for the I/O wrappers (trace/interpose-io.c):
 * fstat once per descriptor, cached until a call that closes or hands out
 * its number, and the pairs of ends that socketpair made, so that a write
 * on one end and a read on the other name the same stream.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/interpose.h"

#define FDS 4096                     /* descriptors cached; above, fstat every call */
#define PAIRS 1024                   /* socket pairs remembered (a power of two) */
#define INO_MASK ((UINT64_C(1) << 59) - 1)
#define WAITED (UINT64_C(1) << 59)     /* a call waited (on a file: the latest) */

/* fd -> (kind + 1) << 60 | WAITED | inode; 0: not known yet. */
static _Atomic uint64_t fdcache[FDS];
/* One end of a socket pair -> the other end (inodes). */
static struct { _Atomic uint64_t ino, peer; } pairs[PAIRS];

static unsigned pair_hash(uint64_t ino)
{
	return (unsigned)((ino * 0x9e3779b97f4a7c15ull) >> 54) & (PAIRS - 1);
}

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

/* Whether fd is an eventfd or a signalfd: anonymous inodes, told apart
 * by the name the kernel gives their link (once per descriptor). */
static int wakes_by_name(int fd)
{
	char link[64], name[32];
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, name, sizeof name - 1);
	if (n <= 0)
		return 0;
	name[n] = '\0';
	return !strcmp(name, "anon_inode:[eventfd]") || !strcmp(name, "anon_inode:[signalfd]");
}

/* What fd is, from the cache or from fstat. */
uint64_t ptb_tr_fd_describe(int fd)
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
	if (kind == PTB_FD_OTHER && wakes_by_name(fd))
		kind = PTB_FD_WAKE;
	c = (uint64_t)(kind + 1) << 60 | ino;
	if (fd < FDS)
		atomic_store_explicit(&fdcache[fd], c, memory_order_relaxed);
	return c;
}

int ptb_tr_fd_kind(uint64_t d) { return (int)(d >> 60) - 1; }
int ptb_tr_fd_channel(uint64_t d)
{
	return ptb_tr_fd_kind(d) == PTB_FD_PIPE || ptb_tr_fd_kind(d) == PTB_FD_PAIR;
}

/* The stream a call on fd moves bytes through (0: no channel): a pipe's
 * inode; on a socket pair, the inode of the end that writes. */
uint64_t ptb_tr_fd_stream(uint64_t d, int kind)
{
	uint64_t ino = d & INO_MASK;
	if (ptb_tr_fd_kind(d) == PTB_FD_PIPE)
		return ino;
	if (ptb_tr_fd_kind(d) == PTB_FD_PAIR)
		return kind == PTB_EV_WRITE ? ino : pair_peer(ino);
	return 0;
}

int ptb_tr_fd_waited(uint64_t d) { return (d & WAITED) != 0; }

void ptb_tr_fd_mark_waited(int fd, uint64_t d, int waited)
{
	int file = ptb_tr_fd_kind(d) == PTB_FD_FILE || ptb_tr_fd_kind(d) == PTB_FD_BLOCK;
	uint64_t want = d, to = waited ? d | WAITED : file ? d & ~WAITED : d;
	if (fd >= 0 && fd < FDS && to != d)          /* unless it changed meanwhile */
		atomic_compare_exchange_strong(&fdcache[fd], &want, to);
}

int ptb_tr_fd_new(int fd)
{
	forget(fd);
	return fd;
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
	return ptb_tr_fd_new(real_fn(path, flags, m));
}

int open64(const char *path, int flags, ...)
{
	PTB_REAL(int, "open64", (const char *, int, ...));
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return ptb_tr_fd_new(real_fn(path, flags, m));
}

int openat(int dir, const char *path, int flags, ...)
{
	PTB_REAL(int, "openat", (int, const char *, int, ...));
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return ptb_tr_fd_new(real_fn(dir, path, flags, m));
}

int openat64(int dir, const char *path, int flags, ...)
{
	PTB_REAL(int, "openat64", (int, const char *, int, ...));
	va_list ap;
	va_start(ap, flags);
	mode_t m = mode_arg(flags, ap);
	va_end(ap);
	return ptb_tr_fd_new(real_fn(dir, path, flags, m));
}

int __open_2(const char *path, int flags)
{
	PTB_REAL(int, "__open_2", (const char *, int));
	return ptb_tr_fd_new(real_fn(path, flags));
}

int __open64_2(const char *path, int flags)
{
	PTB_REAL(int, "__open64_2", (const char *, int));
	return ptb_tr_fd_new(real_fn(path, flags));
}

int creat(const char *path, mode_t m)
{
	PTB_REAL(int, "creat", (const char *, mode_t));
	return ptb_tr_fd_new(real_fn(path, m));
}

int socket(int dom, int type, int proto)
{
	PTB_REAL(int, "socket", (int, int, int));
	return ptb_tr_fd_new(real_fn(dom, type, proto));
}

/* Descriptors made or unmade: their cached kind goes. */
int close(int fd)
{
	PTB_REAL(int, "close", (int));
	if (ptb_tr_owns_fd(fd))
		return 0;            /* closing what it never opened: the trace stays */
	forget(fd);
	return real_fn(fd);
}

int dup(int fd)
{
	PTB_REAL(int, "dup", (int));
	return ptb_tr_fd_new(real_fn(fd));
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

/* Whether this process holds the other end of pipe fd too: a descriptor
 * of the same inode open the other way.  A pipe from or to another
 * process (stdin from a shell's pipeline, a child's output) wakes no
 * thread of this one.  1 where it cannot tell. */
static int other_end_here(int fd)
{
	struct stat a, b;
	int mode = fcntl(fd, F_GETFL), found = 0;
	DIR *d = mode < 0 || fstat(fd, &a) ? NULL : opendir("/proc/self/fd");
	if (!d)
		return 1;
	struct dirent *e;
	while (!found && (e = readdir(d))) {
		int other = atoi(e->d_name), m;
		if (e->d_name[0] < '0' || e->d_name[0] > '9' || other == fd || other == dirfd(d))
			continue;
		m = fcntl(other, F_GETFL);
		found = m >= 0 && (m & O_ACCMODE) != (mode & O_ACCMODE) && fstat(other, &b) == 0 &&
			b.st_ino == a.st_ino && b.st_dev == a.st_dev;
	}
	closedir(d);
	return found;
}

/* An epoll instance that watches a descriptor through which the program's
 * threads may wake each other is one too: its waits are marked so, and
 * predict --check refuses a trace that spends long in them. */
int epoll_ctl(int ep, int op, int fd, struct epoll_event *ev)
{
	PTB_REAL(int, "epoll_ctl", (int, int, int, struct epoll_event *));
	int rc = real_fn(ep, op, fd, ev);
	if (rc || op == EPOLL_CTL_DEL || !ptb_tr_recording() || ep < 0 || ep >= FDS)
		return rc;
	int kind = ptb_tr_fd_kind(ptb_tr_fd_describe(fd));
	if ((kind == PTB_FD_PIPE && other_end_here(fd)) || kind == PTB_FD_PAIR || kind == PTB_FD_WAKE) {
		uint64_t d = ptb_tr_fd_describe(ep) & ~(UINT64_C(0xf) << 60);
		atomic_store_explicit(&fdcache[ep], d | (uint64_t)(PTB_FD_WAKE + 1) << 60,
				      memory_order_relaxed);
	}
	return rc;
}

/* The descriptors of anonymous inodes, handed out where no open wrapper
 * sees them: what was cached under their numbers goes (a number that
 * pclose freed inside the C library and an eventfd then took was taken
 * for the pipe it had been, and the eventfd's wake-ups went uncounted). */
int eventfd(unsigned int v, int flags)
{
	PTB_REAL(int, "eventfd", (unsigned int, int));
	return ptb_tr_fd_new(real_fn(v, flags));
}

int signalfd(int fd, const sigset_t *mask, int flags)
{
	PTB_REAL(int, "signalfd", (int, const sigset_t *, int));
	return ptb_tr_fd_new(real_fn(fd, mask, flags));
}

int epoll_create(int size)
{
	PTB_REAL(int, "epoll_create", (int));
	return ptb_tr_fd_new(real_fn(size));
}

int epoll_create1(int flags)
{
	PTB_REAL(int, "epoll_create1", (int));
	return ptb_tr_fd_new(real_fn(flags));
}

int timerfd_create(int clock, int flags)
{
	PTB_REAL(int, "timerfd_create", (int, int));
	return ptb_tr_fd_new(real_fn(clock, flags));
}
