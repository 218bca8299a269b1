#!/bin/sh
# SPDX-License-Identifier: MIT
# Predictions at more CPUs than the development machine has, checked
# against real runs: docs/design.md section 12, "at 4 and 8 CPUs".  For each
# thread count T of THREADS, every program is recorded with T threads on
# one PU, predicted for T CPUs, and run for real on CPUs 0..T-1, in
# interleaved rounds; the figure to report is the median over rounds of
# pred/real.  The synthetic programs of the tests, whose wall time on N
# CPUs follows from their structure (tests/trace.sh, tests/trace-queue.sh),
# are recorded once per round with 8 threads and run for real on 1, 2, 4
# and 8 CPUs.
#
# Recordings ask for SCHED_FIFO as ptbench record does; a machine whose
# cgroup has no real-time time refuses it even to root (the probe line says
# fifo=no), and `echo $$ > /sys/fs/cgroup/cgroup.procs` first may permit it.
# Real runs use the normal policy: the machine is meant to be quiet, and
# SCHED_FIFO would be throttled past 0.95 s (see predict-validation.sh).
# REAL_SCHED=fifo runs them under SCHED_FIFO instead (chrt -f 1), which
# tells the scheduler's placement of more threads than CPUs apart from
# the replay's own error; REAL_SCHED=both runs the compressors under the
# normal policy (real) and then under SCHED_FIFO (real_f), interleaved, and
# the synthetic programs so too on 2 CPUs and more.
# Whether taskset confines a program is probed first and printed: where it
# does not (a sandboxed kernel may accept and ignore the mask), a real run
# with T threads still uses at most T CPUs of the otherwise idle machine,
# but the synthetic programs' runs on fewer CPUs than threads are void.
#
# With LIBS="A.so B.so", each program is recorded once with each
# interposer library (PTB_TRACE_LIB), and each line gives pred_1, pred_2 ...
# in that order: two recorders compared on the same real runs.  PLAIN=0
# skips the unrecorded run on one CPU (the recording overhead's reference).
#
# Real runs on N CPUs use N PUs of distinct cores where the machine has N
# cores (sysfs' thread_siblings_list), since the replay knows nothing of
# SMT siblings sharing a core; the probe line prints the PUs it takes.
# DEADLINE=S starts no round after S seconds, for a machine lent by the
# minute: every finished round is printed as it ends.
#
# With MACHINE=RESULT.json (a `ptbench run` of the target machine with
# cond.pingpong, mutex.pingpong and create) each line also gives the
# prediction with --machine, pred_m; with WORKING_SET=BYTES as well (and
# corun.table in the file) that prediction applies the co-running slowdown.
#
# CPU work may itself be slower when more CPUs are busy (a lower clock,
# host cores shared by a guest's vCPUs), which no recording on one PU can
# see.  So each line also gives the CPU time of the real run (cpu_real,
# from the shell's children's times, in clock ticks) and of the replay
# (cpu_rec), and the synthetic programs' own account of their work in the
# real run (real_printed) beside the recording's (printed).
#
# With CORUN=ROUNDS, each compressor's own co-running slowdown on this
# machine is measured in each round just before its recording (`ptbench
# corun --copies 2,4,..,T --rounds ROUNDS`, T copies at most: T threads on
# T CPUs), and each line also gives pred_c, predicted with --corun of it
# for the normal policy (pred_cf for SCHED_FIFO with REAL_SCHED=both or
# fifo), and its factor at T copies as corun (sliced: the time slices').
# Lone copies run on both sides of the copies, so a drift of the CPUs'
# speed within a round falls on both; spin, the seconds of a fixed shell
# loop on CPU 0 at the round's start, shows how far it drifts between.
#
#   [LINES=N] [LIBS=...] [PLAIN=0] [MACHINE=FILE] [DEADLINE=S] [REAL_SCHED=fifo|both]
#   [CORUN=ROUNDS] docs/predict-scaling.sh PTBENCH TESTS-DIR "THREADS" [ROUNDS]
set -u
P=$1 TD=$2 TS=${3:-"2 4 8"} R=${4:-3}
[ -x "$P" ] && [ -d "$TD" ] || { echo "usage: $0 PTBENCH TESTS-DIR \"THREADS\" [ROUNDS]" >&2; exit 2; }
J=$TD/jget
V=$(mktemp -d -p /dev/shm 2> /dev/null || mktemp -d)   # in memory: see predict-validation.sh
trap 'rm -rf "$V"' EXIT
now() { date +%s.%N; }
sub() { echo "$1 - $2" | bc; }
# the first PU of each core, in order; where there are fewer cores than
# asked for, the first N PUs
cores=$(for d in /sys/devices/system/cpu/cpu[0-9]*; do
	s=$(cat "$d/topology/thread_siblings_list" 2> /dev/null) || continue
	[ "${s%%[,-]*}" = "${d##*cpu}" ] && echo "${d##*cpu}"
done | sort -n | tr '\n' ' ')
real() {
	case ${REAL_SCHED:-other} in
	fifo) chrt -f 1 taskset -c "$@" ;;
	*) taskset -c "$@" ;;
	esac
}
# copies T: corun's counts for T threads on T CPUs (2, 4, 8 ... below T,
# and T; none for T = 1)
copies() {
	k=2 list=
	while [ $k -lt "$1" ]; do list=$list${list:+,}$k; k=$((k * 2)); done
	[ "$1" -gt 1 ] && list=$list${list:+,}$1
	echo "$list"
}
cpus() {
	set -- "$1" $cores
	[ $# -gt "$1" ] || { echo "0-$(($1 - 1))"; return; }
	echo "$@" | cut -d' ' -f2-$(($1 + 1)) | tr ' ' ','
}
start=$(date +%s)
with_machine() {
	rm -f "$3"
	[ -n "${MACHINE:-}" ] && "$P" predict "$1" --cpus "$2" --machine "$MACHINE" \
		${WORKING_SET:+--working-set "$WORKING_SET"} --format json > "$3"
}
# CPU seconds used so far by this shell's finished children, and of a
# replay: utilization x CPUs x wall time
hz=$(getconf CLK_TCK 2> /dev/null || echo 100)
kids() { sed 's/.*) //' /proc/$$/stat | awk '{ print $14 + $15 }'; }
cpu_since() { echo "scale=3; ($(kids) - $1) / $hz" | bc; }
cpu_rec() {
	echo "$("$J" "$1" predictions.$2.utilization) * $("$J" "$1" predictions.$2.cpus) * $("$J" "$1" predictions.$2.wall_s)" |
		sed 's/e-\([0-9]*\)/*10^-\1/g' | bc -l | cut -c1-6
}
jm() { [ -s "$1" ] && "$J" "$1" predictions.$2.wall_s || echo -; }

# Does taskset confine?  Two busy loops on one CPU take twice one loop's
# time (the first loop warms up and is not timed).
loop='i=0; while [ $i -lt 400000 ]; do i=$((i + 1)); done'
spin() { a=$(now); taskset -c 0 sh -c "$loop"; b=$(now); sub $b $a; }
taskset -c 0 sh -c "$loop"
a=$(now); taskset -c 0 sh -c "$loop"; b=$(now)
c=$(now); taskset -c 0 sh -c "($loop) & ($loop) & wait"; d=$(now)
echo "probe: cpus=$(nproc) kernel=$(uname -r) one_loop=$(sub $b $a) two_loops_on_cpu0=$(sub $d $c)" \
	"fifo=$(chrt -f 1 true 2> /dev/null && echo yes || echo no)" \
	"schedstat=$(test -r /proc/self/schedstat && echo yes || echo no)" \
	"pus_for_8=$(cpus 8)"

awk -v N="${LINES:-280000}" 'BEGIN{srand(42); split("GET POST PUT DELETE",m," "); split("/index.html /api/v1/users /static/app.js /login /search?q=threads /img/logo.png",u," "); for(i=0;i<N;i++){printf "2026-11-%02d %02d:%02d:%02d 10.%d.%d.%d %s %s %d %d \"Mozilla/5.0 (X11; Linux x86_64)\" req=%d\n", 1+int(rand()*28), int(rand()*24), int(rand()*60), int(rand()*60), int(rand()*255), int(rand()*255), int(rand()*255), m[1+int(rand()*4)], u[1+int(rand()*6)], (rand()<0.9?200:404), int(rand()*50000), i}}' > "$V/data.txt"
# pigz -d: one inflating thread whatever -p says, its speed-up not the
# thread count (predict-validation.sh)
pigz -9 -c < "$V/data.txt" > "$V/data.gz" 2> /dev/null || rm -f "$V/data.gz"

# record_each NAME CPUS COMMAND...: record with each library, predict for
# CPUS into $V/NAME.K.json (K = 1, 2, ... in LIBS' order)
record_each() {
	trace=$1 list=$2; shift 2
	k=1
	for lib in ${LIBS:-default}; do
		[ "$lib" = default ] && unset PTB_TRACE_LIB || export PTB_TRACE_LIB="$lib"
		"$P" record -o "$V/$trace.trace" -- "$@" < "$STDIN" > "$V/$trace.out" 2> "$V/$trace.err"
		"$P" predict "$V/$trace.trace" --cpus "$list" --format json > "$V/$trace.$k.json"
		k=$((k + 1))
	done
	unset PTB_TRACE_LIB
}
# preds NAME INDEX: each library's prediction
preds() {
	k=1
	for lib in ${LIBS:-default}; do
		printf ' pred_%d=%s' $k "$("$J" "$V/$1.$k.json" predictions.$2.wall_s)"
		k=$((k + 1))
	done
}

# synthetic: 8 threads, predicted and exact for 1, 2, 4, 8 CPUs
synthetic() {
	name=$1; shift
	record_each $name 1,2,4,8 "$@"
	with_machine "$V/$name.trace" 1,2,4,8 "$V/sm.json"
	k=0
	for n in 1 2 4 8; do
		k0=$(kids); a=$(now); real "$(cpus $n)" "$@" > "$V/real.out"; b=$(now)
		cpu_real=$(cpu_since $k0)
		more=
		# under SCHED_FIFO too, where a woken thread goes to a PU that runs
		# none (wake.placement); not on 1 CPU, where over 0.95 s of it
		# would be throttled
		if [ "${REAL_SCHED:-other}" = both ] && [ $n -gt 1 ]; then
			sleep 1
			e=$(now)
			if chrt -f 1 taskset -c "$(cpus $n)" "$@" > /dev/null; then
				f=$(now); more=" real_f=$(sub $f $e)"
			else
				more=" real_f=-"
			fi
		fi
		echo "$r $name cpus=$n$(preds $name $k) pred_m=$(jm "$V/sm.json" $k) real=$(sub $b $a)" \
			"cpu_rec=$(cpu_rec "$V/$name.1.json" $k) cpu_real=$cpu_real$more" \
			"printed=$(cat "$V/$name.out") real_printed=$(cat "$V/real.out")"
		k=$((k + 1))
	done
}

STDIN=/dev/null
r=1
while [ $r -le "$R" ]; do
	[ $r -gt 1 ] && [ -n "${DEADLINE:-}" ] && [ $(($(date +%s) - start)) -ge "$DEADLINE" ] && break
	echo "$r spin=$(spin)"
	synthetic phases "$TD/trace-phases" 8 8 6000000 3200000
	synthetic lock "$TD/trace-lock" 8 60 600000
	synthetic queue "$TD/trace-queue" 8 20 6000000
	synthetic pool "$TD/trace-pool" 8 16 6000000
	for t in $TS; do
		for name in pigz pbzip2 xz zstd pigz-d lbzip2 plzip; do
			command -v ${name%-d} > /dev/null || continue
			in=$V/data.txt
			case $name in
			pigz-d) cmd="pigz -d -p $t -c" in=$V/data.gz ;;
			pigz) cmd="pigz -9 -p $t -c" ;; pbzip2) cmd="pbzip2 -p$t -c" ;;
			xz) cmd="xz -1 -T$t -c" ;; zstd) cmd="zstd -12 -T$t -c" ;;
			lbzip2) cmd="lbzip2 -n $t -c" ;; plzip) cmd="plzip -1 -n $t -c" ;;
			esac
			rm -f "$V/c.corun"
			[ -z "${CORUN:-}" ] || [ -z "$(copies $t)" ] ||
				"$P" corun --copies "$(copies $t)" --rounds "$CORUN" --input "$in" \
					-o "$V/c.corun" -- $cmd > /dev/null 2> "$V/c.err" || rm -f "$V/c.corun"
			STDIN=$in
			record_each t "$t" $cmd
			STDIN=/dev/null
			with_machine "$V/t.trace" "$t" "$V/pm.json"
			k0=$(kids); a=$(now); real "$(cpus $t)" $cmd < "$in" > "$V/real.out"; b=$(now)
			cpu_real=$(cpu_since $k0)
			more=
			if [ "${REAL_SCHED:-other}" = both ]; then
				sleep 1         # see predict-validation.sh: FIFO runs back to back
				e=$(now)
				if chrt -f 1 taskset -c "$(cpus $t)" $cmd < "$in" > /dev/null; then
					f=$(now); more=" real_f=$(sub $f $e)"
				else
					more=" real_f=-"
				fi
			fi
			if [ -s "$V/c.corun" ]; then
				rm -f "$V/c.json" "$V/cf.json"
				"$P" predict "$V/t.trace" --cpus "$t" --corun "$V/c.corun" --format json > "$V/c.json"
				"$P" predict "$V/t.trace" --cpus "$t" --corun "$V/c.corun" --sched fifo \
					--format json > "$V/cf.json"
				more="$more pred_c=$(jm "$V/c.json" 0) pred_cf=$(jm "$V/cf.json" 0)"
				more="$more corun=$("$J" "$V/c.corun" slowdown.$(($(copies $t | tr -cd , | wc -c) + 1)).factor)"
				more="$more sliced=$("$J" "$V/c.corun" sliced.factor || echo null)"
				more="$more corun_warning=$(grep -c warning "$V/c.err")"
			fi
			plain=-
			if [ "${PLAIN:-1}" != 0 ]; then
				c=$(now); taskset -c 0 $cmd < "$in" > /dev/null; d=$(now)
				plain=$(sub $d $c)
			fi
			cmp -s "$V/t.out" "$V/real.out" && same=same || same=DIFFERENT
			echo "$r $name threads=$t recorded_threads=$("$J" "$V/t.1.json" recorded.threads)" \
				"sched=$("$J" "$V/t.1.json" recorded.sched)" \
				"events=$("$J" "$V/t.1.json" recorded.events)" \
				"trace_wall=$("$J" "$V/t.1.json" recorded.wall_s) plain1=$plain" \
				"remote_wake=$("$J" "$V/t.1.json" remote_wake.seconds)" \
				"$(preds t 0) pred_m=$(jm "$V/pm.json" 0) real=$(sub $b $a) output=$same" \
				"cpu_rec=$(cpu_rec "$V/t.1.json" 0) cpu_real=$cpu_real" \
				"warning=$(grep -c warning "$V/t.err")$more"
		done
	done
	r=$((r + 1))
done
