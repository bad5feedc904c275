#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Marks the library's sm_90-only functions CG_DEVICE_SM90 (base/config.h).

Below sm_90 a CG_DEVICE_SM90 function is unavailable, so a user's call to it
stops the build at the user's line; a function that calls one (or reaches
CG_REQUIRE_SM90()) must be marked too, or the compute_80 build of its header
fails at the header's line (tests/cg:sm80_compile_test). This script builds
every library header for compute_80 (release and CG_DEBUG=1), and for each
such error inside a library header changes the enclosing function's leading
`CG_DEVICE ` to `CG_DEVICE_SM90 `, until the build is clean. It lists every
function it marked; review them (a function with a real sm_80 path must keep
that path's calls out of the compute_80 pass instead, behind #if). Usage, from
anywhere: tools/ci/mark_sm90_only.py
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FOLDERS = ("base", "barrier", "cluster", "dsmem", "async", "cg")
NVCC = os.path.join(os.environ.get("CUDA_PATH", "/usr/local/cuda"), "bin", "nvcc")
ERROR = re.compile(r"^(\S+)\((\d+)\): error: (.*)$", re.M)


def headers():
    for folder in FOLDERS:
        for name in sorted(os.listdir(os.path.join(ROOT, folder))):
            if name.endswith(".h"):
                yield "%s/%s" % (folder, name)


def errors(unit):
    found = set()
    for defines in ([], ["-DCG_DEBUG=1"]):
        cmd = [NVCC, "-std=c++17", "-I" + ROOT] + defines + [
            "-gencode=arch=compute_80,code=compute_80", "-c", unit, "-o", os.devnull]
        run = subprocess.run(cmd, capture_output=True, text=True)
        for m in ERROR.finditer(run.stdout + run.stderr):
            found.add((os.path.relpath(os.path.normpath(m.group(1)), ROOT), int(m.group(2)), m.group(3)))
    return found


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".cu", delete=False) as f:
        for h in headers():
            f.write('#include "%s"\n' % h)
        f.write("__global__ void cgc_mark_probe(void) {}\n")
        unit = f.name
    marked = []
    try:
        for _ in range(20):
            errs = errors(unit)
            if not errs:
                print("mark_sm90_only: every header builds for compute_80; %d function(s) marked" % len(marked))
                for m in marked:
                    print("  " + m)
                return 0
            changed = 0
            for path, line, msg in sorted(errs):
                if "declared unavailable" not in msg or path.split("/")[0] not in FOLDERS:
                    continue
                lines = open(os.path.join(ROOT, path)).read().split("\n")
                j = line - 1
                while j >= 0 and not re.match(r"^CG_DEVICE(_SM90)? ", lines[j]):
                    j -= 1
                if j >= 0 and lines[j].startswith("CG_DEVICE "):
                    lines[j] = "CG_DEVICE_SM90 " + lines[j][len("CG_DEVICE "):]
                    open(os.path.join(ROOT, path), "w").write("\n".join(lines))
                    marked.append("%s:%d %s" % (path, j + 1, lines[j][:100]))
                    changed += 1
            if not changed:
                print("mark_sm90_only: errors it cannot fix (mark or guard these by hand):")
                for path, line, msg in sorted(errs):
                    print("  %s:%d: %s" % (path, line, msg[:160]))
                return 1
    finally:
        os.unlink(unit)
    return 1


if __name__ == "__main__":
    sys.exit(main())
