"""clpeak (Debian's clpeak): bandwidth, compute, transfer and launch
latency measurements. Each of its tests runs on its own; a measurement
passes when clpeak prints a number for it and reports no error."""
import os
import re
import shutil

from common import FAIL, PASS, result, run, tail

NAME = "clpeak"

SECTIONS = ["global-bandwidth", "compute-sp", "compute-dp", "compute-integer",
            "compute-intfast", "transfer-bandwidth", "kernel-latency"]
QUICK = ["transfer-bandwidth", "kernel-latency"]

_HEADER_END = re.compile(r"^\s*Clock frequency\s*:")
_MEASURE = re.compile(r"^\s*([^:]+?)\s*:\s*(\S+)")
_NUMBER = re.compile(r"^[-+]?\d+(\.\d+)?$")
# clpeak's messages when an OpenCL call or a kernel build fails.
_ERROR = re.compile(r"error|failed|exception|build log|CL_[A-Z_]+|\(-\d+\)", re.IGNORECASE)


def missing(root):
    return None if shutil.which("clpeak") else "no clpeak: apt-get install clpeak"


def parse(section, text):
    tests, title, errors, started = {}, section, [], False
    for line in text.splitlines():
        if _HEADER_END.match(line):
            started = True
            continue
        if not started or not line.strip():
            continue
        m = _MEASURE.match(line)
        if m and _NUMBER.match(m.group(2)):
            name = m.group(1) if m.group(1) != title else ""
            tests[f"{section}/{title}/{name}".rstrip("/")] = result(PASS)
        elif _ERROR.search(line):
            errors.append(line.strip())
        elif not m:
            title = line.strip()
    return tests, errors


def run_suite(platform, out, root, quick, budget):
    tests = {}
    for section in QUICK if quick else SECTIONS:
        cmd = ["clpeak", "-p", str(platform.index), "-d", "0", f"--{section}"]
        rc, text, timed_out, _ = run(cmd, env=platform.env, timeout=budget)
        with open(os.path.join(out, f"{section}.log"), "w") as f:
            f.write(text)
        found, errors = parse(section, text)
        tests.update(found)
        if timed_out or rc != 0 or errors or not found:
            why = f"timed out after {budget}s" if timed_out else f"exit {rc}"
            tests[f"{section}/(run)"] = result(FAIL, f"{why}: {'; '.join(errors)}\n{tail(text)}")
        else:
            tests[f"{section}/(run)"] = result(PASS)
    return tests
