/* SPDX-License-Identifier: MIT */
/*
 * The machine as a run sees it (struct ptb_system, declared in ptbench.h
 * because benchmarks read it): collected once per process from the
 * platform layer.
 */
#ifndef PTB_MACHINE_SYSTEM_H
#define PTB_MACHINE_SYSTEM_H

#include <stddef.h>

#include "ptbench.h"

/* Collect clock, CPU, OS and topology once per run. 0, or -1 with err. */
int ptb_system_init(struct ptb_system *sys, char *err, size_t errlen);
void ptb_system_fini(struct ptb_system *sys);

#endif
