#!/bin/sh
# SPDX-License-Identifier: MIT
# A profile of `ptbench profile` drawn and put on the report page
# (harness/report/plot-profile.c, harness/tools/page-profile.c,
# ptb_profile_load in harness/tools/profile.c), from a fixed document
# (tests/data/profile-radix.json, the radix sort's Version I), so that no
# Valgrind is needed:
#  - `plot --kind profile`: the data and script byte for byte against
#    tests/data/plot-profile.{dat,gp}, written with gnuplot off PATH (one
#    line, exit 2); a profile is recognised without --kind;
#  - the exact bars: each thread's read and write misses of each object
#    and the true/false split, as the document has them;
#  - a profile with no misses still draws (a label says so);
#  - `report --format html --profile`: the table per object, the plot,
#    escaped names, a page of the profile alone, well-formed;
#  - bad input: one line, exit 2.
# After an intended change, regenerate the golden files with
#     PTB_REGEN=1 make check TESTS=tests/plot-profile.sh
. "$top_srcdir/tests/tap.sh"
[ -x "$PTBENCH" ] || skip_all "$PTBENCH is not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
nogp=$tmp/empty-path
mkdir "$nogp"
doc=$TESTDATA/profile-radix.json

mkdir "$tmp/profile"
env PATH="$nogp" "$PTBENCH" plot "$doc" --script "$tmp/profile" -o "$tmp/p.svg" \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
check "profile without gnuplot: exit 2 (got $rc), one line saying so" \
	sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'gnuplot is not installed' '$tmp/err'"
plot_golden profile "$tmp/profile"

# The bars against the document: block t-1 holds thread t's read and
# write misses of each object with misses, in the document's order.
dat=$tmp/profile/profile.dat
block() { awk -v b="$1" '/^# block/ { on = ($3 == b ":"); next } on && NF && $1 != "NaN"' "$dat"; }
objs=$("$JGET" "$doc" 'objects.*.name' | wc -l)
with=0; i=0
while [ $i -lt "$objs" ]; do
	m=$(( $("$JGET" "$doc" "objects.$i.read_misses") + $("$JGET" "$doc" "objects.$i.write_misses") ))
	[ "$m" -gt 0 ] && with=$((with + 1))
	i=$((i + 1))
done
[ $with -gt 16 ] && with=16
check "one row of the split per object with misses ($with)" test "$(block 2 | wc -l)" -eq $with
check "lock, the first row: its true and false sharing" \
	test "$(block 2 | head -n 1)" = "0 $("$JGET" "$doc" objects.0.true_sharing) $("$JGET" "$doc" objects.0.false_sharing)"
for t in 1 2; do
	r=$("$JGET" "$doc" "objects.1.threads.$((t - 1)).read_misses")
	w=$("$JGET" "$doc" "objects.1.threads.$((t - 1)).write_misses")
	check "globalCnt, thread $t: $r read and $w write misses drawn" \
		sh -c "awk '/^# block $((t - 1)):/ { on = 1; next } /^# block/ { on = 0 } on && \$1 > 0.5 && \$1 < 1.5' '$dat' | grep -qx '[0-9.]* $r $w [0-9.]*'"
done
check "the script names the objects, as gnuplot strings" \
	sh -c "grep -q '^set ytics add (\"lock (static)\" 0)' '$tmp/profile/profile.gp'"

# A crafted document: no misses; a name with markup and gnuplot's quotes.
sed -e 's/"name": "lock"/"name": "<b>\\"lo`ck\\"\&<\/b>"/' "$doc" >"$tmp/odd.json"
check "the crafted document differs from the fixture" sh -c "! cmp -s '$doc' '$tmp/odd.json'"
mkdir "$tmp/odd"
env PATH="$nogp" "$PTBENCH" plot --kind profile "$tmp/odd.json" --script "$tmp/odd" -o "$tmp/o.svg" 2>/dev/null
check "a name with quotes reaches the script escaped" \
	sh -c "grep -q 'set ytics add (\"<b>\\\\042lo\\\\140ck\\\\042&</b> (static)\" 0)' '$tmp/odd/profile.gp'"
awk '/"objects"/ { print "  \"objects\": []"; skip = 1; next } skip && /^}/ { skip = 0 } !skip' "$doc" >"$tmp/none.json"
mkdir "$tmp/none"
env PATH="$nogp" "$PTBENCH" plot "$tmp/none.json" --script "$tmp/none" -o "$tmp/n.svg" 2>"$tmp/err"
check "a profile without misses: a plot that says so" \
	sh -c "grep -q 'no coherence misses' '$tmp/none/profile.gp' && grep -q '0 objects, 0 threads' '$tmp/none/profile.dat'"

