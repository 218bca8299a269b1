#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench compare` on synthetic runs with known outcomes (tests/data/tools-*.json,
# fixed samples): identical runs are the same, every sample x 1.25 is a
# regression named on the summary line, x 0.8 an improvement, overlapping
# noisy samples and a single timing are inconclusive, an unstable point is
# never a regression, runs that disagree everywhere widen every CI by their
# run-to-run noise, points without samples or in one file only are listed;
# plus golden Markdown and JSON reports.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$TESTDATA" || exit 1

# cmp WANT_EXIT DESCRIPTION ARGS...: output in $work/out.txt
cmp_case() {
	want=$1 d=$2; shift 2
	"$PTBENCH" compare "$@" >"$work/out.txt" 2>"$work/err.txt"
	rc=$?
	if [ "$rc" = "$want" ] && [ ! -s "$work/err.txt" ]; then ok "$d: exit $want"; else
		not_ok "$d: exit $rc (want $want)"; sed 's/^/# /' "$work/err.txt"; fi
}
# verdict POINT: the verdict column of a point's row
verdict() {
	awk -F' [|] ' -v p="$1" '$1 == "| " p { v = $NF; sub(/ [|]$/, "", v); print v }' "$work/out.txt"
}
is() { # is DESCRIPTION POINT VERDICT-PREFIX
	v=$(verdict "$2")
	case $v in "$3"*) ok "$1";; *) not_ok "$1 (got '$v')";; esac
}

cmp_case 0 "a run against itself" tools-base.json tools-base.json
is "itself: steady point is same" "mutex.lockunlock threads=2" same
is "itself: noisy point is not a regression" "mutex.pingpong placement=unbound" inconclusive
is "itself: one timing each is inconclusive" "create detach=yes scope=system" "inconclusive: too few"
check "itself: summary line counts no regression" grep -q '^0 regressions, 0 improvements, 5 same, 2 inconclusive\.$' "$work/out.txt"

cmp_case 1 "every sample x 1.25" tools-base.json tools-slower.json
is "x 1.25: steady point regresses" "cond.signal" "**regression**"
is "x 1.25: unstable point is inconclusive" "cond.pingpong placement=cross_core signal=locked" "inconclusive: status unstable"
check "x 1.25: the summary line names the regressed points" \
	grep -q '^5 regressions, .*: regressed mutex.lockunlock threads=2 (+25.0 %), cond.signal (+25.0 %), ' "$work/out.txt"

cmp_case 0 "every sample x 0.8" tools-base.json tools-faster.json
is "x 0.8: steady point improves" "mutex.lock mutexes=1024" improvement

cmp_case 1 "one scenario per point" tools-base.json tools-mixed.json
is "mixed: identical samples are the same" "mutex.lockunlock threads=2" same
is "mixed: +20 % with clear separation is a regression" "cond.signal" "**regression**"
is "mixed: -20 % is an improvement" "mutex.lock mutexes=1024" improvement
is "mixed: overlapping noisy samples are inconclusive" "mutex.pingpong placement=unbound" inconclusive
is "mixed: one timing each is inconclusive" "create detach=yes scope=system" "inconclusive: too few"
is "mixed: variables in another order still match" "cond.pingpong placement=cross_core signal=locked" inconclusive
check "mixed: an na point is not comparable" grep -q '^- create detach=yes scope=process: base: na; new: na$' "$work/out.txt"
check "mixed: a point only in base is listed" sh -c "sed -n '/^Only in base:/,/^\$/p' '$work/out.txt' | grep -qx -- '- mutex.unlock mutexes=1024'"
check "mixed: a point only in new is listed" sh -c "sed -n '/^Only in new:/,/^\$/p' '$work/out.txt' | grep -qx -- '- yield proxy=no'"

# Run-to-run noise: two runs whose points each moved as a whole (timings
# tight within each run) say nothing about the code; one point 20 % slower
# among steady ones does.
cmp_case 0 "a noisy machine: levels apart, timings tight" tools-suite-a.json tools-suite-noisy.json
is "noisy machine: +45 % with tight timings is within the run-to-run noise" \
	"mutex.pingpong placement=same_pu" "inconclusive: within the run-to-run noise"
check "noisy machine: the noise estimate is printed" grep -q '^Run-to-run noise: +-29.6 % (1.4826 x MAD of the shifts of 10 points), added at z = 2.81\.$' "$work/out.txt"
cmp_case 1 "one point 20 % slower among steady ones" tools-suite-a.json tools-suite-one.json
is "one slower point: a regression" "mutex.pingpong placement=same_pu" "**regression**"
check "one slower point: the only one named, the rest same" \
	grep -q '^1 regression, 0 improvements, 9 same, 0 inconclusive: regressed mutex.pingpong placement=same_pu (+20.3 %)$' "$work/out.txt"

cmp_case 1 "a higher threshold is honoured (+19.8 % vs 10 %)" --threshold 10 tools-base.json tools-mixed.json
cmp_case 0 "a threshold above the shift passes (+19.8 % vs 25 %)" --threshold 25 tools-base.json tools-mixed.json
is "threshold 25: a +20 % shift inside +-25 % counts as same" "cond.signal" same
cmp_case 0 "an alpha below every p passes" --alpha 1e-30 tools-base.json tools-slower.json

cmp_case 0 "transcribed 1999 data is not comparable, not an error" \
	"$top_srcdir/results/1999-de-supinski-may/ibm-sp2-604e.json" \
	"$top_srcdir/results/1999-de-supinski-may/ibm-sp2-604e.json"
check "1999 data: listed as having no samples" grep -q '^- cond.signal: base: no samples; new: no samples$' "$work/out.txt"

# Golden reports (regenerate with the same commands after a deliberate change).
golden() { # golden FILE ARGS...
	want=$1; shift
	"$PTBENCH" compare "$@" >"$work/golden" 2>&1
	if diff -u "$want" "$work/golden" >"$work/diff"; then ok "report matches $want"; else
		not_ok "report differs from $want"; sed 's/^/# /' "$work/diff" | head -40; fi
}
golden tools-compare.md tools-base.json tools-mixed.json
golden tools-compare.json --format json tools-base.json tools-mixed.json

done_testing
