#!/bin/sh
# SPDX-License-Identifier: MIT
# `ptbench table`: golden Markdown, CSV and HTML output for fixed result files
# (tests/data/tools-table-*.json: N/A cells, an unstable value, rows missing
# on some machines, LogP records with and without figures, three runs of one
# host told apart by date and time) next to a 1999 machine; points N/A at a
# placement their machine lacks folded into one footnote per machine, or
# kept as rows with --all-rows; and the paper's Table 1 as data: every
# transcribed figure is where the paper has it and equals its published text.
. "$top_srcdir/tests/tap.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$top_srcdir" || exit 1
T=tests/data
P=results/1999-de-supinski-may

# golden NAME ARGS...: the table's output equals tests/data/NAME
golden() {
	name=$1; shift
	"$PTBENCH" table "$@" >"$work/$name" 2>"$work/err"
	rc=$?
	if [ "$rc" = 0 ] && diff -u "$T/$name" "$work/$name" >"$work/diff"; then ok "golden $name"; else
		not_ok "golden $name (exit $rc)"; sed 's/^/# /' "$work/err" "$work/diff" | head -40; fi
}

golden tools-table.md $T/tools-table-a.json $T/tools-table-b.json $T/tools-table-c.json $P/sun-e4000-ultrasparc.json
golden tools-table.csv --format csv $T/tools-table-a.json $T/tools-table-b.json
golden tools-table.html --format html --stat median $T/tools-table-b.json $P/sun-e4000-ultrasparc.json
golden tools-table-absent.md $T/run-golden.json $T/tools-table-a.json
golden tools-table-all-rows.md --all-rows $T/run-golden.json $T/tools-table-a.json

# run-golden.json has one package and one NUMA node; tools-table-a.json's
# cross_numa point is N/A for another reason (its topology has two nodes).
ab="$T/tools-table-absent.md"
check "a machine's absent placements are one footnote" \
	grep -qx '\[1\] golden-host (Example 3000): not on this machine: cross_package, cross_numa (1 package, 1 NUMA node)' "$ab"
check "rows with only absent points are left out (ping-pong, LogP)" \
	sh -c "! grep -q '^|.*(cross_package) *|' '$ab' && grep -q '^|.*(cross_package) *|' '$T/tools-table-all-rows.md'"
check "an absent point in a row kept for another machine points at its machine's note" \
	grep -q '| Different CPUs (cross_numa) *| *N/A \[1\] | *N/A \[4\] |' "$ab"
check "a point N/A for another reason keeps its row and reason" grep -q 'Detached, process scope *| *N/A \[2\] |' "$ab"
check "--all-rows keeps a row per absent point with its reason" \
	sh -c "grep -q 'Different CPUs (cross_package) *| *N/A \\[3\\] |' '$T/tools-table-all-rows.md' && grep -qx '\\[3\\] needs 2 packages; this machine has 1' '$T/tools-table-all-rows.md' && ! grep -q 'not on this machine' '$T/tools-table-all-rows.md'"

md="$T/tools-table.md"
check "one host, three runs: the columns are told apart" \
	grep -q '| lab1 (Intel Xeon Gold 6130), 2026-01-05 | lab1 (Intel Xeon Gold 6130), 2026-01-06 09:00 | lab1 (Intel Xeon Gold 6130), 2026-01-06 12:30 |' "$md"
check "N/A cells carry a footnote with the reason" \
	sh -c "grep -q 'Detached, process scope *| *N/A \\[1\\] |' '$md' && grep -qx '\\[1\\] pthread_attr_setscope(PTHREAD_SCOPE_PROCESS): Operation not supported' '$md'"
check "an unstable value is marked and explained" \
	sh -c "grep -q '| *0.479\\* \\[2\\] |' '$md' && grep -q '^Values marked \\* are unstable' '$md'"
