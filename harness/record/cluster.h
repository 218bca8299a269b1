/* SPDX-License-Identifier: MIT */
/*
 * The result file of a cluster job (schema "ptbench-cluster/1", written by
 * ptbench-mpi, docs/design.md section 16): told apart from a run's file and
 * validated before `report`, `table` or `ptbench-mpi report` reads it, so
 * that their printer walks it without further checks.
 */
#ifndef PTB_RECORD_CLUSTER_H
#define PTB_RECORD_CLUSTER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#define PTB_CLUSTER_SCHEMA "ptbench-cluster/1"

/* Does the document say it is a cluster file (whatever else it holds)? */
bool ptb_cluster_is(const json_t *doc);
/* 0, or -1 with err = one line saying where the document is wrong
 * ("node_rows[2].per_node.rank1: field 'value' is not a number").  Every
 * field a reader uses has its type and domain checked. */
int ptb_cluster_validate(const json_t *doc, char *err, size_t errlen);
/* Read and validate a cluster file: NULL with err = one line naming the
 * file. */
json_t *ptb_cluster_load(const char *path, char *err, size_t errlen);

/* A cross-node point's record from its trials ([{estimate, round,
 * launch?}], ns per `per`): value and CI from stats/trials.h, ok when the
 * CI is within +-target_pct of the value, else unstable saying why.  Takes
 * the references to params and trials; NULL when out of memory or without
 * trials. */
json_t *ptb_cluster_point(const char *bench, json_t *params, const char *per, json_t *trials,
			  double target_pct);

/* A per-node row's summary over its nodes' values (per_node[NODE].value):
 * median, p5 and p95 (interpolated between the sorted values), spread_pct
 * ((p95 - p5) in % of the median) and the outliers, the nodes more than 3
 * MAD from the median (none when the MAD is 0); nothing without a value. */
void ptb_cluster_row_summary(json_t *row);
/* The per-node rows of several launches as one: a row per (bench, params)
 * of any launch, a node per node of any launch; a node's figure in two
 * launches or more is their median, with a CI spanning every launch's CI
 * (ok within +-target_pct, else unstable saying so), each launch's value
 * in `launches`; then the row's summary again.  NULL: out of memory. */
json_t *ptb_cluster_merge_rows(json_t *const *docs, int n, double target_pct);

/* Several complete launches of one configuration (the same threads, ranks
 * as nodes or not, MPI library and thread level, number of nodes, points
 * in the same order) as one document: each cross-node point's trials
 * pooled, each marked with its launch (1..n), its figure recomputed; a
 * check's episodes and violations added up; the per-node rows pooled
 * (ptb_cluster_merge_rows); the context and clocks are the first
 * launch's, and context.launches and
 * merged_from say what was merged.  NULL with err = one line naming the
 * file that differs. */
json_t *ptb_cluster_merge(json_t *const *docs, const char *const *paths, int n,
			  double target_pct, char *err, size_t errlen);

#endif
