# SPDX-License-Identifier: BSD-3-Clause
"""cgc in a PyTorch C++/CUDA extension: builds cgc_torch.cu with
torch.utils.cpp_extension.load, runs its tile_stats for several dtypes and
tile sizes, and checks every result against torch's own sum and cumsum.

    CGC_INCLUDE=/opt/cgc/include python3 examples/python/torch_ext/run.py
    python3 examples/python/torch_ext/run.py --build-only   (no GPU needed)

CGC_INCLUDE is the directory that holds cgc/ (an install's include/); it
defaults to this checkout's include/. TORCH_CUDA_ARCH_LIST defaults to 9.0a
(cgc's Hopper calls need sm_90a; a fat list with older targets needs
CG_ARCH_HAS_SM90 guards, see the README). Exit status 0 when every result
matched, 1 otherwise.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CGC_INCLUDE = os.environ.get("CGC_INCLUDE", os.path.join(HERE, "..", "..", "..", "include"))
os.environ.setdefault("TORCH_CUDA_ARCH_LIST", "9.0a")

import torch  # noqa: E402 (after TORCH_CUDA_ARCH_LIST)
from torch.utils.cpp_extension import load  # noqa: E402


def build():
    return load(
        name="cgc_torch",
        sources=[os.path.join(HERE, "cgc_torch.cu")],
        extra_include_paths=[CGC_INCLUDE],
        extra_cuda_cflags=["-std=c++17"],
        verbose=False,
    )


def main():
    ext = build()
    print("built cgc_torch")
    if "--build-only" in sys.argv:
        return 0
    torch.manual_seed(int.from_bytes(os.urandom(4), "little"))
    n = 1 << 20
    ok = True
    for dtype in (torch.float32, torch.float64, torch.int32, torch.int64, torch.int16, torch.uint8):
        for tile in (32, 128, 512):
            # Small integers: float sums are exact in any order.
            hi = 3 if dtype == torch.uint8 else 100
            lo = 0 if dtype == torch.uint8 else -100
            x = torch.randint(lo, hi, (n,), device="cuda").to(dtype)
            sums, prefix = ext.tile_stats(x, tile)
            t = x.view(-1, tile)
            want_sums = t.sum(dim=1, dtype=dtype)
            want_prefix = (t.cumsum(dim=1, dtype=dtype) - t).reshape(-1)
            bad = int((sums != want_sums).sum()) + int((prefix != want_prefix).sum())
            print(f"{dtype} tile {tile}: {n // tile} sums and {n} prefixes, {bad} wrong")
            ok = ok and bad == 0
    print("verified against torch" if ok else "WRONG")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
