#!/bin/sh
# SPDX-License-Identifier: MIT
# How the figures of docs/design.md section 12 were made: compressors
# nobody here wrote, recorded on one PU and predicted for 2 CPUs, against
# real runs on 2 CPUs, in interleaved rounds.  Each round records, predicts,
# runs on CPUs 0-1 and runs unrecorded on CPU 0, all under SCHED_FIFO (as
# root) so that other load on the machine touches neither side; it prints
# one line per program and round.  The ratio to report is the median over
# rounds of pred2/real2; trace_wall/plain1 is the recording's overhead.
#
# SCHED_FIFO shields the real runs from other load, but the kernel keeps
# a share of every CPU for other tasks (sched_rt_runtime_us out of
# sched_rt_period_us, 950000 of 1000000 by default): a FIFO program that
# runs longer than 0.95 s of a period is stopped for the rest of it, and a
# real run of several seconds gets 95 % of its CPUs -- 5 % slower than on
# CPUs of its own, which the prediction is for.  The recording is
# corrected for it (its bursts are scaled to the CPU time it had); the
# real runs are not, so LINES (default 280000, about 30 MB) keeps each real
# run on 2 CPUs under one period, and a line says "throttled" otherwise.
#
# With MACHINE=RESULT.json (a ptbench run of this machine holding the
# corun points and the costs), each line also has pred2m, predicted with
# --machine alone (the wake-up, hand-off and creation costs), and pred2w,
# with --working-set as well: the unrecorded run's peak resident set over
# THREADS (its working set per thread, by the one rule that needs no
# counters), and that size as ws.
#
# lbzip2 and plzip run where installed: two more compressors nobody here
# wrote, threaded otherwise (lbzip2's work queue with its many condition
# variables, exiting by _exit; plzip's splitter, workers and muxer).
#
# pigz -d is there too, a program whose speed-up is not its thread count:
# its one inflating thread hands every 32 KB to a writer and a checker
# (the input is the text five times over, compressed by pigz -9).  Each line also has
# pred2f, the prediction without the remote wake-up cost that record
# measured (--remote-wake 0), that cost as wake_us, and the woken
# thread's latency record measured as wake_lat_us.
#
# With LIBS="A.so B.so", each program is recorded once with each
# interposer library (PTB_TRACE_LIB) and the line gives pred2_1, pred2_2
# ... in that order: two recorders compared on the same real runs.
#
# CPU work may cost more on 2 CPUs than on one (two threads competing for
# the shared cache and the memory bus), which no recording on one PU sees.
# So each line also gives the CPU time (user + system, s) of the real run
# real2 (cpu2) and of the unrecorded run on one PU (cpu1).
# With CORUN=ROUNDS, each program's own co-running slowdown is measured
# first, once (`ptbench corun --copies 2 --rounds ROUNDS`; a line "corun"
# each), and each line also has pred2c, predicted with `--corun` of it
# for a run under SCHED_FIFO (`--sched fifo`), pred2s for one under the
# normal policy (the time slices' cost that corun measured charged as
# well), and the two factors as corun and sliced.  ROUNDS 0 (the third
# argument) measures only those.  CORUN_EACH=1 measures them again in
# every round, just before the recording, instead of once at the start:
# whether a figure measured minutes before the real runs still holds for
# them, on a machine whose co-running loss drifts.
# DEADLINE=S starts no round after S seconds (a machine lent by the minute).
#
#   [LINES=N] [MACHINE=FILE] [LIBS=...] [REAL_SCHED=other|both] [CORUN=R [CORUN_EACH=1]]
#   [DEADLINE=S]
#       docs/predict-validation.sh PTBENCH THREADS [ROUNDS]
set -e
P=$1 T=${2:-2} R=${3:-3}
[ -x "$P" ] || { echo "usage: $0 PTBENCH THREADS [ROUNDS]" >&2; exit 2; }
RT=$(cat /proc/sys/kernel/sched_rt_runtime_us 2> /dev/null || echo -1)
# REAL_SCHED=other: the real runs on 2 CPUs under the normal policy (a
# quiet machine), which shares the CPUs among more runnable threads than
# CPUs as the replay does; SCHED_FIFO runs each to its next wait
REAL="chrt -f 1"
[ "${REAL_SCHED:-fifo}" = other ] && REAL= RT=-1
# REAL_SCHED=both: each round runs the real program under SCHED_FIFO (real2)
# and then under the normal policy (real2o), the two policies interleaved
J=$(dirname "$P")/tests/jget
# the files in memory where there is a tmpfs: a disk's writeback is load
# that neither side can predict (on the development VM, ext4 mounted with
# discard, a freshly written 30 MB file made the next runs of pigz -d up to
# 30 % slower, in spells)
V=$(mktemp -d -p /dev/shm 2> /dev/null || mktemp -d)
trap 'rm -rf "$V"' EXIT
# about 30 MB of log-like text (75 MB for LINES=700000)
awk -v N="${LINES:-280000}" 'BEGIN{srand(42); split("GET POST PUT DELETE",m," "); split("/index.html /api/v1/users /static/app.js /login /search?q=threads /img/logo.png",u," "); for(i=0;i<N;i++){printf "2026-11-%02d %02d:%02d:%02d 10.%d.%d.%d %s %s %d %d \"Mozilla/5.0 (X11; Linux x86_64)\" req=%d\n", 1+int(rand()*28), int(rand()*24), int(rand()*60), int(rand()*60), int(rand()*255), int(rand()*255), int(rand()*255), m[1+int(rand()*4)], u[1+int(rand()*6)], (rand()<0.9?200:404), int(rand()*50000), i}}' > "$V/data.txt"
# pigz -d's input: the text five times over, compressed (the text once made
# runs of 70 ms on 2 CPUs here, whose ratios spread by 0.3 between rounds)
for i in 1 2 3 4 5; do cat "$V/data.txt"; done | pigz -9 -c > "$V/data.gz" 2> /dev/null ||
	rm -f "$V/data.gz"
