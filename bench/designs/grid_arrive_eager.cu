/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/grid_arrive_eager.cu — the grid barrier's flat arrive as it
 * was until 2026-11-28 (CG_GRID_ARRIVE_FORM 2): an atom.add.acq_rel.gpu whose
 * old value thread 0 tests in the arrive (the last arrival then skips its
 * polls), for the benchmark's comparison (barrier/grid_barrier.h).
 */
#define CG_GRID_ARRIVE_FORM 2
#include "bench/cgc_kernels.h"

BENCH_GRID_DESIGN_KERNELS(d_grid_sync_arrive_eager, d_grid_split_arrive_eager, d_grid_probe_arrive_eager)
