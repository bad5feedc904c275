/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_gemm_256.cu — the GEMM kernel of
 * examples/gemm_multicast.cuh built with 128 x 256 tiles (GM_BN 256: a
 * 48 KiB stage of A 128 x 64 and B 256 x 64, 4 stages, wgmma m64n256k16,
 * 128 fp32 accumulators per consumer thread): twice the arithmetic per byte
 * of A, the tile shape cuBLAS picks at these sizes. wl_gemm.cu times it
 * beside the 128 x 128 kernel, in the same forms (twins and multicast), and
 * checks it the same way. A translation unit of its own because the tile
 * width is a compile-time constant of the header.
 */
#define GM_BN 256u
#include <cuda_runtime.h>

#include "examples/gemm_multicast.cuh"
#include "bench/workloads/wl_gemm_forms.h"

__global__ void __launch_bounds__(GM_THREADS, 1)
    kw_gemm256(const __grid_constant__ cg_tensor_map_t map_a, const __grid_constant__ cg_tensor_map_t map_b,
               gm_problem_t pr)
{
    gm_gemm(&map_a, &map_b, pr);
}

extern "C" void wg_kernel_256(wg_kernel_t *k)
{
    k->fn = (const void *)kw_gemm256;
    k->smem = GM_SMEM_BYTES;
    k->threads = GM_THREADS;
    k->bn = GM_BN;
    k->stages = GM_STAGES;
}

extern "C" const char *wg_problem_error_256(const gm_problem_t *pr) { return gm_problem_error(pr); }
