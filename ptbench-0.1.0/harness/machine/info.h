/* SPDX-License-Identifier: MIT */
/* `ptbench info`: the machine as the suite sees it, readable or as the
 * result schema's context object. */
#ifndef PTB_MACHINE_INFO_H
#define PTB_MACHINE_INFO_H

#include <jansson.h>
#include <stdio.h>

#include "ptbench.h"

/* The readable form, or with `harness` (taken over) the context object a
 * result file would carry with those harness settings.  0, or -1 on a
 * write error. */
int ptb_info_print(FILE *out, const struct ptb_system *sys, json_t *harness);

#endif
