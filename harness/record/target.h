/* SPDX-License-Identifier: MIT */
/*
 * Where a result file may be written, decided before a run measures
 * anything: the path names a regular file or nothing yet (never a device
 * node, a FIFO, a socket or a symbolic link, which an atomic rename would
 * replace), and its directory takes the very temporary file the run will
 * write through.  Temporary files that a killed run left beside the path
 * are removed.  The check locks the path for the rest of the process
 * ("PATH.lock", removed at exit), so that two commands never write one
 * file: the second is refused at once.
 */
#ifndef PTB_RECORD_TARGET_H
#define PTB_RECORD_TARGET_H

#include <stddef.h>
#include <sys/types.h>

/* "PATH.tmp.PID", the temporary file the writer with that pid uses
 * (record/runfile.c).  0, or -1 when it does not fit in len. */
int ptb_run_tmp_name(const char *path, pid_t pid, char *buf, size_t len);
/* 0 when path can be written as a result file, and is now this process's
 * to write until it exits; -1 with err, one line: among others when
 * another process holds the path. */
int ptb_run_check_target(const char *path, char *err, size_t errlen);
/* The same, its messages naming the option opt ("-o" above). */
int ptb_run_check_target_of(const char *opt, const char *path, char *err, size_t errlen);
/* Let the paths go now, their lock files removed: for a process about to
 * end by a signal of its own (atexit does not run then). */
void ptb_run_release_targets(void);
/* Remove PATH.tmp.PID files whose writer no longer exists. */
void ptb_run_clean_stale(const char *path);

#endif
