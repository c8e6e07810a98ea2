"""The platforms every suite runs on: SKMD with the CPU alone, SKMD split
over the CPU and two HostDiscrete devices, and PoCL as the baseline.

Each is selected by its CL_PLATFORM_NAME, never by a fixed index: the ICD
loader orders platforms as it reads its vendors folder."""
import json
import os
import subprocess
import sys
from dataclasses import dataclass, field

SKMD_NAME = "SKMD"
POCL_NAME = "Portable Computing Language"


@dataclass
class Platform:
    key: str            # the name results use: skmd-cpu, skmd-split, pocl
    name: str           # CL_PLATFORM_NAME
    extra_env: dict     # what selects the platform's devices
    index: int = -1     # its index in ocl-icd's list (clGetPlatformIDs)
    vendors: str = ""   # the OCL_ICD_VENDORS folder it runs with
    env: dict = field(default_factory=dict)

    @property
    def is_skmd(self):
        return self.name == SKMD_NAME


ALL = [
    Platform("skmd-cpu", SKMD_NAME, {"SKMD_DEVICES": "cpu"}),
    Platform("skmd-split", SKMD_NAME, {"SKMD_DEVICES": "cpu,discrete,discrete"}),
    Platform("pocl", POCL_NAME, {}),
]


def make_vendors(build, out, with_skmd):
    """A vendors folder for ocl-icd: links to the system's .icd files and,
    with_skmd, SKMD's beside them, as scripts/register-opencl.sh makes, but
    under the harness's output so the build tree is only read. The baseline
    runs without SKMD's, so nothing of SKMD's is loaded into it."""
    lib = os.path.join(build, "lib", "libSKMD_OpenCL.so")
    vendors = os.path.join(out, "vendors-skmd" if with_skmd else "vendors-system")
    os.makedirs(vendors, exist_ok=True)
    for entry in os.listdir(vendors):
        os.unlink(os.path.join(vendors, entry))
    if with_skmd and os.path.isfile(lib):
        with open(os.path.join(vendors, "skmd.icd"), "w") as f:
            f.write(lib + "\n")
    system = "/etc/OpenCL/vendors"
    if os.path.isdir(system):
        for icd in sorted(os.listdir(system)):
            if icd.endswith(".icd") and icd != "skmd.icd":
                os.symlink(os.path.join(system, icd), os.path.join(vendors, icd))
    return vendors


# Lists CL_PLATFORM_NAME of each platform, in the loader's order, through
# the system's ocl-icd (the one the Debian suites link).
_LIST_PLATFORMS = r"""
import ctypes, json
cl = ctypes.CDLL("libOpenCL.so.1")
n = ctypes.c_uint(0)
if cl.clGetPlatformIDs(0, None, ctypes.byref(n)) != 0:
    n.value = 0
ids = (ctypes.c_void_p * max(n.value, 1))()
cl.clGetPlatformIDs(n.value, ids, None)
names = []
for i in range(n.value):
    buf = ctypes.create_string_buffer(1024)
    cl.clGetPlatformInfo(ctypes.c_void_p(ids[i]), 0x0902, 1024, buf, None)
    names.append(buf.value.decode(errors="replace").strip())
print(json.dumps(names))
"""


def base_env(vendors, out):
    env = dict(os.environ)
    env["OCL_ICD_VENDORS"] = vendors
    env.pop("OCL_ICD_FILENAMES", None)
    # Plans never read or write the user's profiles.
    env["SKMD_PROFILE_DB"] = os.path.join(out, "skmd-profiles.sqlite")
    return env


def resolve(platforms, build, out):
    """Fills each platform's environment and loader index; returns the
    platforms found and a line for each one missing."""
    found, missing = [], []
    for p in platforms:
        p.vendors = make_vendors(build, out, p.is_skmd)
        env = base_env(p.vendors, out)
        env.update(p.extra_env)
        names = json.loads(subprocess.run(
            [sys.executable, "-c", _LIST_PLATFORMS], env=env, check=True,
            capture_output=True, text=True, timeout=120).stdout)
        if p.name not in names:
            missing.append(f"{p.key}: no platform named '{p.name}' among {names}")
            continue
        p.index = names.index(p.name)
        p.env = env
        found.append(p)
    return found, missing
