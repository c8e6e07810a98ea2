#!/usr/bin/env python3
"""Other people's OpenCL test suites on the SKMD platform, beside PoCL.

Runs each suite on SKMD with the CPU alone (SKMD_DEVICES=cpu), on SKMD over
the CPU and two HostDiscrete devices (cpu,discrete,discrete) and on PoCL,
and writes per suite a JSON and a markdown summary: passed, failed and
skipped per platform and per test, and the tests that pass on PoCL but fail
on SKMD. Exit status: 0 when every such test is in known-differences.txt,
1 when one is not, 77 when no suite or no PoCL can run (nothing to compare;
scripts/setup-outside.sh installs them)."""
import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import platforms  # noqa: E402
import report  # noqa: E402
import suite_clblast  # noqa: E402
import suite_clpeak  # noqa: E402
import suite_hashcat  # noqa: E402
import suite_piglit  # noqa: E402
import suite_pyopencl  # noqa: E402

SUITES = {s.NAME: s for s in (suite_pyopencl, suite_clblast, suite_clpeak,
                              suite_hashcat, suite_piglit)}
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIPPED = 77


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("build", nargs="?", default=os.path.join(ROOT, "build"),
                   help="the build directory whose libSKMD_OpenCL.so runs (default build/)")
    p.add_argument("--quick", action="store_true",
                   help="a fixed sample of each suite (for CI), instead of all of it")
    p.add_argument("--suite", action="append", choices=sorted(SUITES),
                   help="run this suite (repeatable; default every suite)")
    p.add_argument("--platform", action="append",
                   choices=[pl.key for pl in platforms.ALL],
                   help="run on this platform (repeatable; default all three)")
    p.add_argument("--out", help="results folder (default BUILD/outside[-quick])")
    p.add_argument("--timeout", type=int, default=None,
                   help="seconds for each command a suite runs "
                        "(default 300 quick, 1200 full)")
    p.add_argument("--jobs", type=int, default=2,
                   help="piglit tests run at once (default 2)")
    p.add_argument("--baseline-from", metavar="DIR",
                   help="take PoCL's results from an earlier run's folder instead of "
                        "running PoCL again (its <suite>/pocl/results.json)")
    p.add_argument("--known", default=os.path.join(HERE, "known-differences.txt"),
                   help="tests that pass on PoCL and cannot pass on SKMD, with reasons")
    return p.parse_args()


def baseline_from(folder, suite):
    """PoCL's results and command line as an earlier run saved them."""
    with open(os.path.join(folder, suite.NAME, report.BASELINE, "results.json")) as f:
        saved = json.load(f)
    return saved["tests"], saved["command"] + f" (from {folder})"


def run_suite(suite, plats, args, out):
    by_platform, commands = {}, {}
    if args.baseline_from:
        by_platform[report.BASELINE], commands[report.BASELINE] = \
            baseline_from(args.baseline_from, suite)
    for plat in plats:
        folder = os.path.join(out, suite.NAME, plat.key)
        os.makedirs(folder, exist_ok=True)
        start = time.monotonic()
        kwargs = {"jobs": args.jobs} if suite is suite_piglit else {}
        tests = suite.run_suite(plat, folder, ROOT, args.quick, args.timeout, **kwargs)
        by_platform[plat.key] = tests
        c = report.counts(tests)
        commands[plat.key] = (f"{' '.join(f'{k}={v}' for k, v in plat.extra_env.items())} "
                              f"OCL_ICD_VENDORS={plat.vendors} platform index {plat.index} ('{plat.name}')").strip()
        # Saved at once, so a later platform's hang loses nothing of this one.
        with open(os.path.join(folder, "results.json"), "w") as f:
            json.dump({"command": commands[plat.key], "tests": tests}, f, indent=1)
        print(f"outside: {suite.NAME} on {plat.key}: {c['pass']} passed, "
              f"{c['fail']} failed, {c['skip']} skipped "
              f"({time.monotonic() - start:.0f} s)", flush=True)
    return by_platform, commands


def main():
    args = parse_args()
    if args.timeout is None:
        args.timeout = 300 if args.quick else 1200
    build = os.path.abspath(args.build)
    out = os.path.abspath(args.out or os.path.join(
        build, "outside-quick" if args.quick else "outside"))
    os.makedirs(out, exist_ok=True)
    known = report.load_known(args.known)

    suites = []
    for name in args.suite or list(SUITES):
        why = SUITES[name].missing(ROOT)
        if why:
            print(f"outside: {name} skipped: {why}", flush=True)
        else:
            suites.append(SUITES[name])
    wanted = [pl for pl in platforms.ALL if not args.platform or pl.key in args.platform]
    if args.baseline_from:
        wanted = [pl for pl in wanted if pl.key != report.BASELINE]
    plats, missing = platforms.resolve(wanted, build, out)
    for line in missing:
        print(f"outside: {line}", flush=True)
    if any(pl.is_skmd for pl in wanted) and not any(pl.is_skmd for pl in plats):
        print(f"outside: no SKMD platform in {build} (scripts/build.sh builds it)")
        return 1
    baseline_lost = any(pl.key == report.BASELINE for pl in wanted) and \
        report.BASELINE not in [pl.key for pl in plats]
    if not suites or baseline_lost:
        print("outside: nothing to compare (scripts/setup-outside.sh installs the suites and PoCL)")
        return SKIPPED

    summary, unexplained = {}, []
    for suite in suites:
        by_platform, commands = run_suite(suite, plats, args, out)
        new = report.write(out, suite.NAME, by_platform, known, commands)
        unexplained += [(suite.NAME, p, t, d) for p, t, d, _ in new]
        summary[suite.NAME] = {k: report.counts(t) for k, t in by_platform.items()}
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"quick": args.quick, "counts": summary,
                   "unexplained": [{"suite": s, "platform": p, "test": t, "detail": d}
                                   for s, p, t, d in unexplained]}, f, indent=1)
    for s, p, t, d in unexplained:
        first = (d.strip().splitlines() or [""])[0][:160]
        print(f"outside: FAIL {s} {p} {t}: {first}")
    print(f"outside: results in {out}; {len(unexplained)} tests pass on PoCL "
          "and fail on SKMD without a known reason")
    return 1 if unexplained else 0


if __name__ == "__main__":
    sys.exit(main())
