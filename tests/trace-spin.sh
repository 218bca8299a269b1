#!/bin/sh
# SPDX-License-Identifier: MIT
# Programs that keep the recording's one PU from a ready thread
# (tests/trace-spin.c): under SCHED_FIFO a thread runs until it blocks,
# and ptbench record's watch must put behind the others a thread that
# spins, a process that polls for its child, and a spin that looks like
# work, each saying so and marking the trace, and leave alone a thread
# at work.  Each must come out as it does unrecorded.
. "$top_srcdir/tests/tap.sh"
: "${TRACE_SPIN:=./tests/trace-spin}"
[ -x "$TRACE_SPIN" ] || skip_all "test program not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
preload_or_skip "$tmp"

# record NAME MODE: recorded under a 60 s limit (each of these ran until
# killed once), unrecorded, predicted
record() {
	name=$1; shift
	timeout -k 5 60 "$PTBENCH" record -o "$tmp/$name.trace" -- "$TRACE_SPIN" "$@" \
		> "$tmp/$name.out" 2> "$tmp/$name.err"
	rc=$?
	case $1 in
	burst|forkwork)           # 3 s of CPU each, nothing printed: not run again
		: > "$tmp/$name.plain"
		plain_rc=0 ;;
	*)
		(exec "$TRACE_SPIN" "$@" > "$tmp/$name.plain" 2> /dev/null)
		plain_rc=$? ;;
	esac
	"$PTBENCH" predict "$tmp/$name.trace" --cpus 1,2 --format json > "$tmp/$name.json" 2> "$tmp/$name.perr"
	prc=$?
	check "$name: status $plain_rc as unrecorded (got $rc), the same output, a complete trace ($(head -c 120 "$tmp/$name.err"))" \
		sh -c "[ $rc -eq $plain_rc ] && cmp -s '$tmp/$name.out' '$tmp/$name.plain' && [ $prc -eq 0 ]"
}
field() { "$JGET" "$tmp/$1.json" "$2"; }

# put_behind NAME WHAT: one warning that says WHAT, the trace marked, and
# --check refusing it in one line
put_behind() {
	if [ "$(field "$1" recorded.sched)" != fifo ]; then
		skip "recorded under the normal policy: no thread to put behind"
		skip "recorded under the normal policy: no mark"
		skip "recorded under the normal policy: nothing for --check to refuse"
		return
	fi
	check "  under SCHED_FIFO, one warning that a thread was put behind ($(grep -c 'put behind' "$tmp/$1.err"))" \
		test "$(grep -c "$2" "$tmp/$1.err")" = 1
	# the trace says so, its checksum kept whole: predict reads it, and
	# --check refuses it in one line
	check "  the trace marked: recorded.put_behind $(field "$1" recorded.put_behind)" \
		test "$(field "$1" recorded.put_behind)" = true
	"$PTBENCH" predict "$tmp/$1.trace" --check > /dev/null 2> "$tmp/$1.check"
	rc=$?
	check "  predict --check refuses it: exit 2 (got $rc), one line ($(head -c 100 "$tmp/$1.check"))" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l < '$tmp/$1.check') -eq 1 ] && grep -q spinning '$tmp/$1.check'"
}

# not_marked NAME WHAT: the trace of a program at work is not marked --
# where perf events are refused (burst's recording said so), work cannot
# be told from a spin or a poll, and the check is skipped
not_marked() {
	if grep -q 'not sampled' "$tmp/burst.err"; then
		skip "perf events refused: work cannot be told from a spin here"
	else
		check "  $2 ($(field "$1" recorded.put_behind); $(head -c 80 "$tmp/$1.err"))" \
			test "$(field "$1" recorded.put_behind)" = false
	fi
}

# a thread that waits by spinning on a flag, for one that has not run: on
# one PU under SCHED_FIFO it never let the other run, and the recording
# went on until killed; the spinner is now put behind it after 2 s, and
# record says so (under the normal policy the kernel's time slices do it)
record spin spin
put_behind spin 'put behind the others'

# a thread that works 3 s while one it started stands ready is not a
# spin: sampled, it is left to run (put behind, its wait behind the
# others came out as time off the CPU); where perf events are refused it
# cannot be told, and is put behind
record burst burst
not_marked burst "a thread at work 3 s is not put behind"

# a parent that polls for its child's end with WNOHANG, while the child,
# which shares the PU, would work 20 ms: the watch looked only at the
# program's own threads, and the recording went on until killed; now the
# poller is put behind the child after 2 s, its code sampled at a few
# addresses and mostly in the kernel
record pollchild pollchild
put_behind pollchild 'threads of another process stood ready'

# a parent that works 3 s while its child of 20 ms stands ready is no
# poller: put behind once, as a time slice would, and not said or marked
# (it was refused once the watch covered children, though its trace is
# right); where perf events are refused it cannot be told
record forkwork forkwork
not_marked forkwork "a parent at work is not marked"

# a spin that works 1 ms between looks at its flag, judged work at each
# look (its code spans the program and the C library's formatting of
# numbers, tests/trace-spin.c: busy_for_ns): put behind
# all the same once judged work for long (60 s; here 3 s, a test's hook)
export PTB_RECORD_TEST_LAST_MS=3000
record spinwork spinwork
unset PTB_RECORD_TEST_LAST_MS
if grep -q 'not sampled' "$tmp/spinwork.err"; then
	put_behind spinwork 'not sampled'
else
	put_behind spinwork 'sampled as work'
fi
done_testing
