/* SPDX-License-Identifier: MIT */
/*
 * A trace's simulated run on N CPUs as the flow plots take it
 * (report/flow.h): the command is the one place that sees both the
 * simulator (trace/) and the plots (report/).
 */
#ifndef PTB_CLI_TRACE_FLOW_H
#define PTB_CLI_TRACE_FLOW_H

#include <stdbool.h>
#include <stddef.h>

#include "report/flow.h"

/* The file begins as a ptbench trace does (its magic). */
bool ptb_is_trace_file(const char *path);

/* Load the trace at path and replay it on cpus CPUs into f: 0, or -1 with
 * a one-line reason in err. */
int ptb_trace_flow(const char *path, int cpus, struct ptb_flow *f, char *err, size_t errlen);

#endif
