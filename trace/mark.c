/* SPDX-License-Identifier: MIT */
/*
 * A flag set in a finished trace's header (trace/format.h).  The trailer's
 * checksum is the header's sum plus every chunk's, so the header's old sum
 * comes off it and the new one goes on: the chunks are not read again.
 */
#include "config.h"
#include "trace/mark.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace/format.h"

int ptb_trace_mark_sched(const char *path, uint32_t flags)
{
	struct ptb_trace_header h;
	struct ptb_trace_trailer tr;
	struct stat st;
	int fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) || st.st_size < (off_t)(sizeof h + sizeof tr) ||
	    pread(fd, &h, sizeof h, 0) != (ssize_t)sizeof h ||
	    pread(fd, &tr, sizeof tr, st.st_size - (off_t)sizeof tr) != (ssize_t)sizeof tr) {
		close(fd);
		errno = EINVAL;
		return -1;
	}
	uint64_t old = ptb_trace_sum(&h, sizeof h);
	h.sched |= flags;
	tr.checksum = tr.checksum - old + ptb_trace_sum(&h, sizeof h);
	/* the trailer first: a file cut between the two writes fails its
	 * checksum rather than pass with the header unmarked */
	int rc = pwrite(fd, &tr, sizeof tr, st.st_size - (off_t)sizeof tr) == (ssize_t)sizeof tr &&
		 pwrite(fd, &h, sizeof h, 0) == (ssize_t)sizeof h ? 0 : -1;
	if (close(fd) && !rc)
		rc = -1;
	return rc;
}
