#!/bin/sh
# SPDX-License-Identifier: MIT
# The readers' limits: a file with no results, control characters in its
# strings, long UTF-8 names, points that one row would merge, a point
# written twice, and many distinct reasons and benchmarks.  report and
# table must print such a file whole and harmless; the figures are not
# timed here (see the commit that made the footnotes and gbench linear).
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
H='"context": {"host": "h", "cpu": {"brand": "b"}}'
esc=$(printf '\033')

# file NAME SCHEMA RECORDS: a complete result file.
file() {
	printf '{"schema": "ptbench/%s", "status": "complete", %s, "results": [%s]}\n' "$2" "$H" "$3" >"$1"
}

file empty1.json 1 ""
file empty2.json 2 ""
for f in empty1 empty2; do
	"$PTBENCH" table "$f.json" >out.txt 2>err.txt
	check "table of $f.json (no results): exit 0, nothing on stderr" \
		sh -c "test $? = 0 && test ! -s err.txt && test -s out.txt"
	"$PTBENCH" report "$f.json" >out.txt 2>err.txt
	check "report of $f.json (no results): exit 0" test $? = 0
done

# ESC, BEL and a C1 CSI (U+009B) in a bench name, a reason and the host.
file ctl.json 2 '{"bench": "x.\u001b[31mred", "params": {}, "status": "na", "reason": "bell\u0007 and \u009b2J"}'
sed -i 's/"host": "h"/"host": "h\\u001b]0;title\\u0007"/' ctl.json
for cmd in "table ctl.json" "table --format csv ctl.json" "table --format html ctl.json" \
	   "report ctl.json" "report --format csv ctl.json"; do
	"$PTBENCH" $cmd >out.txt 2>err.txt
	rc=$?
	check "$cmd: exit 0 (got $rc), no control character printed" \
		sh -c "test $rc = 0 && ! tr -d '\\n' <out.txt | LC_ALL=C grep -q '[[:cntrl:]]'"
	check "$cmd: the name escaped" grep -qF 'x.\x1B[31mred' out.txt
done
"$PTBENCH" report ctl.json >out.txt
check "BEL and C1 controls are escaped too" grep -qF 'bell\x07 and \u009B2J' out.txt

