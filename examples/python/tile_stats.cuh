/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/python/tile_stats.cuh — the kernel the Python examples run: for
 * every tile of N threads, the tile's sum and each element's exclusive
 * prefix sum, for any element type T and any tile size N (1..1024), written
 * once with cgc's generic calls (no per-type or per-size code, no branch at
 * 32). cupy_tile_stats.py compiles it through NVRTC (CuPy's RawModule, the
 * instantiations named as name_expressions); torch_ext/cgc_torch.cu through
 * nvcc (a PyTorch C++/CUDA extension). tests/build/nvrtc compiles it as CuPy does.
 *
 * Launch: blocks of a multiple of N threads, one element per thread, the
 * grid covering the input exactly; sums[t] gets tile t's total, prefix[i]
 * the sum of the elements before i in its tile.
 */
#ifndef CGX_TILE_STATS_CUH
#define CGX_TILE_STATS_CUH

#include <cgc/cg/cg.h>

template <typename T, unsigned N>
__global__ void tile_stats(const T *in, T *sums, T *prefix)
{
    cg_thread_block_t block = cg_this_thread_block();
    CG_TILE_T(N) tile = CG_TILED_PARTITION(&block, N);
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
    T v = in[i];
    T s = cg_reduce(&tile, v, CG_OP_PLUS);
    prefix[i] = cg_exclusive_scan(&tile, v, CG_OP_PLUS);
    if (cg_thread_rank(&tile) == 0)
        sums[i / N] = s;
}

#endif /* CGX_TILE_STATS_CUH */
