# SPDX-License-Identifier: MIT
# `ptbench plot` (harness/report/plot*.c, harness/cli/cmd-plot.c):
#  - the data and gnuplot script of every kind, from fixed result files,
#    byte for byte against tests/data/plot-KIND.{dat,gp}; they are written
#    with gnuplot off PATH, so this part needs no gnuplot and never depends
#    on its version;
#  - a missing gnuplot, a failing one, bad input and files without the
#    kind's data: one line, exit 2, no output file;
#  - with gnuplot: the SVG of each kind is well-formed XML (xmllint) and
#    holds one bar, dot, cell or curve point per line of its data file.
#
# After an intended change of a kind, regenerate its golden files with
#     PTB_REGEN=1 make check TESTS=tests/plot.sh
# and read the diff of tests/data/plot-* before committing it.
. "$top_srcdir/tests/tap.sh"

[ -x "$PTBENCH" ] || skip_all "$PTBENCH is not built"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
nogp=$tmp/empty-path        # a PATH without gnuplot
mkdir "$nogp"

files_of() {
	case $1 in
	table|trials) echo "$TESTDATA/run-golden-v2.json $TESTDATA/run-golden.json" ;;
	*)            echo "$TESTDATA/plot-ext.json" ;;
	esac
}

# one_line FILE: FILE holds exactly one line naming the command.
one_line() { [ "$(wc -l <"$1")" -eq 1 ] && grep -q '^ptbench plot: ' "$1"; }

for k in table trials c2c cache scaling; do
	mkdir "$tmp/$k"
	# shellcheck disable=SC2046
	env PATH="$nogp" "$PTBENCH" plot --kind $k $(files_of $k) --script "$tmp/$k" \
		-o "$tmp/$k.svg" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	check "$k without gnuplot: exit 2" test $rc -eq 2
	check "$k without gnuplot: one line saying so" \
		sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'gnuplot is not installed' '$tmp/err'"
	check "$k without gnuplot: no picture, nothing left beside it" \
		sh -c "! ls '$tmp' | grep -q '^$k\.svg'"
	plot_golden "$k" "$tmp/$k"
done

# Bad input: one line, exit 2, before gnuplot is looked for.
bad() {
	d=$1; shift
	env PATH="$nogp" "$PTBENCH" plot "$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ $rc -eq 2 ] && one_line "$tmp/err" && [ ! -s "$tmp/out" ]; then
		ok "$d: exit 2, one line"
	else
		not_ok "$d: exit $rc, stderr:"; sed 's/^/# /' "$tmp/err"
	fi
}
ext=$TESTDATA/plot-ext.json
bad "no file" --kind c2c
bad "a missing file" "$tmp/none.json"
bad "an unknown kind" --kind pie "$ext"
bad "an output that is neither .svg nor .png" -o "$tmp/x.pdf" "$ext"
bad "--script naming a file" --script "$ext" "$ext"
bad "files without the kind's data" --kind table "$ext"
grep -q "paper's Table 1" "$tmp/err"
check "... saying what they lack" test $? -eq 0
bad "a file that is no result file" "$TESTDATA/tools-table.md"

# Without --kind: the first kind whose data the files hold (trials here:
# the fixture has no Table-1 row).
mkdir "$tmp/default"
env PATH="$nogp" "$PTBENCH" plot "$ext" --script "$tmp/default" -o "$tmp/d.svg" 2>/dev/null
check "the default kind is the first the files hold" test -f "$tmp/default/trials.gp"

# A gnuplot that fails: its complaint in one line, exit 2, and the file
# already at -o left as it was.
mkdir "$tmp/bin"
printf '#!/bin/sh\necho "line 3: unexpected trouble" >&2\nexit 1\n' >"$tmp/bin/gnuplot"
chmod +x "$tmp/bin/gnuplot"
echo keep >"$tmp/old.svg"
env PATH="$tmp/bin:$PATH" "$PTBENCH" plot --kind cache "$ext" -o "$tmp/old.svg" 2>"$tmp/err"
rc=$?
check "a failing gnuplot: exit 2" test $rc -eq 2
check "a failing gnuplot: its complaint in one line" \
	sh -c "[ \$(wc -l <'$tmp/err') -eq 1 ] && grep -q 'unexpected trouble' '$tmp/err'"
