#!/usr/bin/env python3
"""Look for launch specs on which a kernel races: rerun every split run of a
run-corpus.py --out=FILE result on the CPU alone with 1, 2, 3, 5 and 16
threads, four times each, and compare every written buffer in full. A kernel whose outputs
change with the thread count races on those inputs (its groups store to the
same place), and --check then compares two legal answers.

    scan-races.py --bin=build/bin --results=results.json [--jobs=N]

Exit status 1 when some kernel's outputs change. Only the Python standard
library is used.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys

THREADS = ("1", "2", "3", "5", "16")
# Each count this many times: which group stores last is timing.
REPEATS = 4


def written_buffers(skmd_info, bundle, kernel, cache):
    if bundle not in cache:
        out = subprocess.run([skmd_info, "--json", bundle], capture_output=True, text=True)
        cache[bundle] = json.loads(out.stdout) if out.returncode == 0 else {"kernels": []}
    for k in cache[bundle]["kernels"]:
        if k["name"] == kernel:
            return [i for i, a in enumerate(k["args"])
                    if a["kind"] == "global_buffer" and a["written"]]
    return []


def outputs(argv, threads):
    env = dict(os.environ, SKMD_CPU_THREADS=threads)
    p = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)
    # The --print lines: two spaces, a buffer's name, a colon.
    lines = [l for l in p.stdout.splitlines()
             if l.startswith("  ") and not l.startswith("   ") and ":" in l
             and l.split(":")[0].strip().isidentifier()
             and l.split(":")[0].strip() not in ("plan", "devices", "check", "total")]
    return hashlib.sha1("\n".join(lines).encode()).hexdigest()


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--bin", required=True)
    p.add_argument("--results", required=True, help="run-corpus.py --out=FILE")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = p.parse_args()
    info = os.path.join(args.bin, "skmd-info")
    runs = json.load(open(args.results))["runs"]
    cache, jobs = {}, []
    for r in runs:
        if r["plan"] != "even" or r["class"] != "ok":
            continue
        argv = shlex.split(r["command"])
        argv = [a for a in argv if not a.startswith(("--devices", "--plan", "--check"))]
        argv[0] = os.path.join(args.bin, "skmd-run")
        argv += ["--devices=cpu"] + ["--print=%d:1000000000" % i
                                     for i in written_buffers(info, argv[1], argv[2], cache)]
        jobs.append((r["file"] + ":" + r["kernel"], argv))

    def scan(job):
        name, argv = job
        return name, {outputs(argv, t) for t in THREADS for _ in range(REPEATS)}

    racing = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
        for name, digests in ex.map(scan, jobs):
            if len(digests) > 1:
                racing.append(name)
                print("races: %s (outputs change with the CPU's thread count)" % name)
    print("%d kernels run %d times each with %s threads; %d race"
          % (len(jobs), REPEATS, ", ".join(THREADS), len(racing)))
    return 1 if racing else 0


if __name__ == "__main__":
    sys.exit(main())
