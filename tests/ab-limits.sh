#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench ab` at its edges: a point that was not measured enough is "not
# compared", never "same" (an interrupt, a time budget too short); the
# time budget is a deadline; placements the machine cannot have are left
# out, in one line, without changing the exit status; -o and --format
# (md, csv, json) work in either place and refuse what they cannot do.
#
# The verdicts asked of real measurements here are A/A comparisons made
# quick by --threshold 1000 (a change within +-1000 % is "same") and
# --alpha 0.5 (6 pairs give an interval): a point is "same", or on a
# wildly loaded machine "inconclusive" -- both exit 0 -- unless it went
# uncompared; a regression would need 6 of 6 pairs to differ 11-fold.
. "$top_srcdir/tests/tap.sh"
[ -z "$PTB_EMULATED" ] || skip_all "under $PTB_EMULATED the time budgets cannot be checked"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
P=$PTBENCH
q="--quick -b mutex.lockunlock"
sure="--threshold 1000 --alpha 0.5 --min-pairs 3"

# --- an interrupt: 100 pairs are needed, none can be judged -------------
"$P" ab --format json --time 60 --min-pairs 100 "$P" "$P" $q >int.json 2>int.err &
pid=$!
sleep 2
kill -INT $pid
wait $pid
rc=$?
check "interrupted: exit 2 (got $rc)" test "$rc" = 2
check "interrupted: the report says so" test "$($JGET int.json interrupted)" = true
check "interrupted: every point is 'not compared', none 'same'" \
	sh -c "test \"\$($JGET int.json 'points.*.verdict' | sort -u)\" = 'not compared'"
check "interrupted: ratio and CI are null, not 0" \
	sh -c "test \"\$($JGET int.json 'points.*.ratio' | sort -u)\" = null &&
	       test \"\$($JGET int.json 'points.*.ratio_ci95' | sort -u)\" = null"
check "interrupted: the reason counts the pairs measured" \
	sh -c "$JGET int.json 'points.*.reason' | grep -q 'interrupted after [0-9]* of the 100 pairs needed'"

# --- the time budget: a deadline, not a wish ----------------------------
# 100 pairs of each point would take far longer than 1 s (every pair
# starts fresh workers); the comparison stops at 1 s all the same.
t0=$(date +%s)
"$P" ab --format json --time 1 --min-pairs 100 "$P" "$P" $q >time.json 2>time.err
rc=$?
t1=$(date +%s)
check "--time 1 ends within 10 s (took $((t1 - t0)) s)" test $((t1 - t0)) -lt 10
check "--time 1: the report's own time is within 2 s of the budget" \
	awk -v s="$($JGET time.json seconds)" 'BEGIN { exit !(s >= 1 && s < 3) }'
check "--time 1: too few pairs is exit 2, 'not compared' (got $rc)" \
	sh -c "test $rc = 2 && test \"\$($JGET time.json 'points.*.verdict' | sort -u)\" = 'not compared'"
check "--time 1: the reason names the budget" \
	sh -c "$JGET time.json 'points.*.reason' | grep -q 'pairs needed within --time 1 s'"
check "--time 1: one line on stderr says so" \
	sh -c "test \$(wc -l <time.err) = 1 && grep -q 'not compared: too few pairs within --time 1 s' time.err"

"$P" ab --time 0.5 --min-pairs 100 "$P" "$P" $q >time.md 2>/dev/null
check "the table: each point's row says 'not compared' and why, no figure, no verdict" \
	sh -c "test \$(grep -c '^| mutex.lockunlock .* | - | - | - | - | - | not compared: [0-9]* of the 100 pairs needed within --time 0.5 s |\$' time.md) = 2 &&
	       ! grep '^| mutex' time.md | grep -q -e '| same |' -e '%'"

# --- placements this machine cannot have --------------------------------
# On one PU (taskset -c 0, on any machine) smt, cross_core, cross_package
# and cross_numa cannot be; without taskset, the machine's own topology.
pl="-b mutex.pingpong -p placement=same_pu,smt,cross_core,cross_package,cross_numa"
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	one=taskset1
	taskset -c 0 "$P" ab --format json --time 20 $sure "$P" "$P" --quick $pl >pl.json 2>pl.err
