/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/rdc_a.cu — one of two translation units that rdc_compile_test builds
 * with -rdc=true and device-links: a kernel calls a __device__ function and
 * reads a __device__ variable defined in rdc_b.cu. */
#include "cg/cg.h"
#include "cg/collectives.h"
#include "cg/grid.h"
#include "barrier/device_barrier.h"
extern __device__ unsigned shared_counter;
__device__ unsigned b_helper(unsigned v);
extern "C" __global__ void ka(unsigned *out, cg_device_barrier_t *gb)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
    cg_device_barrier_wait(gb, cg_device_barrier_arrive(gb));
    cg_tile_t t = cg_tiled_partition(&b, 32);
    out[cg_thread_block_thread_rank(&b)] = b_helper(cg_tile_reduce_u32(&t, 1u, CG_OP_PLUS)) + shared_counter;
}
