/* SPDX-License-Identifier: MIT */
/*
 * The result file's target (see target.h).  Asking access(2) is not
 * enough: as root it says yes to /proc, and it knows nothing of a name
 * too long for the temporary file.  So the check creates, and removes,
 * the run's own temporary file.
 *
 * Two commands writing one path would both say "saved" and leave one
 * file, so the check also takes the path's lock: flock(2) on "PATH.lock",
 * held by this process until it exits (the lock of a killed process goes
 * with it) and then removed.  A holder removes the lock file before its
 * descriptor closes, so a waiter may lock a file no longer in the
 * directory: it compares the inode it locked with the path's and takes
 * the new file when they differ.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/cleanup.h"
#include "record/target.h"
#include "text/text.h"

int ptb_run_tmp_name(const char *path, pid_t pid, char *buf, size_t len)
{
	int n = snprintf(buf, len, "%s.tmp.%ld", path, (long)pid);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

/* What an existing path is when -o must not replace it; NULL when it may. */
static const char *refused_kind(mode_t mode)
{
	static const struct { mode_t type; const char *what; } kinds[] = {
		/* type      what */
		{ S_IFLNK,  "a symbolic link" },
		{ S_IFCHR,  "a character device" },
		{ S_IFBLK,  "a block device" },
		{ S_IFIFO,  "a FIFO" },
		{ S_IFSOCK, "a socket" },
		{ S_IFDIR,  "a directory" },
	};
	for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++)
		if ((mode & S_IFMT) == kinds[i].type)
			return kinds[i].what;
	return NULL;
}

/* The paths this process holds locked, until it exits. */
enum { MAX_HELD = 8 };
static struct { char *lock; int fd; } held[MAX_HELD];
static int nheld;
static pid_t holder;

/* At exit: remove the lock files, then let the descriptors go.  Only in
 * the process that took them (a forked child that calls exit holds no
 * lock of its own). */
static void release_locks(void)
{
	for (int i = 0; i < nheld; i++) {
		if (getpid() == holder)
			unlink(held[i].lock);
		close(held[i].fd);
		free(held[i].lock);
	}
	nheld = 0;
}

void ptb_run_release_targets(void)
{
	release_locks();
}

static bool same_file(int fd, const char *path)
{
	struct stat a, b;
	return fstat(fd, &a) == 0 && stat(path, &b) == 0 && a.st_dev == b.st_dev &&
	       a.st_ino == b.st_ino;
}

/* ", pid N" of the holder that wrote its pid into the lock, or "". */
static void holder_of(const char *lock, char *buf, size_t len)
{
	char s[32] = "";
	int fd = open(lock, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, s, sizeof s - 1) : -1;
	if (fd >= 0)
		close(fd);
	long pid = n > 0 ? (s[n] = '\0', strtol(s, NULL, 10)) : 0;
	snprintf(buf, len, pid > 0 ? ", pid %ld" : "", pid);
}

/* The exclusive lock of path, held until exit; -1 with err when another
 * process holds it or it cannot be taken. */
static int lock_target(const char *path, char *err, size_t errlen)
{
	char lock[4096], who[40];
	if (snprintf(lock, sizeof lock, "%s.lock", path) >= (int)sizeof lock || nheld == MAX_HELD) {
		ptb_errf(err, errlen, "cannot write '%s': %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	for (int i = 0; i < nheld; i++)
		if (!strcmp(held[i].lock, lock))
			return 0;     /* ours already */
	for (int tries = 0; tries < 100; tries++) {
		int fd = open(lock, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
		if (fd < 0) {
			ptb_errf(err, errlen, "cannot write '%s': %s: %s", path, lock, strerror(errno));
			return -1;
		}
		if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			int e = errno;
			close(fd);
			holder_of(lock, who, sizeof who);
			if (e == EWOULDBLOCK)
				ptb_errf(err, errlen, "-o %s: another ptbench is writing it (it holds "
					 "%s%s); give another file", path, lock, who);
			else
				ptb_errf(err, errlen, "cannot lock '%s': %s", lock, strerror(e));
			return -1;
		}
		if (!same_file(fd, lock)) {   /* its holder removed it meanwhile */
			close(fd);
			continue;
		}
		char pid[32];
		int n = snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
		bool noted = ftruncate(fd, 0) == 0 && write(fd, pid, (size_t)n) == n;
		(void)noted;   /* the pid is for people; the lock holds without it */
		if (!nheld && !holder)
			atexit(release_locks);
		holder = getpid();
		held[nheld].fd = fd;
		if (!(held[nheld].lock = strdup(lock))) {
			close(fd);
			unlink(lock);
			ptb_errf(err, errlen, "out of memory");
			return -1;
		}
		/* a signal that ends a command without handlers of its own (plot)
		 * skips atexit: the cleanup's handler removes the lock file then */
		ptb_cleanup_add(lock, false);
		nheld++;
		return 0;
	}
	ptb_errf(err, errlen, "cannot lock '%s': it keeps being replaced", lock);
	return -1;
}

int ptb_run_check_target(const char *path, char *err, size_t errlen)
{
	return ptb_run_check_target_of("-o", path, err, errlen);
}

int ptb_run_check_target_of(const char *opt, const char *path, char *err, size_t errlen)
{
	char tmp[4096];
	struct stat st;
	const char *kind;
	int fd;
	if (!*path) {
		ptb_errf(err, errlen, "%s: an empty file name", opt);
		return -1;
	}
	if (lstat(path, &st) == 0 && (kind = refused_kind(st.st_mode))) {
		ptb_errf(err, errlen, "%s %s: is %s; %s writes only regular files", opt, path, kind, opt);
		return -1;
	}
	if (ptb_run_tmp_name(path, getpid(), tmp, sizeof tmp) < 0) {
		ptb_errf(err, errlen, "cannot write '%s': %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
	if (lock_target(path, err, errlen) < 0)
		return -1;
	/* A file of this name was left by a killed process with this pid
	 * (a container's pid 1, killed mid-record): the lock is ours, so no
	 * live writer holds it, and the probe must not fail on it for ever. */
	unlink(tmp);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666)) < 0) {
		ptb_errf(err, errlen, "cannot write '%s': %s", path, strerror(errno));
		return -1;
	}
	close(fd);
	unlink(tmp);
	return 0;
}

/* The pid of NAME when it is BASE.tmp.PID, else 0. */
static long stale_pid(const char *name, const char *base)
{
	size_t n = strlen(base);
	char *end;
	if (strncmp(name, base, n) || strncmp(name + n, ".tmp.", 5) ||
	    !(name[n + 5] >= '1' && name[n + 5] <= '9'))
		return 0;
	long pid = strtol(name + n + 5, &end, 10);
	return *end || pid <= 0 ? 0 : pid;
}

void ptb_run_clean_stale(const char *path)
{
	char dir[4096];
	const char *slash = strrchr(path, '/'), *base = slash ? slash + 1 : path;
	struct dirent *e;
	struct stat st;
	snprintf(dir, sizeof dir, "%.*s", !slash ? 1 : slash == path ? 1 : (int)(slash - path),
		 !slash ? "." : path);
	DIR *d = opendir(dir);
	if (!d)
		return;
	while ((e = readdir(d))) {
		long pid = stale_pid(e->d_name, base);
		/* A pid that exists again may be a writer; leave its file. */
		if (pid && pid != (long)getpid() && kill((pid_t)pid, 0) < 0 && errno == ESRCH &&
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode))
			unlinkat(dirfd(d), e->d_name, 0);
	}
	closedir(d);
}
