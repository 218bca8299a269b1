#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turn a ptbench/1 fixture of tests/tools-compare.sh into ptbench/2.

    python3 tests/data/tools-v2.py IN.json OUT.json [--scatter]

How tests/data/tools-{base,slower,faster,mixed,suite-*}.json were made from
the ptbench/1 files of the same names (commit 8c51538; tools-base-v1.json is
the ptbench/1 base, kept as it was).  A point's first TRIALS per-timing
values become the estimates ("mean") of that many trials, each with three
timings within +-0.5 % of it, so that the known outcomes carry over: a
sample x 1.25 in the old file is a trial x 1.25 in the new one.

--scatter models a run on a noisy machine: the trials of a point, each from
its own worker at its own moment, land anywhere from -38 % to +60 % about
the point's level (the old file's mean), as SCATTER says.
"""
import json
import math
import sys

TRIALS = 10
SCATTER = [0.62, 1.60, 0.70, 1.40, 0.78, 1.25, 0.88, 1.12, 0.97, 1.03]


def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def median_ci(xs):
    """The order-statistics CI [s[k], s[n-1-k]] of the median, the narrowest
    at >= 95 % (or [min, max] when none reaches it), and its level."""
    s, n = sorted(xs), len(xs)

    def level(k):
        return 1 - 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    k = 0
    while k + 1 < n // 2 and level(k + 1) >= 0.95:
        k += 1
    return [s[k], s[n - 1 - k]], level(k)


def trial(status, est, iterations, seq):
    t = [round(est * f, 4) for f in (0.995, 1.0, 1.005)]
    return {"status": status, "reason": None, "iterations": iterations, "timings": 3,
            "stop": "sd", "mean": round(est, 4), "median": t[1], "min": t[0], "max": t[2],
            "samples": t, "worker": 4000 + seq, "round": seq + 1, "seq": seq}


def point(rec, scatter):
    out = {k: rec[k] for k in ("bench", "params", "status", "reason", "unit", "per") if k in rec}
    samples = rec.get("samples", [])
    if not samples:
        out["trials"] = [{"status": rec["status"], "reason": rec.get("reason"),
                          "worker": 4000, "round": 1, "seq": 0}]
        return out
    ests = ([rec["mean"] * f for f in SCATTER] if scatter else samples[:TRIALS])
    ests = [round(e, 4) for e in ests]
    out["value"] = round(median(ests), 6)
    if len(ests) > 1:
        out["ci95"], out["ci_level"] = median_ci(ests)
    out["drift_pct"] = 0.0
    out["ntrials"] = len(ests)
    out["stop"] = "trials"
    out["trials"] = [trial(rec["status"], e, rec.get("iterations", 1000), i)
                     for i, e in enumerate(ests)]
    return out


def main():
    src, dst = sys.argv[1], sys.argv[2]
    scatter = "--scatter" in sys.argv[3:]
    doc = json.load(open(src))
    doc["schema"] = "ptbench/2"
    doc["results"] = [point(r, scatter) for r in doc["results"]]
    with open(dst, "w") as f:
        json.dump(doc, f, indent=1, ensure_ascii=False)
        f.write("\n")


main()
