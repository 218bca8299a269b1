#!/bin/sh
# SPDX-License-Identifier: MIT
# ptbench profile on programs whose answer is known (tests/profile-prog.c):
# a strict ping-pong of one line is true sharing with one read and one
# write miss per handoff; adjacent ints written by two threads are false
# sharing, the same ints a line apart are nothing; a heap block is charged
# to the line that allocated it; two runs agree; the program's output, exit
# status and crash pass through; bad input is one line and exit 2.
# Mutexes, condition waits and barriers are ordered in logical time.
. "$top_srcdir/tests/tap.sh"
[ "$PTB_HAVE_PROFILE" = yes ] || skip_all "ptbench was built without the profiler (no Valgrind tool files)"
prog=$PROFILE_PROG
[ -x "$prog" ] || skip_all "no $prog"
work=$(mktemp -d "${TMPDIR:-/tmp}/ptb-profile.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1

prof() {   # prof OUT [OPTION...] -- PROGRAM ARGS: the JSON result in OUT
	out=$1; shift
	"$PTBENCH" profile --format json -o "$out" "$@" >"$out.stdout" 2>"$out.err"
}
idx() { "$JGET" "$1" 'objects.*.name' | awk -v n="$2" '$0 == n { print NR - 1; exit }'; }
obj() { "$JGET" "$1" "objects.$(idx "$1" "$2").$3"; }          # FILE NAME FIELD
thr() { "$JGET" "$1" "objects.$(idx "$1" "$2").threads.$(($3 - 1)).$4"; }  # FILE NAME THREAD FIELD
within() { [ -n "$1" ] && [ "$1" -ge "$2" ] && [ "$1" -le "$3" ]; }

# Ping-pong: threads 2 and 3 hand the line over N times each.
n=300
prof pp.json -- "$prog" pingpong $n
check "ping-pong: a ptbench-profile/1 document" test "$("$JGET" pp.json schema)" = ptbench-profile/1
for t in 2 3; do
	r=$(thr pp.json pingpong $t read_misses); w=$(thr pp.json pingpong $t write_misses)
	check "ping-pong: thread $t has $n +- 2 read misses ($r) and write misses ($w)" \
		sh -c "[ $r -ge $((n - 2)) ] && [ $r -le $((n + 2)) ] && [ $w -ge $((n - 2)) ] && [ $w -le $((n + 2)) ]"
done
check "ping-pong: true sharing" test "$(obj pp.json pingpong verdict)" = "true sharing"

# --follow-affinity: the ping-pong's threads pinned to one CPU share its
# cache (no coherence miss on the line); pinned to two, they hand it over
# N times, as without the option.
prof pin1.json --follow-affinity -- "$prog" pinned1 $n
a=$(idx pin1.json pingpong); m=0
[ -n "$a" ] && m=$(( $(obj pin1.json pingpong read_misses) + $(obj pin1.json pingpong write_misses) ))
check "--follow-affinity, both threads on one CPU: 0 coherence misses on the line ($m)" test "$m" = 0
prof pin1n.json -- "$prog" pinned1 $n
r=$(thr pin1n.json pingpong 2 read_misses)
check "the same without --follow-affinity: a cache per thread, $n +- 2 read misses ($r)" within "$r" $((n - 2)) $((n + 2))
prof pin2.json --follow-affinity -- "$prog" pinned2 $n
if [ "$("$JGET" pin2.json exit_status)" = 3 ]; then
	skip "--follow-affinity on two CPUs: the program may use only one here"
else
	for t in 2 3; do
		r=$(thr pin2.json pingpong $t read_misses); w=$(thr pin2.json pingpong $t write_misses)
		check "--follow-affinity, two CPUs: thread $t has $n +- 2 read ($r) and write misses ($w)" \
			sh -c "[ $r -ge $((n - 2)) ] && [ $r -le $((n + 2)) ] && [ $w -ge $((n - 2)) ] && [ $w -le $((n + 2)) ]"
	done
fi

# Adjacent ints: false sharing; in lockstep of one instruction every
# increment moves the line.
n=20000
prof adj1.json --quantum 1 -- "$prog" adjacent $n
for t in 2 3; do
	w=$(thr adj1.json adjacent $t write_misses)
	check "adjacent, --quantum 1: thread $t has >= $((n / 2)) write misses ($w)" within "$w" $((n / 2)) $((4 * n))
done
check "adjacent, --quantum 1: false sharing" test "$(obj adj1.json adjacent verdict)" = "false sharing"
prof adj.json -- "$prog" adjacent $n
m=$(( $(obj adj.json adjacent read_misses) + $(obj adj.json adjacent write_misses) ))
check "adjacent, default quantum: >= $((n / 500)) misses in all ($m)" within "$m" $((n / 500)) $((8 * n))
check "adjacent, default quantum: false sharing" test "$(obj adj.json adjacent verdict)" = "false sharing"
check "adjacent: the misses are on the increments' line" \
	sh -c "'$JGET' adj.json 'objects.$(idx adj.json adjacent).lines.0.line' | grep -q '^profile-prog.c:'"

# Two runs give the same counts.
prof adj2.json -- "$prog" adjacent $n
check "two runs give the same counts" \
	test "$("$JGET" adj.json "objects.$(idx adj.json adjacent).threads")" = \
	     "$("$JGET" adj2.json "objects.$(idx adj2.json adjacent).threads")"

# The same ints 64 bytes apart: nothing flagged.
prof apart.json -- "$prog" apart $n
flagged=$("$JGET" apart.json 'objects.*.verdict' | grep -vc '^none$')
check "apart: no object flagged ($flagged)" test "$flagged" = 0
a=$(idx apart.json apart)
m=0
[ -n "$a" ] && m=$(( $(obj apart.json apart read_misses) + $(obj apart.json apart write_misses) ))
check "apart: <= 16 coherence misses on it ($m)" test "$m" -le 16
# ... but a 128-byte line holds both.
prof apart128.json --line-size 128 -- "$prog" apart $n
check "apart, --line-size 128: false sharing" test "$(obj apart128.json apart verdict)" = "false sharing"
check "apart, --line-size 128: recorded" test "$("$JGET" apart128.json line_size)" = 128

# A malloc'd block: charged to the line that allocated it.
line=$(grep -n 'the heap site' "$top_srcdir/tests/profile-prog.c" | cut -d: -f1)
prof heap.json -- "$prog" heap $n
check "heap: the block is named by its allocation site" test "$(obj heap.json "profile-prog.c:$line" kind)" = heap
check "heap: false sharing" test "$(obj heap.json "profile-prog.c:$line" verdict)" = "false sharing"
check "heap: its stack starts in main" sh -c "'$JGET' heap.json 'objects.$(idx heap.json "profile-prog.c:$line").stack.0' | grep -q '^main profile-prog.c:$line'"

# A counter under a mutex: what moves is true sharing, the mutex included.
# The acquisitions are ordered in logical time (profile/locks.c): the two
# threads take turns, so the lock's line moves about once per increment
# (before, the model let both inside at once and it hardly moved), and two
# runs agree within 2 %.
n=20000
prof mutex.json -- "$prog" mutex $n
t=0; f=0
for o in lock counter; do
	[ -n "$(idx mutex.json $o)" ] || continue
	t=$((t + $(obj mutex.json $o true_sharing))); f=$((f + $(obj mutex.json $o false_sharing)))
	check "mutex: $o is not called false sharing" test "$(obj mutex.json $o verdict)" != "false sharing"
done
check "mutex: >= 95 % of the lock's and counter's misses are true sharing ($t true, $f false)" \
	test $((t + f)) -gt 0 -a $((100 * t)) -ge $((95 * (t + f)))
check "mutex: the program's exit status 0" test "$("$JGET" mutex.json exit_status)" = 0
for t in 2 3; do
	r=$(thr mutex.json lock $t read_misses)
	check "mutex: thread $t's lock misses follow the handoffs (>= $((n / 2)): $r)" within "$r" $((n / 2)) $((2 * n))
done
check "mutex: every acquisition waited for its turn" test "$("$JGET" mutex.json unordered_locks)" = 0
prof mutex2.json -- "$prog" mutex $n
a=$(( $(obj mutex.json lock read_misses) + $(obj mutex.json lock write_misses) ))
b=$(( $(obj mutex2.json lock read_misses) + $(obj mutex2.json lock write_misses) ))
check "mutex: two runs within 2 % ($a, $b)" test $((100 * (a > b ? a - b : b - a))) -le $((2 * a))

# A baton passed under a mutex with a condition variable: the program
# alternates, so the lock's and the baton's lines move once per turn each;
# the wait's release and retaking of the mutex keep the order (no
# acquisition unordered, the counter right, two runs within 2 %).
n=3000
prof cv.json -- "$prog" condvar $n
check "condvar: the program's exit status 0 (the counter right)" test "$("$JGET" cv.json exit_status)" = 0
check "condvar: every acquisition waited for its turn" test "$("$JGET" cv.json unordered_locks)" = 0
for o in lock baton; do
	r=$(obj cv.json $o read_misses)
	check "condvar: $o moves about once a turn ($r of $((2 * n)))" within "$r" $((2 * n - 8)) $((2 * n + 8))
	check "condvar: $o is true sharing" test "$(obj cv.json $o verdict)" = "true sharing"
done
prof cv2.json -- "$prog" condvar $n
a=$(obj cv.json lock read_misses); b=$(obj cv2.json lock read_misses)
check "condvar: two runs within 2 % ($a, $b)" test $((100 * (a > b ? a - b : b - a))) -le $((2 * a))

# The study's radix sort: a lock per histogram entry (Version I) moves the
# lock's and globalCnt's lines several times as often as one lock around
# the loop (Version II), whose critical sections follow one another.
for v in 1 2; do
	prof radix$v.json -- "$PROFILE_RADIX" $v 1024
	check "radix sort, Version $v: sorted (exit 0)" test "$("$JGET" radix$v.json exit_status)" = 0
done
rm1() { echo $(( $(obj "$1" "$2" read_misses) + $(obj "$1" "$2" write_misses) )); }
m1=$(rm1 radix1.json lock); m2=$(rm1 radix2.json lock)
g1=$(rm1 radix1.json globalCnt); g2=$(rm1 radix2.json globalCnt)
check "radix sort: Version I's lock misses ($m1) >= 5 x Version II's ($m2)" test "$m1" -ge $((5 * m2))
check "radix sort, Version II: the lock moves a few times a pass ($m2 <= 64)" test "$m2" -le 64
check "radix sort: Version I's lock + globalCnt ($((m1 + g1))) >= 3 x Version II's ($((m2 + g2)))" \
	test $((m1 + g1)) -ge $((3 * (m2 + g2)))
check "radix sort: Version I's globalCnt moves more ($g1) than Version II's ($g2)" test "$g1" -gt $((2 * g2))
check "radix sort, Version I: the lock is true sharing" test "$(obj radix1.json lock verdict)" = "true sharing"
# Strict turns, as the mutexes are ordered in logical time: each thread's
# lock line moves at nearly every one of its 4 x 256 additions.  The
# program's start (the main thread spins with sched_yield until the other
# runs), a barrier's waiter that Valgrind had not yet put to sleep and a
# waiter woken by the releaser used to decide the phase by Valgrind's
# schedule (one run in ten some 20 to 40 % lower); now two runs agree but
# for the C library's own retries inside a contended lock (a miss or two).
for t in 1 2; do
	r=$(thr radix1.json lock $t read_misses)
	check "radix sort, Version I: thread $t's lock moves at each addition ($r in 1000..1100)" within "$r" 1000 1100
done
prof radix1b.json -- "$PROFILE_RADIX" 1 1024
for o in lock globalCnt; do
	a=$(rm1 radix1.json $o); b=$(rm1 radix1b.json $o)
	check "radix sort, Version I: two runs agree within 0.5 % on $o ($a, $b)" \
		test $((200 * (a > b ? a - b : b - a))) -le "$a"
done

# --cache: finite LRU caches; a working set beyond them misses on its own.
prof lru.json --cache 1K:2:64 -- "$prog" apart $n
check "--cache: recorded" test "$("$JGET" lru.json cache.size):$("$JGET" lru.json cache.ways)" = 1024:2
check "--cache: no coherence verdict from replacement" test "$("$JGET" lru.json 'objects.*.verdict' | grep -vc '^none$')" = 0
prof lru32.json --cache 16K:4:32 -- "$PROFILE_RADIX" 2 1024
r=$("$JGET" lru32.json 'thread_totals.*.replacement_misses' | awk '{ s += $1 } END { print s + 0 }')
check "--cache 16K:4:32: the radix sort's 8 KiB buffers and more replace lines ($r)" test "$r" -gt 0
check "--cache 16K:4:32: 32-byte lines" test "$("$JGET" lru32.json line_size)" = 32

# A thread stalled in a system call the profiler does not take for a wait
# holds back the merge; the others' buffers stop at 2 M events each and are
# merged anyway (said, not hidden) instead of growing.
"$PTBENCH" profile -- "$prog" stall 3000000 >stall.out 2>stall.err; rc=$?
check "stalled thread: the run ends (exit $rc)" test $rc = 0
check "stalled thread: forced merges are said" grep -q '^note: [1-9][0-9]* merges were forced' stall.out

# A region of interest (profile/ptbench-profile.h): only what follows
# PTBPROF_START() counts.
prof roi.json -- "$prog" roi 200
check "region of interest: the ping-pong after the start counts" test "$(obj roi.json pingpong verdict)" = "true sharing"
check "region of interest: the false sharing before it does not" test -z "$(idx roi.json adjacent)"

# A wrapper that execs the program: the program is profiled.
prof wrap.json -- /bin/sh -c "exec '$prog' adjacent 20000"
check "a wrapper that execs: the program's objects" test "$(obj wrap.json adjacent verdict)" = "false sharing"

# Output, exit status and crash pass through.
"$PTBENCH" profile -- "$prog" exit 7 >exit.out 2>exit.err; rc=$?
check "exit status passes through (7: $rc)" test $rc = 7
check "the program's output passes through" grep -q '^exiting with 7$' exit.out
check "the table follows" grep -q '^object ' exit.out
"$PTBENCH" profile -- "$prog" crash >crash.out 2>crash.err; rc=$?
check "a crash is 128 + the signal ($rc)" test $rc = 139
check "a crash is reported" grep -q 'killed by signal 11' crash.err

# Bad input: one line on stderr, exit 2, the program not run.
bad() {
	what=$1; shift
	"$PTBENCH" profile "$@" >bad.out 2>bad.err; rc=$?
	check "$what: exit 2 ($rc)" test $rc = 2
	check "$what: one line on stderr" test "$(wc -l <bad.err)" = 1
	check "$what: the program did not run" test ! -s bad.out
}
: >data.txt
bad "no program"              --
bad "a missing program"       -- ./no-such-program
bad "a program not in PATH"   -- no-such-program-ptb
bad "a file not executable"   -- ./data.txt
bad "--quantum 0"             --quantum 0 -- "$prog" exit 0
bad "--line-size 48"          --line-size 48 -- "$prog" exit 0
bad "--format xml"            --format xml -- "$prog" exit 0
bad "an unknown option"       --frobnicate -- "$prog" exit 0
bad "--cache 3:2:64"          --cache 3:2:64 -- "$prog" exit 0
bad "--cache 16K:4:48"        --cache 16K:4:48 -- "$prog" exit 0
bad "-o in a missing folder"  -o no/such/dir/p.json -- "$prog" exit 0
done_testing