# Bad input: one line, exit 2, no output.
bad() {
	d=$1; shift
	env PATH="$nogp" "$PTBENCH" "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$d: exit 2 (got $rc), one line ($(head -n 1 "$tmp/err"))" \
		sh -c "[ $rc -eq 2 ] && [ \$(wc -l <'$tmp/err') -eq 1 ] && [ ! -s '$tmp/out' ]"
}
sed 's/"read_misses": 652/"read_misses": "652"/' "$doc" >"$tmp/str.json"
sed 's/"schema": "ptbench-profile\/1"/"schema": "ptbench-profile\/9"/' "$doc" >"$tmp/v9.json"
head -c 400 "$doc" >"$tmp/cut.json"
bad "plot --kind profile of a result file" plot --kind profile "$TESTDATA/plot-ext.json"
bad "plot --kind table of a profile" plot --kind table "$doc"
bad "plot --cpus of a profile" plot --cpus 2 "$doc"
bad "plot --kind profile of a count that is a string" plot --kind profile "$tmp/str.json"
bad "plot --kind profile of another schema" plot --kind profile "$tmp/v9.json"
bad "plot of a cut profile" plot --kind profile "$tmp/cut.json"
bad "report --profile of a result file" report --format html --profile "$TESTDATA/plot-ext.json"
bad "report --profile without --format html" report "$TESTDATA/run-golden-v2.json" --profile "$doc"
bad "report --profile of a missing file" report --format html --profile "$tmp/absent.json"

# The page: the profile's table, with or without runs.
"$PTBENCH" report --format html --no-plots --profile "$doc" >"$tmp/alone.html" 2>"$tmp/err"
check "report --profile alone: a page" test $? -eq 0 -a -s "$tmp/alone.html"
check "  its title names the program" grep -q '<h1>ptbench report: profile of tests/profile-radix 1 32</h1>' "$tmp/alone.html"
check "  the table has lock's totals and verdict" \
	grep -q '<td>true sharing</td><td class="num">all</td><td class="num">1304</td><td class="num">1305</td><td class="num">2608</td><td class="num">1</td>' "$tmp/alone.html"
check "  and where it missed most" grep -q '<p>lock: missed most at pthread_mutex_lock.c:48 (1304)' "$tmp/alone.html"
"$PTBENCH" report --format html --no-plots "$TESTDATA/run-golden-v2.json" --profile "$doc" >"$tmp/both.html" 2>"$tmp/err"
check "with a run: machines, table, profile and plots, in this order" \
	sh -c "grep -o -e 'id=\"machines\"' -e 'id=\"table\"' -e 'id=\"profile\"' -e 'id=\"plots\"' '$tmp/both.html' | tr -d '\\n' | grep -qx 'id=\"machines\"id=\"table\"id=\"profile\"id=\"plots\"'"
"$PTBENCH" report --format html --no-plots --profile "$tmp/odd.json" >"$tmp/odd.html" 2>"$tmp/err"
check "a name with markup is escaped on the page" \
	sh -c "grep -q '&lt;b&gt;&quot;lo\`ck&quot;&amp;&lt;/b&gt;' '$tmp/odd.html' && ! grep -q '<b>' '$tmp/odd.html'"
if command -v xmllint >/dev/null 2>&1; then
	check "  the pages are well-formed XML" xmllint --noout "$tmp/alone.html" "$tmp/both.html" "$tmp/odd.html"
else
	ok "# SKIP xmllint not installed"
fi

if ! command -v gnuplot >/dev/null 2>&1; then
	ok "# SKIP gnuplot not installed: the pictures are not drawn"
	done_testing
	exit
fi
(cd "$tmp" && "$PTBENCH" plot "$doc" 2>"$tmp/err")
check "a profile without --kind: profile.svg, said on stderr" \
	sh -c "[ -s '$tmp/profile.svg' ] && grep -q 'wrote profile.svg' '$tmp/err'"
"$PTBENCH" plot "$tmp/none.json" -o "$tmp/none.svg" 2>"$tmp/err"
check "a profile without misses is drawn" test -s "$tmp/none.svg"
if command -v xmllint >/dev/null 2>&1; then
	check "  the SVG is well-formed" xmllint --noout "$tmp/profile.svg"
else
	ok "# SKIP xmllint not installed"
fi
"$PTBENCH" report --format html --profile "$doc" >"$tmp/page.html" 2>"$tmp/err"
check "report --profile: the page draws the profile's plot" grep -q 'id="plot-profile"' "$tmp/page.html"
"$PTBENCH" report --format html "$TESTDATA/run-golden-v2.json" >"$tmp/page2.html" 2>"$tmp/err"
check "  and without --profile it does not" sh -c "! grep -q 'id=\"plot-profile\"' '$tmp/page2.html'"
done_testing
