/* SPDX-License-Identifier: MIT */
/*
 * The trace's file under the interposer: claimed by the first process
 * image that loads the library (O_EXCL), written in chunks at offsets
 * handed out in turn, under a spin lock that takes no pthread call.  Its
 * descriptor is kept out of the program's way and checked before every
 * write: nothing is ever written to a descriptor of the program.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "trace/interpose.h"

static int fd = -1;
static dev_t fd_dev;                  /* what fd must still be before a write */
static ino_t fd_ino;
static char fd_path[4096];            /* absolute: to open it again */
static _Atomic uint64_t file_off;
static _Atomic uint64_t nchunks, nevents, sum;
static _Atomic int writing;           /* the spin lock over the file */

/* A spin lock's wait, try i: a yield (not the interposed one), and past
 * the first tries a sleep of 50 us -- a yield hands the PU only to threads
 * of the same real-time priority, and a holder of a lower one would never
 * run again (a program's priority-2 thread spun for ever on a lock its
 * priority-1 thread held). */
void ptb_tr_spin_pause(unsigned i)
{
	static const struct timespec nap = { 0, 50000 };
	if (i < 64)
		syscall(SYS_sched_yield);
	else
		syscall(SYS_nanosleep, &nap, NULL);
}

void ptb_tr_file_lock(void)
{
	for (unsigned i = 0; atomic_exchange_explicit(&writing, 1, memory_order_acquire); i++)
		ptb_tr_spin_pause(i);
}

/* The same from a signal handler, which may have interrupted the holder:
 * give up after about 0.1 s (the trace is then lost, never the exit). */
int ptb_tr_file_lock_bounded(void)
{
	for (unsigned i = 0; i < 2000; i++) {
		if (!atomic_exchange_explicit(&writing, 1, memory_order_acquire))
			return 0;
		ptb_tr_spin_pause(i);
	}
	return -1;
}

void ptb_tr_file_unlock(void) { atomic_store_explicit(&writing, 0, memory_order_release); }

/* A descriptor out of the program's way: far above the numbers it will
 * be handed (so "close 3 to 63" loops miss it, and its own first open is
 * still 3), close-on-exec. */
static int out_of_the_way(int f)
{
	struct rlimit rl;
	long lim = getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY ?
		(long)rl.rlim_cur : 1024;
	int hi = (int)(lim > 1024 ? 1000 : lim > 128 ? lim - 24 : -1);
	int g = hi > 0 ? fcntl(f, F_DUPFD_CLOEXEC, hi) : -1;
	if (g < 0)
		return f;
	syscall(SYS_close, f);
	return g;
}

/* Before every write, under the file lock: fd must still be the trace.  A
 * program may close every descriptor it did not open (closefrom, a loop to
 * the limit) and be handed the number again for a file of its own, which
 * must never receive a byte of trace; then the trace is opened again by
 * its path.  -1 when it cannot be (the trace is then refused, not the
 * program's file written). */
static int trace_fd(void)
{
	struct stat st;
	if (fd >= 0 && syscall(SYS_fstat, fd, &st) == 0 && st.st_dev == fd_dev && st.st_ino == fd_ino)
		return fd;
	int f = (int)syscall(SYS_openat, AT_FDCWD, fd_path, O_WRONLY | O_CLOEXEC);
	if (f >= 0 && syscall(SYS_fstat, f, &st) == 0 && st.st_dev == fd_dev && st.st_ino == fd_ino)
		return fd = out_of_the_way(f);
	if (f >= 0)
		syscall(SYS_close, f);
	return fd = -1;
}

int ptb_tr_owns_fd(int f)
{
	struct stat st;
	return f >= 0 && f == fd && syscall(SYS_fstat, f, &st) == 0 && st.st_dev == fd_dev &&
	       st.st_ino == fd_ino;
}

static void put(const void *p, size_t n, uint64_t off)
{
	const char *c = p;
	if (trace_fd() < 0)
		return;                  /* the trailer will not match: the trace is refused */
	while (n) {
		ssize_t w = syscall(SYS_pwrite64, fd, c, n, (off_t)off);   /* not the interposed one */
		if (w <= 0)
			return;              /* the trailer will not match: the trace is refused */
		c += w, n -= (size_t)w, off += (uint64_t)w;
	}
}

