#!/bin/sh
# SPDX-License-Identifier: MIT
# A work queue under `ptbench record` and `ptbench predict` (docs/design.md
# "record and predict", the order of a recording): tests/trace-queue.c's
# workers take equal jobs from a queue filled at once.  On as many CPUs as
# workers the jobs go round them; the recording on one PU must hand them
# round the same way, not let the first worker take a second job before
# the others took their first.  Each worker's share is then that of a real
# run on many CPUs, and the wall time on N CPUs is the shares' fair sharing
# of N CPUs (not the thread count's speed-up: 8 jobs, 3 workers: 3 jobs'
# time on 3 CPUs or more, 4 on 2).  Within 5 %, with jobs of some 7 ms:
# the replay holds each worker's first-touch costs, which the median job
# the answer is made of does not (jobs of 2.5 ms came out 3-7 % above).
#
# tests/trace-pool.c hands its jobs one at a time to a pool that starts a
# worker only when none is free (xz's encoder): on many CPUs every job
# finds the earlier ones running until all T workers run, each doing J/T
# jobs.  The recording must see them as busy, not let the one PU run a
# job to its end before the pool looks again (it then kept two workers of
# four, and predicted 4 jobs' time on 4 CPUs where a real run takes 2).
# Its main thread's hand-overs, a hundredth of a job each, are in its
# answer: all J shared by the N CPUs, or the T + 1 that come one after the
# other before the last job starts, whichever is longer.
#
# tests/trace-feed.c feeds its jobs one at a time to workers already
# waiting, each with a signal under the queue's lock (pbzip2's reader): on
# many CPUs each signal's worker takes its job at once, and the jobs go
# round as the queue's do.  The recording must let the woken worker take
# the lock before the feeder takes it back for the next job (with 8
# workers it recorded shares such as 0, 1, 1, 1, 2, 3, 3 and 3, and
# predicted up to twice the time on 8 CPUs).  Its puts, a thousandth of a job, are left
# out of its answer.
. "$top_srcdir/tests/tap.sh"
: "${TRACE_QUEUE:=./tests/trace-queue}"
: "${TRACE_POOL:=./tests/trace-pool}"
: "${TRACE_FEED:=./tests/trace-feed}"
[ -x "$TRACE_QUEUE" ] && [ -x "$TRACE_POOL" ] && [ -x "$TRACE_FEED" ] || skip_all "test programs not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
preload_or_skip "$tmp"

# shared SHARES N: the time, in jobs, of workers with these shares on N
# CPUs shared fairly (each of k running workers at min(1, N/k) of a CPU).
shared() {
	echo "$1" | tr ' ' '\n' | sort -n | awk -v n="$2" '
		{ s[NR] = $1 }
		END { t = 0; done = 0
		      for (i = 1; i <= NR; i++) {
			      k = NR - i + 1; v = n < k ? n / k : 1
			      t += (s[i] - done) / v; done = s[i] }
		      printf "%.6f", t }'
}

# expected N: the answer on N CPUs for the shares $even and a job of $w ns.
expected() {
	awk -v j="$(shared "$even" $1)" -v w="$w" -v t=$T -v jobs=$J -v n=$1 -v pool=$what '
		BEGIN { e = j * w * 1e-9
			# a pool also hands each job over, h = w / 100
			if (pool == "pool") { h = w / 100 * 1e-9; a = e + jobs * h / n; b = e + (t + 1) * h
					      e = (a > b ? a : b) }
			printf "%.6f", e }'
}

# As in tests/trace.sh, a miss is recorded once more, saying so: a
# recording that shared its PU with other load (make check -j2, once in
# a dozen: every count 5.5 ms long, 1 CPU too) is not a defect of the
# order or the replay, which would miss both.
for case in "queue 4 10" "queue 3 8" "pool 4 8" "feed 8 14"; do
	set -- $case
	what=$1 T=$2 J=$3
	case $what in
	queue) prog=$TRACE_QUEUE ;; pool) prog=$TRACE_POOL ;; feed) prog=$TRACE_FEED ;;
	esac
	even=$(awk -v t=$T -v j=$J 'BEGIN { for (i = 0; i < t; i++) printf "%d\n", int(j / t) + (i < j % t) }' | sort -n | tr '\n' ' ')
	for attempt in 1 2; do
		"$PTBENCH" record -o "$tmp/q.trace" -- "$prog" $T $J 4000000 > "$tmp/q.out" 2> "$tmp/q.err"
		rc=$?
		read -r _ w _ shares < "$tmp/q.out"
		got=$(echo $shares | tr ' ' '\n' | sort -n | tr '\n' ' ')
		[ "$(predicted "$tmp/q.trace" 1 recorded.sched)" = fifo ] || break   # skipped below
		missed=$(misses5 "$tmp/q.trace" expected 1 2 4 8)
		[ "$got" != "$even" ] && missed="$missed shares $got;"
		[ -z "$missed" ] && break
		[ $attempt = 1 ] && diag "$what of $T workers, first recording missed ($missed) -- recording it once more"
	done
	check "record of a $what of $T workers, $J jobs: exit 0 (got $rc)" test $rc -eq 0
	if [ "$(predicted "$tmp/q.trace" 1 recorded.sched)" != fifo ]; then
		# the normal policy preempts a job anywhere: who takes which is chance
		skip "$T workers: SCHED_FIFO was not permitted (the jobs' order is the scheduler's)"
		continue
	fi
	check "the recording handed the jobs round ($got; even: $even)" test "$got" = "$even"
	for n in 1 2 4 8; do
		within5 "$what, $T workers, $J jobs, $n CPUs" "$(predicted "$tmp/q.trace" $n)" "$(expected $n)"
	done
done

# The feeder's rule must not make an unlock yield for waiters that no
# signal woke: 2000 unlocks after one signal to 4 waiters, beside a thread
# that works in 20 us steps and yields between them.  A needless yield
# finds that thread ready and is 2 events more: the recording holds some
# 5,000 events without them (2 an unlock, and the threads' own), and held
# 10,120 when every unlock yielded.
"$PTBENCH" record -o "$tmp/i.trace" -- "$TRACE_FEED" idle 2000 > "$tmp/i.out" 2> "$tmp/i.err"
rc=$?
check "record of 2000 unlocks beside 3 waiters no signal woke: exit 0 (got $rc)" test $rc -eq 0
if [ "$(predicted "$tmp/i.trace" 1 recorded.sched)" != fifo ]; then
	skip "SCHED_FIFO was not permitted: under the normal policy every release yields"
else
	ev=$(predicted "$tmp/i.trace" 1 recorded.events)
	check "  no yield at each unlock for them: under 3 events an unlock (got $ev for 2000)" \
		test "$ev" -lt 6000
fi
done_testing
