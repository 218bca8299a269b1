/* SPDX-License-Identifier: MIT */
/*
 * The table of a cluster job's file (ptbench-cluster/1, record/cluster.h),
 * printed by `ptbench report`, `ptbench table` and ptbench-mpi through the
 * one grid renderer (report/grid.h): the job (MPI, launcher, clocks), the
 * nodes, the per-node suite -- one column per node for small clusters, for
 * many the median, p5/p95, spread and the outlier nodes -- and the
 * cross-node rows (hybrid.barrier, mpi.pingpong, the barrier's check).
 */
#ifndef PTB_TOOLS_CLUSTER_H
#define PTB_TOOLS_CLUSTER_H

#include <jansson.h>
#include <stdio.h>

#include "report/grid.h"

/* Up to this many nodes the per-node rows have a column per node. */
#define PTB_CLUSTER_NODE_COLUMNS 8

/* Print a validated cluster document in a grid style (text for `report`,
 * Markdown, CSV or a whole HTML page for `table`).  0, or -1 when out of
 * memory. */
int ptb_cluster_print(FILE *out, const json_t *doc, enum ptb_grid_style style);

#endif
