#!/bin/sh
# SPDX-License-Identifier: MIT
# What recording costs at chosen event rates, what an event takes in the
# trace, and how fast predict replays: the three budgets of record and
# predict (docs/design.md section 12).
#
# The program is tests/trace-lock: 2 threads, each taking one mutex K
# times around a piece of work and working as long again outside it.  For
# each RATE (events a second, default "1000 10000 30000"), K and the work
# are sized for about 0.5 s at that rate (less past 16k a second).  Each round runs it unrecorded
# on one PU under SCHED_FIFO and recorded (`ptbench record`: one PU,
# SCHED_FIFO), one right after the other, ROUNDS times (default 7).
# The unrecorded time is measured around `chrt -f 1 taskset -c 0` and
# less that launch's own time (the median of 5 runs of `true`); the
# recorded time is the trace's, from the exec to the end; each run comes a
# second after the one before.  A line per round: rate, round, the trace's
# events, its untraced share (time its threads were off the PU unasked),
# events a second, bytes per event, both wall times and their ratio.  Then predict's replay speed on
# a trace of half a million lock and unlock pairs (tests/trace-odd pairs), the
# median of 3 replays of `predict -v`.
#
#   docs/record-overhead.sh PTBENCH TESTS-DIR ["RATES"] [ROUNDS]
set -u
P=$1 TD=$2 RATES=${3:-"1000 10000 30000"} R=${4:-7}
[ -x "$P" ] && [ -x "$TD/trace-lock" ] && [ -x "$TD/jget" ] ||
	{ echo "usage: $0 PTBENCH TESTS-DIR [\"RATES\"] [ROUNDS]" >&2; exit 2; }
chrt -f 1 true 2> /dev/null || { echo "$0: needs SCHED_FIFO (root)" >&2; exit 2; }
V=$(mktemp -d -p /dev/shm 2> /dev/null || mktemp -d)
trap 'rm -rf "$V"' EXIT
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
launch=$(for i in 1 2 3 4 5; do
	a=$(now); chrt -f 1 taskset -c 0 true; b=$(now); echo "$b - $a" | bc
done | median)
# the work's speed: a piece of WORK iterations takes inside_ns
probe=$(chrt -f 1 taskset -c 0 "$TD/trace-lock" 1 50 100000 | awk '{ print $2 }')
echo "launch_s=$launch ns_per_work_iteration=$(echo "scale=4; $probe / 100000" | bc)"
for rate in $RATES; do
	# 2 threads x K iterations: 4K pieces of work and about 8K events
	# (a lock, an unlock, and on one PU the wait and the hand-off), so a
	# piece of 2/RATE s; K for 0.5 s, at most trace-lock's 1024
	k=$(echo "$rate / 16" | bc)
	[ "$k" -gt 1024 ] && k=1024
	work=$(echo "2 * 1000000000 / $rate * 100000 / $probe" | bc)
	r=1
	while [ $r -le "$R" ]; do
		# a second's pause before each: both run under SCHED_FIFO on PU 0,
		# and two of 0.5 s in one RT period (sched_rt_runtime_us, 0.95 s of
		# each second) stopped the second for the period's rest -- the
		# recording, which came out 3-7 % slow for it (its untraced share)
		sleep 1
		a=$(now); chrt -f 1 taskset -c 0 "$TD/trace-lock" 2 "$k" "$work" > /dev/null; b=$(now)
		sleep 1
		"$P" record -o "$V/t" -- "$TD/trace-lock" 2 "$k" "$work" > /dev/null 2> "$V/err" ||
			{ echo "$0: record failed: $(head -n 1 "$V/err")" >&2; exit 1; }
		"$P" predict "$V/t" --cpus 1 --format json > "$V/p.json"
		ev=$("$TD/jget" "$V/p.json" recorded.events)
		rec=$("$TD/jget" "$V/p.json" recorded.wall_s)
		plain=$(echo "$b - $a - $launch" | bc)
		echo "rate=$rate round=$r k=$k work=$work events=$ev" \
			"untraced=$("$TD/jget" "$V/p.json" recorded.untraced_share)" \
			"events_per_s=$(echo "$ev / $rec" | bc)" \
			"bytes_per_event=$(echo "scale=2; $(wc -c < "$V/t") / $ev" | bc)" \
			"plain_s=$plain recorded_s=$rec ratio=$(echo "scale=4; $rec / $plain" | bc)"
		r=$((r + 1))
	done
done
"$P" record -o "$V/big" -- "$TD/trace-odd" pairs 500000 > /dev/null 2>&1 ||
	{ echo "$0: record of trace-odd pairs failed" >&2; exit 1; }
for i in 1 2 3; do
	"$P" predict "$V/big" --cpus 1,2,4,8 -v 2>&1 > /dev/null |
		sed -n 's/.* replayed in .* (\([0-9]*\) per s)$/\1/p'
done | median | sed 's/^/replay_ops_per_s=/'