now() { date +%s.%N; }
# command NAME: the command line of program NAME, its input in $in
command_of() {
	in=$V/data.txt
	case $1 in
	pigz-d) cmd="pigz -d -p $T -c" in=$V/data.gz ;;
	pigz) cmd="pigz -9 -p $T -c" ;; pbzip2) cmd="pbzip2 -p$T -c" ;;
	xz) cmd="xz -1 -T$T -c" ;; zstd) cmd="zstd -12 -T$T -c" ;;
	lbzip2) cmd="lbzip2 -n $T -c" ;; plzip) cmd="plzip -1 -n $T -c" ;;
	esac
}
programs="pigz pbzip2 xz zstd pigz-d lbzip2 plzip"
start=$(date +%s)       # DEADLINE counts the corun figures' time too
# corun_of NAME [ROUND]: measure program NAME's co-running figures into
# $V/NAME.corun and print them on a line "corun" (ROUND: the round's number)
corun_of() {
	"$P" corun --copies 2 --rounds "$CORUN" --input "$in" -o "$V/$1.corun" -- $cmd > /dev/null
	echo "corun${2:+ $2} $1 threads=$T factor=$("$J" "$V/$1.corun" slowdown.1.factor)" \
		"min=$("$J" "$V/$1.corun" slowdown.1.min) max=$("$J" "$V/$1.corun" slowdown.1.max)" \
		"alone_cpu_s=$("$J" "$V/$1.corun" alone_cpu_s.0)" \
		"sliced=$("$J" "$V/$1.corun" sliced.factor || echo null)"
}
if [ -n "${CORUN:-}" ] && [ -z "${CORUN_EACH:-}" ]; then
	for name in $programs; do
		command -v ${name%-d} > /dev/null || continue
		command_of $name
		corun_of $name
	done
