# SPDX-License-Identifier: BSD-3-Clause
"""cgc from Python through CuPy: tile_stats.cuh compiled by NVRTC with
cupy.RawModule, run for several element types and tile sizes, and checked
against NumPy.

    CGC_INCLUDE=/opt/cgc/include python3 examples/python/cupy_tile_stats.py

CGC_INCLUDE is the directory that holds cgc/ (an install's include/); it
defaults to this checkout's include/ (include/cgc is a link to the
checkout). CuPy adds the GPU's own -arch. Exit status 0 when every result
matched NumPy's, 1 otherwise. tests/build/nvrtc compiles the same source with the
same options and name expressions in CI.
"""
import os
import sys

import cupy as cp
import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
CGC_INCLUDE = os.environ.get("CGC_INCLUDE", os.path.join(HERE, "..", "..", "include"))

# (NumPy type, C++ type, tile size): one kernel template, any type and size.
CASES = [
    (np.float32, "float", 32),
    (np.float32, "float", 256),
    (np.int32, "int", 16),
    (np.int64, "long long", 128),
    (np.float64, "double", 512),
]
THREADS = 512  # a multiple of every tile size above
N = 1 << 20  # a multiple of THREADS


def name(ctype, tile):
    return f"tile_stats<{ctype}, {tile}>"


module = cp.RawModule(
    code='#include "tile_stats.cuh"\n',
    options=("-I" + CGC_INCLUDE, "-I" + HERE, "-std=c++17"),
    name_expressions=[name(c, t) for _, c, t in CASES],
)


def check(dtype, ctype, tile, rng):
    # Small integers: every float sum is exact, so any order gives NumPy's bits.
    x = rng.integers(-100, 100, size=N).astype(dtype)
    sums = cp.full(N // tile, 77, dtype=dtype)  # poison
    prefix = cp.full(N, 77, dtype=dtype)
    kernel = module.get_function(name(ctype, tile))
    kernel((N // THREADS,), (THREADS,), (cp.asarray(x), sums, prefix))
    tiles = x.reshape(-1, tile)
    want_sums = tiles.sum(axis=1, dtype=dtype)
    want_prefix = (np.cumsum(tiles, axis=1, dtype=dtype) - tiles).reshape(-1)
    bad = int(np.count_nonzero(cp.asnumpy(sums) != want_sums)) + int(
        np.count_nonzero(cp.asnumpy(prefix) != want_prefix))
    print(f"{name(ctype, tile)}: {N // tile} tile sums and {N} prefixes, {bad} wrong")
    return bad == 0


def main():
    seed = int.from_bytes(os.urandom(8), "little")
    print(f"seed {seed}")
    rng = np.random.default_rng(seed)
    ok = all([check(d, c, t, rng) for d, c, t in CASES])
    print("verified against NumPy" if ok else "WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
