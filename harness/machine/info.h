/* SPDX-License-Identifier: MIT */
/* `ptbench info`: the machine as the suite sees it, readable or as the
 * result schema's context object. */
#ifndef PTB_INFO_H
#define PTB_INFO_H

#include <stdbool.h>
#include <stdio.h>

#include "ptbench.h"

int ptb_info_print(FILE *out, const struct ptb_system *sys, bool json);

#endif