fi
# the user and system seconds /usr/bin/time wrote to $1
cpu() { awk '{ printf "%.2f", $1 + $2 }' "$1"; }
r=1
while [ $r -le "$R" ]; do
	[ $r -gt 1 ] && [ -n "${DEADLINE:-}" ] && [ $(($(date +%s) - start)) -ge "$DEADLINE" ] && break
	for name in $programs; do
		command -v ${name%-d} > /dev/null || continue
		command_of $name
		[ -z "${CORUN:-}" ] || [ -z "${CORUN_EACH:-}" ] || corun_of $name $r
		k=1 preds=
		for lib in ${LIBS:-default}; do
			[ "$lib" = default ] && unset PTB_TRACE_LIB || export PTB_TRACE_LIB="$lib"
			"$P" record -o "$V/t" -- $cmd < "$in" > "$V/rec.out"
			"$P" predict "$V/t" --cpus 1,2 --format json > "$V/p.json"
			[ -z "${LIBS:-}" ] || preds="$preds pred2_$k=$("$J" "$V/p.json" predictions.1.wall_s)"
			k=$((k + 1))
		done
		unset PTB_TRACE_LIB
		# a second's pause: a SCHED_FIFO run on CPUs 0-1 just after a
		# recording was at times serial (zstd -T4: 0.90-0.98 s in 2 of 5
		# tries, 0.55-0.59 a second later), what of the recording lingers
		# not established
		sleep 1
		a=$(now); /usr/bin/time -f "%U %S" -o "$V/cpu2" $REAL taskset -c 0,1 $cmd < "$in" > "$V/real.out"; b=$(now)
		if [ "${REAL_SCHED:-fifo}" = both ]; then
			sleep 1
			e=$(now); taskset -c 0,1 $cmd < "$in" > /dev/null; f=$(now)
			more=" real2o=$(echo "$f - $e" | bc)"
		else
			more=
		fi
		c=$(now); /usr/bin/time -f "%U %S %M" -o "$V/rss" chrt -f 1 taskset -c 0 $cmd < "$in" > /dev/null; d=$(now)
		more="$more cpu2=$(cpu "$V/cpu2") cpu1=$(cpu "$V/rss")"
		"$P" predict "$V/t" --cpus 2 --remote-wake 0 --format json > "$V/f.json"
		more="$more pred2f=$("$J" "$V/f.json" predictions.0.wall_s)"
		more="$more wake_us=$(awk -v s="$("$J" "$V/p.json" remote_wake.seconds)" \
			'BEGIN { printf "%.2f", s * 1e6 }')"
		more="$more wake_lat_us=$(awk -v s="$("$J" "$V/p.json" remote_wake.latency_seconds)" \
			'BEGIN { printf "%.2f", s * 1e6 }')"
		if [ -n "${CORUN:-}" ]; then
			"$P" predict "$V/t" --cpus 2 --corun "$V/$name.corun" --sched fifo \
				--format json > "$V/c.json"
			"$P" predict "$V/t" --cpus 2 --corun "$V/$name.corun" --format json > "$V/s.json"
			more="$more pred2c=$("$J" "$V/c.json" predictions.0.wall_s)"
			more="$more pred2s=$("$J" "$V/s.json" predictions.0.wall_s)"
			more="$more corun=$("$J" "$V/$name.corun" slowdown.1.factor)"
			more="$more sliced=$("$J" "$V/$name.corun" sliced.factor || echo null)"
		fi
		if [ -n "$MACHINE" ]; then
			ws=$(( $(awk '{ print $3 }' "$V/rss") / T ))K
			"$P" predict "$V/t" --cpus 2 --machine "$MACHINE" --format json > "$V/m.json"
			"$P" predict "$V/t" --cpus 2 --machine "$MACHINE" --working-set $ws \
				--format json > "$V/w.json"
			more="$more pred2m=$("$J" "$V/m.json" predictions.0.wall_s) ws=$ws"
			more="$more pred2w=$("$J" "$V/w.json" predictions.0.wall_s)"
		fi
		cmp -s "$V/rec.out" "$V/real.out" && same=same || same=DIFFERENT
		thr=$(echo "$b - $a > $RT / 1000000" | bc -l)
		[ "$RT" -lt 0 ] || [ "$thr" -eq 0 ] && thr= || thr=" throttled"
		echo "$r $name threads=$("$J" "$V/p.json" recorded.threads)" \
			"events=$("$J" "$V/p.json" recorded.events)" \
			"bytes=$(wc -c < "$V/t") trace_wall=$("$J" "$V/p.json" recorded.wall_s)" \
			"pred2=$("$J" "$V/p.json" predictions.1.wall_s)$preds" \
			"real2=$(echo "$b - $a" | bc) plain1=$(echo "$d - $c" | bc)$more output=$same$thr"
	done
	r=$((r + 1))
done
