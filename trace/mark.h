/* SPDX-License-Identifier: MIT */
/* What `ptbench record` adds to a trace the interposer wrote
 * (trace/mark.c). */
#ifndef PTB_TRACE_MARK_H
#define PTB_TRACE_MARK_H

#include <stdint.h>

/* Set flags in the header's sched of the trace at path, its checksum
 * kept whole: 0, or -1 with errno (the file unchanged). */
int ptb_trace_mark_sched(const char *path, uint32_t flags);

#endif
