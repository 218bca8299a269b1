#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench report --format html` (harness/tools/page.c): the page of a
# ptbench/2 run beside a 1999 machine, byte for byte against
# tests/data/report-page.html with the plots left out (so that the golden
# does not depend on gnuplot); the page parses cleanly as HTML and as XML
# (xmllint; so does the page of `table --format html`), holds no script and
# fetches nothing, and escapes what a result file says; without gnuplot the
# page says so in one line; with it, each kind the files have data for is
# an inline SVG with ids of its own; `report --all-rows` on the command
# line; bad input.
#
# After an intended change of the page, regenerate the golden file with
#     PTB_REGEN=1 make check TESTS=tests/report-html.sh
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top_srcdir" || exit 1
T=tests/data
P=results/1999-de-supinski-may
page=$work/page.html

"$PTBENCH" report --format html --no-plots $T/run-golden-v2.json $P/sun-e4000-ultrasparc.json \
	>"$page" 2>"$work/err"
rc=$?
if [ -n "$PTB_REGEN" ]; then
	cp "$page" $T/report-page.html && ok "regenerated $T/report-page.html"
elif [ "$rc" = 0 ] && [ ! -s "$work/err" ] && diff -u $T/report-page.html "$page" >"$work/diff"; then
	ok "golden report-page.html"
else
	not_ok "golden report-page.html (exit $rc)"
	sed 's/^/# /' "$work/err" "$work/diff" | head -40
fi

check "the page is set for a phone's width" grep -q '<meta name="viewport" content="width=device-width, initial-scale=1"/>' "$page"
check "every table scrolls in its own box" \
	test "$(grep -c '^<table>' "$page")" = "$(grep -c '^<div class="scroll">' "$page")"
check "no script, nothing fetched: no src, href, link or import" \
	sh -c "! grep -qi -e '<script' -e ' src=' -e ' href=' -e '<link' -e '@import' -e 'url(' '$page'"
check "machines, table and plots, in this order" \
	sh -c "grep -o -e 'id=\"machines\"' -e 'id=\"table\"' -e 'id=\"plots\"' '$page' | tr -d '\\n' | grep -qx 'id=\"machines\"id=\"table\"id=\"plots\"'"
check "the table shows CIs and footnotes" \
	sh -c "grep -q '±[0-9<]* %' '$page' && grep -q '^<p>\\[1\\] ' '$page'"
check "left-out plots say so on the page" grep -q '<p class="missing">Plots left out (--no-plots).</p>' "$page"

# A host name and a reason with markup, an ampersand and a control character.
sed -e 's/"host": *"vm"/"host":"<b>lab \& \\u0001x<\/b>"/' \
    -e 's/"reason": *"needs 2 NUMA nodes[^"]*"/"reason":"<script>alert(1)<\/script>"/' \
	$T/run-golden-v2.json >"$work/odd.json"
check "the crafted file differs from its source" sh -c "! cmp -s $T/run-golden-v2.json '$work/odd.json'"
"$PTBENCH" report --format html --no-plots --all-rows "$work/odd.json" >"$work/odd.html" 2>"$work/err"
check "a file with markup in its text gives a page" test $? = 0 -a -s "$work/odd.html"
check "its text is escaped" \
	sh -c "grep -q '&lt;b&gt;lab &amp; \\\\x01x&lt;/b&gt;' '$work/odd.html' && grep -q '&lt;script&gt;alert(1)&lt;/script&gt;' '$work/odd.html' && ! grep -q -e '<script' -e '<b>' '$work/odd.html'"

if command -v xmllint >/dev/null 2>&1; then
	for f in "$page" "$work/odd.html" "$T/tools-table.html"; do
		name=$(basename "$f")
		xmllint --html --noout "$f" >"$work/x" 2>&1
		if [ $? = 0 ] && [ ! -s "$work/x" ]; then ok "$name: xmllint --html finds nothing"; else
			not_ok "$name: xmllint --html"; sed 's/^/# /' "$work/x" | head -20; fi
		xmllint --noout "$f" >"$work/x" 2>&1
		if [ $? = 0 ] && [ ! -s "$work/x" ]; then ok "$name: well-formed XML"; else
			not_ok "$name: xmllint (XML)"; sed 's/^/# /' "$work/x" | head -20; fi
	done
else
	ok "# SKIP xmllint not found (Debian: libxml2-utils)"
fi

# Without gnuplot on PATH the page is the same but for one visible line
# where the plots go, and the command succeeds.
nogp=$work/empty-path
mkdir "$nogp"
env PATH="$nogp" "$PTBENCH" report --format html $T/run-golden-v2.json $P/sun-e4000-ultrasparc.json \
	>"$work/nogp.html" 2>"$work/err"
