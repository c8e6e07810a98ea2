"""piglit's OpenCL tests (Debian's piglit): the API tests (one binary per
entry point) and the program tests (cl-program-tester runs a .cl or
.program_test file: builds, runs and checks kernels). PIGLIT_CL_PLATFORM
picks the platform by its name's prefix."""
import gzip
import json
import os
import re
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor, as_completed

from common import FAIL, PASS, SKIP, result, run, tail

NAME = "piglit"
ROOT = "/usr/lib/x86_64-linux-gnu/piglit"
# --quick: the API and custom tests, and every QUICK_STRIDE-th program test.
QUICK_STRIDE = 20
# Tests that need a display or EGL, not OpenCL alone.
EXCLUDE = re.compile(r"^interop@")

_RESULT = re.compile(r'^PIGLIT: \{"result": "(\w+)"')
_SUBTEST = re.compile(r'^PIGLIT: \{"subtest": \{"(.*)" : "(\w+)"\}\}')
STATUS = {"pass": PASS, "skip": SKIP}  # fail, warn, crash: failures


def missing(root):
    if not os.path.exists(os.path.join(ROOT, "tests", "cl.xml.gz")):
        return "no piglit OpenCL tests: apt-get install piglit"
    return None


def test_list():
    """(name, command) of every test in piglit's cl profile."""
    tests = []
    with gzip.open(os.path.join(ROOT, "tests", "cl.xml.gz")) as f:
        for t in ET.parse(f).getroot().iter("Test"):
            name = t.get("name")
            if EXCLUDE.match(name):
                continue
            opts = {o.get("name"): o.get("value") for o in t.iter("option")}
            if t.get("type") == "cl":
                argv = eval(opts["command"], {})  # a Python list literal
            else:
                argv = ["cl-program-tester", eval(opts["filename"], {})]
            argv[0] = os.path.join(ROOT, "bin", argv[0])
            tests.append((name, argv))
    return tests


def quick_list(tests):
    programs = [t for t in tests if t[0].startswith("program@")]
    others = [t for t in tests if not t[0].startswith("program@")]
    return others + sorted(programs)[::QUICK_STRIDE]


def _run_one(argv, env, budget):
    rc, text, timed_out, _ = run(argv, env=env, cwd=ROOT, timeout=budget)
    status = None
    failed = []
    for line in text.splitlines():
        if m := _RESULT.match(line):
            status = m.group(1)
        elif (m := _SUBTEST.match(line)) and m.group(2) != "pass":
            failed.append(f"{m.group(1)}: {m.group(2)}")
    if timed_out:
        status = "timeout"
    elif status is None:
        status = "crash"
    if status in STATUS:
        return result(STATUS[status], "" if status == "pass" else tail(text, 5))
    detail = f"{status} (exit {rc}); " + "; ".join(failed[:10]) + "\n" + tail(text, 12)
    return result(FAIL, detail)


def run_suite(platform, out, root, quick, budget, jobs=2):
    env = dict(platform.env, PIGLIT_CL_PLATFORM=platform.name)
    tests = test_list()
    if quick:
        tests = quick_list(tests)
    # Each result is also appended to partial.jsonl as it comes, so a run
    # stopped early still says what it ran.
    results = {}
    with ThreadPoolExecutor(max_workers=jobs) as pool, \
            open(os.path.join(out, "partial.jsonl"), "w") as partial:
        futures = {pool.submit(_run_one, argv, env, min(budget, 120)): name
                   for name, argv in tests}
        for f in as_completed(futures):
            results[futures[f]] = f.result()
            partial.write(json.dumps({futures[f]: results[futures[f]]}) + "\n")
            partial.flush()
    with open(os.path.join(out, "tests.json"), "w") as f:
        json.dump({name: argv for name, argv in tests}, f, indent=1)
    return results
