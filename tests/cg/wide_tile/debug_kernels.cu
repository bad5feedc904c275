/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/wide_tile/debug_kernels.cu — wide-tile misuse that a debug build
 * (CG_DEBUG=1) must trap on, and a correct use that must not. */
#include "cg/groups.h"

__global__ void __launch_bounds__(1024) cgw_debug_partition_kernel(unsigned n, uint32_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, n);
    cg_wide_tile_sync(&t);
    out[threadIdx.x] = cg_wide_tile_barrier_id(&t);
}

/* One block of `threads` threads partitions into tiles of n and syncs. */
extern "C" cudaError_t cgw_debug_partition(unsigned n, unsigned threads, uint32_t *out)
{
    cgw_debug_partition_kernel<<<1, threads>>>(n, out);
    return cudaGetLastError();
}
