#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench compare` on synthetic ptbench/2 runs with known outcomes
# (tests/data/tools-*.json, fixed trials; tests/data/tools-v2.py made them):
# identical runs are the same, every trial x 1.25 is a regression named on
# the summary line, x 0.8 an improvement, overlapping noisy trials and a
# single trial are inconclusive, a run on a noisy machine (trials scattered)
# is inconclusive where its median moved, one point 20 % slower among steady
# ones is the only regression; points without trials, ptbench/1 points and
# points in one file only are listed; a failed, cut-short or empty run is
# refused with exit 2; plus golden Markdown and JSON reports.
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
is "itself: one trial each is inconclusive" "create detach=yes scope=system" "inconclusive: too few"
check "itself: summary line counts no regression" grep -q '^0 regressions, 0 improvements, 4 same, 3 inconclusive\.$' "$work/out.txt"
check "itself: Bonferroni over the 7 points with trials, in the header" \
	grep -q '^Judged from each point.s trials, Bonferroni over the 7 points compared: a regression needs p < 0.00714 .* whole 99.29 % CI' "$work/out.txt"

cmp_case 1 "every trial x 1.25" tools-base.json tools-slower.json
is "x 1.25: steady point regresses" "cond.signal" "**regression**"
is "x 1.25: an unstable point is judged from its trials like any other" \
	"cond.pingpong placement=cross_core signal=locked" "**regression**"
is "x 1.25: trials spread +-30 % do not show +25 %" "mutex.pingpong placement=unbound" inconclusive
check "x 1.25: the summary line names the regressed points" \
	grep -q '^5 regressions, .*: regressed mutex.lockunlock threads=2 (+25.0 %), cond.signal (+25.0 %), ' "$work/out.txt"

cmp_case 0 "every trial x 0.8" tools-base.json tools-faster.json
is "x 0.8: steady point improves" "mutex.lock mutexes=1024" improvement

cmp_case 1 "one scenario per point" tools-base.json tools-mixed.json
is "mixed: identical trials are the same" "mutex.lockunlock threads=2" same
is "mixed: +20 % with clear separation is a regression" "cond.signal" "**regression**"
is "mixed: -20 % is an improvement" "mutex.lock mutexes=1024" improvement
is "mixed: overlapping noisy trials are inconclusive" "mutex.pingpong placement=unbound" inconclusive
is "mixed: one trial each is inconclusive" "create detach=yes scope=system" "inconclusive: too few"
is "mixed: variables in another order still match" "cond.pingpong placement=cross_core signal=locked" "**regression**"
check "mixed: an na point is not comparable" grep -q '^- create detach=yes scope=process: both: na$' "$work/out.txt"
check "mixed: a point only in base is listed" sh -c "sed -n '/^Only in base:/,/^\$/p' '$work/out.txt' | grep -qx -- '- mutex.unlock mutexes=1024'"
check "mixed: a point only in new is listed" sh -c "sed -n '/^Only in new:/,/^\$/p' '$work/out.txt' | grep -qx -- '- yield proxy=no'"

# A run on a noisy machine: its trials, each in its own worker at its own
# moment, scatter from -38 % to +60 % about the point's level, so a median
# 45 % higher is inconclusive, not a regression; one point 20 % slower among
# steady ones, with tight trials, is a regression and the only one.
cmp_case 0 "a noisy machine: trials scattered" tools-suite-a.json tools-suite-noisy.json
is "noisy machine: +45 % with scattered trials is inconclusive" \
	"mutex.pingpong placement=same_pu" "inconclusive: the CI reaches across"
check "noisy machine: no point is called anything but inconclusive" \
	grep -q '^0 regressions, 0 improvements, 0 same, 10 inconclusive\.$' "$work/out.txt"
cmp_case 1 "one point 20 % slower among steady ones" tools-suite-a.json tools-suite-one.json
is "one slower point: a regression" "mutex.pingpong placement=same_pu" "**regression**"
check "one slower point: the only one named, the rest same" \
	grep -q '^1 regression, 0 improvements, 9 same, 0 inconclusive: regressed mutex.pingpong placement=same_pu (+20.3 %)$' "$work/out.txt"

