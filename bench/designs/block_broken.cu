/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/block_broken.cu — the benchmark's block-barrier self-test:
 * the block split barrier's kernel released one phase early as the per-phase
 * check sees it (each thread reads the other warps' phase-i values after the
 * barrier of phase i - 1; cgc_kernels.h). Its row runs only under
 * `bench --self-test`, where the per-phase check must print WRONG and the
 * run exit 3.
 */
#define BENCH_BLOCK_EARLY_RELEASE 1
#include "bench/cgc_kernels.h"

BENCH_BLOCK_SPLIT_KERNEL(kd_block_broken, 1)
BENCH_EXPORT(d_block_broken, kd_block_broken)
