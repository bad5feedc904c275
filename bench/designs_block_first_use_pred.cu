/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_block_first_use_pred.cu — the block group's split barrier
 * with its first-use test and setup in one branch-free asm block, every
 * step predicated (CG_THREAD_BLOCK_FIRST_USE_PRED), in the split and
 * rotating-warp rows' kernels (cg/thread_block.h,
 * docs/design/block_split_barrier.md).
 */
#define CG_THREAD_BLOCK_FIRST_USE 3
#include "bench/cgc_kernels.h"

BENCH_BLOCK_SPLIT_KERNEL(kd_block_split_pred, 0)
BENCH_EXPORT(d_block_split_pred, kd_block_split_pred)
BENCH_BLOCK_ROTATING_KERNEL(kd_block_rotating_pred)
BENCH_EXPORT(d_block_rotating_pred, kd_block_rotating_pred)
