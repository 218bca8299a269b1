#!/bin/sh
# SPDX-License-Identifier: MIT
# The tables a newcomer reads, held to the same targets in every form they
# take -- the run's text table (`report`), the Markdown and HTML of
# `table`, and the report page:
# - a default-suite run on one machine (a ptbench/2 run of trials and a
#   ptbench/1 one): at most 15 footnotes, none repeating another's text,
#   no number in a note with more than 4 significant digits, none of the
#   record's internal words (max_timings, budget_s, cv_pct, the notes'
#   keys) in the output unless --verbose asks for the diagnostics;
# - the extended suite on one machine: at most 132 columns (text, and the
#   Markdown table's rows), at most 12 N/A rows, and --all-rows gives the
#   folded rows back;
# - `table` of several machines widens by columns only: the label columns
#   keep their width.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top_srcdir" || exit 1
DEF2=tests/data/default-v2.json
DEF1=results/kvm-amd-epyc-2vcpu.json
EXT=results/bhyve-oxide-turin-2vcpu.json

# forms FILE ARGS...: every form of the table of FILE into $work/<form>
forms() {
	f=$1; shift
	"$PTBENCH" report "$f" "$@" >"$work/text" &&
	"$PTBENCH" table "$f" "$@" >"$work/md" &&
	"$PTBENCH" table --format html "$f" "$@" >"$work/html" &&
	"$PTBENCH" report --format html --no-plots "$f" "$@" >"$work/page"
}

# notes FORM: the footnotes' texts, one a line, the "[n] " left off
notes() {
	case $1 in
	text) awk '/^\[[0-9]+\] /{ if (n) print n; n = $0; next }
		   n && /^ +[^ ]/{ sub(/^ +/, ""); n = n " " $0; next }
		   { if (n) print n; n = "" } END { if (n) print n }' "$work/text" ;;
	md) grep '^\[[0-9]*\] ' "$work/md" ;;
	html|page) grep -o '<p>\[[0-9]*\] [^<]*</p>' "$work/$1" | sed 's,</p>$,,; s,^<p>,,' ;;
	esac | sed 's/^\[[0-9]*\] //'
}

# legend FORM: the legend's lines
legend() {
	case $1 in
	text) grep -e '^\* ' -e '^~ ' -e '^(time slice) ' "$work/text" ;;
	md) grep '^`' "$work/md" ;;
	html|page) grep -o '<p>[^[<][^<]*</p>' "$work/$1" | grep -e '^<p>\*' -e '^<p>~' -e '^<p>(' ;;
	esac
}

# na_rows FORM: the rows of the table that read N/A
na_rows() {
	case $1 in
	text) awk '/^Test /{ on = 1 } /^\* |^\[1\] /{ on = 0 } on && /N\/A/{ n++ } END { print n + 0 }' \
		"$work/text" ;;
	md) grep '^|' "$work/md" | grep -c 'N/A' ;;
	html|page) grep '^<tr>' "$work/$1" | grep -c 'N/A' ;;
	esac
}

# sigdigits: the most significant digits of any number on stdin
sigdigits() {
	grep -o '[0-9][0-9.]*[0-9]\|[0-9]' | awk '{
		t = $0; frac = index(t, ".") > 0; gsub(/\./, "", t); sub(/^0+/, "", t)
		if (!frac) sub(/0+$/, "", t)
		if (length(t) > m) m = length(t) } END { print m + 0 }'
}

for f in $DEF2 $DEF1; do
	if ! forms "$f"; then
		not_ok "$f: the tables are made"
		continue
	fi
	for form in text md html page; do
		notes $form >"$work/notes"
		n=$(wc -l <"$work/notes")
		check "$f, $form: $n footnotes, at most 15" test "$n" -le 15 -a "$n" -ge 1
		check "$f, $form: no footnote repeats another's text" \
			test "$(sort "$work/notes" | uniq -d | wc -l)" = 0
		legend $form >>"$work/notes"
		d=$(sigdigits <"$work/notes")
		check "$f, $form: no number in the notes has more than 4 significant digits ($d)" \
			test "$d" -le 4
		check "$f, $form: no internal word without its meaning" \
			sh -c "! grep -E 'max_timings|budget_s|cv_pct|cpu_share|spins_per_slice|switches =|notes:' '$work/$form'"
	done
	check "$f: the legend explains the unstable mark once" test "$(legend text | grep -c '^\* ')" = 1
done

# --verbose gives the diagnostics back, in plain sight of what they are
"$PTBENCH" report --verbose $DEF2 >"$work/verbose"
check "report --verbose lists what the benchmarks noted" \
	grep -q '^\[[0-9]*\] noted by the benchmark: .*cpu_share = 0\.[0-9][0-9]*$' "$work/verbose"
"$PTBENCH" table --verbose $DEF2 >"$work/verbose.md"
check "table --verbose lists them too" grep -q 'noted by the benchmark: ' "$work/verbose.md"

# The extended suite on one machine
if forms $EXT; then
	w=$(LC_ALL=C tr -d '\200-\277' <"$work/text" | awk '{ if (length($0) > m) m = length($0) } END { print m }')
	check "$EXT, text: $w columns, at most 132" test "$w" -le 132
	w=$(LC_ALL=C tr -d '\200-\277' <"$work/md" | awk '/^\|/{ if (length($0) > m) m = length($0) } END { print m }')
	check "$EXT, md: its table $w columns, at most 132" test "$w" -le 132
	for form in text md html page; do
		n=$(na_rows $form)
		check "$EXT, $form: $n N/A rows, at most 12" test "$n" -le 12
	done
	check "$EXT: the counts of threads the machine cannot run are the one line's" \
		grep -q '^Not on this machine: .*; 3 or more PUs, one per thread (2 PUs)$' "$work/text"
	check "$EXT: 1 waiter, 1 thread, 1 reader" \
		sh -c "grep -q ' 1 waiter  ' '$work/text' && grep -q ' 1 thread  ' '$work/text' && grep -q ' 1 reader  ' '$work/text' && ! grep -q ' 1 \\(waiters\\|threads\\|readers\\) ' '$work/text'"
	check "$EXT: the spin ping-pong on one PU says it is a time slice" \
		grep -q '^ *Same CPU (time slice)  *[0-9]' "$work/text"
	check "$EXT: and the legend says what that means" grep -q '^(time slice) bounded by the scheduler' "$work/text"
else
	not_ok "$EXT: the tables are made"
fi
if forms $EXT --all-rows; then
	for form in text md html page; do
		n=$(na_rows $form)
		check "$EXT, $form --all-rows: the folded rows are back ($n N/A rows)" test "$n" -gt 12
	done
else
	not_ok "$EXT: the tables with --all-rows are made"
fi

# Several machines: the label columns keep their width
"$PTBENCH" table $EXT >"$work/one"
"$PTBENCH" table $EXT $DEF2 $DEF1 >"$work/three"
labels() { grep -m1 '^|' "$1" | cut -d'|' -f1-3 | wc -c; }
check "table of several machines widens by columns, not labels" \
	test "$(labels "$work/one")" = "$(labels "$work/three")"

done_testing
