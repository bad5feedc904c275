/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/grid_split_control_kernels.cu — the positive control: the same
 * kernel (grid_split_kernels.cuh) with the flat waiter polling with relaxed
 * loads and no fence (CG_GRID_POLL_ACQUIRE 0, barrier/grid_barrier.h): the
 * wait acquires nothing, so a thread may read a line its SM cached in an
 * earlier phase. Not a barrier for data; the test reports how often it
 * fails beside the real form's 0. */
#define CG_GRID_POLL_ACQUIRE 0
#define GS_NAME(x) x##_control
#include "tests/cg/grid_split_kernels.cuh"
