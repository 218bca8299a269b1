#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench plot TRACE --kind flow|parallelism` (harness/report/plot-flow.c,
# plot-parallelism.c, flow.c; harness/cli/trace-flow.c):
#  - the data and script of both kinds for a trace made event by event
#    (tests/trace-made.c), whose replay on 2 CPUs is worked by hand: byte
#    for byte against tests/data/plot-{flow,parallelism}.{dat,gp}, written
#    with gnuplot off PATH (one line, exit 2);
#  - the exact curve: 3 threads runnable on 2 CPUs until 15 ms, the barrier
#    opened at 35 ms, the run over at 92.5 ms;
#  - a long trace stays small: at most 1000 segments a row, 500 arrows,
#    1000 bins of parallelism;
#  - bad input: one line, exit 2;
#  - with gnuplot: the SVG is well-formed and draws one segment per data
#    line (calibrated on gnuplot 5.4).
# After an intended change, regenerate the golden files with
#     PTB_REGEN=1 make check TESTS=tests/plot-flow.sh
. "$top_srcdir/tests/tap.sh"
: "${TRACE_MADE:=./tests/trace-made}" "${TRACE_LOCK:=./tests/trace-lock}"
[ -x "$PTBENCH" ] && [ -x "$TRACE_MADE" ] && [ -x "$TRACE_LOCK" ] || skip_all "not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
nogp=$tmp/empty-path
mkdir "$nogp"
"$TRACE_MADE" "$tmp/made.trace" || exit 1

for k in flow parallelism; do
	mkdir "$tmp/$k"
	env PATH="$nogp" "$PTBENCH" plot "$tmp/made.trace" --kind $k --cpus 2 --script "$tmp/$k" \
		-o "$tmp/$k.svg" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "$k without gnuplot: exit 2 (got $rc), one line saying so" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'gnuplot is not installed' '$tmp/err'"
	plot_golden "$k" "$tmp/$k"
done

# The replay by hand: main, 10 ms, and two threads, 20 and 30 ms, share 2
# CPUs (2 running, 1 ready) until main reaches the barrier at 15 ms; the
# last opens it at 35 ms; 5 ms each, 3 on 2 CPUs, to 42.5 ms; main sleeps
# 50 ms, to 92.5.
check "parallelism: the exact steps" test "$(grep -v '^#' "$tmp/parallelism/parallelism.dat" | tr '\n' ' ')" = \
	"0 2 1 15 2 0 25 1 0 35 2 1 42.5 0 0 92.5 0 0 "
check "flow: the barrier's two wake-ups, from thread 2 at 35 ms" \
	test "$(awk '/^# block 4/ { on = 1; next } on && NF == 3' "$tmp/flow/flow.dat" | tr '\n' ' ')" = \
	"35 2 0 35 2 1 "
check "flow: main's sleep from 42.5 ms (to the column) to 92.5" \
	test "$(awk '/^# block 3/ { on = 1; next } /^# block 4/ { on = 0 } on && NF == 3' "$tmp/flow/flow.dat")" = \
	"0 42.4575 92.5"

# A long trace: bounded files.  It needs the interposer preloaded into a
# program of this machine, which a sanitizer or cross build cannot do.
record_alone
"$PTBENCH" record -o "$tmp/lock.trace" -- "$TRACE_LOCK" 8 600 20000 > /dev/null 2> "$tmp/rec.err"
if grep -q -e 'cannot be preloaded' -e 'runtime does not come first' "$tmp/rec.err"; then
	skip "a long trace: the interposer cannot be preloaded here"
else
	for k in flow parallelism; do
		mkdir "$tmp/long-$k"
		env PATH="$nogp" "$PTBENCH" plot "$tmp/lock.trace" --kind $k --cpus 4 \
			--script "$tmp/long-$k" -o "$tmp/x.svg" 2> /dev/null
	done
	f=$tmp/long-flow/flow.dat
	segs=$(awk '/^# block 4/ { exit } !/^#/ && NF == 3 && $1 != "NaN"' "$f" | wc -l)
	arrows=$(awk '/^# block 4/ { on = 1; next } on && NF == 3 && $1 != "NaN"' "$f" | wc -l)
	rows=$(awk '/^# block/ { on = ($3 < 4); next } on && NF == 3 && $1 != "NaN" { print $1 }' "$f" | sort | uniq -c | sort -n | tail -n 1 | awk '{ print $1 }')
	diag "a trace of 4800 locks taken, on 4 CPUs: $segs segments, $arrows arrows"
	check "a long trace: at most 1000 segments a row (most: $rows)" test "${rows:-0}" -le 1000 -a "${rows:-0}" -gt 0
	check "  at most 500 wake-up arrows ($arrows), thinned and said so" \
		sh -c "[ $arrows -le 500 ] && [ $arrows -gt 0 ] && grep -q 'one wake-up arrow in' '$tmp/long-flow/flow.gp'"
	p=$(grep -vc '^#' "$tmp/long-parallelism/parallelism.dat")
	check "  at most 1001 points of parallelism ($p), the means over bins said so" \
		sh -c "[ $p -le 1001 ] && grep -q 'means over 1000 bins' '$tmp/long-parallelism/parallelism.gp'"
