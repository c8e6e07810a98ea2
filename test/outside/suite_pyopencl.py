"""PyOpenCL's own test suite (test/ of its source distribution, the
version scripts/setup-pyopencl.sh installs), run with pytest against that
PyOpenCL. PYOPENCL_TEST picks the platform by a substring of its name."""
import os
import re
import xml.etree.ElementTree as ET

from common import FAIL, PASS, SKIP, result, run, tail

NAME = "pyopencl"

# A sample for --quick: each file's basic paths, a generated elementwise
# kernel, a reduction and a scan, a few seconds each on a CPU.
QUICK = [
    "test_wrapper.py::test_get_info",
    "test_wrapper.py::test_invalid_kernel_names_cause_failures",
    "test_wrapper.py::test_image_format_constructor",
    "test_wrapper.py::test_context_dep_memoize",
    "test_wrapper.py::test_vector_args",
    "test_wrapper.py::test_header_dep_handling",
    "test_wrapper.py::test_event_set_callback",
    "test_wrapper.py::test_global_offset",
    "test_enqueue_copy.py",
    "test_arrays_in_structs.py",
    "test_array.py::test_basic_complex",
    "test_array.py::test_addition_array",
    "test_array.py::test_comparisons",
    "test_algorithm.py::test_elwise_kernel",
    "test_algorithm.py::test_sum",
    "test_algorithm.py::test_dot",
    "test_algorithm.py::test_copy_if",
]

# The platform's name as PYOPENCL_TEST matches it (lower case substring).
SELECTOR = {"SKMD": "skmd", "Portable Computing Language": "portable"}


def paths(root):
    deps = os.path.join(root, ".deps")
    return (os.path.join(deps, "pyopencl", "bin", "python"),
            os.path.join(deps, "outside", "pytest"),
            os.path.join(deps, "outside", "pyopencl-tests", "test"))


def missing(root):
    python, pytest_dir, tests = paths(root)
    for p in (python, pytest_dir, tests):
        if not os.path.exists(p):
            return f"no {p}: run scripts/setup-outside.sh"
    return None


def _normalize(name):
    """A test's id without the device, so platforms' ids compare."""
    name = re.sub(r"<context factory for <pyopencl\.Device '[^']*' on '[^']*'>>",
                  "ctx", name)
    return re.sub(r"<pyopencl\.(Device|Platform) '[^']*'( on '[^']*')?[^>]*>",
                  r"\1", name)


def _parse_junit(path):
    tests = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        module = case.get("classname", "").split(".")[-1] or case.get("file", "")
        test_id = f"{module}::{_normalize(case.get('name', ''))}"
        failure = case.find("failure")
        if failure is None:
            failure = case.find("error")
        skipped = case.find("skipped")
        if failure is not None:
            text = (failure.get("message") or "") + "\n" + (failure.text or "")
            tests[test_id] = result(FAIL, text.strip())
        elif skipped is not None:
            tests[test_id] = result(SKIP, skipped.get("message") or "")
        else:
            tests[test_id] = result(PASS)
    return tests


FILES = ["test_wrapper.py", "test_enqueue_copy.py", "test_arrays_in_structs.py",
         "test_array.py", "test_algorithm.py", "test_clmath.py", "test_clrandom.py"]

_VERBOSE_LINE = re.compile(
    r"^(\S+?)\.py::(.*?) (PASSED|FAILED|SKIPPED|XFAIL|XPASS|ERROR)\b")


def _parse_verbose(text):
    """The results pytest -v printed before it was stopped."""
    status = {"PASSED": PASS, "XPASS": PASS, "FAILED": FAIL, "ERROR": FAIL,
              "SKIPPED": SKIP, "XFAIL": SKIP}
    tests = {}
    for line in text.splitlines():
        m = _VERBOSE_LINE.match(line)
        if m:
            tests[f"{m.group(1)}::{_normalize(m.group(2))}"] = result(status[m.group(3)])
    return tests


def _run_group(name, selection, platform, out, root, budget):
    python, pytest_dir, tests_dir = paths(root)
    env = dict(platform.env)
    env["PYTHONPATH"] = pytest_dir
    env["PYOPENCL_TEST"] = SELECTOR[platform.name]
    env["PYOPENCL_CTX"] = SELECTOR[platform.name]
    env["PYOPENCL_NO_CACHE"] = "1"
    junit = os.path.join(out, f"{name}.xml")
    if os.path.exists(junit):
        os.unlink(junit)
    cmd = [python, "-m", "pytest", "-p", "no:cacheprovider", "-v", "-rN",
           f"--junitxml={junit}"] + selection
    rc, text, timed_out, _ = run(cmd, env=env, cwd=tests_dir, timeout=budget)
    with open(os.path.join(out, f"{name}.log"), "w") as f:
        f.write(text)
    if os.path.exists(junit):
        tests = _parse_junit(junit)
    else:
        tests = _parse_verbose(text)
    if timed_out or not tests:
        why = f"timed out after {budget}s" if timed_out else f"exit {rc}"
        tests[f"{name}::(run)"] = result(FAIL, f"pytest {why}:\n{tail(text)}")
    return tests


def run_suite(platform, out, root, quick, budget):
    if quick:
        return _run_group("quick", QUICK, platform, out, root, budget)
    tests = {}
    for f in FILES:
        tests.update(_run_group(f[:-3], [f], platform, out, root, budget))
    return tests