/* One chunk: its header and payload at the next free offset. */
void ptb_tr_file_chunk(uint32_t tid, const void *payload, uint32_t count, uint32_t bytes)
{
	struct ptb_trace_chunk c = { PTB_TRACE_CHUNK_MAGIC, tid, count, bytes,
				     ptb_trace_sum(payload, bytes), 0 };
	uint64_t off = atomic_fetch_add(&file_off, sizeof c + bytes);
	put(&c, sizeof c, off);
	put(payload, bytes, off + sizeof c);
	atomic_fetch_add(&nchunks, 1);
	atomic_fetch_add(&nevents, tid == PTB_TRACE_MAPS_TID ? 0 : count);
	atomic_fetch_add(&sum, c.checksum);
}

int ptb_tr_file_open(const char *path)
{
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	struct stat st;
	char cwd[2048] = "";
	int n = path[0] == '/' ? snprintf(fd_path, sizeof fd_path, "%s", path) :
		getcwd(cwd, sizeof cwd) ? snprintf(fd_path, sizeof fd_path, "%s/%s", cwd, path) : -1;
	if (fstat(fd, &st) || n <= 0 || n >= (int)sizeof fd_path) {
		syscall(SYS_close, fd);   /* no way to find the trace again */
		unlink(path);
		fd = -1;
		return -1;
	}
	fd_dev = st.st_dev, fd_ino = st.st_ino;
	fd = out_of_the_way(fd);
	return 0;
}

/* Where the trace stands, for an image that goes on with it after an
 * exec: "offset:chunks:events:sum:device:inode". */
int ptb_tr_file_state(char *buf, size_t len)
{
	int n = snprintf(buf, len, "%llu:%llu:%llu:%llu:%llu:%llu",
			 (unsigned long long)atomic_load(&file_off),
			 (unsigned long long)atomic_load(&nchunks),
			 (unsigned long long)atomic_load(&nevents),
			 (unsigned long long)atomic_load(&sum), (unsigned long long)fd_dev,
			 (unsigned long long)fd_ino);
	return n > 0 && (size_t)n < len ? 0 : -1;
}

/* The trace an earlier image of this process left at path, as state
 * says: its header read back into h (bytes), its chunks kept.  -1 when the
 * file is not that one. */
int ptb_tr_file_continue(const char *path, const char *state, void *h, size_t bytes)
{
	unsigned long long off, nc, ne, su, dev, ino;
	char end;
	if (path[0] != '/' || strlen(path) >= sizeof fd_path ||
	    sscanf(state, "%llu:%llu:%llu:%llu:%llu:%llu%c", &off, &nc, &ne, &su, &dev, &ino,
		   &end) != 6)
		return -1;
	strcpy(fd_path, path);
	fd_dev = (dev_t)dev, fd_ino = (ino_t)ino, fd = -1;
	int r = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int same = r >= 0 && syscall(SYS_fstat, r, &st) == 0 && st.st_dev == fd_dev &&
		   st.st_ino == fd_ino && syscall(SYS_pread64, r, h, bytes, (off_t)0) == (ssize_t)bytes;
	if (r >= 0)
		syscall(SYS_close, r);
	if (!same || trace_fd() < 0)
		return -1;
	atomic_store(&file_off, off), atomic_store(&nchunks, nc);
	atomic_store(&nevents, ne), atomic_store(&sum, su);
	return 0;
}

/* The header written again (the new image's name): the running sum takes
 * the new one's place for the old one's. */
void ptb_tr_file_rewrite_header(const void *h, size_t bytes, uint64_t old_sum, uint64_t new_sum)
{
	put(h, bytes, 0);
	atomic_fetch_add(&sum, new_sum - old_sum);
}

void ptb_tr_file_header(const void *h, size_t bytes, uint64_t checksum)
{
	put(h, bytes, 0);
	atomic_store(&file_off, bytes);
	atomic_store(&sum, checksum);
}

/* After the last chunk, where the next one would go. */
void ptb_tr_file_trailer(void)
{
	struct ptb_trace_trailer tr = { PTB_TRACE_END_MAGIC, atomic_load(&nchunks),
					atomic_load(&nevents), atomic_load(&sum) };
	put(&tr, sizeof tr, atomic_load(&file_off));
}

void ptb_tr_file_close(void)
{
	if (fd >= 0)
		syscall(SYS_close, fd);
	fd = -1;                /* a child forked later must not close the number again */
}
