/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/grid_split_kernels.cu — the grid split barrier's test kernel with
 * the library's arrive (grid_split_kernels.cuh). */
#define GS_NAME(x) x
#include "tests/cg/grid_split_kernels.cuh"
