#!/bin/sh
# SPDX-License-Identifier: MIT
# A co-tenant that keeps the machine's PUs busy is seen (docs/design.md
# section 13): under spinning processes of our own (tests/spinner.c), two
# per allowed PU, every point of a short run is marked disturbed, never ok,
# with the evidence in the point and in each trial; the table marks each
# value and explains the mark once.  The same when the run and its
# co-tenant are confined to PU 0.  A quiet run is not asserted undisturbed:
# the machine running the tests may be busy with other work.  Files whose
# disturbance fields are malformed are refused like any bad file.
. "$top_srcdir/tests/tap.sh"

[ -r /proc/stat ] || skip_all "no /proc/stat: the disturbance is unknown on this system"
work=$(cd "$(mktemp -d)" && pwd -P)
spinner=
trap '[ -n "$spinner" ] && kill "$spinner" 2>/dev/null; rm -rf "$work"' EXIT
cd "$work" || exit 1
SPIN=${SPINNER:-$(dirname "$JGET")/spinner}

# loaded NAME [PREFIX...]: a --quick run of two cheap points (same-PU
# ping-pong, a signal nobody waits for) under 2 spinners per allowed PU,
# both run through PREFIX (e.g. taskset -c 0).
loaded() {
	name=$1
	shift
	n=$(( $("$@" nproc 2>/dev/null || echo 1) * 2 ))
	[ "$n" -le 256 ] || n=256    # the spinner's most
	"$@" "$SPIN" "$n" 120 >"$name.ready" &
	spinner=$!
	i=0
	until grep -q ready "$name.ready" 2>/dev/null || [ $i -ge 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	# /proc/stat counts in ticks (10 ms): a trial's window must span a few
	# of them to be judged; 16 timings keep cond.signal's above 40 ms.
	"$@" "$PTBENCH" run -b mutex.pingpong -p placement=same_pu -b cond.signal --quick \
		--min-timings 16 --max-timings 16 -o "$name.json" >"$name.table" 2>"$name.err"
	rc=$?
	kill "$spinner"
	wait "$spinner" 2>/dev/null
	spinner=
	return $rc
}

# points FILE: the indices of the measured points (records with trials).
points() {
	n=$($JGET "$1" 'results.#')
	i=0
	while [ "$i" -lt "$n" ]; do
		$JGET "$1" "results.$i.trials.#" >/dev/null 2>&1 && echo "$i"
		i=$((i + 1))
	done
}

# judge NAME: the assertions on a loaded run.
judge() {
	f=$1.json
	idx=$(points "$f")
	count=$(echo "$idx" | grep -c .)
	check "$1: two points measured" test "$count" = 2
	for i in $idx; do
		what="$1: $($JGET "$f" "results.$i.bench")"
		check "$what is disturbed" test "$($JGET "$f" "results.$i.disturbed")" = true
		check "$what is not ok" test "$($JGET "$f" "results.$i.status")" = unstable
		share=$($JGET "$f" "results.$i.disturbance.other_share")
		check "$what: others took more than 10 % of its PUs ($share)" \
			awk -v s="$share" 'BEGIN { exit !(s > 0.10) }'
		nt=$($JGET "$f" "results.$i.ntrials")
		check "$what: the evidence pools its $nt trials" \
			test "$($JGET "$f" "results.$i.disturbance.windows")" = "$nt"
		check "$what: every trial has its window and verdict" sh -c \
			"test \$($JGET '$f' 'results.$i.trials.*.disturbance.window_s' | awk '\$1 > 0' | wc -l) = $nt &&
			 test \$($JGET '$f' 'results.$i.trials.*.disturbed' | grep -c -e true -e false -e null) = $nt"
	done
	check "$1: each value marked, the mark explained once" sh -c \
		"test \$(grep -c ' [0-9.]* ±[<0-9]* %\\*\\{0,1\\}!' '$1.table') = 2 &&
		 test \$(grep -c '^! disturbed: other processes' '$1.table') = 1"
	check "$1: the progress line says so" \
		test "$(grep -c 'disturbed: others took' "$1.err")" = 2
	check "$1: the run's warnings count them" \
		grep -q '^  disturbed: 2 of 2 points measured while other processes' "$1.table"
}

if loaded all; then ok "a run under spinners on every PU"; else not_ok "a run under spinners on every PU"; cat all.err; fi
judge all
if command -v taskset >/dev/null 2>&1 && taskset -c 0 true 2>/dev/null; then
	if loaded pu0 taskset -c 0; then ok "a run on PU 0 with its spinners"; else not_ok "a run on PU 0"; cat pu0.err; fi
	judge pu0
else
	skip "taskset cannot confine a run to PU 0 here"
fi

# The table and the page: one legend, no footnote per disturbed point.
"$PTBENCH" table all.json >t.md
check "table: the legend once" test "$(grep -c '^`!` disturbed: ' t.md)" = 1
"$PTBENCH" report --format html --no-plots all.json >p.html
check "html: the legend once" test "$(grep -c '<p>!  disturbed: ' p.html)" = 1

# Malformed disturbance fields: one line, exit 2.
sed '0,/"disturbed":true/s//"disturbed":"yes"/' all.json >bad1.json
sed '0,/"capacity_s":[0-9.e-]*,/s///' all.json >bad2.json
sed '0,/"busy_s":[0-9.e-]*/s//"busy_s":-1/' all.json >bad3.json
for b in bad1 bad2 bad3; do
	"$PTBENCH" report $b.json >/dev/null 2>$b.err
	rc=$?
	check "$b: refused (exit $rc), one line: $(cat $b.err)" \
		sh -c "test $rc = 2 && test \$(wc -l <$b.err) = 1"
done
done_testing
