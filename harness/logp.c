/* SPDX-License-Identifier: MIT */
/* placeholder: being written */
typedef int ptb_placeholder_logp;
