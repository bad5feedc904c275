/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/tile64_aligned.cu — cg_wide_tile_sync as the aligned
 * barrier.sync.aligned id, n (CG_WIDE_TILE_SYNC_ALIGNED 1, cg/wide_tile.h):
 * what the non-aligned form's tolerance of a diverged warp costs against the
 * aligned PTX floor (issue 33).
 */
#define CG_WIDE_TILE_SYNC_ALIGNED 1
#include "bench/cgc_kernels.h"

BENCH_TILE64_SYNC_KERNEL(kd_tile64_aligned)
BENCH_EXPORT(d_tile64_aligned, kd_tile64_aligned)
