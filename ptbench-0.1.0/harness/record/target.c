/* SPDX-License-Identifier: MIT */
/*
 * The result file's target (see target.h).  Asking access(2) is not
 * enough: as root it says yes to /proc, and it knows nothing of a name
 * too long for the temporary file.  So the check creates, and removes,
 * the run's own temporary file.
 */
#include <config.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

int ptb_run_check_target(const char *path, char *err, size_t errlen)
{
	char tmp[4096];
	struct stat st;
	const char *kind;
	int fd;
	if (!*path) {
		ptb_errf(err, errlen, "-o: an empty file name");
		return -1;
	}
	if (lstat(path, &st) == 0 && (kind = refused_kind(st.st_mode))) {
		ptb_errf(err, errlen, "-o %s: is %s; -o writes only regular files", path, kind);
		return -1;
	}
	if (ptb_run_tmp_name(path, getpid(), tmp, sizeof tmp) < 0) {
		ptb_errf(err, errlen, "cannot write '%s': %s", path, strerror(ENAMETOOLONG));
		return -1;
	}
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
