"""PyOpenCL, unmodified, on the SKMD platform.

PyOpenCL generates its kernels at run time (elementwise arithmetic,
reductions with local-memory trees, scans with several phases) and builds
them through clBuildProgram, so this is OpenCL code nobody here wrote,
launched the way a Python program launches it. Every result is compared
with numpy's.

Run with OCL_ICD_VENDORS naming the build tree's vendor folder (PyOpenCL's
wheel carries its own ocl-icd loader); SKMD_DEVICES chooses the devices.
Exits non-zero on the first wrong answer, naming it.
"""
import atexit
import os
import shutil
import sys
import tempfile

import numpy as np

# PyOpenCL keeps built binaries under the user's cache; a fresh one per run
# so that every program is built here (and read back as a binary: PyOpenCL
# stores CL_PROGRAM_BINARIES and reloads them with clCreateProgramWithBinary).
if "XDG_CACHE_HOME" not in os.environ:
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="skmd-pyopencl-")
    atexit.register(shutil.rmtree, os.environ["XDG_CACHE_HOME"], True)

import pyopencl as cl  # noqa: E402
import pyopencl.array as cla  # noqa: E402
import pyopencl.clmath as clmath  # noqa: E402
from pyopencl.elementwise import ElementwiseKernel  # noqa: E402
from pyopencl.reduction import ReductionKernel  # noqa: E402
from pyopencl.scan import ExclusiveScanKernel, InclusiveScanKernel  # noqa: E402

FAILURES = []


def check(name, got, want, rtol=1e-5, atol=1e-6):
    got = np.asarray(got)
    want = np.asarray(want)
    if got.shape != want.shape or not np.allclose(got, want, rtol=rtol, atol=atol):
        bad = np.argwhere(~np.isclose(got, want, rtol=rtol, atol=atol)) if got.shape == want.shape else []
        where = f", first at {tuple(bad[0])}: {got[tuple(bad[0])]} against {want[tuple(bad[0])]}" if len(bad) else ""
        FAILURES.append(name)
        print(f"FAIL {name}{where}", flush=True)
    else:
        print(f"ok   {name}", flush=True)


def skmd_context():
    platforms = [p for p in cl.get_platforms() if p.name == "SKMD"]
    if not platforms:
        sys.exit("pyopencl-test: no platform named SKMD (is OCL_ICD_VENDORS set?)")
    devices = platforms[0].get_devices()
    print(f"platform {platforms[0].name}: {devices[0].name}", flush=True)
    return cl.Context(devices)


def main():
    ctx = skmd_context()
    queue = cl.CommandQueue(ctx)
    rng = np.random.default_rng(7)
    n = 1 << 18  # enough groups that a split has something to split

    a = rng.standard_normal(n).astype(np.float32)
    b = rng.standard_normal(n).astype(np.float32)
    a_dev = cla.to_device(queue, a)
    b_dev = cla.to_device(queue, b)

    # pyopencl.array arithmetic: one generated kernel per expression.
    check("array a + b", (a_dev + b_dev).get(), a + b)
    check("array 2a - b*b", (2 * a_dev - b_dev * b_dev).get(), 2 * a - b * b)
    check("array a / (1 + |b|)", (a_dev / (1 + abs(b_dev))).get(), a / (1 + abs(b)), rtol=1e-5)
    check("clmath sin", clmath.sin(a_dev).get(), np.sin(a), rtol=1e-5, atol=1e-6)
    check("clmath exp", clmath.exp(a_dev).get(), np.exp(a), rtol=1e-5)
    check("array fill", cla.zeros(queue, n, np.float32).fill(3.5).get(), np.full(n, 3.5, np.float32))

    # Integer arrays and in-place updates.
    i = rng.integers(-1000, 1000, n).astype(np.int32)
    i_dev = cla.to_device(queue, i)
    i_dev += 5
    i_dev *= 3
    check("int array in place", i_dev.get(), (i + 5) * 3)

    # A custom elementwise kernel.
    axpbyz = ElementwiseKernel(ctx, "float a, float *x, float b, float *y, float *z",
                               "z[i] = a*x[i] + b*y[i]", "axpbyz")
    z_dev = cla.empty_like(a_dev)
    axpbyz(np.float32(2.5), a_dev, np.float32(-0.5), b_dev, z_dev)
    check("ElementwiseKernel axpbyz", z_dev.get(), 2.5 * a - 0.5 * b)

    # Reductions: a local-memory tree per group, then a second stage.
    check("sum", cla.sum(a_dev).get(), np.sum(a, dtype=np.float64), rtol=1e-4, atol=1e-2)
    check("dot", cla.dot(a_dev, b_dev).get(), np.dot(a.astype(np.float64), b), rtol=1e-4, atol=1e-2)
    check("max", cla.max(a_dev).get(), np.max(a))
    check("min", cla.min(a_dev).get(), np.min(a))
    check("int sum", cla.sum(i_dev).get(), np.sum((i + 5) * 3))
    sumsq = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b",
                            map_expr="x[i]*x[i]", arguments="__global const float *x")
    check("ReductionKernel sum of squares", sumsq(a_dev).get(), np.sum(a.astype(np.float64) ** 2),
          rtol=1e-4)

    # Scans: several generated kernels with barriers in loops.
    u = rng.integers(0, 100, n).astype(np.int32)
    u_dev = cla.to_device(queue, u)
    inc = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
    out = u_dev.copy()
    inc(out)
    check("inclusive scan", out.get(), np.cumsum(u, dtype=np.int32))
    exc = ExclusiveScanKernel(ctx, np.int32, "a+b", "0")
    out = u_dev.copy()
    exc(out)
    check("exclusive scan", out.get(), np.concatenate(([0], np.cumsum(u, dtype=np.int32)[:-1])))
    check("cumsum", cla.cumsum(u_dev).get(), np.cumsum(u))

    # Slices are sub-regions of one buffer.
    half = n // 2
    check("slice + slice", (a_dev[:half] + a_dev[half:]).get(), a[:half] + a[half:])
    s = a_dev[1000:5000]
    s.fill(1.0)
    expect = a.copy()
    expect[1000:5000] = 1.0
    check("fill of a slice", a_dev.get(), expect)

    # Buffers written on the host side between launches.
    c = rng.standard_normal(n).astype(np.float32)
    a_dev.set(c)
    check("set then a + b", (a_dev + b_dev).get(), c + b)

    queue.finish()
    if FAILURES:
        sys.exit(f"pyopencl-test: {len(FAILURES)} wrong: {', '.join(FAILURES)}")
    print("pyopencl-test: every result equals numpy's")


if __name__ == "__main__":
    main()