fi

# Bad input: one line, exit 2, no output.
bad() {
	d=$1; shift
	env PATH="$nogp" "$PTBENCH" plot "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "$d: exit 2 (got $rc), one line ($(head -n 1 "$tmp/err"))" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && [ ! -s '$tmp/out' ]"
}
head -c 300 "$tmp/made.trace" > "$tmp/truncated.trace"
bad "--kind flow of a result file" --kind flow "$TESTDATA/plot-ext.json"
bad "--kind table of a trace" --kind table "$tmp/made.trace"
bad "--cpus 0" "$tmp/made.trace" --cpus 0
bad "--cpus for result files" --cpus 2 "$TESTDATA/plot-ext.json"
bad "a truncated trace" "$tmp/truncated.trace"
page_bad() {
	d=$1; shift
	"$PTBENCH" report "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	check "report $d: exit 2 (got $rc), one line ($(head -n 1 "$tmp/err"))" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && [ ! -s '$tmp/out' ]"
}
page_bad "--trace of a result file" --format html "$TESTDATA/run-golden-v2.json" \
	--trace "$TESTDATA/run-golden.json"
page_bad "--trace without --format html" "$TESTDATA/run-golden-v2.json" --trace "$tmp/made.trace"
page_bad "--cpus without --trace" --format html "$TESTDATA/run-golden-v2.json" --cpus 2

if ! command -v gnuplot > /dev/null 2>&1; then
	ok "# SKIP gnuplot not installed: the pictures are not drawn"
	done_testing
	exit
fi
(cd "$tmp" && "$PTBENCH" plot made.trace 2> "$tmp/err")
check "a trace without --kind: flow.svg, said on stderr" \
	sh -c "[ -s '$tmp/flow.svg' ] && grep -q 'wrote flow.svg' '$tmp/err'"
"$PTBENCH" plot "$tmp/made.trace" --kind parallelism --cpus 2 -o "$tmp/p.svg" 2> "$tmp/err"
check "parallelism drawn" test -s "$tmp/p.svg"
"$PTBENCH" plot "$tmp/made.trace" --cpus 2 -o "$tmp/f.svg" 2> "$tmp/err"
check "flow drawn" test -s "$tmp/f.svg"
if command -v xmllint > /dev/null 2>&1; then
	check "  the SVG is well-formed" xmllint --noout "$tmp/f.svg"
else
	ok "# SKIP xmllint not installed"
fi
# moves: the Ms of the paths of one colour (the key sample's among them)
moves() { tr -d '\n' < "$tmp/f.svg" | grep -o "stroke='rgb($1)'  d='[^']*'" | grep -o M | wc -l; }
dat=$TESTDATA/plot-flow.dat
case $(gnuplot --version | awk '{ print $2 }') in
5.4)
	want=$(awk '/^# block 0/ { on = 1; next } /^# block/ { on = 0 } on && NF == 3' "$dat" | wc -l)
	check "  $want running segments drawn" test "$(moves '  0, 158, 115')" -eq $((want + 1))
	want=$(awk '/^# block 1/ { on = 1; next } /^# block/ { on = 0 } on && NF == 3' "$dat" | wc -l)
	check "  $want ready segments drawn" test "$(moves '230, 159,   0')" -eq $((want + 1))
	check "  2 wake-up arrows drawn" test "$(grep -c '<polygon' "$tmp/f.svg")" -eq 3 ;;
*)	ok "# SKIP the counts are calibrated on gnuplot 5.4" ;;
esac

# The report page draws them too, given the trace.
"$PTBENCH" report --format html "$TESTDATA/run-golden-v2.json" --trace "$tmp/made.trace" \
	> "$tmp/page.html" 2> "$tmp/err"
check "report --trace: the page holds the flow and parallelism plots" \
	sh -c "grep -q 'id=\"plot-flow\"' '$tmp/page.html' && grep -q 'id=\"plot-parallelism\"' '$tmp/page.html'"
"$PTBENCH" report --format html "$TESTDATA/run-golden-v2.json" > "$tmp/page2.html" 2> "$tmp/err"
check "  and without --trace it does not" sh -c "! grep -q 'id=\"plot-flow\"' '$tmp/page2.html'"
done_testing
