"""hashcat (Debian's hashcat and hashcat-data): each test cracks a known
hash by a small mask attack on the platform's device alone (hashcat's
start-up self-test runs first and must pass), and one benchmark run.
--force: hashcat otherwise refuses CPU OpenCL runtimes other than Intel's."""
import hashlib
import os
import re
import shutil

from common import FAIL, PASS, result, run, tail

NAME = "hashcat"

# hashcat mode, and the digest of the plain text the mask finds.
CRACKS = [
    ("0", "md5"),
    ("100", "sha1"),
    ("1400", "sha256"),
    ("1700", "sha512"),
]
PLAIN, MASK = "zebr", "?l?l?l?l"
QUICK = ["crack-0"]
ALL = [f"crack-{m}" for m, _ in CRACKS] + ["benchmark-0"]

_DEVICE = re.compile(r"Backend Device ID #(\d+)")
_PLATFORM_NAME = re.compile(r"^\s*Name\.+: (.*)$")
_SELF_TEST = re.compile(r".*self-test.*", re.IGNORECASE)


def missing(root):
    if not shutil.which("hashcat"):
        return "no hashcat: apt-get install hashcat hashcat-data"
    return None


def device_id(platform, home):
    """hashcat numbers the devices of every platform in one list; the first
    device of the platform whose name matches."""
    env = dict(platform.env, HOME=home)
    rc, text, _, _ = run(["hashcat", "-I", "--force"], env=env, timeout=300)
    in_platform = False
    for line in text.splitlines():
        if line.startswith("OpenCL Platform ID"):
            in_platform = False
        m = _PLATFORM_NAME.match(line)
        if m and not line.startswith("    "):
            in_platform = m.group(1).strip() == platform.name
        m = _DEVICE.search(line)
        if m and in_platform:
            return m.group(1), text
    return None, text


def _crack(mode, digest, common, env, budget):
    target = hashlib.new(digest, PLAIN.encode()).hexdigest()
    cmd = common + ["-m", mode, "-a", "3", target, MASK]
    rc, text, timed_out, _ = run(cmd, env=env, timeout=budget)
    if f"{target}:{PLAIN}" in text and rc == 0:
        return result(PASS), text
    why = f"timed out after {budget}s" if timed_out else f"exit {rc}"
    self_test = "; ".join(m.group(0).strip() for m in _SELF_TEST.finditer(text))
    return result(FAIL, f"{why}, {PLAIN!r} not found. {self_test}\n{tail(text)}"), text


def _benchmark(common, env, budget):
    rc, text, timed_out, _ = run(common + ["-b", "-m", "0"], env=env, timeout=budget)
    if rc == 0 and re.search(r"Speed\.#\d+\.*:\s+[\d.]+ [kMGT]?H/s", text):
        return result(PASS), text
    why = f"timed out after {budget}s" if timed_out else f"exit {rc}"
    return result(FAIL, f"{why}, no speed printed\n{tail(text)}"), text


def run_suite(platform, out, root, quick, budget):
    # A home of each platform's own: hashcat keeps its compiled kernels
    # there, so a later run of the same platform starts warm.
    home = os.path.join(out, "home")
    os.makedirs(home, exist_ok=True)
    device, info = device_id(platform, home)
    if device is None:
        return {"(run)": result(FAIL, f"hashcat -I lists no device of {platform.name}\n{tail(info)}")}
    env = dict(platform.env, HOME=home)
    common = ["hashcat", "--force", "--potfile-disable", "-O", "-w", "1",
              "-D", "1,2,3", "-d", device, "--runtime", str(budget)]
    modes = dict(CRACKS)
    tests = {}
    for name in QUICK if quick else ALL:
        kind, mode = name.split("-")
        if kind == "crack":
            tests[name], text = _crack(mode, modes[mode], common, env, budget)
        else:
            tests[name], text = _benchmark(common, env, budget)
        with open(os.path.join(out, f"{name}.log"), "w") as f:
            f.write(text)
    return tests
