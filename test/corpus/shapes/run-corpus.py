#!/usr/bin/env python3
"""Compile and run the shapes corpus of OpenCL C kernels under SKMD.

    run-corpus.py --bin=build/bin [--jobs=N] [--filter=REGEX]
                  [--devices=cpu,discrete] [--timeout=S] [--out=results.json] [-v]
                  [--manifest=FILE --root=DIR] [--expected=FILE]

Every .cl file under test/corpus/shapes/<group>/ (kernels written here in
the shapes of public OpenCL code, grouped by shape) starts with header
lines:

    // corpus-source: written here for SKMD: the shapes the file has
    // corpus-options: -DX=1 ...          (optional, passed to skmd-cc)
    // corpus-run: KERNEL --global=... --local=... --arg=... ...   (one per launch)
    // corpus-unsupported: images|pipes|device-enqueue   (skmd-cc must refuse it)
    // corpus-note: free text

Each file is compiled with skmd-cc (all three variants) and classified as
compiled / unsupported / failed / crashed. Each corpus-run line is then run
with `skmd-run BUNDLE KERNEL ... --check` (or --check=opencl[:N] with
--check=opencl[:N]: also against an installed OpenCL driver) under three
plans:

    --devices=D --plan=even
    --devices=D --plan=manual:cpu=0.3,<second device>=0.7
    --devices=D,<last device of D> --plan=even

(D is --devices, default cpu,discrete) and classified as ok / refused (the
kernel was not split; the reason comes from skmd-info; with
--check=opencl it is still run whole on D's last device and checked) /
differs (the check failed) / crashed (signal or sanitizer report) / timeout / error.

With --manifest=FILE --root=DIR it runs the kernel files of an outside
package instead, never committed (test/corpus/outside/: the manifest,
written here, gives each file's header lines; setup scripts fetch the
files into DIR), and exits with status 77 (skipped) where DIR is missing.

Entries of expected-failures.txt (lines `FILE[:KERNEL] CLASS reason`, FILE
relative to this directory) are expected: they are listed but do not fail
the run; one that no longer happens is reported as fixed. The exit status is
1 on any unexpected crash, compile failure, difference, timeout or error, and
(without --filter) on an entry that no longer happens.
Only the Python standard library is used.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))

# Classes that make the run fail unless expected.
FAILING_COMPILE = {"failed", "crashed"}
FAILING_RUN = {"differs", "crashed", "timeout", "error"}

SANITIZER = re.compile(r"(AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
                       r"ThreadSanitizer|MemorySanitizer|runtime error:)")
UNSUPPORTED = re.compile(r"SKMD does not support ([^\n(]*)")
REFUSED = re.compile(r"cannot be split (across devices|this way)")
WRITTEN_HERE = "written here for SKMD"
DEVICE_NAME = {"cpu": "cpu", "discrete": "discrete0", "cuda": "gpu0", "opencl": "opencl0"}


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--bin", required=True, help="directory of skmd-cc, skmd-run, skmd-info")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    p.add_argument("--filter", default=None, help="only files (GROUP/FILE.cl) matching REGEX")
    p.add_argument("--devices", default="cpu,discrete")
    p.add_argument("--check", default="cpu",
                   help="cpu (default): each split run against SKMD's CPU alone; "
                        "opencl[:N]: also against the kernel built by OpenCL device N "
                        "of the installed drivers (skmd-run --check=opencl)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds per command (default 60)")
    p.add_argument("--out", default=None, help="write the results as JSON")
    p.add_argument("--keep", default=None, help="keep the bundles in this directory")
    p.add_argument("--bundles", default=None,
                   help="run the bundles a run with --keep=DIR compiled, compiling nothing "
                        "(a GPU host has no skmd-cc)")
    p.add_argument("--manifest", default=None,
                   help="run the kernel files of an outside package that this manifest "
                        "names (test/corpus/outside/) instead of the shapes corpus")
    p.add_argument("--root", default=None,
                   help="where that package's kernel files are installed; exit status 77 "
                        "(skipped) when it is not there")
    p.add_argument("--expected", default=None,
                   help="the expected failures (default: expected-failures.txt beside this "
                        "script, or beside the manifest)")
    p.add_argument("-v", "--verbose", action="store_true")
    return p.parse_args()


class CorpusFile:
    """A kernel file and its header: (KEY, VALUE) pairs of corpus-KEY lines."""

    def __init__(self, path, rel, header, written_here=True):
        self.path = path
        self.rel = rel
        self.group = rel.split("/")[0]
        self.source = ""
        self.options = []
        self.runs = []          # (id, kernel, [args])
        self.unsupported = None
        self.notes = []
        self.header_errors = []
        for key, value in header:
            if key == "source":
                self.source = value
            elif key == "options":
                self.options += shlex.split(value)
            elif key == "run":
                words = shlex.split(value)
                if not words:
                    self.header_errors.append("empty corpus-run line")
                    continue
                kernel = words[0]
                same = sum(1 for r in self.runs if r[1] == kernel)
                rid = kernel if same == 0 else "%s#%d" % (kernel, same + 1)
                self.runs.append((rid, kernel, words[1:]))
            elif key == "unsupported":
                self.unsupported = value
            elif key == "note":
                self.notes.append(value)
            else:
                self.header_errors.append("unknown header 'corpus-%s'" % key)
        # Other projects' code is not kept in the repository: every file
        # here is written for SKMD and says so.
        if written_here and not self.source.startswith(WRITTEN_HERE):
            self.header_errors.append("the corpus-source line must start with '%s'" %
                                      WRITTEN_HERE)


def header_pair(text):
    key, _, value = text.partition(":")
    return key.strip(), value.strip()


def file_header(path):
    """The leading '// corpus-KEY: VALUE' lines of a kernel file."""
    header = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            if not line.startswith("// corpus-"):
                break
            header.append(header_pair(line[len("// corpus-"):]))
    return header


def find_files(pattern):
    files = []
    for root, dirs, names in os.walk(HERE):
        dirs.sort()
        for n in sorted(names):
            if n.endswith(".cl"):
                path = os.path.join(root, n)
                rel = os.path.relpath(path, HERE)
                if os.sep not in rel:
                    continue  # only <group>/<file>.cl
                if pattern and not re.search(pattern, rel):
                    continue
                files.append(CorpusFile(path, rel.replace(os.sep, "/"), file_header(path)))
    return files


def read_manifest(manifest, root, pattern):
    """The files a manifest names in an outside package installed at root:
    blocks of a 'file: PATH' line (under root) and the header lines a
    corpus file would have, without their '// corpus-'. The package's name
    (the manifest's, less .manifest) is the group."""
    package = os.path.splitext(os.path.basename(manifest))[0]
    blocks = []
    with open(manifest) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            key, value = header_pair(line)
            if key == "file":
                blocks.append((value, []))
            elif blocks:
                blocks[-1][1].append((key, value))
            else:
                sys.exit("%s:%d: a 'file:' line must come first" % (manifest, n))
    files = []
    for name, header in blocks:
        rel = package + "/" + name
        if pattern and not re.search(pattern, rel):
            continue
        files.append(CorpusFile(os.path.join(root, name), rel, header, written_here=False))
    return files


def load_expected(path):
    expected = {}
    if not path or not os.path.exists(path):
        return expected
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            parts = line.split(None, 2)
            if len(parts) < 2:
                print("%s:%d: want 'FILE[:KERNEL] CLASS reason'" % (path, n),
                      file=sys.stderr)
                continue
            expected[parts[0]] = (parts[1], parts[2] if len(parts) > 2 else "")
    return expected


def run_cmd(cmd, timeout, cwd=None):
    """(returncode or None on timeout, output text, seconds)"""
    start = time.time()
    try:
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
    except OSError as e:
        return -1000, str(e), 0.0
    try:
        out, _ = proc.communicate(timeout=timeout)
        rc = proc.returncode
    except subprocess.TimeoutExpired:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except OSError:
            pass
        out, _ = proc.communicate()
        rc = None
    return rc, out.decode("utf-8", errors="replace"), time.time() - start


def signal_name(rc):
    try:
        return signal.Signals(-rc).name
    except (ValueError, AttributeError):
        return "signal %d" % -rc


def error_lines(out, limit=6):
    lines = [l for l in out.splitlines() if l.strip()]
    picked = [l for l in lines if "error" in l.lower() or "warning" in l.lower()]
    return "\n".join((picked or lines)[-limit:])


def compile_file(cf, args, workdir):
    bundle = os.path.join(workdir, cf.rel.replace("/", "__") + ".skmd")
    if args.bundles:
        bundle = os.path.join(os.path.abspath(args.bundles), os.path.basename(bundle))
        res = {"file": cf.rel, "group": cf.group, "command": "", "seconds": 0,
               "bundle": bundle, "class": "compiled", "message": ""}
        if not os.path.exists(bundle):
            res.update({"class": "unsupported", "message": "no bundle in " + args.bundles})
        return res
    cmd = [os.path.join(args.bin, "skmd-cc"), cf.path, "-o", bundle] + cf.options
    rc, out, secs = run_cmd(cmd, args.timeout, cwd=os.path.dirname(cf.path))
    res = {"file": cf.rel, "group": cf.group, "command": " ".join(map(shlex.quote, cmd)),
           "seconds": round(secs, 3), "bundle": bundle}
    if cf.header_errors:
        res.update({"class": "failed", "message": "; ".join(cf.header_errors)})
    elif rc is None:
        res.update({"class": "timeout", "message": "skmd-cc ran past %g s" % args.timeout})
    elif rc < 0 or SANITIZER.search(out):
        why = "killed by %s" % signal_name(rc) if rc < 0 else "sanitizer report"
        res.update({"class": "crashed", "message": why + "\n" + error_lines(out, 12)})
    elif rc == 0 and os.path.exists(bundle):
        if cf.unsupported:
            res.update({"class": "failed", "message":
                        "compiled, but the file is marked corpus-unsupported: %s" % cf.unsupported})
        else:
            res.update({"class": "compiled", "message": ""})
    else:
        m = UNSUPPORTED.search(out)
        if m and rc == 1 and "Assertion" not in out and "Stack dump" not in out:
            res.update({"class": "unsupported", "message": m.group(0).strip()})
            if not cf.unsupported:
                res["message"] += " (the file has no corpus-unsupported line)"
        elif "Stack dump" in out or "Assertion" in out or "LLVM ERROR" in out:
            res.update({"class": "crashed", "message": error_lines(out, 12)})
        else:
            res.update({"class": "failed", "message": error_lines(out, 12) or
                        "skmd-cc exited with %s" % rc})
    return res


_info_cache = {}


def refusal_reason(args, bundle, kernel):
    """The 'not partitionable:' lines skmd-info prints for the kernel."""
    if bundle not in _info_cache:
        rc, out, _ = run_cmd([os.path.join(args.bin, "skmd-info"), bundle], args.timeout)
        _info_cache[bundle] = out if rc == 0 else ""
    out, reasons, inside, grab = _info_cache[bundle], [], False, False
    for line in out.splitlines():
        if re.match(r"^  \S", line):
            inside = line.strip() == kernel
            grab = False
            continue
        if not inside:
            continue
        if line.strip() == "not partitionable:":
            grab = True
            continue
        if grab:
            if re.match(r"^      \S", line):
                reasons.append(line.strip())
            else:
                grab = False
    return "; ".join(reasons)


def plans(devices):
    devs = [d for d in devices.split(",") if d]
    second = devs[1] if len(devs) > 1 else devs[0]
    second_name = DEVICE_NAME.get(second.split(":")[0], second)
    out = [
        ("even", devs, "even"),
        ("manual", devs, "manual:%s=0.3,%s=0.7" % (DEVICE_NAME.get(devs[0], devs[0]), second_name)),
    ]
    # A third device of the same kind: HostDiscrete devices can be opened
    # again, a GPU cannot.
    if devs[-1] == "discrete":
        out.append(("even3", devs + [devs[-1]], "even"))
    return out


def run_kernel(cf, comp, run, plan, args):
    rid, kernel, kargs = run
    pname, devs, pspec = plan
    cmd = [os.path.join(args.bin, "skmd-run"), comp["bundle"], kernel] + kargs + \
          ["--devices=" + ",".join(devs), "--plan=" + pspec,
           "--check" if args.check == "cpu" else "--check=" + args.check]
    rc, out, secs = run_cmd(cmd, args.timeout)
    res = {"file": cf.rel, "group": cf.group, "kernel": rid, "plan": pname,
           "command": " ".join(map(shlex.quote, cmd)), "seconds": round(secs, 3)}
    if rc is None:
        res.update({"class": "timeout", "message": "ran past %g s" % args.timeout})
    elif rc < 0 or SANITIZER.search(out):
        why = "killed by %s" % signal_name(rc) if rc < 0 else "sanitizer report"
        res.update({"class": "crashed", "message": why + "\n" + error_lines(out, 12)})
    elif "check: FAILED" in out:
        m = re.search(r"check: FAILED(?:: (.*)| against (.*):\n((?: {9}.*\n?)*))", out)
        msg = "check failed"
        if m and m.group(1):
            msg = m.group(1)
        elif m:
            msg = "against %s: %s" % (m.group(2), " ".join(l.strip() for l in m.group(3).splitlines()))
        res.update({"class": "differs", "message": msg})
    elif REFUSED.search(out) and rc != 0:
        reason = "" if "cannot be split this way" in out else refusal_reason(args, comp["bundle"], kernel)
        res.update({"class": "refused", "message": reason or error_lines(out, 2)})
        # Not split, but still checked against the driver: the kernel whole
        # on the plan's last device (the GPU on a GPU host).
        if args.check.startswith("opencl"):
            whole = cmd[:3 + len(kargs)] + ["--devices=" + devs[-1], "--check=" + args.check]
            wrc, wout, _ = run_cmd(whole, args.timeout)
            if wrc != 0:
                cls = ("timeout" if wrc is None else
                       "crashed" if wrc < 0 or SANITIZER.search(wout) else
                       "differs" if "check: FAILED" in wout else "error")
                if cls == "differs":
                    lines = wout[wout.find("check: FAILED"):].splitlines()[:4]
                    why = " ".join(" ".join(lines).split())[:600]
                else:
                    why = " ".join(error_lines(wout, 6).split())
                res.update({"class": cls, "command": " ".join(map(shlex.quote, whole)),
                            "message": "refused; run whole on %s: %s" % (devs[-1], why)})
    elif rc == 0 and "check: ok" in out:
        res.update({"class": "ok", "message": ""})
    elif "FAILED, re-run on the CPU" in out or rc == 2:
        res.update({"class": "error", "message": "a device failed: " + error_lines(out)})
    else:
        res.update({"class": "error", "message": error_lines(out) or
                    "skmd-run exited with %s" % rc})
    return res


def main():
    args = parse_args()
    args.bin = os.path.abspath(args.bin)
    for tool in ("skmd-run", "skmd-info") if args.bundles else ("skmd-cc", "skmd-run", "skmd-info"):
        if not os.access(os.path.join(args.bin, tool), os.X_OK):
            sys.exit("run-corpus.py: no %s in %s" % (tool, args.bin))
    if args.manifest:
        if not args.root or not os.path.isdir(args.root):
            print("run-corpus.py: skipped: no kernel files in %s (the package's setup script "
                  "installs them)" % args.root)
            return 77
        files = read_manifest(args.manifest, os.path.abspath(args.root), args.filter)
        default_expected = os.path.join(os.path.dirname(os.path.abspath(args.manifest)),
                                        "expected-failures.txt")
    else:
        files = find_files(args.filter)
        default_expected = os.path.join(HERE, "expected-failures.txt")
    if not files:
        sys.exit("run-corpus.py: no corpus files%s" % (" match " + args.filter if args.filter else ""))
    expected = load_expected(args.expected or default_expected)
    tmp = None
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        workdir = os.path.abspath(args.keep)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="skmd-corpus-")
        workdir = tmp.name

    started = time.time()
    jobs = max(1, args.jobs)
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        comps = list(pool.map(lambda cf: compile_file(cf, args, workdir), files))
        for cf, c in zip(files, comps):
            if args.verbose:
                print("compile %-60s %s %s" % (cf.rel, c["class"], c["message"].splitlines()[0]
                                               if c["message"] else ""), flush=True)
        work = []
        for cf, c in zip(files, comps):
            if c["class"] != "compiled":
                continue
            for run in cf.runs:
                for plan in plans(args.devices):
                    work.append((cf, c, run, plan))
        futures = [pool.submit(run_kernel, cf, c, run, plan, args) for cf, c, run, plan in work]
        runs = []
        for fut in futures:
            r = fut.result()
            runs.append(r)
            if args.verbose:
                print("run     %-60s %-8s %-10s %s" % (r["file"] + ":" + r["kernel"], r["plan"],
                                                      r["class"], r["message"].splitlines()[0]
                                                      if r["message"] else ""), flush=True)

    # Expected failures: FILE:KERNEL first, then FILE.
    def expectation(file, kernel=None):
        if kernel is not None:
            base = kernel.split("#")[0]
            for key in (file + ":" + kernel, file + ":" + base):
                if key in expected:
                    return key, expected[key]
        if file in expected:
            return file, expected[file]
        return None, None

    used = set()
    unexpected = []
    for c in comps:
        key, exp = expectation(c["file"])
        c["expected"] = bool(exp and exp[0] == c["class"])
        if exp and exp[0] == c["class"]:
            used.add(key)
        if c["class"] in FAILING_COMPILE | {"timeout"} and not c["expected"]:
            unexpected.append(c)
    for r in runs:
        key, exp = expectation(r["file"], r["kernel"])
        r["expected"] = bool(exp and exp[0] == r["class"])
        if r["expected"]:
            used.add(key)
        if r["class"] in FAILING_RUN and not r["expected"]:
            unexpected.append(r)
    fixed = sorted(k for k in expected if k not in used and
                   any(c["file"] == k.split(":")[0] for c in comps))

    # Summary per group.
    compile_classes = ["compiled", "unsupported", "failed", "crashed", "timeout"]
    run_classes = ["ok", "refused", "differs", "crashed", "timeout", "error"]
    groups = sorted({c["group"] for c in comps})
    kernels = {}
    for cf, c in zip(files, comps):
        kernels.setdefault(cf.group, 0)
        kernels[cf.group] += len(cf.runs)
    head = "%-19s %5s %7s" % ("group", "files", "kernels") + \
        "".join(" %8s" % k[:8] for k in compile_classes) + " |" + \
        "".join(" %8s" % k for k in run_classes)
    print("\ncompile: per file; run: per kernel and plan (%s)" %
          ", ".join(p[0] + "=" + ",".join(p[1]) + " " + p[2] for p in plans(args.devices)))
    print(head)
    print("-" * len(head))
    totals_c = {k: 0 for k in compile_classes}
    totals_r = {k: 0 for k in run_classes}
    for grp in groups + ["total"]:
        pc = [c for c in comps if grp in ("total", c["group"])]
        pr = [r for r in runs if grp in ("total", r["group"])]
        nk = sum(kernels.values()) if grp == "total" else kernels[grp]
        if grp == "total":
            print("-" * len(head))
        row = "%-19s %5d %7d" % (grp, len(pc), nk)
        row += "".join(" %8d" % sum(1 for c in pc if c["class"] == k) for k in compile_classes)
        row += " |" + "".join(" %8d" % sum(1 for r in pr if r["class"] == k) for k in run_classes)
        print(row)

    notok = [c for c in comps if c["class"] != "compiled"] + [r for r in runs if r["class"] != "ok"]
    if notok:
        print("\nnot ok (%d):" % len(notok))
        for item in notok:
            where = item["file"] + (":" + item["kernel"] + " [" + item["plan"] + "]"
                                    if "kernel" in item else " [compile]")
            tag = "expected " if item.get("expected") else ""
            exp_reason = ""
            if item.get("expected"):
                _, exp = expectation(item["file"], item.get("kernel"))
                exp_reason = " (%s)" % exp[1] if exp and exp[1] else ""
            msg = item["message"].replace("\n", "\n      ")
            print("  %s%s: %s%s\n      %s" % (tag, item["class"], where, exp_reason, msg))
            if args.verbose and item["class"] not in ("refused", "unsupported"):
                print("      $ " + item["command"])
    if fixed:
        print("\nexpected-failures.txt entries that did not happen (remove them?):")
        for k in fixed:
            print("  %s %s" % (k, expected[k][0]))
    print("\n%d files, %d kernels, %d runs in %.1f s; %d unexpected failures" %
          (len(comps), sum(kernels.values()), len(runs), time.time() - started, len(unexpected)))

    if args.out:
        with open(args.out, "w") as f:
            json.dump({"devices": args.devices, "compile": comps, "runs": runs,
                       "unexpected": len(unexpected), "fixed": fixed}, f, indent=1)
    if tmp:
        tmp.cleanup()
    # A stale entry would hide the next regression of what it names.
    return 1 if unexpected or (fixed and not args.filter) else 0


if __name__ == "__main__":
    sys.exit(main())
