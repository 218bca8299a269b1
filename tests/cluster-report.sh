#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench report` and `ptbench table` read a cluster job's file
# (ptbench-cluster/1, docs/design.md section 16) without MPI: committed
# files of 2 nodes (a column per node) and of 10 nodes (the summary and the
# outlier named), golden in each format; the cross-node rows and the
# barrier's check; a cluster file mixed with a run, a broken one and a
# format without a place for nodes refused in one line; ptbench-mpi's own
# table is the same printer's.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
two=$TESTDATA/cluster-2.json
ten=$TESTDATA/cluster-10.json

# golden NAME CMD...: the output of CMD equals tests/data/NAME (exit 0)
golden() {
	name=$1; shift
	"$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" = 0 ] && cmp -s "$TESTDATA/$name" "$work/out"; then
		ok "$name: $* matches"
	else
		not_ok "$name: $* (exit $rc) differs"
		diff -u "$TESTDATA/$name" "$work/out" | sed 's/^/# /' | head -30
		sed 's/^/# /' "$work/err"
	fi
}
golden cluster-2.table "$PTBENCH" report "$two"
golden cluster-10.table "$PTBENCH" report "$ten"
golden cluster-2.md "$PTBENCH" table "$two"
golden cluster-2.csv "$PTBENCH" table "$two" --format csv

"$PTBENCH" report "$two" >"$work/t"
check "2 nodes: one column per node in the per-node rows" \
	grep -q '^Benchmark  *Parameters  *n01  *n02  *Median  *p5  *p95  *Spread %$' "$work/t"
grep -q '^hybrid.barrier  *style=funneled local=pthread threads=2  *9.00 ' "$work/t" &&
	grep -q '^mpi.pingpong  *style=funneled pairs=1  *0.600 ' "$work/t"
verdict "... and the cross-node rows hybrid.barrier and mpi.pingpong"
grep -q 'style=multiple local=spin threads=2  *48.0 \*' "$work/t" &&
	grep -q '^\[2\] under funneled only the main thread calls MPI: one pair$' "$work/t"
verdict "... an unstable point marked, a point without a figure N/A with its reason"
grep -q 'style=none local=pthread threads=2  *control  *300  *300' "$work/t" &&
	grep -q '^n02 .* 1 \[1\] ' "$work/t"
verdict "... the check's violations, the node with fewer PUs than threads noted"
"$PTBENCH" report "$ten" >"$work/t"
grep -q 'Median  *p5  *p95  *Spread %  *Outliers (> 3 MAD)$' "$work/t" &&
	grep -q '^mutex.lockunlock  *threads=1 .* n10$' "$work/t" && ! grep -q ' n01  *n02 ' "$work/t"
verdict "10 nodes: no column per node, the outlier n10 named"
check "... an incomplete job says so" grep -q 'incomplete: 10 nodes.*did not finish' "$work/t"

"$PTBENCH" report "$two" --format json >"$work/j"
check "report --format json: the document itself" \
	[ "$("$JGET" "$work/j" schema) $("$JGET" "$work/j" context.clock.offsets.1.offset_ns)" = \
	  "ptbench-cluster/1 3000020" ]
for how in "table --format html" "report --format html"; do
	# shellcheck disable=SC2086
	"$PTBENCH" $how "$two" >"$work/h"
	check "$how: a page with the nodes' columns" grep -q '<th[^>]*>n02</th>' "$work/h"
	if command -v xmllint >/dev/null; then
		check "... well-formed" xmllint --noout "$work/h"
	fi
done

# refuse CMD... -- WANT: exit 2, one line on stderr containing WANT
refuse() {
	want=$(echo "$*" | sed 's/.* -- //'); cmd=$(echo "$*" | sed 's/ -- .*//')
	# shellcheck disable=SC2086
	$cmd >/dev/null 2>"$work/err"
	rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] &&
		grep -qF "$want" "$work/err"
	verdict "$cmd: exit 2 ($rc), one line: $want"
}
refuse "$PTBENCH" table "$two" "$TESTDATA/run-golden.json" -- "is read alone"
refuse "$PTBENCH" report "$two" --format gbench -- "not for a ptbench-cluster/1 file"
sed 's/"value": 9000.0/"value": "fast"/' "$two" >"$work/bad.json"
refuse "$PTBENCH" report "$work/bad.json" -- "results[2]: field 'value' is not a number"
sed 's/"offset_ns": 3000020/"offset_ns": 1e400/' "$two" >"$work/bad.json"
refuse "$PTBENCH" report "$work/bad.json" -- "bad.json: "
sed 's/"n02": {"value": 3970.0/"n02": {"value": -5/' "$two" >"$work/bad.json"
refuse "$PTBENCH" table "$work/bad.json" -- "node_rows[0].per_node.n02: field 'value' = -5"
sed 's/"status": "complete"/"status": "done"/' "$two" >"$work/bad.json"
refuse "$PTBENCH" report "$work/bad.json" -- "status 'done' is not one of"

