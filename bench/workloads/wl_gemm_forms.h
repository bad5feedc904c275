/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/wl_gemm_forms.h — what wl_gemm.cu needs to launch one
 * build of the GEMM kernel (examples/gemm_multicast.cuh), whose tile width
 * is fixed per translation unit: the 128 x 128 build lives in wl_gemm.cu,
 * the 128 x 256 one in wl_gemm_256.cu.
 */
#ifndef CGC_BENCH_WORKLOADS_WL_GEMM_FORMS_H
#define CGC_BENCH_WORKLOADS_WL_GEMM_FORMS_H

#include <stddef.h>
#include <stdint.h>

typedef struct wg_kernel {
    const void *fn;   /* the __global__ function */
    size_t smem;      /* its dynamic shared memory */
    uint32_t threads; /* its block size */
    uint32_t bn;      /* tile columns */
    uint32_t stages;  /* pipeline stages */
} wg_kernel_t;

#ifdef __cplusplus
extern "C" {
#endif
/* The 128 x 256 build (wl_gemm_256.cu). */
void wg_kernel_256(wg_kernel_t *k);
const char *wg_problem_error_256(const gm_problem_t *pr);
#ifdef __cplusplus
}
#endif

#endif /* CGC_BENCH_WORKLOADS_WL_GEMM_FORMS_H */
