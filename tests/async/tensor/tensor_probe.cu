/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/tensor/tensor_probe.cu — one probe kernel per async/tensor.h call,
 * compiled to PTX (tensor_probe.ptx) for tensor_ptx_test.c. */
#include "async/tensor.h"

/* A 1 KiB-aligned shared tile and an mbarrier for the probes that load. */
#define TILE_                                        \
    __shared__ alignas(1024) unsigned char tile[1024]; \
    __shared__ cg_mbarrier_t bar

extern "C" __global__ void tnsp_load_1d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_1d(tile, &m, c[0], &bar);
}
extern "C" __global__ void tnsp_load_multicast_1d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_multicast_1d(tile, &m, c[0], &bar, (uint16_t)c[5]);
}
extern "C" __global__ void tnsp_store_1d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    __shared__ alignas(1024) unsigned char tile[1024];
    cg_tensor_store_1d(&m, c[0], tile);
}
extern "C" __global__ void tnsp_prefetch_1d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    cg_tensor_prefetch_1d(&m, c[0]);
}

extern "C" __global__ void tnsp_load_2d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_2d(tile, &m, c[0], c[1], &bar);
}
extern "C" __global__ void tnsp_load_multicast_2d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_multicast_2d(tile, &m, c[0], c[1], &bar, (uint16_t)c[5]);
}
extern "C" __global__ void tnsp_store_2d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    __shared__ alignas(1024) unsigned char tile[1024];
    cg_tensor_store_2d(&m, c[0], c[1], tile);
}
extern "C" __global__ void tnsp_prefetch_2d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    cg_tensor_prefetch_2d(&m, c[0], c[1]);
}

extern "C" __global__ void tnsp_load_3d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_3d(tile, &m, c[0], c[1], c[2], &bar);
}
extern "C" __global__ void tnsp_load_multicast_3d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_multicast_3d(tile, &m, c[0], c[1], c[2], &bar, (uint16_t)c[5]);
}
extern "C" __global__ void tnsp_store_3d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    __shared__ alignas(1024) unsigned char tile[1024];
    cg_tensor_store_3d(&m, c[0], c[1], c[2], tile);
}
extern "C" __global__ void tnsp_prefetch_3d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    cg_tensor_prefetch_3d(&m, c[0], c[1], c[2]);
}

extern "C" __global__ void tnsp_load_4d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_4d(tile, &m, c[0], c[1], c[2], c[3], &bar);
}
extern "C" __global__ void tnsp_load_multicast_4d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_multicast_4d(tile, &m, c[0], c[1], c[2], c[3], &bar, (uint16_t)c[5]);
}
extern "C" __global__ void tnsp_store_4d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    __shared__ alignas(1024) unsigned char tile[1024];
    cg_tensor_store_4d(&m, c[0], c[1], c[2], c[3], tile);
}
extern "C" __global__ void tnsp_prefetch_4d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    cg_tensor_prefetch_4d(&m, c[0], c[1], c[2], c[3]);
}

extern "C" __global__ void tnsp_load_5d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_5d(tile, &m, c[0], c[1], c[2], c[3], c[4], &bar);
}
extern "C" __global__ void tnsp_load_multicast_5d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    TILE_;
    cg_tensor_load_multicast_5d(tile, &m, c[0], c[1], c[2], c[3], c[4], &bar, (uint16_t)c[5]);
}
extern "C" __global__ void tnsp_store_5d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    __shared__ alignas(1024) unsigned char tile[1024];
    cg_tensor_store_5d(&m, c[0], c[1], c[2], c[3], c[4], tile);
}
extern "C" __global__ void tnsp_prefetch_5d(const __grid_constant__ cg_tensor_map_t m, const int32_t *c)
{
    cg_tensor_prefetch_5d(&m, c[0], c[1], c[2], c[3], c[4]);
}

extern "C" __global__ void tnsp_map_prefetch(const __grid_constant__ cg_tensor_map_t m) { cg_tensor_map_prefetch(&m); }
extern "C" __global__ void tnsp_map_fence_acquire(const cg_tensor_map_t *m) { cg_tensor_map_fence_acquire(m); }
extern "C" __global__ void tnsp_map_fence_release(void) { cg_tensor_map_fence_release(); }
extern "C" __global__ void tnsp_load_generic(const __grid_constant__ cg_tensor_map_t m, const int32_t *c, uint32_t rank)
{
    TILE_;
    cg_tensor_load(tile, &m, rank, c, &bar);
}
