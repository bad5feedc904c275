/* tests/cg/debug_kernels.cu — misuse that would hang, built with CG_DEBUG=1
 * (and a short CG_DEBUG_WAIT_TIMEOUT_NS): each kernel must report and trap. */
#include "cg/groups.h"

/* Grid sync in a plain launch far larger than what can be co-resident: the
 * resident blocks wait for blocks that can never start. */
__global__ void k_grid_sync_not_cooperative(void)
{
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
}

/* A cooperative launch in which block 0 skips the barrier. */
__global__ void k_grid_sync_block_skips(void)
{
    cg_grid_t g = cg_this_grid();
    if (blockIdx.x == 0)
        return;
    cg_grid_sync(&g);
}

/* Tile size that is not a power of two. */
__global__ void k_bad_tile(uint32_t n, uint32_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, n);
    out[threadIdx.x] = cg_tile_thread_rank(&t);
}

extern "C" cudaError_t cgt_debug_grid_sync_not_cooperative(unsigned blocks)
{
    k_grid_sync_not_cooperative<<<blocks, 1024>>>();
    return cudaGetLastError();
}

extern "C" cudaError_t cgt_debug_grid_sync_block_skips(unsigned blocks)
{
    void *args[1] = {0};
    return cudaLaunchCooperativeKernel((const void *)k_grid_sync_block_skips, blocks, 128, args, 0, 0);
}

extern "C" cudaError_t cgt_debug_bad_tile(uint32_t n, uint32_t *out)
{
    k_bad_tile<<<1, 32>>>(n, out);
    return cudaGetLastError();
}
