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

#endif
