/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/launch_kernels.cu — kernels that exercise cg_launch's opt-ins. */
#include "cg/groups.h"
#include "tests/cg/launch_kernels.h"

__global__ void k_big_smem(uint32_t bytes, uint32_t *out)
{
    extern __shared__ unsigned char smem[];
    uint32_t bad = 0;
    for (uint32_t i = threadIdx.x; i < bytes; i += blockDim.x)
        smem[i] = (unsigned char)(i * 7u + 3u);
    __syncthreads();
    for (uint32_t i = threadIdx.x; i < bytes; i += blockDim.x)
        bad += smem[bytes - 1u - i] != (unsigned char)((bytes - 1u - i) * 7u + 3u);
    atomicAdd(out, bad + (threadIdx.x == 0 ? 1u : 0u));
}

__global__ void k_cluster_size(uint32_t *out)
{
    cg_cluster_t cl = cg_this_cluster();
    if (threadIdx.x == 0)
        out[blockIdx.x] = cg_cluster_num_blocks(&cl);
    cg_cluster_exit_sync(&cl);
}

__global__ void k_coop(uint32_t *out)
{
    cg_grid_t g = cg_this_grid();
    cg_grid_sync(&g);
    if (threadIdx.x == 0)
        out[blockIdx.x] = 1;
}

__global__ void __launch_bounds__(64) k_bounded64(uint32_t *out)
{
    if (out)
        out[threadIdx.x] = 1;
}

__global__ void k_trap(void) { __trap(); }

/* Block b: partial[b] = in[b] ^ salt; grid sync; out[b] = partial[next]
 * (next = b + 1 mod blocks): every block's result needs another block's
 * write made before the sync. */
__global__ void k_coop_pass(const uint32_t *in, uint32_t *partial, uint32_t *out, uint32_t salt)
{
    cg_grid_t g = cg_this_grid();
    if (threadIdx.x == 0)
        partial[blockIdx.x] = in[blockIdx.x] ^ salt;
    cg_grid_sync(&g);
    if (threadIdx.x == 0)
        out[blockIdx.x] = partial[(blockIdx.x + 1u) % gridDim.x];
}

extern "C" const void *cgt_k_coop_pass(void) { return (const void *)k_coop_pass; }
extern "C" const void *cgt_k_big_smem(void) { return (const void *)k_big_smem; }
extern "C" const void *cgt_k_cluster_size(void) { return (const void *)k_cluster_size; }
extern "C" const void *cgt_k_coop(void) { return (const void *)k_coop; }
extern "C" const void *cgt_k_bounded64(void) { return (const void *)k_bounded64; }
extern "C" const void *cgt_k_trap(void) { return (const void *)k_trap; }