check "a failing gnuplot: the old file untouched, no temporary left" \
	sh -c "[ \"\$(cat '$tmp/old.svg')\" = keep ] && ! ls '$tmp' | grep -q 'old.svg.tmp'"

# A matrix point whose notes lack the placement class is drawn without
# one (it once crashed the c2c kind).
sed '0,/,"class":"cross_core"}/s//}/' "$ext" >"$tmp/noclass.json"
mkdir "$tmp/noclass"
env PATH="$nogp" "$PTBENCH" plot --kind c2c "$tmp/noclass.json" --script "$tmp/noclass" \
	-o "$tmp/noclass.svg" 2>"$tmp/err"
check "a c2c point without its class: the data and script written (exit $?, 2: no gnuplot)" \
	sh -c "[ $? -eq 2 ] && [ -s '$tmp/noclass/c2c.dat' ] && grep -q 'gnuplot is not installed' '$tmp/err'"

sed '0,/"sender":0.0,/s///' "$ext" >"$tmp/nosender.json"
mkdir "$tmp/nosender"
env PATH="$nogp" "$PTBENCH" plot --kind c2c "$tmp/nosender.json" --script "$tmp/nosender" \
	-o "$tmp/nosender.svg" 2>"$tmp/err"
check "a c2c point without its sender: the data and script written (exit $?, 2: no gnuplot)" \
	sh -c "[ $? -eq 2 ] && [ -s '$tmp/nosender/c2c.dat' ] && grep -q 'gnuplot is not installed' '$tmp/err'"

# --script writes nothing through a symbolic link, as -o does not: not
# the folder's name, not a file in it (and nothing half-written when one
# of the two is a link).
echo secret >"$tmp/victim"
mkdir "$tmp/real"
ln -s "$tmp/real" "$tmp/linkdir"
bad "--script naming a symbolic link to a folder" --kind cache --script "$tmp/linkdir" "$ext"
check "... and nothing written into its target" test -z "$(ls "$tmp/real")"
mkdir "$tmp/sd"
ln -s "$tmp/victim" "$tmp/sd/cache.gp"
bad "--script with its script a symbolic link" --kind cache --script "$tmp/sd" "$ext"
check "... the link's target untouched, no data file beside it" \
	sh -c "[ \"\$(cat '$tmp/victim')\" = secret ] && [ ! -e '$tmp/sd/cache.dat' ]"
rm "$tmp/sd/cache.gp"
ln -s "$tmp/victim" "$tmp/sd/cache.dat"
bad "--script with its data a symbolic link" --kind cache --script "$tmp/sd" "$ext"
check "... the link's target untouched" sh -c "[ \"\$(cat '$tmp/victim')\" = secret ]"

