#!/bin/sh
# SPDX-License-Identifier: MIT
# The CI recipe of docs/ci.md is code (docs/ptbench-gate.sh); this runs it
# end to end with the real ptbench on one fast point: A/A passes, a head
# slowed by the LD_PRELOAD shim of tests/slowlock.c (wrappers exec ptbench
# under it, as a threads-library recipe would) fails, and a broken head is
# an error.  The sizes and how improbable a wrong outcome is: tests/ab.sh.
. "$top_srcdir/tests/tap.sh"

gate="$top_srcdir/docs/ptbench-gate.sh"
[ -r "$SLOWLOCK" ] || skip_all "the LD_PRELOAD shim $SLOWLOCK is not built"
if ldd "$PTBENCH" 2>/dev/null | grep -q libasan; then
	skip_all "ptbench is built with AddressSanitizer, which must come first in LD_PRELOAD"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
q="--quick -b mutex.lockunlock -p threads=2"

# wrapper NAME LOOPS: a program that execs ptbench under the shim.
wrapper() {
	printf '#!/bin/sh\nLD_PRELOAD=%s PTB_SLOWLOCK_LOOPS=%s exec %s "$@"\n' \
		"$SLOWLOCK" "$2" "$PTBENCH" >"$work/$1"
	chmod +x "$work/$1"
}
wrapper base 0
wrapper slow 500

sh "$gate" -o "$work/aa" -T 20 "$PTBENCH" "$PTBENCH" $q >/dev/null 2>"$work/err"
rc=$?
check "A/A passes: exit 0 (got $rc)" test "$rc" = 0
check "A/A: the summary says pass" grep -q '^## ptbench gate: pass$' "$work/aa/gate.md"
# The summary's table of points is written by python3 (docs/ptbench-gate.sh).
if ! command -v python3 >/dev/null 2>&1; then
	skip "A/A: the summary's table of points needs python3, absent here"
else check "A/A: the summary lists the point and what it could detect" \
	grep -q '^| mutex.lockunlock [^|]*threads=2[^|]* | \*\*[a-z]*\*\* |.*| +[0-9.]* % |$' "$work/aa/gate.md"
fi

sh "$gate" -o "$work/slow-gate" -c "$PTBENCH" -T 20 "$work/base" "$work/slow" $q >/dev/null 2>"$work/err"
rc=$?
check "a slower threads library fails the gate: exit 1 (got $rc: $(tail -1 "$work/err"))" test "$rc" = 1
check "the summary says regression" grep -q '^## ptbench gate: regression$' "$work/slow-gate/gate.md"
if ! command -v python3 >/dev/null 2>&1; then
	skip "the summary's table of points needs python3, absent here"
else check "the summary names the regressed point" \
	grep -q '^| mutex.lockunlock [^|]*threads=2[^|]* | \*\*regression\*\*' "$work/slow-gate/gate.md"
fi

sh "$gate" -o "$work/broken" -c "$PTBENCH" -T 5 "$PTBENCH" /bin/false $q >/dev/null 2>"$work/err"
rc=$?
check "a broken head is an error: exit 2 (got $rc)" test "$rc" = 2
check "the error names the side" grep -q 'head' "$work/err"
sh "$gate" "$PTBENCH" >/dev/null 2>"$work/err"
check "one program only: exit 2 with the usage" sh -c "test $? = 2 && grep -q usage '$work/err'"
done_testing
