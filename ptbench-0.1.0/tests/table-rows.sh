#!/bin/sh
# SPDX-License-Identifier: MIT
# The run table has every row of the paper's Table 1, checked on this
# project's reference runs (a whole default suite measured once, ptbench/1;
# the whole suite as trials, ptbench/2): each group and label appears, in
# the paper's order, followed by the LogP section.
. "$top_srcdir/tests/tap.sh"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
for ref in "$top_srcdir/results/kvm-amd-epyc-2vcpu.json" "$top_srcdir/results/bhyve-oxide-turin-2vcpu.json"; do
if [ ! -f "$ref" ]; then
	ok "# SKIP no reference run at $ref"
	continue
fi
if ! "$PTBENCH" report "$ref" >"$out"; then
	not_ok "ptbench report $(basename "$ref") failed"
	continue
fi
# The paper's rows, top to bottom: group|label ("" where the row is alone).
# A group's name stands on its first row only; its other rows follow it.
last=0
prev=
while IFS='|' read -r group label; do
	if [ "$group" = "$prev" ]; then
		line=$last
	else
		line=$(awk -v from="$last" -v g="$group" \
			'NR > from && index($0, g) == 1 { print NR; exit }' "$out")
	fi
	prev=$group
	[ -n "$label" ] && [ -n "$line" ] && line=$(awk -v from="$line" -v l="$label" \
		-v same="$([ "$line" = "$last" ] && echo 1)" \
		'(NR > from || (NR == from && !same)) && index($0, l) { print NR; exit }' "$out")
	if [ -n "$line" ] && [ "$line" -gt "$last" ]; then
		ok "$(basename "$ref"): row '$group${label:+ / $label}' at line $line"
		last=$line
	else
		not_ok "$(basename "$ref"): row '$group${label:+ / $label}' missing or out of order"
	fi
done <<'ROWS'
Thread Create|Detached, system scope
Thread Create|Detached, process scope
Thread Create|Undetached, system scope
Thread Create|Undetached, process scope
Thread Yield|
Time slice|
Condition Ping-pong|Unbound
Condition Ping-pong|Same CPU
Condition Ping-pong|Different CPUs
Condition Signal|
Condition Wait|Different CPUs
Mutex Ping-pong|Unbound
Mutex Ping-pong|Same CPU
Mutex Ping-pong|Different CPUs
Mutex Ping-pong|No Contention
Mutex lock and unlock|
Mutex lock |
Mutex unlock |
LogP parameters|
ROWS
check "$(basename "$ref"): N/A cells carry a footnote" sh -c "! grep 'N/A' '$out' | grep -v 'N/A \[[0-9]*\]' | grep -q ."
done
done_testing
