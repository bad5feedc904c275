/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/block_first_use_cold.cu — the block group's split barrier
 * with its first-use test marked unlikely (CG_THREAD_BLOCK_FIRST_USE_COLD:
 * the setup laid out away from the loop), in the split and rotating-warp
 * rows' kernels (cg/thread_block.h, docs/design/block_split_barrier.md).
 */
#define CG_THREAD_BLOCK_FIRST_USE 1
#include "bench/cgc_kernels.h"

BENCH_BLOCK_SPLIT_KERNEL(kd_block_split_cold, 0)
BENCH_EXPORT(d_block_split_cold, kd_block_split_cold)
BENCH_BLOCK_ROTATING_KERNEL(kd_block_rotating_cold)
BENCH_EXPORT(d_block_rotating_cold, kd_block_rotating_cold)
