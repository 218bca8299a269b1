#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench ab` against a real slowdown of the threads library: an
# LD_PRELOAD shim (tests/slowlock.c) that spins before every
# pthread_mutex_lock.  A large slowdown (about +100 % or more on lock and
# unlock) must be a regression, exit 1; the same program on both sides
# must not be (exit 0); a side that fails is exit 2, naming it.
#
# How improbable a wrong outcome is: the regression takes 500 loop
# iterations (hundreds of ns) on a lock+unlock of about 10-20 ns, so every
# pair's ratio is several times 1 and the CI's lower end (the 2nd-3rd
# smallest of 12 pairs) would have to fall below +5 %: that needs most
# pairs to show no slowdown at all.  A/A calls a regression only if the
# lower end of the CI exceeds +10 %, i.e. if at least 10 of 12 adjacent
# pairs of the same program differ by more than 10 % in one direction: a
# chance of about 2 x 79/4096 x (the chance one pair does so) -- far below
# 1 in 1000 even when half of all pairs do.
. "$top_srcdir/tests/tap.sh"

[ -r "$SLOWLOCK" ] || skip_all "the LD_PRELOAD shim $SLOWLOCK is not built"
if ldd "$PTBENCH" 2>/dev/null | grep -q libasan; then
	skip_all "ptbench is built with AddressSanitizer, which must come first in LD_PRELOAD"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
q="--quick -b mutex.lockunlock -p threads=2"

"$PTBENCH" ab --format json --time 20 \
	--base-env LD_PRELOAD="$SLOWLOCK" --base-env PTB_SLOWLOCK_LOOPS=0 \
	--head-env LD_PRELOAD="$SLOWLOCK" --head-env PTB_SLOWLOCK_LOOPS=500 \
	"$PTBENCH" "$PTBENCH" $q >slow.json 2>err.txt
rc=$?
check "a slower pthread_mutex_lock is a regression: exit 1 (got $rc)" test "$rc" = 1
check "mutex.lockunlock is called a regression" \
	test "$($JGET slow.json points.0.verdict)" = regression
check "its ratio is above 1 and its CI too" \
	awk -v r="$($JGET slow.json points.0.ratio)" -v l="$($JGET slow.json points.0.ratio_ci95.0)" \
	'BEGIN { exit !(r > 1.05 && l > 1.05) }'
check "the pairs and the smallest detectable change are reported" \
	sh -c "test \"\$($JGET slow.json points.0.pairs)\" -ge 12 && $JGET slow.json points.0.detectable_pct >/dev/null"

"$PTBENCH" ab --threshold 10 --time 20 "$PTBENCH" "$PTBENCH" $q -b cond.signal >same.md 2>err.txt
rc=$?
check "A/A: the same program on both sides is no regression: exit 0 (got $rc)" test "$rc" = 0
check "A/A: the report states the rule and the false-verdict rate" \
	grep -q "chance of any false verdict in this comparison is at most" same.md

"$PTBENCH" ab --time 5 --head-env PTB_TEST_FLAKY=/nonexistent "$PTBENCH" /bin/false $q >fail.md 2>err.txt
rc=$?
check "a side whose workers fail: exit 2 (got $rc)" test "$rc" = 2
check "and stderr names the side" grep -q "not compared: head" err.txt

"$PTBENCH" ab "$PTBENCH" >/dev/null 2>err.txt
check "one program only: exit 2, one line" sh -c "test $? = 2 && test \$(wc -l <err.txt) = 1"
"$PTBENCH" ab "$PTBENCH" ./no-such-program >/dev/null 2>err.txt
check "a HEAD that is no program: exit 2, named" sh -c "test $? = 2 && grep -q 'HEAD: ./no-such-program' err.txt"
"$PTBENCH" ab --threshold x "$PTBENCH" "$PTBENCH" >/dev/null 2>err.txt
check "a bad --threshold: exit 2" test $? = 2
done_testing
