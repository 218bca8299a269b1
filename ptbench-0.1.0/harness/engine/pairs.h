/* SPDX-License-Identifier: MIT */
/*
 * The ordered pairs of allowed PUs that a matrix of every pair (the
 * core-to-core latency) measures, each with its placement class
 * (ptb_topology_pair_class).  Up to PTB_PAIR_PLAN_ALL (512) ordered pairs,
 * that is up to 23 PUs, the plan is every pair, in compact order of the
 * sender, then of the receiver.  Beyond, it is a stated sample of at most
 * that many: anchor PUs taken in spread order (the first PU, then the
 * first of the next package, then of the next core, ...) and, for each,
 * every pair with the anchor as sender and as receiver, as long as the
 * next anchor's 2 (n - 1) pairs still fit: 4 anchors (less the pairs they
 * share) on 64 PUs, the first PU's 510 pairs on 256.  The cap keeps a
 * default c2c run within minutes on any machine: every pair is a point of
 * at least 10 trials (docs/design.md, "Trials").
 */
#ifndef PTB_ENGINE_PAIRS_H
#define PTB_ENGINE_PAIRS_H

#include "ptbench.h"

/* The plan of a topology: its pairs in a malloc'd *out and their count,
 * or -1 when out of memory. */
int ptb_pair_plan(const struct ptb_topology *t, struct ptb_pu_pair **out);

#endif
