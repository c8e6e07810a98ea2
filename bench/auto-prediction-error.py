#!/usr/bin/env python3
"""auto's prediction error in skmd-bench results: per application and
memory, each launch of the plan 'auto' measured (total less planning)
against its prediction as a batch (predicted_ms) and Algorithm 1's own
estimate (estimated_ms); then the medians.

  bench/auto-prediction-error.py SUITE.json [SUITE.json ...]
"""
import json
import statistics
import sys


def main(paths):
    rows, batch, tree = [], [], []
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for app in doc["applications"]:
            for config in app["configs"]:
                if not config["config"].startswith("skmd auto") or not config.get("ok"):
                    continue
                for launch in config.get("launches", []):
                    measured = launch["total_ms"] - launch["plan_ms"]
                    predicted = launch.get("predicted_ms", 0)
                    estimated = launch.get("estimated_ms", 0)
                    if measured <= 0 or predicted <= 0:
                        continue
                    eb = (predicted - measured) / measured
                    et = (estimated - measured) / measured if estimated > 0 else None
                    batch.append(abs(eb))
                    if et is not None:
                        tree.append(abs(et))
                    shares = " ".join(
                        f"{p['device']} {100.0 * p['groups'] / launch['total_groups']:.0f}%"
                        for p in launch["pieces"])
                    rows.append((app["application"], "pinned" if config.get("pinned") else "pageable",
                                 launch["kernel"], shares, measured, predicted, eb, estimated, et))
    print("| application | memory | kernel | plan | measured ms | batch ms (error) | Algorithm 1 ms (error) |")
    print("|---|---|---|---|---:|---:|---:|")
    for a, m, k, s, meas, p, eb, e, et in rows:
        tree_cell = f"{e:.3f} ({100 * et:+.1f}%)" if et is not None else "-"
        print(f"| {a} | {m} | {k} | {s} | {meas:.3f} | {p:.3f} ({100 * eb:+.1f}%) | {tree_cell} |")
    if batch:
        print(f"\n{len(batch)} launches: median |error| as batches {100 * statistics.median(batch):.1f}%"
              + (f", Algorithm 1's estimate {100 * statistics.median(tree):.1f}%" if tree else ""))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