check "a row missing on a machine shows -" grep -q '| *Mutex lock *| at least 1024 mutexes *| *- | *0.0171 | *- |' "$md"
check "paper rows first, in the paper's order" \
	sh -c "grep -n -e '^| Thread Create ' -e '^| Mutex unlock ' -e '^| LogP: mutex' -e '^| create.join' '$md' | cut -d'|' -f2 | tr -d ' \\n' | grep -qx 'ThreadCreateMutexunlockLogP:mutex,DifferentCPUs(cross_core)create.join\\[17\\]'"
check "a LogP record with figures gives five rows" test "$(grep -c -e 'o_s, send overhead' -e 'o_r, receive overhead' -e 'L, latency' -e 'g, gap' -e 'RTT, round trip' "$md")" = 5
check "a LogP placement without figures folds into one N/A row" \
	grep -q '^| LogP: condition variable, Different CPUs (cross_core) | o_s, o_r, RTT, L, g *| *N/A \[12\] |' "$md"
check "the machine block names CPU, topology, kernel, libc and compiler" \
	sh -c "grep -q '^- CPU: Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz, family 6 model 85 stepping 4' '$md' && grep -q '^- Topology: 2 packages, 32 cores, 64 PUs, 2 NUMA nodes' '$md' && grep -q '^- OS: 6.1.0-18-amd64 x86_64' '$md' && grep -q '^- libc / threads: glibc 2.36 / NPTL 2.36' '$md' && grep -q '^- Compiler: gcc 12.2.0 -O2' '$md'"
check "--stat median on 1999 data shows the mean, footnoted" \
	grep -q 'only the mean is recorded: shown instead of the median' "$T/tools-table.html"

# The 1999 files: all four load, and every record's mean is its published
# figure in ns (the paper prints µs).  One record per line, so awk reads them.
"$PTBENCH" table --format csv $P/digital-alphaserver-4100.json $P/ibm-sp2-604e.json \
	$P/sgi-origin-r10000.json $P/sun-e4000-ultrasparc.json >"$work/1999.csv" 2>"$work/err"
check "the four 1999 files load and tabulate" test $? = 0 -a ! -s "$work/err"
bad=$(cat $P/*.json | awk '
	/"published"/ {
		m = $0; sub(/.*"mean": /, "", m); sub(/[,}].*/, "", m)
		p = $0; sub(/.*"published": "/, "", p); sub(/".*/, "", p)
		d = m - p * 1000; if (d < 0) d = -d
		if (d > 1e-9 * m) print p " vs " m
	}')
check "1999: each mean is 1000 x its published figure${bad:+ ($bad)}" test -z "$bad"
check "1999: 18 Table 1 cells per machine" \
	test "$(cat $P/*.json | grep -c '"source": "de Supinski & May 1999, Table 1"')" = 72
# A few cells against the paper's Table 1, one per kind of row (footnote
# numbers aside).
row() { grep -q "^$1\$" "$work/1999.csv"; }
n='\[[0-9,]*\]'
check "1999: thread create, detached, system scope: N/A 265.9 N/A 211.0" \
	row "Thread Create,\"Detached, system scope\",N/A $n,265.9,N/A $n,211.0"
check "1999: time slice 10013 10001 N/A N/A" row "Time slice,,10013,10001,N/A $n,N/A $n"
check "1999: condition signal 0.0383 0.606 0.634 0.125" row "Condition Signal,,0.0383,0.606,0.634,0.125"
check "1999: IBM mutex ping-pong on different CPUs in the cross_core row" \
	sh -c "grep -F 'Mutex Ping-pong,Different CPUs (cross_core),' '$work/1999.csv' | cut -d, -f3- | grep -q '^\"N/A \\[[0-9,]*\\]\",3.7 '"
check "1999: SGI lock and unlock keeps its published digits 0.540" \
	sh -c "grep -F 'Mutex lock and unlock,' '$work/1999.csv' | grep -q ',0.540 \\['"

done_testing