# Long UTF-8 names (300 x "é", 600 bytes): never cut mid-character, and two
# points whose names differ only after the first 200 bytes keep two rows.
long=$(awk 'BEGIN { for (i = 0; i < 300; i++) printf "\303\251" }')
file long.json 2 "{\"bench\": \"y.$long\", \"params\": {}, \"status\": \"na\", \"reason\": \"one\"},
  {\"bench\": \"y.${long}a\", \"params\": {}, \"status\": \"na\", \"reason\": \"two\"},
  {\"bench\": \"y.${long}b\", \"params\": {}, \"status\": \"na\", \"reason\": \"three\"}"
for fmt in md csv html; do
	"$PTBENCH" table --format $fmt long.json >out.txt 2>err.txt
	check "table --format $fmt of long UTF-8 names is valid UTF-8" \
		sh -c "test $? = 0 && iconv -f UTF-8 -t UTF-8 out.txt >/dev/null"
	check "table --format $fmt keeps all three points" \
		sh -c "grep -q one out.txt && grep -q two out.txt && grep -q three out.txt"
done
for fmt in table csv gbench json; do
	"$PTBENCH" report --format $fmt long.json >out.txt 2>err.txt
	check "report --format $fmt of long UTF-8 names is valid UTF-8" \
		sh -c "test $? = 0 && iconv -f UTF-8 -t UTF-8 out.txt >/dev/null"
done

# A point written twice: the table shows the first and says so.
file twice.json 2 '{"bench": "z.p", "params": {}, "status": "na", "reason": "first"},
  {"bench": "z.p", "params": {}, "status": "na", "reason": "second"}'
"$PTBENCH" table twice.json >out.txt 2>err.txt
check "a point twice: table shows the first, one line on stderr says so" \
	sh -c "test $? = 0 && grep -q first out.txt && test \$(wc -l <err.txt) = 1 &&
	       grep -q \"point 'z.p' appears twice\" err.txt"

# Many distinct reasons and benchmarks: every one printed once.
awk 'BEGIN { for (i = 0; i < 3000; i++)
	printf "%s{\"bench\": \"w.b%d\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"reason\": \"r%d\", \"trials\": [{\"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1]}]}", i ? "," : "", i, i }' >recs.txt
file many.json 2 "$(cat recs.txt)"
"$PTBENCH" table many.json >out.txt
check "3000 distinct reasons: 3000 footnotes" test "$(grep -c '^\[[0-9]*\] r[0-9]*$' out.txt)" = 3000
"$PTBENCH" report --format gbench many.json >out.txt
check "3000 benchmarks: 3000 gbench families" \
	test "$(grep -o '"family_index": [0-9]*' out.txt | sort -u | wc -l)" = 3000


# Every value read from a file is bounded before any reader loops over it
# (record/validate.c): a variable's value that is a number but not a finite
# one within +-2^63, or a cache size beyond the bounds of its field, is
# refused with one line naming it -- by plot and by the page, whose size
# ticks once stepped towards an infinite size for ever.
ext=$TESTDATA/plot-ext.json
refused_by_all() {   # DESCRIPTION FILE PATTERN
	for cmd in "plot --kind cache -o x.svg" "report --format html" "report" "table"; do
		# shellcheck disable=SC2086
		timeout 20 "$PTBENCH" $cmd "$2" >out.txt 2>err.txt
		rc=$?
		if [ $rc = 2 ] && [ "$(wc -l <err.txt)" = 1 ] && grep -qF -- "$3" err.txt &&
		   [ ! -s out.txt ] && [ ! -e x.svg ] && ! ls | grep -q 'x.svg.tmp'; then
			ok "$1: $cmd exits 2 at once, one line naming it, nothing printed"
		else
			not_ok "$1: $cmd: exit $rc, stderr: $(head -c 300 err.txt)"
		fi
	done
}
for size in inf 1e999 nan -inf 0x1p9999 1e300; do
	sed "0,/\"size\": *\"[0-9]*\"/s//\"size\": \"$size\"/" "$ext" >size.json
	refused_by_all "a cache.latency size of '$size'" size.json "params.size = '$size'"
done
sed '0,/"bytes": *[0-9]*/s//"bytes": 1e300/' "$ext" >cachebytes.json
refused_by_all "hwloc's cache of 1e300 bytes" cachebytes.json "caches[0]: field 'bytes'"
sed '0,/"level": *[0-9]*/s//"level": 1e12/' "$ext" >level.json
refused_by_all "a cache level of 1e12" level.json "field 'level'"
sed '0,/"sender": *[0-9]*/s//"sender": -3/' "$ext" >sender.json
refused_by_all "a matrix point sent from PU -3" sender.json "field 'sender'"

# Strings are bounded too: a 1 MiB host name is refused, not printed once
# per row (the host names the table's column); 4000 bytes are within the
# bound and print, whole once and cut where they name the column.
hostfile() {   # BYTES: plot-ext.json with a host name of BYTES bytes
	awk -v n="$1" 'BEGIN { while (length(h) < n) h = h "hhhhhhhhhhhhhhhh"; h = substr(h, 1, n) }
		!done && sub(/"host": *"[^"]*"/, "\"host\": \"" h "\"") { done = 1 } { print }' "$ext"
}
hostfile 1048576 >longhost.json
refused_by_all "a host name of 1 MiB" longhost.json "context.host: a string of 1048576 bytes"
hostfile 4000 >host4k.json
"$PTBENCH" report host4k.json >out.txt 2>err.txt
check "a host name of 4000 bytes: report prints it (exit $?)" grep -q hhhhhhhhhhhhhhhhhhhh out.txt
check "... whole once, on its line: the table's column is named by its first 48 bytes" \
	test "$(awk 'length($0) > 300' out.txt | wc -l)" = 1

# A point's name (bench and variables) is bounded as well: Google
# Benchmark's JSON repeats it for every trial, so a 3000-byte variable of a
# point of 3000 trials once printed 20 MB.
awk 'BEGIN { while (length(v) < 3000) v = v "x"
	printf "{\"schema\": \"ptbench/2\", \"status\": \"complete\", \"context\": {\"host\": \"h\", \"cpu\": {\"brand\": \"b\"}}, \"results\": [{\"bench\": \"x.y\", \"params\": {\"placement\": \"%s\"}, \"status\": \"ok\", \"value\": 1, \"trials\": [", v
	for (i = 0; i < 3000; i++) printf "%s{\"status\": \"ok\", \"mean\": 1, \"median\": 1, \"samples\": [1]}", i ? "," : ""
	print "]}]}" }' >longname.json
