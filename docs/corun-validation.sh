#!/bin/sh
# SPDX-License-Identifier: MIT
# How docs/design.md section 12 checked the co-running slowdown on a
# program that is the corun benchmark's loop (docs/corun-loop.c): THREADS
# threads each update a table of SIZE bytes, recorded on one PU and
# predicted for 2 CPUs without and with `--machine MACHINE --working-set
# SIZE`, against real runs on CPUs 0-1 under SCHED_FIFO (each under 0.95 s,
# the RT period's share; see predict-validation.sh), in interleaved rounds.
# One line per size and round; report the median of pred/real.
#
#   docs/corun-validation.sh PTBENCH MACHINE THREADS ROUNDS SIZE:N...
set -e
P=$1 M=$2 T=$3 R=$4
shift 4
[ -x "$P" ] && [ -f "$M" ] && [ $# -gt 0 ] ||
	{ echo "usage: $0 PTBENCH MACHINE THREADS ROUNDS SIZE:N..." >&2; exit 2; }
J=$(dirname "$P")/tests/jget
V=$(mktemp -d)
trap 'rm -rf "$V"' EXIT
cc -O2 -pthread -o "$V/loop" "$(dirname "$0")/corun-loop.c"
now() { date +%s.%N; }
r=1
while [ $r -le "$R" ]; do
	for sn in "$@"; do
		s=${sn%:*} n=${sn#*:}
		"$P" record -o "$V/t" -- "$V/loop" $T $s $n > /dev/null
		"$P" predict "$V/t" --cpus 2 --format json > "$V/p.json"
		"$P" predict "$V/t" --cpus 2 --machine "$M" --working-set $s --format json > "$V/w.json"
		a=$(now); chrt -f 1 taskset -c 0,1 "$V/loop" $T $s $n > /dev/null; b=$(now)
		echo "$r size=$s n=$n pred2=$("$J" "$V/p.json" predictions.0.wall_s)" \
			"pred2w=$("$J" "$V/w.json" predictions.0.wall_s)" \
			"slowdown=$("$J" "$V/w.json" machine.corun.slowdown.1.slowdown)" \
			"real2=$(echo "$b - $a" | bc)"
	done
	r=$((r + 1))
done
