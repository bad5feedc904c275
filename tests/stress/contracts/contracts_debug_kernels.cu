/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/contracts/contracts_debug_kernels.cu — misuse that a debug build
 * (CG_DEBUG=1) must report and trap on (issue 26): pipeline storage that is
 * not 128-byte aligned or not shared memory, a wide-tile shuffle with a
 * per-thread source, a tensor load at an odd x coordinate, and a tensor
 * tile that is not 128-byte aligned.
 */
#include <cuda_runtime.h>

#include "cg/cg.h"
#include "tests/stress/contracts/contracts.h"

#if !CG_DEBUG
#error "contracts_debug_kernels.cu must be compiled with -DCG_DEBUG=1"
#endif

extern "C" __global__ void ctrd_attach_misaligned_kernel(uint32_t *out)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 256) + 16];
    cg_pipeline_t p = cg_pipeline_attach(smem + 16, 2, 256);
    out[threadIdx.x] = p.stages; /* not reached */
}

extern "C" int ctrd_attach_misaligned(void)
{
    ctrd_attach_misaligned_kernel<<<1, 32>>>((uint32_t *)0);
    return (int)cudaGetLastError();
}

extern "C" __global__ void ctrd_attach_not_shared_kernel(uint32_t *glob)
{
    cg_pipeline_t p = cg_pipeline_attach(glob, 2, 256); /* 256-byte aligned cudaMalloc memory */
    glob[threadIdx.x] = p.stages;                       /* not reached */
}

extern "C" int ctrd_attach_not_shared(uint32_t *glob)
{
    ctrd_attach_not_shared_kernel<<<1, 32>>>(glob);
    return (int)cudaGetLastError();
}

extern "C" __global__ void ctrd_wide_shfl_kernel(uint32_t *out)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, 64);
    const uint32_t r = cg_wide_tile_thread_rank(&t);
    out[threadIdx.x] = cg_wide_tile_shfl_u32(&t, r * 7u, r ^ 1u); /* a per-thread source */
}

extern "C" int ctrd_wide_shfl_per_thread_src(void)
{
    static uint32_t *out = 0;
    if (out == 0 && cudaMalloc((void **)&out, 128 * sizeof(uint32_t)) != cudaSuccess)
        return (int)cudaErrorMemoryAllocation;
    ctrd_wide_shfl_kernel<<<1, 128>>>(out);
    return (int)cudaGetLastError();
}

/* One thread loads a 16 x 4 box of a u8 map at (x, 0) into `tile_off` bytes
 * past a 128-aligned tile, then waits for it (bounded in a debug build). */
extern "C" __global__ void ctrd_tensor_kernel(const __grid_constant__ cg_tensor_map_t map, int32_t x,
                                              uint32_t tile_off)
{
    __shared__ __align__(128) unsigned char tile[256];
    __shared__ cg_mbarrier_t bar;
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_fence_proxy_async_smem();
        (void)cg_mbarrier_arrive_tx(&bar, 64);
        cg_tensor_load_2d(tile + tile_off, &map, x, 0, &bar);
        cg_mbarrier_wait_parity(&bar, 0);
    }
}

extern "C" int ctrd_tensor_odd_x(const cg_tensor_map_t *map)
{
    ctrd_tensor_kernel<<<1, 32>>>(*map, 3, 0);
    return (int)cudaGetLastError();
}

extern "C" int ctrd_tensor_misaligned_tile(const cg_tensor_map_t *map)
{
    ctrd_tensor_kernel<<<1, 32>>>(*map, 0, 16);
    return (int)cudaGetLastError();
}
