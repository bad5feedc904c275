/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/grid_split_kernels.h — launchers of grid_split_kernels.cu (the
 * library's grid barrier) and grid_split_control_kernels.cu (the positive
 * control: the same kernel with a relaxed arrive), C linkage. */
#ifndef CGT_GRID_SPLIT_KERNELS_H
#define CGT_GRID_SPLIT_KERNELS_H

#include <stdint.h>

#include "base/status.h"
#include "tests/cg/barrier_kernels.h"

/* A launch shape: grid and block, 3-D. */
typedef struct cgt_grid_shape {
    uint32_t grid[3], block[3];
} cgt_grid_shape_t;

CG_EXTERN_C_BEGIN
/* k_grid_work (grid_split_kernels.cuh): buf holds 2 * 4 * (grid threads)
 * uint32, ring one zeroed uint32 per block. */
cg_status_t cgt_launch_grid_work(const cgt_grid_shape_t *s, uint32_t iters, uint32_t seed, uint32_t objects,
                                 uint32_t delays, uint32_t *buf, uint32_t *ring, cgt_fail_t *f);
cg_status_t cgt_launch_grid_work_control(const cgt_grid_shape_t *s, uint32_t iters, uint32_t seed, uint32_t objects,
                                         uint32_t delays, uint32_t *buf, uint32_t *ring, cgt_fail_t *f);
const void *cgt_grid_work_kernel(void);
const void *cgt_grid_work_kernel_control(void);
CG_EXTERN_C_END

#endif /* CGT_GRID_SPLIT_KERNELS_H */
