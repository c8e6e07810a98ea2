"""Counts per platform, the tests that pass on PoCL but fail on SKMD, and
the known differences that excuse some of them."""
import fnmatch
import json
import os

from common import FAIL, PASS, SKIP

BASELINE = "pocl"


def load_known(path):
    """known-differences.txt: 'suite | test pattern | reason' lines (the
    pattern in fnmatch syntax; '#' starts a comment line)."""
    known = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = [p.strip() for p in line.split("|")]
            if len(parts) != 3 or not all(parts):
                raise SystemExit(f"{path}:{number}: expected 'suite | pattern | reason'")
            known.append(tuple(parts))
    return known


def known_reason(known, suite, test):
    for s, pattern, reason in known:
        if s == suite and fnmatch.fnmatchcase(test, pattern):
            return reason
    return None


def counts(tests):
    c = {PASS: 0, FAIL: 0, SKIP: 0}
    for t in tests.values():
        c[t["status"]] += 1
    return c


def compare(suite, by_platform, known):
    """Tests passing on the baseline that fail (or never ran) on an SKMD
    platform: (platform, test, detail, known reason or None); and those
    SKMD skips."""
    base = by_platform.get(BASELINE)
    regressions, skipped = [], []
    if base is None:
        return regressions, skipped
    for key, tests in by_platform.items():
        if key == BASELINE:
            continue
        for test, r in sorted(base.items()):
            if r["status"] != PASS:
                continue
            mine = tests.get(test, {"status": FAIL, "detail": "not run"})
            if mine["status"] == FAIL:
                regressions.append((key, test, mine["detail"],
                                    known_reason(known, suite, test)))
            elif mine["status"] == SKIP:
                skipped.append((key, test, mine["detail"]))
    return regressions, skipped


def _first_line(text):
    for line in text.splitlines():
        if line.strip():
            return line.strip()[:200].replace("|", "\\|")
    return ""


def write(out, suite, by_platform, known, commands):
    regressions, skipped = compare(suite, by_platform, known)
    data = {
        "suite": suite,
        "commands": commands,
        "platforms": {k: {"counts": counts(t), "tests": t} for k, t in by_platform.items()},
        "regressions": [{"platform": p, "test": t, "detail": d, "known": k}
                        for p, t, d, k in regressions],
        "skipped_on_skmd": [{"platform": p, "test": t, "detail": d} for p, t, d in skipped],
    }
    with open(os.path.join(out, f"{suite}.json"), "w") as f:
        json.dump(data, f, indent=1)
    lines = [f"# {suite}", "", "| platform | passed | failed | skipped |",
             "| --- | ---: | ---: | ---: |"]
    for key, tests in by_platform.items():
        c = counts(tests)
        lines.append(f"| {key} | {c[PASS]} | {c[FAIL]} | {c[SKIP]} |")
    lines += ["", "Commands:", ""] + [f"- {k}: `{v}`" for k, v in commands.items()]
    new = [r for r in regressions if r[3] is None]
    lines += ["", f"## Pass on PoCL, fail on SKMD: {len(new)} unexplained, "
              f"{len(regressions) - len(new)} known", "",
              "| platform | test | error / known reason |", "| --- | --- | --- |"]
    for p, t, d, k in regressions:
        lines.append(f"| {p} | `{t}` | {'known: ' + k if k else _first_line(d)} |")
    if skipped:
        lines += ["", "## Pass on PoCL, skipped on SKMD", "",
                  "| platform | test | reason |", "| --- | --- | --- |"]
        lines += [f"| {p} | `{t}` | {_first_line(d)} |" for p, t, d in skipped]
    with open(os.path.join(out, f"{suite}.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return [r for r in regressions if r[3] is None]
