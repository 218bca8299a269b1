/* SPDX-License-Identifier: MIT */
/*
 * The "context" object of a result file: when, where and on what a run
 * was measured, and the warnings that say why its figures may not compare
 * with another machine's.
 */
#ifndef PTB_MACHINE_CONTEXT_H
#define PTB_MACHINE_CONTEXT_H

#include <jansson.h>

#include "ptbench.h"

/* The context; `harness` is the settings the run measured with (taken
 * over; NULL = none), `command` the command line as typed. */
json_t *ptb_context_json(const struct ptb_system *sys, json_t *harness, const char *command);
/* Warnings for a machine: hypervisor, TSC, governor, load, restricted
 * cpuset, a cgroup CPU quota below the allowed PUs. */
json_t *ptb_warnings_json(const struct ptb_system *sys);

#endif
