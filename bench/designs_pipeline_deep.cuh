/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_deep.cuh — the multicast example's kernel
 * (examples/pipeline_project.cuh) with a deeper ring of the same 16 KiB
 * tiles: BD_DEEP_KERNELS(S) defines, for the PJ_STAGES the including file
 * set (S, spelled the same), the sliced multicast form with the library's
 * warp release and its twin (every CTA loads every tile) of the same depth,
 * on the HBM-bound stream and on the L2-resident input. More bytes in
 * flight per SM, and more slack between the CTAs of a cluster: every stage
 * of the sliced form waits for the slowest CTA's consumers (its empty
 * barrier counts them all), and the design rows measured with a CTA-scope
 * release (no fence at all) still ran 1.13 / 1.22 of the twin at clusters 4
 * and 8: the release alone cannot close the gap (issue 32 item 4).
 */
#ifndef CGC_BENCH_DESIGNS_PIPELINE_DEEP_CUH
#define CGC_BENCH_DESIGNS_PIPELINE_DEEP_CUH

#include "cg/cg.h"

#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

#define BD_DEEP_KERNELS(S)                                                                                    \
    __global__ void __launch_bounds__(PJ_THREADS) kd_project_sliced_s##S(bench_args_t a)                     \
    {                                                                                                     \
        pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, 0u, NULL, a.acc, PJ_SLICED);                 \
    }                                                                                                     \
    BENCH_EXPORT(d_project_sliced_s##S, kd_project_sliced_s##S)                                           \
    __global__ void __launch_bounds__(PJ_THREADS) kd_project_local_s##S(bench_args_t a)                      \
    {                                                                                                     \
        pj_project_ex((const uint32_t *)a.src, a.ntiles, 0u, a.group, NULL, a.acc, PJ_TWIN);              \
    }                                                                                                     \
    BENCH_EXPORT(d_project_local_s##S, kd_project_local_s##S)                                             \
    __global__ void __launch_bounds__(PJ_THREADS) kd_project_sliced_s##S##_l2(bench_args_t a)                \
    {                                                                                                     \
        pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, 0u, NULL, a.acc, PJ_SLICED); \
    }                                                                                                     \
    BENCH_EXPORT(d_project_sliced_s##S##_l2, kd_project_sliced_s##S##_l2)                                 \
    __global__ void __launch_bounds__(PJ_THREADS) kd_project_local_s##S##_l2(bench_args_t a)                 \
    {                                                                                                     \
        pj_project_ex((const uint32_t *)a.src, a.ntiles, PJ_L2_WINDOW_TILES, a.group, NULL, a.acc, PJ_TWIN); \
    }                                                                                                     \
    BENCH_EXPORT(d_project_local_s##S##_l2, kd_project_local_s##S##_l2)

#endif /* CGC_BENCH_DESIGNS_PIPELINE_DEEP_CUH */
