/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/wide_tile/ptx_probes.cu — what the wide tile compiles to; read by
 * ptx_test.c (host test, no GPU). */
#include "cg/groups.h"

/* The sync alone (tile size known at the call). */
extern "C" __global__ void probe_wide_sync(void)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, 128);
    cg_wide_tile_sync(&t);
}

/* The sync with a tile size known only at run time. */
extern "C" __global__ void probe_wide_sync_n(unsigned n)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, n);
    cg_wide_tile_sync(&t);
}

/* A reduce: two tile barriers, no block barrier, no atomics. */
extern "C" __global__ void probe_wide_reduce(float *o)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, 256);
    o[threadIdx.x] = cg_wide_tile_reduce_f32(&t, o[threadIdx.x], CG_OP_PLUS);
}

/* A 32-bit integer reduce: redux.sync in the warp step. */
extern "C" __global__ void probe_wide_reduce_int(int *o)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, 512);
    o[threadIdx.x] = cg_wide_tile_reduce_i32(&t, o[threadIdx.x], CG_OP_PLUS);
}