cmp_case 1 "a higher threshold is honoured (+19.8 % vs 10 %)" --threshold 10 tools-base.json tools-mixed.json
cmp_case 0 "a threshold above every CI passes (+19.8 %, +20.3 % vs 40 %)" --threshold 40 tools-base.json tools-mixed.json
is "threshold 40: a +20 % shift inside +-40 % counts as same" "cond.signal" same
cmp_case 0 "an alpha below every p passes" --alpha 1e-30 tools-base.json tools-slower.json
is "alpha 1e-30: no CI at that level from 10 trials" "cond.signal" "inconclusive: too few"

# ptbench/1 files are still read, but their timings come from one run: not
# independent replications, so no point of theirs is judged.
cmp_case 0 "a ptbench/1 run is read, not judged" tools-base-v1.json tools-base-v1.json
check "ptbench/1: its points are not comparable, with the reason" \
	grep -q '^- cond.signal: both: ptbench/1: its timings come from one run, not independent trials$' "$work/out.txt"
check "ptbench/1: nothing judged" grep -q '^0 regressions, 0 improvements, 0 same, 0 inconclusive\.$' "$work/out.txt"
cmp_case 0 "a ptbench/1 base against a ptbench/2 run" tools-base-v1.json tools-base.json
check "ptbench/1 against /2: the side without trials is named" \
	grep -q '^- cond.signal: base: ptbench/1: its timings come from one run, not independent trials$' "$work/out.txt"

cmp_case 0 "transcribed 1999 data is not comparable, not an error" \
	"$top_srcdir/results/1999-de-supinski-may/ibm-sp2-604e.json" \
	"$top_srcdir/results/1999-de-supinski-may/ibm-sp2-604e.json"
check "1999 data: listed as transcribed, without trials" grep -q '^- cond.signal: both: a transcribed figure, no trials$' "$work/out.txt"

# A comparison never passes on a failed run: exit 2, one line naming the file.
# refused DESCRIPTION FILE WHY: FILE as NEW, then as BASE
refused() {
	for order in new base; do
		if [ $order = new ]; then set -- "$1" "$2" "$3" tools-base.json "$2"
		else set -- "$1" "$2" "$3" "$2" tools-base.json; fi
		"$PTBENCH" compare "$4" "$5" >"$work/out.txt" 2>"$work/err.txt"
		rc=$?
		if [ "$rc" = 2 ] && [ "$(wc -l <"$work/err.txt")" = 1 ] && [ ! -s "$work/out.txt" ] &&
		   grep -q "^ptbench compare: $2: $3" "$work/err.txt"; then ok "$1 as $order: exit 2, one line"; else
			not_ok "$1 as $order: exit $rc"; sed 's/^/# /' "$work/err.txt" "$work/out.txt" | head -5; fi
	done
}
sed 's/"status": "complete"/"status": "interrupted"/' tools-base.json >"$work/interrupted.json"
sed 's/"status": "complete"/"status": "running"/' tools-base.json >"$work/running.json"
head='{"schema": "ptbench/2", "status": "complete", "context": {"host": "runner-1", "cpu": {"brand": "AMD EPYC 7B13"}}, "results": ['
printf '%s]}\n' "$head" >"$work/empty.json"
printf '%s%s, %s]}\n' "$head" \
	'{"bench": "cond.signal", "params": {}, "status": "crashed", "reason": "killed by signal 11", "trials": [{"status": "crashed", "reason": "killed by signal 11"}]}' \
	'{"bench": "mutex.lock", "params": {"mutexes": "1024"}, "status": "timeout", "reason": "no answer in 10 s", "trials": [{"status": "timeout"}]}' \
	>"$work/failed.json"
refused "an interrupted run" "$work/interrupted.json" "the run was interrupted"
refused "a run still going or killed" "$work/running.json" "the run is still going or was killed"
refused "a run without results" "$work/empty.json" "the run has no results"
refused "a run whose every point failed" "$work/failed.json" "no point has a value"

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