# A signal while gnuplot draws: the picture's temporary file and the
# folder gnuplot draws in are removed, gnuplot is ended, and the process
# ends by the signal.  The gnuplot here sleeps until it is killed.  A
# shell starts background commands with SIGINT ignored, nohup runs its
# command with SIGHUP ignored, and ptbench respects an ignored signal as
# its caller's wish; env --default-signal undoes that where env has it.
mkdir "$tmp/slow" "$tmp/work"
printf '#!/bin/sh\necho $$ >"$PTB_TEST_PID"\nexec sleep 60\n' >"$tmp/slow/gnuplot"
chmod +x "$tmp/slow/gnuplot"
for sn in INT:2 TERM:15 HUP:1; do
	sig=${sn%:*}
	dflt=
	if env --default-signal=$sig true 2>/dev/null; then
		dflt=--default-signal=$sig
	elif [ $sig = INT ]; then
		skip "SIGINT: env --default-signal is not there to undo the shell's SIG_IGN"
		continue
	fi
	rm -f "$tmp/gp.pid"
	env $dflt PTB_TEST_PID="$tmp/gp.pid" TMPDIR="$tmp/work" PATH="$tmp/slow:$PATH" \
		"$PTBENCH" plot --kind cache "$ext" -o "$tmp/sig.svg" 2>/dev/null &
	pid=$!
	i=0
	while [ ! -s "$tmp/gp.pid" ] && [ $i -lt 200 ]; do sleep 0.1; i=$((i + 1)); done
	started=$(ls "$tmp" | grep -c 'sig.svg.tmp')
	kill -$sig $pid
	wait $pid
	rc=$?
	gp=$(cat "$tmp/gp.pid" 2>/dev/null)
	i=0   # a killed gnuplot may stay a zombie for a moment
	while [ -n "$gp" ] && [ $i -lt 100 ] && ps -o stat= -p "$gp" 2>/dev/null | grep -qv Z; do
		sleep 0.1; i=$((i + 1))
	done
	check "SIG$sig while gnuplot draws: the temporary picture existed ($started)" test "$started" = 1
	check "SIG$sig: the process ends by the signal (status $rc)" \
		test "$rc" = $((128 + ${sn#*:}))
	check "SIG$sig: no temporary picture, no work folder left" \
		sh -c "! ls '$tmp' | grep -q 'sig.svg' && [ -z \"\$(ls '$tmp/work')\" ]"
	check "SIG$sig: gnuplot ended" sh -c "! ps -o stat= -p '$gp' 2>/dev/null | grep -qv Z"
done

if ! command -v gnuplot >/dev/null 2>&1; then
	ok "# SKIP gnuplot not installed: the pictures are not drawn"
	done_testing
	exit
fi

# Data lines of the blocks of a data file (NaN placeholders are no data),
# as "block count" pairs.
blocks() {
	awk 'BEGIN { b = 0 } /^#/ { next }
	     /^$/ { blank++; next }
	     { if (seen && blank >= 2) b++; blank = 0; seen = 1; if ($1 != "NaN") n[b]++ }
	     END { for (i = 0; i <= b; i++) print i, n[i] + 0 }' "$1"
}
# Sum of the data lines of the given blocks.
lines_in() { f=$1; shift; blocks "$f" | awk -v want=" $* " 'index(want, " " $1 " ") { s += $2 } END { print s + 0 }'; }

# What is counted in the SVG, per kind, and the count the data file asks
# for: one filled polygon per bar (and per key sample), one dot symbol per
# trial or curve point (and per key sample), one square per matrix cell.
gpver=$(gnuplot --version | awk '{ print $2 }')
for k in table trials c2c cache scaling; do
	# shellcheck disable=SC2046
	if ! "$PTBENCH" plot --kind $k $(files_of $k) -o "$tmp/$k.svg" 2>"$tmp/err"; then
		not_ok "$k: gnuplot drew nothing: $(cat "$tmp/err")"
		continue
	fi
	ok "$k: drawn"
	if command -v xmllint >/dev/null 2>&1; then
		check "$k: the SVG is well-formed" xmllint --noout "$tmp/$k.svg"
	else
		ok "# SKIP xmllint not installed"
	fi
	dat=$TESTDATA/plot-$k.dat
	case $k in
	table)   want=$(( $(lines_in "$dat" 0 1) + 2 ))
		 have=$(grep -c '<polygon' "$tmp/$k.svg")
		 nas=$(lines_in "$dat" 2) ;;
	trials)  # the dots are the even blocks, a panel's per run; a key sample per run
		 want=$(( $(blocks "$dat" | awk '$1 % 2 == 0 { s += $2 } END { print s + 0 }') + 2 ))
		 have=$(grep -o "href='#gpPt6'" "$tmp/$k.svg" | wc -l) ;;
	c2c)     want=$(lines_in "$dat" 0)
		 # cells are squares (size ratio -1); the colour box's strips are not
		 have=$(grep -o "points = '[^']*'" "$tmp/$k.svg" | tr -d "'" | awk '
			{ x0 = y0 = 1e9; x1 = y1 = -1e9
			  for (i = 3; i <= NF; i++) { split($i, p, ",")
				if (p[1] < x0) x0 = p[1]; if (p[1] > x1) x1 = p[1]
				if (p[2] < y0) y0 = p[2]; if (p[2] > y1) y1 = p[2] }
			  w = x1 - x0; h = y1 - y0
			  if (w > 10 && (w - h) * (w - h) < 1) n++ }
			END { print n + 0 }') ;;
	cache)   want=$(( $(lines_in "$dat" 0) + 1 ))
		 have=$(grep -o "href='#gpPt6'" "$tmp/$k.svg" | wc -l) ;;
	scaling) want=$(( $(lines_in "$dat" 0 1 2 3) + 4 ))
		 have=$(grep -o "href='#gpPt6'" "$tmp/$k.svg" | wc -l) ;;
	esac
	case $gpver in
	5.4)  check "$k: $want things drawn for the data (found $have)" test "$have" -eq "$want" ;;
	*)    ok "# SKIP $k: the count is calibrated on gnuplot 5.4, this is $gpver" ;;
	esac
	if [ $k = table ]; then
		have=$(grep -o '>N/A<' "$tmp/$k.svg" | wc -l)
		check "table: $nas N/A marks (found $have)" test "$have" -eq "$nas"
	fi
