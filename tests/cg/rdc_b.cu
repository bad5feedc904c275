/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/rdc_b.cu — the other translation unit of rdc_compile_test: it
 * defines what rdc_a.cu uses and a kernel of its own with cgc groups. */
#include "cg/cg.h"
#include "cg/grid.h"
#include "dsmem/dsmem.h"
__device__ unsigned shared_counter;
__device__ unsigned b_helper(unsigned v)
{
    cg_grid_t g = cg_this_grid();
    return v + (unsigned)cg_grid_thread_rank(&g);
}
extern "C" __global__ void kb(unsigned *out)
{
    cg_cluster_t cl = cg_this_cluster();
    cg_cluster_sync(&cl);
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
    out[0] = cg_cluster_block_rank(&cl);
}