check "no gnuplot: the page is made (exit 0, nothing on stderr)" test $? = 0 -a ! -s "$work/err"
diff $T/report-page.html "$work/nogp.html" >"$work/diff"
check "no gnuplot: one line differs from the page without plots, and says plots need gnuplot" \
	sh -c "test \"\$(grep -c '^[<>]' '$work/diff')\" = 2 && grep -q '^> <p class=\"missing\">Plots need gnuplot, which was not found on PATH' '$work/diff'"

# With gnuplot: every kind the files have data for, as inline SVG whose ids
# stay apart; a kind without data is left out.
ext=$T/plot-ext.json
if command -v gnuplot >/dev/null 2>&1; then
	"$PTBENCH" report --format html "$ext" $T/run-golden-v2.json >"$work/plots.html" 2>"$work/err"
	check "with gnuplot: the page with plots is made" test $? = 0 -a ! -s "$work/err"
	kinds=$(grep -o '<div class="plot" id="plot-[a-z0-9]*">' "$work/plots.html" | sed 's/.*plot-//; s/">//' | tr '\n' ' ')
	check "with gnuplot: one figure per kind, in order (got: $kinds)" test "$kinds" = "table trials c2c cache scaling "
	check "with gnuplot: one inline <svg> per figure, no XML declaration inside" \
		sh -c "test \"\$(grep -c '<svg' '$work/plots.html')\" = 5 && ! grep -q '<?xml' '$work/plots.html'"
	dups=$(grep -o -e " id='[^']*'" -e ' id="[^"]*"' "$work/plots.html" | sort | uniq -d | head -3 | tr '\n' ' ')
	check "with gnuplot: no id twice in the page${dups:+ ($dups)}" test -z "$dups"
	check "with gnuplot: references only inside the page (#...), nothing fetched" \
		sh -c "! grep -o -e \"href=['\\\"][^'\\\"]*\" -e 'url([^)]*)' -e ' src=' '$work/plots.html' | grep -v -e \"href=['\\\"]#\" -e 'url(#'"
	"$PTBENCH" report --format html $T/run-golden-v2.json >"$work/v2.html" 2>"$work/err"
	kinds=$(grep -o '<div class="plot" id="plot-[a-z0-9]*">' "$work/v2.html" | sed 's/.*plot-//; s/">//' | tr '\n' ' ')
	check "with gnuplot: kinds without data are left out (got: $kinds)" test "$kinds" = "table trials "
	if command -v xmllint >/dev/null 2>&1; then
		xmllint --noout "$work/plots.html" >"$work/x" 2>&1
		check "with gnuplot: the page with its SVG is well-formed XML" test $? = 0 -a ! -s "$work/x"
		sed 's/^/# /' "$work/x" | head -10
		# libxml2's HTML parser knows HTML 4 only: an SVG element is an
		# unknown tag to it, and only that may be said.
		xmllint --html --noout "$work/plots.html" 2>&1 | grep -E '(parser|validity|namespace) (error|warning)' |
			grep -v -E 'HTML parser error : Tag (svg|g|path|polygon|polyline|line|rect|circle|ellipse|text|tspan|use|defs|desc|title|filter|fecomposite|feflood|image|clippath|lineargradient|stop) invalid' >"$work/x"
		check "with gnuplot: xmllint --html finds nothing but SVG's tags" test ! -s "$work/x"
		sed 's/^/# /' "$work/x" | head -10
	else
		ok "# SKIP xmllint not found (Debian: libxml2-utils)"
	fi
else
	ok "# SKIP gnuplot not found: the page with plots is not checked"
fi

# The run's own table from the command line, with and without all rows.
"$PTBENCH" report $T/run-golden.json >"$work/t" 2>&1
check "report prints the folded table" cmp -s $T/golden.table "$work/t"
"$PTBENCH" report --all-rows $T/run-golden.json >"$work/t" 2>&1
check "report --all-rows prints a row per point" cmp -s $T/golden.all-rows.table "$work/t"

# bad NAME ARGS...: exit 2, one line on stderr, nothing on stdout.
bad() {
	name=$1; shift
	"$PTBENCH" report "$@" >"$work/out" 2>"$work/err"
	rc=$?
	if [ "$rc" = 2 ] && [ "$(wc -l <"$work/err")" = 1 ] && [ ! -s "$work/out" ]; then ok "$name"; else
		not_ok "$name (exit $rc)"; sed 's/^/# /' "$work/err"; fi
}
bad "two files need --format html" $T/run-golden.json $T/run-golden-v2.json
bad "--no-plots needs --format html" --no-plots $T/run-golden.json
bad "the page of a missing file" --format html $T/run-golden.json "$work/none.json"
bad "an unknown format names html among the formats" --format svg $T/run-golden.json
check "... and says so" grep -q 'gbench, html' "$work/err"

done_testing