done

# A host name gnuplot could read as more than a name -- a leading quote
# (single quotes cannot hold one), a backquoted command, a macro, a
# backslash -- is a title like any other: every kind draws, nothing runs.
cat >"$tmp/host.sed" <<'SED'
s/"host": *"[^"]*"/"host": "'q\\"`touch PWNED`@x $y \\\\ é"/
SED
sed -f "$tmp/host.sed" "$ext" >"$tmp/q-ext.json"
sed -f "$tmp/host.sed" "$TESTDATA/run-golden-v2.json" >"$tmp/q-v2.json"
mkdir "$tmp/quote"
for k in table trials c2c cache scaling; do
	# one run's scaling curves are named without the host: two runs
	case $k in table|trials) q="$tmp/q-v2.json" ;; scaling) q="$tmp/q-ext.json $ext" ;;
		   *) q="$tmp/q-ext.json" ;; esac
	# shellcheck disable=SC2086
	(cd "$tmp/quote" && "$PTBENCH" plot --kind $k $q -o "$k.svg" 2>"$tmp/err")
	check "$k of a host named '\"\`...\`@\$ \\: drawn (exit $?: $(head -c 200 "$tmp/err"))" \
		grep -qF "q\"\`touch PWNED\`@x \$y \\ é" "$tmp/quote/$k.svg"
done
check "... and no command in the name ran" sh -c "! ls '$tmp/quote' '$tmp' | grep -q PWNED"

"$PTBENCH" plot --kind cache "$ext" -o "$tmp/c.png" 2>"$tmp/err"
check "-o NAME.png: a PNG" sh -c "head -c 8 '$tmp/c.png' | od -c | grep -q 'P   N   G'"
"$PTBENCH" plot --kind c2c "$ext" -o - >"$tmp/stdout.svg" 2>"$tmp/err"
check "-o -: the SVG on stdout" grep -q '<svg' "$tmp/stdout.svg"
mkdir "$tmp/cwd"
(cd "$tmp/cwd" && "$PTBENCH" plot "$ext" 2>"$tmp/err")
check "no -o: KIND.svg, said on stderr" \
	sh -c "[ -s '$tmp/cwd/trials.svg' ] && grep -q 'wrote trials.svg' '$tmp/err'"
done_testing
