#!/bin/sh
# SPDX-License-Identifier: MIT
# Whether a run's CI holds another run's figure: runs the default suite
# with program A, then B, then A, then B (ROUNDS pairs of runs,
# alternated), and for every pair of runs and every point measured in
# both, counts whether each run's 95 % CI holds the other's value.  A and
# B may be two builds of one source (e.g. with other alignment flags), or
# the same program.  A benchmark note, not a test.
#   docs/calibration.sh A B [ROUNDS [RUN-OPTION...]]
set -e
A=$1 B=$2
ROUNDS=${3:-1}
[ $# -ge 3 ] && shift 3 || shift $#
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
r=1
while [ "$r" -le "$ROUNDS" ]; do
	/usr/bin/time -f "%e" -o "$work/a$r.time" "$A" run "$@" -o "$work/a$r.json" >/dev/null 2>&1
	/usr/bin/time -f "%e" -o "$work/b$r.time" "$B" run "$@" -o "$work/b$r.json" >/dev/null 2>&1
	echo "round $r: A $(cat "$work/a$r.time") s, B $(cat "$work/b$r.time") s"
	r=$((r + 1))
done
python3 - "$work" "$ROUNDS" <<'PY'
import json, sys
work, rounds = sys.argv[1], int(sys.argv[2])
def points(path):
    out = {}
    for r in json.load(open(path))['results']:
        if r.get('ci95') and r.get('value') and r.get('status') in ('ok', 'unstable'):
            key = r['bench'] + ' ' + ' '.join('%s=%s' % kv for kv in sorted(r.get('params', {}).items()))
            out[key] = (r['value'], r['ci95'])
    return out
held = total = 0
for i in range(1, rounds + 1):
    a, b = points('%s/a%d.json' % (work, i)), points('%s/b%d.json' % (work, i))
    for k in sorted(set(a) & set(b)):
        for (v, _), (_, ci) in ((a[k], b[k]), (b[k], a[k])):
            total += 1
            held += ci[0] <= v <= ci[1]
            if not ci[0] <= v <= ci[1]:
                print('  not held: %-60s %.4g outside [%.4g, %.4g]' % (k, v, ci[0], ci[1]))
print('a run\'s CI held the other run\'s value in %d of %d (%.1f %%)' % (held, total, 100.0 * held / max(total, 1)))
PY
