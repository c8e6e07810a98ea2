#!/usr/bin/env python3
"""Plots skmd-bench results: speedups, and how the work was distributed.

    bench/plot-suite.py OUT_DIR RESULTS.json [MORE.json ...]

Writes to OUT_DIR:
  summary.md        per application, the fastest vendor-driver device, SKMD's
                    fastest single device, linear and auto, the speedups, and
                    their geometric means over every file given;
  speedups.png      per application, the speedup of SKMD's plans (auto,
                    linear) and of SKMD's fastest single device over the
                    fastest vendor-driver device (log scale), with the
                    geometric means;
  distribution.png  per application, each device's share of the work-groups
                    under linear partitioning and the model partitioner
                    (as the SKMD paper's Fig. 10).
Several JSON files (e.g. runs of a few applications each on one machine)
are merged by application and configuration: a later file's configuration
replaces an earlier one's (so SKMD's plans can be re-run alone). The plots need matplotlib (Debian: python3-matplotlib); without it
only summary.md is written, and the exit status is 1.
"""
import json
import math
import os
import sys


def load(paths):
    """Applications by name over every file. A later file's configuration
    replaces an earlier one's of the same name and application at the same
    size (a re-run of SKMD's plans keeps the vendor drivers' results); at
    another size the later application replaces the earlier whole."""
    apps, metas = {}, []
    for path in paths:
        with open(path) as f:
            data = json.load(f)
        metas.append(data)
        for app in data["applications"]:
            old = apps.get(app["application"])
            if old is None or old["size"] != app["size"]:
                apps[app["application"]] = app
                continue
            configs = {c["config"]: c for c in old["configs"]}
            for c in app["configs"]:
                configs[c["config"]] = c
            old["configs"] = list(configs.values())
            old["ok"] = all(c["ok"] for c in old["configs"])
    return metas, [apps[name] for name in sorted(apps)]


def median_of(app, pick):
    """The fastest successful configuration's median among those pick accepts."""
    times = [c["median_ms"] for c in app["configs"]
             if pick(c) and c["ok"] and "median_ms" in c]
    return min(times) if times else None


def config(app, label):
    for c in app["configs"]:
        if c["config"] == label and c["ok"] and "median_ms" in c:
            return c
    return None


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def plot_speedups(plt, meta, apps, out):
    series = [("SKMD auto", lambda a: config(a, "skmd auto")),
              ("SKMD linear", lambda a: config(a, "skmd linear"))]
    names = [a["application"] for a in apps]
    bars = {}
    for label, get in series:
        bars[label] = []
        for a in apps:
            vendor, c = median_of(a, lambda c: c["vendor"]), get(a)
            bars[label].append(vendor / c["median_ms"] if vendor and c else None)
    bars["SKMD fastest single device"] = []
    for a in apps:
        vendor = median_of(a, lambda c: c["vendor"])
        single = median_of(a, lambda c: not c["vendor"] and c["single_device"])
        bars["SKMD fastest single device"].append(vendor / single if vendor and single else None)

    fig, ax = plt.subplots(figsize=(max(8, 0.7 * len(names) + 3), 4.5))
    width = 0.8 / len(bars)
    for k, (label, values) in enumerate(bars.items()):
        xs = [i + (k - (len(bars) - 1) / 2) * width for i in range(len(names))]
        g = geomean(values)
        ax.bar(xs, [v or 0 for v in values], width,
               label=f"{label} (geomean {g:.2f}x)" if g else label)
    ax.axhline(1, color="black", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=45, ha="right")
    ax.set_ylabel("speedup over the fastest vendor-driver device")
    ax.set_title(f"{meta['machine']}, size {meta['size']}", fontsize=9)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "speedups.png"), dpi=120)


def shares(c):
    """Each device's fraction of the groups over a run's launches."""
    groups = {}
    for launch in c.get("launches", []):
        for piece in launch["pieces"]:
            groups[piece["device"]] = groups.get(piece["device"], 0) + piece["groups"]
    total = sum(groups.values())
    return {d: g / total for d, g in groups.items()} if total else {}


def plot_distribution(plt, meta, apps, out):
    rows = []  # (label, {device: share})
    for a in apps:
        for plan in ("linear", "auto"):
            c = config(a, "skmd " + plan)
            if c:
                rows.append((f"{a['application']} ({plan})", shares(c)))
    if not rows:
        return
    devices = sorted({d for _, s in rows for d in s}, key=lambda d: (d != "cpu", d))
    fig, ax = plt.subplots(figsize=(8, max(3, 0.28 * len(rows) + 1.5)))
    left = [0.0] * len(rows)
    for d in devices:
        widths = [s.get(d, 0) * 100 for _, s in rows]
        ax.barh(range(len(rows)), widths, left=left, label=d)
        left = [l + w for l, w in zip(left, widths)]
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([r for r, _ in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("share of the work-groups (%)")
    ax.set_xlim(0, 100)
    ax.set_title(f"Work distribution, {meta['machine']}", fontsize=9)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "distribution.png"), dpi=120)