"$PTBENCH" report --format gbench longname.json >out.txt 2>err.txt
rc=$?
if [ $rc = 2 ] && grep -qF "results[0]: the point's name (its bench and variables) has 3014 bytes" err.txt &&
   [ ! -s out.txt ]; then
	ok "a point named by 3000 bytes: exit 2, one line saying so, nothing printed"
else
	not_ok "a point named by 3000 bytes: exit $rc, $(head -c 300 err.txt)"
fi

# A file that is no text says where and why, not "empty file".
printf '\321 {}' >latin.json
"$PTBENCH" report latin.json >out.txt 2>err.txt
check "a file starting with byte 0xd1: exit 2, 'byte 1 (0xd1) is not UTF-8 text'" \
	sh -c "test $? = 2 && grep -q 'latin.json: not a result file: byte 1 (0xd1) is not UTF-8 text' err.txt"
printf '{"schema": \000}' >nul.json
"$PTBENCH" report nul.json >out.txt 2>err.txt
check "a NUL byte: exit 2, named with its place" \
	sh -c "test $? = 2 && grep -q 'byte 12 (0x00) is a NUL' err.txt"
printf '  \n ' >blank.json
"$PTBENCH" report blank.json >out.txt 2>err.txt
check "blanks only: not JSON, with the line and column" \
	sh -c "test $? = 2 && grep -q 'blank.json: not JSON (line 2, column' err.txt"

# One point of 100,000 trials: every reader is linear in them (gbench's
# iterations and the page's SVG ids once searched from the start for each,
# 88 s for 30,000).  The bound is generous: a loaded or sanitized build
# takes seconds, a quadratic one minutes.
awk 'BEGIN { printf "{\"schema\": \"ptbench/2\", \"status\": \"complete\", \"context\": {\"host\": \"h\", \"cpu\": {\"brand\": \"b\"}}, \"results\": [{\"bench\": \"x.y\", \"params\": {}, \"status\": \"ok\", \"value\": 1, \"trials\": ["
	for (i = 0; i < 100000; i++)
		printf "%s{\"status\": \"ok\", \"mean\": %.5f, \"median\": 1, \"samples\": [1], \"iterations\": %d}", i ? "," : "", 1 + i / 1e6, 100 + i
	print "]}]}" }' >trials.json
# A sanitized build (tests/sanitize.sh sets ASAN_OPTIONS) runs several
# times slower: its bound is five times this one, still far below what a
# quadratic reader takes there.
limit=60
[ -n "${ASAN_OPTIONS:-}" ] && limit=300
for cmd in "report --format gbench" "report --format csv" "report" "table" "report --format html --no-plots"; do
	# shellcheck disable=SC2086
	timeout $limit "$PTBENCH" $cmd trials.json >out.txt 2>err.txt
	rc=$?
	check "100,000 trials: $cmd within $limit s (exit $rc)" test $rc = 0
done
"$PTBENCH" report --format gbench trials.json >out.txt
check "100,000 trials: gbench gives each repetition its own trial's iterations" \
	sh -c "grep -c '\"iterations\": 1000[0-9][0-9],' out.txt | grep -qx 103"

# The page copies each figure's SVG with every id prefixed: a figure of
# 100,000 ids (from a gnuplot that only prints one) is copied in linear
# time -- each id was once searched for from the start of the SVG.
mkdir fakegp
awk 'BEGIN { print "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">"
	for (i = 0; i < 100000; i++) printf "<use xlink:href=\x27#gpPt1\x27 id=\x27p%d\x27/>\n", i
	print "</svg>" }' >fakegp/figure.svg
printf '#!/bin/sh\ncat "%s/fakegp/figure.svg"\n' "$PWD" >fakegp/gnuplot
chmod +x fakegp/gnuplot
PATH="$PWD/fakegp:$PATH" timeout $limit "$PTBENCH" report --format html "$ext" >out.txt 2>err.txt
rc=$?
check "a figure of 100,000 ids: the page within $limit s (exit $rc), every id prefixed" \
	sh -c "test $rc = 0 && grep -q \"id='plot-trials-p99999'\" out.txt &&
	       ! grep -q \"id='p[0-9]\" out.txt"
done_testing
