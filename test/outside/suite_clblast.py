"""CLBlast's correctness tests (Debian's clblast-tests): each routine's
binary compares CLBlast on the chosen device with a reference CBLAS, in
every precision, and prints a pass rate per group of test cases."""
import os
import re
import shutil

from common import FAIL, PASS, SKIP, result, run, tail

NAME = "clblast"

# Level 1, 2 and 3 routines; --quick takes the first three.
ROUTINES = ["xaxpy", "xdot", "xgemv", "xgemm",
            "xcopy", "xscal", "xswap", "xnrm2", "xasum", "xamax",
            "xger", "xsymv", "xtrmv", "xtrsv",
            "xsymm", "xsyrk", "xtrmm", "xtrsm", "xgemmbatched", "xomatcopy"]
QUICK = ROUTINES[:3]

_ANSI = re.compile(r"\x1b\[[0-9;]*m")
_ROUTINE = re.compile(r"^\* Starting tests for the '(\w+)' routine")
_ALL_SKIPPED = re.compile(r"^\* All tests skipped: (.*)")
_GROUP = re.compile(r"^\* Testing '([^']+)' for '([^']+)':")
_RATE = re.compile(r"Pass rate\s+[\d.]+%: (\d+) passed / (\d+) skipped / (\d+) failed")


def missing(root):
    for r in ROUTINES:
        if not shutil.which(f"clblast_test_{r}"):
            return f"no clblast_test_{r}: apt-get install clblast-tests"
    return None


def parse(binary, text):
    """A test per routine, precision and group ('SAXPY/regular behaviour/
    default'); the group's case lines are its detail when it fails."""
    tests, routine, group, lines = {}, None, None, []
    for line in _ANSI.sub("", text).splitlines():
        if m := _ROUTINE.match(line.strip()):
            routine = m.group(1)
        elif (m := _ALL_SKIPPED.match(line.strip())) and routine:
            tests[f"{binary}/{routine}"] = result(SKIP, m.group(1))
        elif (m := _GROUP.match(line.strip())) and routine:
            group, lines = f"{binary}/{routine}/{m.group(1)}/{m.group(2)}", []
        elif (m := _RATE.search(line)) and group:
            passed, skipped, failed = (int(x) for x in m.groups())
            if failed:
                detail = f"{failed} failed, {passed} passed\n" + "\n".join(lines[-20:])
                tests[group] = result(FAIL, detail)
            elif passed:
                tests[group] = result(PASS)
            else:
                tests[group] = result(SKIP, f"{skipped} skipped")
            group = None
        elif group:
            lines.append(line.strip())
    return tests


def run_suite(platform, out, root, quick, budget):
    tests = {}
    for r in QUICK if quick else ROUTINES:
        binary = f"clblast_test_{r}"
        cmd = [binary, "-platform", str(platform.index), "-device", "0"]
        rc, text, timed_out, _ = run(cmd, env=platform.env, timeout=budget)
        with open(os.path.join(out, f"{r}.log"), "w") as f:
            f.write(text)
        found = parse(r, text)
        tests.update(found)
        # A crash, a hang or an error before any group ran is a failure of
        # the binary as a whole (the groups after it never ran).
        if timed_out or rc < 0 or not found:
            why = f"timed out after {budget}s" if timed_out else f"exit {rc}"
            tests[f"{r}/(run)"] = result(FAIL, f"{why}:\n{tail(_ANSI.sub('', text))}")
    return tests
