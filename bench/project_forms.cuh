/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/project_forms.cuh — the benchmark's kernels of the multicast
 * example's body (examples/pipeline_project.cuh), one line each. A file that
 * builds a probe of the body defines its knobs (PJ_TIMED) and then includes
 * this file, which brings in the body:
 *
 *   BD_SLICED_PAIR(name)  the sliced multicast form on the HBM-bound stream
 *                         (name) and on the L2-resident input (name##_l2)
 *   BD_TWIN_PAIR(name)    its twin (every CTA loads every tile), the same two
 *                         inputs; a.group lets bench_stream_row launch it
 *                         without clusters for the faster-twin anchor
 *
 * Each kernel is k_<name>, exported as <name>() (BENCH_EXPORT).
 */
#ifndef CGC_BENCH_PROJECT_FORMS_CUH
#define CGC_BENCH_PROJECT_FORMS_CUH

#include "cg/cg.h"

#include "bench/bench.h"
#include "examples/pipeline_project.cuh"

#define BD_PROJECT_KERNEL(name, window, group, mode)                                                          \
    __global__ void __launch_bounds__(PJ_THREADS) k_##name(bench_args_t a)                                   \
    {                                                                                                     \
        pj_project_ex((const uint32_t *)a.src, a.ntiles, (window), (group), NULL, a.acc, (mode));          \
    }                                                                                                     \
    BENCH_EXPORT(name, k_##name)

#define BD_SLICED_PAIR(name)                                                                                  \
    BD_PROJECT_KERNEL(name, 0u, 0u, PJ_SLICED)                                                            \
    BD_PROJECT_KERNEL(name##_l2, PJ_L2_WINDOW_TILES, 0u, PJ_SLICED)

#define BD_TWIN_PAIR(name)                                                                                    \
    BD_PROJECT_KERNEL(name, 0u, a.group, PJ_TWIN)                                                         \
    BD_PROJECT_KERNEL(name##_l2, PJ_L2_WINDOW_TILES, a.group, PJ_TWIN)

#endif /* CGC_BENCH_PROJECT_FORMS_CUH */