def fastest(app, pick):
    """(label, median ms) of the fastest successful configuration pick accepts."""
    best = None
    for c in app["configs"]:
        if pick(c) and c["ok"] and "median_ms" in c:
            if best is None or c["median_ms"] < best[1]:
                best = (c["config"], c["median_ms"])
    return best


def summary(metas, apps):
    """The markdown table over every application, with geometric means."""
    lines = ["Machine: " + metas[0]["machine"] + ". SKMD devices: " + metas[0]["skmd_devices"] +
             ". Sizes: " + ", ".join(sorted({m["size"] for m in metas})) +
             ". Times: ms, end to end (inputs from and outputs to pageable host memory), "
             "medians (runs in parentheses where fewer than asked).", "",
             "| application | size | fastest vendor device | SKMD fastest single | SKMD linear "
             "| SKMD auto | auto vs vendor | auto vs SKMD single | auto's groups "
             "| auto predicted | prediction error | auto planning ms | check |",
             "| --- | --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- |"]
    vs_vendor, vs_single, slower, errors = [], [], [], []

    def cell(c):
        if not c:
            return "-"
        runs = len(c["ms"])
        return f"{c['median_ms']:.2f}" + (f" ({runs})" if runs < 5 else "")

    for a in apps:
        vendor = fastest(a, lambda c: c["vendor"])
        single = fastest(a, lambda c: not c["vendor"] and c["single_device"])
        auto, linear = config(a, "skmd auto"), config(a, "skmd linear")
        sv = vendor[1] / auto["median_ms"] if vendor and auto else None
        ss = single[1] / auto["median_ms"] if single and auto else None
        if sv:
            vs_vendor.append(sv)
        if ss:
            vs_single.append(ss)
            if ss < 1 / 1.03:
                slower.append(f"{a['application']} ({(1 / ss - 1) * 100:.0f}% slower)")
        # The last run's launches: the model's prediction against their
        # measured total, and the planning (plan choice, checks, bytes).
        predicted = measured = planning = None
        if auto and auto.get("launches"):
            launches = auto["launches"]
            if all(l["predicted_ms"] > 0 for l in launches):
                predicted = sum(l["predicted_ms"] for l in launches)
                measured = sum(l["total_ms"] - l["plan_ms"] for l in launches)
            planning = sum(l["plan_ms"] for l in launches)
        if predicted:
            errors.append(abs(predicted / measured - 1))
        lines.append("| " + " | ".join([
            a["application"], a["size"],
            f"{vendor[0]} {vendor[1]:.2f}" if vendor else "-",
            f"{single[0]} {single[1]:.2f}" if single else "-",
            cell(linear), cell(auto),
            f"{sv:.2f}x" if sv else "-", f"{ss:.2f}x" if ss else "-",
            auto.get("shares", "-") if auto else "-",
            f"{predicted:.2f}" if predicted else "-",
            f"{(predicted / measured - 1) * 100:+.1f}%" if predicted else "-",
            f"{planning:.3f}" if planning is not None else "-",
            "ok" if a["ok"] else "FAIL"]) + " |")
    gv, gs = geomean(vs_vendor), geomean(vs_single)
    lines += ["",
              f"Geometric mean speedup of auto over the fastest vendor-driver device: "
              f"{gv:.2f}x ({len(vs_vendor)} applications)" if gv else "No vendor-driver results.",
              f"Geometric mean speedup of auto over SKMD's fastest single device: "
              f"{gs:.2f}x ({len(vs_single)} applications)" if gs else "No SKMD single-device results.",
              "Applications where auto is more than 3% slower than SKMD's fastest single device: " +
              (", ".join(slower) if slower else "none") + ".",
              (f"Median |prediction error| of auto's launches (last run, after planning): "
               f"{sorted(errors)[len(errors) // 2] * 100:.1f}% ({len(errors)} applications)."
               if errors else "No predictions.")]
    return "\n".join(lines) + "\n"


def main(argv):
    if len(argv) < 3 or argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if len(argv) > 1 and argv[1] in ("-h", "--help") else 2
    out = argv[1]
    try:
        metas, apps = load(argv[2:])
    except (OSError, ValueError, KeyError) as e:
        print(f"plot-suite.py: cannot read the results: {e}", file=sys.stderr)
        return 1
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "summary.md"), "w") as f:
        f.write(summary(metas, apps))
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        # Debian's matplotlib belongs to Debian's Python; another python3
        # first on PATH (pyenv, a venv) does not see it.
        system = "/usr/bin/python3"
        if os.path.realpath(sys.executable) != os.path.realpath(system) and os.path.exists(system):
            os.execv(system, [system] + argv)
        print("plot-suite.py: matplotlib is missing (apt-get install python3-matplotlib)",
              file=sys.stderr)
        return 1
    plot_speedups(plt, metas[0], apps, out)
    plot_distribution(plt, metas[0], apps, out)
    print(f"plot-suite.py: wrote {out}/summary.md, speedups.png and distribution.png "
          f"({len(apps)} applications)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