else
	one=""
	"$P" ab --format json --time 20 $sure "$P" "$P" --quick $pl >pl.json 2>pl.err
fi
rc=$?
absent=$(sed -n 's/.*not on this machine, left out: \([a-z_, ]*\) (.*/\1/p' pl.err | tr -d ,)
check "the report's not_on_this_machine holds as many as stderr names" \
	test "$($JGET pl.json 'not_on_this_machine.#')" = "$(echo $absent | wc -w)"
if [ -n "$one" ]; then
	check "one PU: smt, cross_core, cross_package and cross_numa are left out" \
		test "$(echo $absent)" = "smt cross_core cross_package cross_numa"
	check "one PU: same_pu is compared, exit 0 (got $rc)" \
		sh -c "test $rc = 0 && test \"\$($JGET pl.json 'points.*.params.placement')\" = same_pu &&
		       $JGET pl.json points.0.verdict | grep -qx -e same -e inconclusive"
fi
bad=""
for a in $absent; do
	$JGET pl.json 'points.*.params.placement' | grep -qx "$a" && bad="$bad $a"
done
check "no placement left out is among the points${bad:+ (found:$bad)}" test -z "$bad"
check "no point is 'not compared' for want of a placement" \
	sh -c "! $JGET pl.json 'points.*.reason' | grep -q needs"
if [ -n "$absent" ]; then
	check "one line on stderr names what was left out" \
		sh -c "test \$(grep -c 'not on this machine, left out: ' pl.err) = 1"
else
	skip "this machine has every placement: nothing to leave out"
fi
if [ -n "$one" ]; then
	taskset -c 0 "$P" ab --time 5 "$P" "$P" --quick -b mutex.pingpong -p placement=smt \
		>none.md 2>err.txt
	rc=$?
	check "only absent placements: nothing to compare, exit 2, one line (got $rc)" \
		sh -c "test $rc = 2 && test \$(wc -l <err.txt) = 1 && grep -q 'nothing to compare' err.txt"
fi

# --- -o and --format -----------------------------------------------------
"$P" ab --format csv -o gate.csv --time 20 $sure "$P" "$P" $q -p threads=1 >out.txt 2>err.txt
rc=$?
check "--format csv -o FILE: exit 0 (got $rc)" test "$rc" = 0
check "--format csv -o FILE: nothing on stdout, the file holds the report" \
	sh -c "test ! -s out.txt && head -1 gate.csv | grep -q '^bench,params,verdict,reason,pairs,'"
check "--format csv: one row per point, its verdict" \
	sh -c "test \$(wc -l <gate.csv) = 2 && grep -Eq '^mutex.lockunlock,threads=1;[^,]*,(same|inconclusive),' gate.csv"
check "-o: stderr says where the report went" grep -q "report saved in gate.csv" err.txt
"$P" ab --time 20 $sure "$P" "$P" $q -p threads=1 --format json -o gate.json >out.txt 2>err.txt
rc=$?
check "-o and --format after HEAD work too: exit 0 (got $rc)" \
	sh -c "test $rc = 0 && test ! -s out.txt && test \"\$($JGET gate.json schema)\" = ptbench-ab/3"
ls | grep -q '\.tmp\.' && not_ok "no temporary file is left" || ok "no temporary file is left"

bad_input() { # bad_input DESCRIPTION ARGS...: exit 2, one line, nothing written
	d=$1; shift
	rm -f x.out
	"$P" ab "$@" >out.txt 2>err.txt
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && [ ! -e x.out ]; then ok "$d"
	else not_ok "$d (exit $rc)"; sed 's/^/# /' err.txt; fi
}
bad_input "--format xml: refused" --format xml "$P" "$P" $q
bad_input "--format gbench after HEAD: refused" "$P" "$P" $q --format gbench
bad_input "--format twice, differing: refused" --format csv "$P" "$P" $q --format json
bad_input "-o twice: refused" -o x.out "$P" "$P" $q -o y.out
mkdir dir.out
bad_input "-o a folder: refused before measuring" -o dir.out "$P" "$P" $q
ln -s x.out link.out
bad_input "-o a symbolic link: refused before measuring" -o link.out "$P" "$P" $q
done_testing
