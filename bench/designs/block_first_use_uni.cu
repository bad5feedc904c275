/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/block_first_use_uni.cu — the block group's split barrier
 * with its first-use test and setup in one asm block whose branch is
 * bra.uni (CG_THREAD_BLOCK_FIRST_USE_UNI), in the split and rotating-warp
 * rows' kernels (cg/thread_block.h, docs/design/block_split_barrier.md).
 */
#define CG_THREAD_BLOCK_FIRST_USE 2
#include "bench/cgc_kernels.h"

BENCH_BLOCK_SPLIT_KERNEL(kd_block_split_uni, 0)
BENCH_EXPORT(d_block_split_uni, kd_block_split_uni)
BENCH_BLOCK_ROTATING_KERNEL(kd_block_rotating_uni)
BENCH_EXPORT(d_block_rotating_uni, kd_block_rotating_uni)
