#!/usr/bin/env python3
"""Writes fuzz-wire's seeds (test/fuzz/corpus/wire/): one well-formed
message of each kind a client sends, in the current protocol version
(formats/wire/Wire.h, docs/wire-format.md). Run it after the protocol
changes: stale seeds only exercise the version check."""
import os
import struct
import zlib

VERSION = 4
MAGIC = b"SKMW"
HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "wire")


def u8(v): return struct.pack("<B", v)
def u32(v): return struct.pack("<I", v)
def f64(v): return struct.pack("<d", v)
def u64(v): return struct.pack("<Q", v)
def text(s): return u32(len(s)) + s.encode()
def region(address, row, pitch, rows): return u64(address) + u64(row) + u64(pitch) + u64(rows)


def frame(kind, request, payload):
    header = MAGIC + struct.pack("<HHQQI", VERSION, kind, request, len(payload),
                                 zlib.crc32(payload)) + u32(0)
    return header + payload


def run(flags, args):
    p = u32(0) + u64(2) + u32(len(args)) + b"".join(args)
    p += u32(1) + u64(0) * 3 + u64(16) + u64(1) * 2 + u64(64) + u64(1) * 2
    return p + u64(0) + u64(16) + u32(flags)


SEEDS = {
    "hello": (1, text("client") + bytes(32)),
    "welcome": (2, text("node1") + u32(1) + text("gpu0") + text("NVIDIA H100") + u8(1) +
                u32(132) + u32(32) + u64(80 << 30) + u8(0) + struct.pack("<d", 25.0)),
    "challenge": (4, bytes(32)),
    "error": (3, u32(4) + text("the device failed")),
    "done": (5, u64(7) + u32(1)),
    "loadmodule": (6, u32(0) + bytes(range(32)) + u64(0)),
    "loadkernel": (7, u32(0) + u64(0) + text("vector_add")),
    "allocate": (8, u32(0) + u64(4096)),
    "release": (9, u32(0) + u64(65536)),
    "write": (10, u32(0) + region(65536, 64, 128, 4)),
    "read": (11, u32(1) + region(65536, 256, 256, 1)),
    "readdata": (12, u64(256)),
    "run": (13, run(0, [u8(0) + u64(65536), u8(1) + u32(4) + bytes([1, 2, 3, 4]),
                        u8(2) + u64(1024)])),
    "run-queued-same": (13, run(1, [u8(3), u8(3), u8(1) + u32(4) + bytes(4)])),
    "sync": (14, u32(0)),
    "share": (17, u64(1) + u64(1 << 20)),
    "unshare": (18, u64(1)),
    "writeshared": (19, u32(0) + region(65536, 64, 128, 4) + u64(1) + u64(0) + u64(64) + u32(1)),
    "readshared": (20, u32(0) + region(65536, 256, 256, 1) + u64(1) + u64(4096) + u64(256) +
                   u32(0)),
    "mark": (21, u32(0) + u64(1)),
    "releasemark": (22, u32(0) + u64(1)),
    "load": (23, u32(0)),
    "step": (24, u32(0) + u32(1) + u64(64) + f64(0.5) + f64(2.0) + f64(0.25) + u32(1)),
}

os.makedirs(HERE, exist_ok=True)
for name in os.listdir(HERE):
    if name.endswith(".bin"):
        os.remove(os.path.join(HERE, name))
for request, (name, (kind, payload)) in enumerate(sorted(SEEDS.items()), 1):
    with open(os.path.join(HERE, name + ".bin"), "wb") as out:
        out.write(frame(kind, request, payload))
print(f"{len(SEEDS)} seeds in {HERE}")
