/* SPDX-License-Identifier: MIT */
/*
 * Temporary outputs that must not outlive an interrupted command: the
 * picture `plot` writes through PATH.tmp.PID, the folder gnuplot draws in,
 * gnuplot itself.  A command registers them while they exist; SIGINT,
 * SIGTERM or SIGHUP then removes them (files and folders in the reverse
 * order of registration, so a folder after its files), ends the child,
 * and ends the process by the same signal.  A signal the process ignores
 * stays ignored (nohup), and one a command handles itself (`run` keeps
 * its points) keeps its handler.
 */
#ifndef PTB_RECORD_CLEANUP_H
#define PTB_RECORD_CLEANUP_H

#include <stdbool.h>
#include <sys/types.h>

/* Remove PATH (a file; with is_dir an empty folder) should a signal end the
 * process.  A handle for ptb_cleanup_forget, or -1 when all places are
 * taken (the path is then left as before). */
int ptb_cleanup_add(const char *path, bool is_dir);
/* The path was renamed or removed: nothing to do for it any more.  -1 is
 * ignored. */
void ptb_cleanup_forget(int handle);
/* The child to end (SIGTERM) should a signal end the process; a negative
 * pid: that process group; 0: none. */
void ptb_cleanup_child(pid_t pid);

#endif
