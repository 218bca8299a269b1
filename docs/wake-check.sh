#!/bin/sh
# SPDX-License-Identifier: MIT
# The remote wake-up that `ptbench predict` charges, against real runs
# timed by a program of its own (docs/wake-check.c): in each of ROUNDS
# rounds, record PROGRAM on one PU and predict it on 2 CPUs, then run it
# on CPUs 0-1 and on PU 0 alone, both under SCHED_FIFO, with the check
# preloaded.  One line per round: the replay's charged wake-ups, their
# cost and latency as record measured them, then the two runs' lines
# (docs/wake-check.c says what each figure is).
#
# On the 2-vCPU development guest, pigz -d -p 2 (docs/design.md section
# 12, "The remote wake-up in real runs"): 4,562-4,572 slow signals by the
# main thread in each run on 2 CPUs, against 4,988-5,059 charged.
#
#   docs/wake-check.sh PTBENCH ROUNDS INPUT -- PROGRAM [ARGS...]
set -e
P=$1 R=$2 IN=$3
[ -x "$P" ] && [ "$4" = -- ] && [ -r "$IN" ] ||
	{ echo "usage: $0 PTBENCH ROUNDS INPUT -- PROGRAM [ARGS...]" >&2; exit 2; }
shift 4
J=$(dirname "$P")/tests/jget
V=$(mktemp -d -p /dev/shm 2> /dev/null || mktemp -d)
trap 'rm -rf "$V"' EXIT
cc -O2 -shared -fPIC -o "$V/wake-check.so" "$(dirname "$0")/wake-check.c" -ldl
now() { date +%s.%N; }
r=1
while [ "$r" -le "$R" ]; do
	"$P" record -o "$V/t" -- "$@" < "$IN" > /dev/null
	"$P" predict "$V/t" --cpus 2 --format json > "$V/p.json"
	sleep 1
	a=$(now)
	WAKE_CHECK_OUT=$V/two LD_PRELOAD=$V/wake-check.so chrt -f 1 taskset -c 0,1 "$@" < "$IN" > /dev/null
	b=$(now)
	sleep 1
	d=$(now)
	WAKE_CHECK_OUT=$V/one LD_PRELOAD=$V/wake-check.so chrt -f 1 taskset -c 0 "$@" < "$IN" > /dev/null
	c=$(now)
	echo "$r pred2=$("$J" "$V/p.json" predictions.0.wall_s)" \
		"charged=$("$J" "$V/p.json" predictions.0.remote_wakes)" \
		"wake_us=$(awk -v s="$("$J" "$V/p.json" remote_wake.seconds)" 'BEGIN { printf "%.2f", s * 1e6 }')" \
		"latency_us=$(awk -v s="$("$J" "$V/p.json" remote_wake.latency_seconds)" 'BEGIN { printf "%.2f", s * 1e6 }')"
	echo "$r two real2=$(echo "$b - $a" | bc) $(tail -n 1 "$V/two")"
	echo "$r one plain1=$(echo "$c - $d" | bc) $(tail -n 1 "$V/one")"
	r=$((r + 1))
done
