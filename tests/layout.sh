#!/bin/sh
# SPDX-License-Identifier: MIT
# Code layout as a factor (docs/design.md section 17): the binary holds 8
# copies of a benchmark's code, 8 bytes apart from a 64-byte boundary
# where the compiler can place them so; a run's trials each record the
# copy and the stack offset they ran in, a point's trials cover the copies
# evenly (each once before any twice) and the point records how much of
# its spread is layout; --layout fixed runs the build's own code; ab runs
# both trials of a pair in one layout; the seed still fixes the rounds.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
short="--min-timings 2 --max-timings 3 --budget 0.05"

# --- the copies in the binary ---------------------------------------------
"$PTBENCH" run -b spin.lockunlock --trials 8 $short --seed 7 -o v.json >/dev/null 2>err.txt
rc=$?
check "a varied run: exit 0 (got $rc)" test "$rc" = 0
method=$($JGET v.json context.harness.layout.method)
check "the context says how the layouts were made ($method)" test -n "$method"
build=$(dirname "$PTBENCH")
if [ "$method" = "copies at 8-byte steps from a 64-byte boundary" ] && command -v nm >/dev/null &&
   [ -r "$build/bench/layout/spin-0.o" ]; then
	# Copy k of spin.c: its lock-and-unlock loop 8k bytes past a 64-byte
	# boundary of its object's text, whose alignment the link keeps.
	got=""
	for k in 0 1 2 3 4 5 6 7; do
		a=$(nm "$build/bench/layout/spin-$k.o" | awk '$3 == "lockunlock_run" { print $1 }')
		got="$got $(( 0x${a:-1} % 64 ))"
	done
	check "copy k starts 8k bytes past a 64-byte boundary (got$got)" \
		test "$got" = " 0 8 16 24 32 40 48 56"
	# ... and so in the program (which also holds the build's own copy,
	# wherever its flags put it).
	offsets=$(nm "$PTBENCH" | awk '$3 == "lockunlock_run" { print $1 }' |
		  while read -r a; do echo $((0x$a % 64)); done | sort -n -u | tr '\n' ' ')
	missing=""
	for o in 0 8 16 24 32 40 48 56; do
		case " $offsets" in *" $o "*) ;; *) missing="$missing $o" ;; esac
	done
	check "the program holds the copies at those offsets (got $offsets)" test -z "$missing"
else
	skip "copies at chosen offsets" "this compiler places the copies itself ($method), or no nm"
	skip "the copies in the program" "as above"
fi

# --- each trial's layout, the point's split --------------------------------
check "the run is varied, over 8 code layouts" \
	sh -c "test \"\$($JGET v.json context.harness.layout.mode)\" = varied &&
	       test \"\$($JGET v.json context.harness.layout.code_layouts)\" = 8"
codes=$($JGET v.json 'results.0.trials.*.layout.code' | sort -n | tr '\n' ' ')
check "8 trials ran in the 8 copies, each once (got $codes)" test "$codes" = "0 1 2 3 4 5 6 7 "
stacks=$($JGET v.json 'results.0.trials.*.layout.stack')
bad=$(echo "$stacks" | awk '$1 < 0 || $1 > 4080 || $1 % 16 { print }')
check "each stack offset is a multiple of 16 within a page (got $(echo $stacks))" test -z "$bad"
check "the stack offsets are drawn, not one value" test "$(echo "$stacks" | sort -u | wc -l)" -gt 1
check "the point has each copy's median" \
	test "$($JGET v.json 'results.0.layout.medians.*' | grep -vc null)" = 8
check "the point splits its spread: share in [0, 1], or null without a copy of two trials" \
	sh -c "s=\$($JGET v.json results.0.layout.share); test \"\$s\" = null ||
	       awk -v s=\"\$s\" 'BEGIN { exit !(s >= 0 && s <= 1) }'"
"$PTBENCH" run -b spin.lockunlock --trials 16 $short --seed 7 -o v16.json >/dev/null 2>&1
check "16 trials: every copy twice" \
	test "$($JGET v16.json 'results.0.trials.*.layout.code' | sort -n | uniq -c | awk '{ print $1 }' | sort -u)" = 2
check "16 trials: a share of the spread (two trials in every copy)" \
	sh -c "awk -v s=\"\$($JGET v16.json results.0.layout.share)\" 'BEGIN { exit !(s >= 0 && s <= 1) }'"
"$PTBENCH" run -b spin.lockunlock --trials 8 $short --seed 7 -o v2.json >/dev/null 2>&1
check "the same seed, the same layouts" \
	test "$($JGET v2.json 'results.0.trials.*.layout.code' | tr '\n' ' ')" = \
	     "$($JGET v.json 'results.0.trials.*.layout.code' | tr '\n' ' ')"

# --- fixed ------------------------------------------------------------------
"$PTBENCH" run -b spin.lockunlock --trials 4 $short --layout fixed -o f.json >/dev/null 2>&1
check "--layout fixed: recorded" test "$($JGET f.json context.harness.layout.mode)" = fixed
check "--layout fixed: no trial in a copy, no split" \
	sh -c "test -z \"\$($JGET f.json 'results.0.trials.*.layout' 2>/dev/null | grep -v null)\" &&
	       ! $JGET f.json results.0.layout >/dev/null 2>&1"
"$PTBENCH" run --layout sideways -b spin.lockunlock >out.txt 2>err.txt
rc=$?
check "--layout sideways: exit 2, one line (got $rc)" \
	sh -c "test $rc = 2 && test \$(wc -l <err.txt) = 1 && grep -q 'varied, fixed' err.txt"

# --- ab: both trials of a pair in one layout ---------------------------------
"$PTBENCH" ab --format json --threshold 1000 --alpha 0.5 --min-pairs 3 "$PTBENCH" "$PTBENCH" \
	--quick -b spin.lockunlock >ab.json 2>ab.err
rc=$?
check "ab A/A: exit 0 (got $rc)" test "$rc" = 0
check "ab: the report says varied" test "$($JGET ab.json layout)" = varied
check "ab: no side ran in its own layout" sh -c "! grep -q 'own code layout' ab.err"
n=$($JGET ab.json points.0.pairs)
codes=$($JGET ab.json 'points.0.pair_trials.*.2' | sort -n | uniq -c | awk '{ print $1 }' | sort -n | tail -1)
check "ab: every pair recorded with its layout, the copies dealt evenly ($n pairs judged)" \
	sh -c "test \$($JGET ab.json 'points.0.pair_trials.*.2' | wc -l) -ge $n &&
	       test \$($JGET ab.json 'points.0.pair_trials.*.2' | awk '\$1 < 0 || \$1 > 7' | wc -l) = 0 &&
	       test $codes -le \$(( ($n + 7) / 8 + 1 ))"
"$PTBENCH" ab --format json --threshold 1000 --alpha 0.5 --min-pairs 3 "$PTBENCH" "$PTBENCH" \
	--quick -b spin.lockunlock --layout fixed >abf.json 2>abf.err
check "ab --layout fixed: recorded, and no side named" \
	sh -c "test \"\$($JGET abf.json layout)\" = fixed && ! grep -q 'own code layout' abf.err"
done_testing
