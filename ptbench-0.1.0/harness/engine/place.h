/* SPDX-License-Identifier: MIT */
/*
 * Placing a point's threads: the placement variable resolved to the pair
 * of PUs the machine offers (or the point is na with the reason), the main
 * thread bound there and the binding read back, so that a result records
 * where it really ran.  Clients bind themselves (engine/client.c).
 */
#ifndef PTB_ENGINE_PLACE_H
#define PTB_ENGINE_PLACE_H

#include "ptbench.h"

/* 0, or -1 with the point na (the machine cannot) or error (binding
 * failed or read back otherwise). */
int ptb_point_place(struct ptb_point *p);

#endif