if [ -x "$PTBENCH_MPI" ]; then
	golden cluster-2.table "$PTBENCH_MPI" report "$two"
	# A second launch of the same configuration, its trials 300 ns slower:
	# the merged point pools the six, each with its launch, and its value
	# is their median, (9100 + 9200) / 2.
	# Its node n01 measured yield at 3750 (3740-3760) where the first had
	# 3710 (3700-3720); n02 the same 3970 (3800-4100) in both.
	sed -e 's/"estimate": 8900.0/"estimate": 9200.0/; s/"estimate": 9000.0/"estimate": 9300.0/' \
	    -e 's/"estimate": 9100.0/"estimate": 9400.0/' \
	    -e 's/"n01": {"value": 3710.0, "status": "ok", "ci95": \[3700.0, 3720.0\]}/"n01": {"value": 3750.0, "status": "ok", "ci95": [3740.0, 3760.0]}/' \
	    "$two" >"$work/b.json"
	check "(the second launch's n01 row edited)" grep -q '"n01": {"value": 3750.0' "$work/b.json"
	"$PTBENCH_MPI" merge "$two" "$work/b.json" -o "$work/m.json" 2>"$work/err"
	rc=$?
	m() { "$JGET" "$work/m.json" "$1"; }
	[ "$rc" = 0 ] && [ "$(m results.2.trials.#)" = 6 ] && [ "$(m results.2.trials.5.launch)" = 2 ] &&
		[ "$(m results.2.trials.0.launch)" = 1 ] && awk "BEGIN { exit !($(m results.2.value) == 9150) }" &&
		[ "$(m context.launches)" = 2 ]
	verdict "merge: exit $rc, 6 trials of 2 launches, the value their median"
	check "... the checks' episodes and violations added up" \
		[ "$(m results.0.episodes) $(m results.0.violations) $(m results.1.violations)" = "600 0 600" ]
	check "... a point na in both stays na" [ "$(m results.5.status)" = na ]
	# The per-node rows pooled too: n01's figure the median of its two
	# launches' (3730), its CI spanning both CIs (3700-3760, within 2 %:
	# ok), each launch's value kept; n02's CI +-3.8 %: unstable; the row's
	# median over the nodes computed again, (3730 + 3970) / 2.
	n01=$(m node_rows.0.per_node.n01.value); med=$(m node_rows.0.median)
	[ "$n01" = 3730.0 ] &&
		[ "$(m node_rows.0.per_node.n01.ci95)" = "[3700.0,3760.0]" ] &&
		[ "$(m node_rows.0.per_node.n01.status)" = ok ] &&
		[ "$(m node_rows.0.per_node.n01.launches)" = "[3710.0,3750.0]" ]
	verdict "... the per-node rows pooled: n01 $n01 from both launches"
	[ "$(m node_rows.0.per_node.n02.status)" = unstable ] && [ "$med" = 3850.0 ] &&
		[ "$(m node_rows.1.per_node.n02.status)" = na ]
	verdict "... n02 unstable, the median over nodes $med, na stays na"
	"$PTBENCH" report "$work/m.json" >"$work/t"
	check "... and ptbench report says the trials span 2 launches" grep -q 'trials of 2 launches' "$work/t"
	sed 's/"threads": 2,$/"threads": 4,/' "$two" >"$work/c.json"
	refuse "$PTBENCH_MPI" merge "$two" "$work/c.json" -o "$work/m2.json" -- "threads differs"
	check "... and nothing written" [ ! -e "$work/m2.json" ]
	sed 's/"status": "complete"/"status": "incomplete"/' "$two" >"$work/c.json"
	refuse "$PTBENCH_MPI" merge "$two" "$work/c.json" -o "$work/m2.json" -- "only complete launches"
else
	skip "ptbench-mpi not built (configure found no MPI)"
fi
done_testing
