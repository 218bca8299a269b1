#!/bin/sh
# SPDX-License-Identifier: MIT
# ptbench's omp.parallel, omp.barrier and omp.reduction at threads=2 beside
# the independent EPCC-method loop of docs/epcc-check.c, interleaved in one
# sitting (ROUNDS rounds: the check, then ptbench), and how far apart: from
# the loop's mean of its 21 measurements (EPCC's figure) and from their
# median (which, like ptbench's median of trials, leaves out a preempted
# measurement).
# A benchmark note, not a test: run it on a quiet machine.
#   docs/epcc-compare.sh [PTBENCH [ROUNDS]]     (from the build tree, after
#   make check has built tests/jget)
set -e
PTBENCH=${1:-./ptbench}
ROUNDS=${2:-3}
JGET=${JGET:-tests/jget}
here=$(dirname "$0")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
${CC:-cc} -O2 -fopenmp "$here/epcc-check.c" -o "$work/epcc-check"
# The first two allowed PUs, as ptbench's compact order takes them on a
# machine whose first core has one PU per thread (check binding in the file).
first=0 second=1
r=1
while [ "$r" -le "$ROUNDS" ]; do
	OMP_NUM_THREADS=2 OMP_PROC_BIND=close OMP_PLACES="{$first},{$second}" \
		"$work/epcc-check" >"$work/epcc"
	"$PTBENCH" run --quick -b omp.parallel -b omp.barrier -b omp.reduction -p threads=2 \
		-o "$work/r.json" >/dev/null 2>&1
	for d in parallel barrier reduction; do
		e=$(awk -v d="$d" '$1 == d { print $3 }' "$work/epcc")
		em=$(awk -v d="$d" '$1 == d { print $5 }' "$work/epcc")
		i=0
		while [ "$("$JGET" "$work/r.json" results.$i.bench)" != "omp.$d" ]; do
			i=$((i + 1))
		done
		p=$("$JGET" "$work/r.json" results.$i.value)
		awk -v r="$r" -v d="$d" -v e="$e" -v em="$em" -v p="$p" 'BEGIN {
			printf "round %d %-10s EPCC loop mean %9.1f median %9.1f ns  ptbench %9.1f ns  %+6.1f %% of the mean, %+6.1f %% of the median\n",
			       r, d, e, em, p, (p - e) / e * 100, (p - em) / em * 100 }'
	done
	r=$((r + 1))
done
