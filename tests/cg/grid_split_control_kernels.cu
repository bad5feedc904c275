/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/grid_split_control_kernels.cu — the positive control: the same
 * kernel (grid_split_kernels.cuh) with the flat arrive a RELAXED reduction
 * (CG_GRID_ARRIVE_FORM 3, barrier/grid_barrier.h), which orders none of the
 * block's writes before it: readers may see stale words. Not a barrier for
 * data; the test reports how often it fails beside the real form's 0. */
#define CG_GRID_ARRIVE_FORM 3
#define GS_NAME(x) x##_control
#include "tests/cg/grid_split_kernels.cuh"
