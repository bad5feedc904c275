/*
 * tests/tensor/tensor_kernels.cu — kernels and extern "C" launchers for
 * tensor_test.c. Launchers return a cudaError_t as int (or
 * CGT_CLUSTER_DOES_NOT_FIT). Each box lives at a 1024-byte aligned
 * shared-memory address, so every swizzle pattern starts at its origin.
 */
#include <cuda_runtime.h>

#include "async/tensor.h"
#include "barrier/mbarrier.h"
#include "cg/groups.h"
#include "tests/dsmem/cluster_launch.cuh"

/* The first 1024-byte aligned address at or after p (shared memory). */
static __device__ __forceinline__ unsigned char *tnt_align1024(unsigned char *p)
{
    const uint32_t a = cg_smem_addr(p);
    return p + ((1024u - (a & 1023u)) & 1023u);
}

/* A load of the box at c[0 .. rank-1] into box, completing on mb. */
static __device__ __forceinline__ void tnt_load_box(unsigned char *box, const cg_tensor_map_t *map, uint32_t rank,
                                                    const int32_t *c, cg_mbarrier_t *mb)
{
    switch (rank) {
    case 1:
        cg_tensor_load_1d(box, map, c[0], mb);
        break;
    case 2:
        cg_tensor_load_2d(box, map, c[0], c[1], mb);
        break;
    case 3:
        cg_tensor_load_3d(box, map, c[0], c[1], c[2], mb);
        break;
    case 4:
        cg_tensor_load_4d(box, map, c[0], c[1], c[2], c[3], mb);
        break;
    default:
        cg_tensor_load_5d(box, map, c[0], c[1], c[2], c[3], c[4], mb);
        break;
    }
}

static __device__ __forceinline__ void tnt_store_box(const cg_tensor_map_t *map, uint32_t rank, const int32_t *c,
                                                     const unsigned char *box)
{
    switch (rank) {
    case 1:
        cg_tensor_store_1d(map, c[0], box);
        break;
    case 2:
        cg_tensor_store_2d(map, c[0], c[1], box);
        break;
    case 3:
        cg_tensor_store_3d(map, c[0], c[1], c[2], box);
        break;
    case 4:
        cg_tensor_store_4d(map, c[0], c[1], c[2], c[3], box);
        break;
    default:
        cg_tensor_store_5d(map, c[0], c[1], c[2], c[3], c[4], box);
        break;
    }
}

// --- loads ---------------------------------------------------------------------------------

/* For each of nboxes boxes (coords[5k ..]): poison the box in shared memory,
 * thread 0 expects box_bytes and loads the box (a prefetch of the map and of
 * the box first, for coverage), everyone waits for phase k and dumps the
 * raw shared-memory bytes to out[k]. */
extern "C" __global__ void tnt_load_kernel(const __grid_constant__ cg_tensor_map_t map, uint32_t rank,
                                           const int32_t *coords, uint32_t nboxes, uint32_t box_bytes,
                                           unsigned char *out)
{
    extern __shared__ unsigned char tnt_raw[];
    __shared__ cg_mbarrier_t mb;
    unsigned char *box = tnt_align1024(tnt_raw);
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&mb, 1);
        cg_tensor_map_prefetch(&map);
    }
    for (uint32_t k = 0; k < nboxes; ++k) {
        for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
            box[i] = 0xA5;
        cg_fence_proxy_async_smem(); /* the poison (generic) before the engine's writes */
        __syncthreads();
        if (threadIdx.x == 0) {
            const int32_t *c = coords + 5u * k;
            if (rank == 2)
                cg_tensor_prefetch_2d(&map, c[0], c[1]);
            (void)cg_mbarrier_arrive_tx(&mb, box_bytes);
            tnt_load_box(box, &map, rank, c, &mb);
        }
        cg_mbarrier_wait_parity(&mb, k & 1u);
        for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
            out[(size_t)k * box_bytes + i] = box[i];
        __syncthreads(); /* every read done before the next poison */
    }
}

static cudaError_t tnt_smem_optin(const void *fn, size_t smem)
{
    return smem > 48u * 1024u ? cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem)
                              : cudaSuccess;
}

extern "C" int tnt_load(const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords, uint32_t nboxes,
                        uint32_t box_bytes, void *out)
{
    const size_t smem = (size_t)box_bytes + 1024u;
    cudaError_t err = tnt_smem_optin((const void *)tnt_load_kernel, smem);
    if (err != cudaSuccess)
        return (int)err;
    tnt_load_kernel<<<1, 256, smem>>>(*map, rank, coords, nboxes, box_bytes, (unsigned char *)out);
    return (int)cudaGetLastError();
}

// --- stores --------------------------------------------------------------------------------

/* The block writes `image` into its shared-memory box (generic stores, each
 * writer fences the proxy), syncs; thread 0 stores the box to the tensor at
 * coords and waits for the writes. */
extern "C" __global__ void tnt_store_kernel(const __grid_constant__ cg_tensor_map_t map, uint32_t rank,
                                            const int32_t *coords, uint32_t box_bytes, const unsigned char *image)
{
    extern __shared__ unsigned char tnt_raw[];
    unsigned char *box = tnt_align1024(tnt_raw);
    for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
        box[i] = image[i];
    cg_fence_proxy_async_smem();
    __syncthreads();
    if (threadIdx.x == 0) {
        tnt_store_box(&map, rank, coords, box);
        cg_bulk_commit_group();
        cg_bulk_wait_group(0);
    }
}

extern "C" int tnt_store(const cg_tensor_map_t *map, uint32_t rank, const int32_t *coords, uint32_t box_bytes,
                         const void *image)
{
    const size_t smem = (size_t)box_bytes + 1024u;
    cudaError_t err = tnt_smem_optin((const void *)tnt_store_kernel, smem);
    if (err != cudaSuccess)
        return (int)err;
    tnt_store_kernel<<<1, 256, smem>>>(*map, rank, coords, box_bytes, (const unsigned char *)image);
    return (int)cudaGetLastError();
}

// --- multicast -----------------------------------------------------------------------------

/* Rank 0 of each cluster loads one 2-D box (coords[0..1]) once, multicast to
 * every CTA of the cluster; each CTA expects the box's bytes on its own
 * barrier, waits (cluster-scope acquire: the write came through another
 * CTA's copy) and dumps its copy to out[blockIdx.x]. */
extern "C" __global__ void tnt_multicast_kernel(const __grid_constant__ cg_tensor_map_t map, const int32_t *coords,
                                                uint32_t box_bytes, unsigned char *out)
{
    extern __shared__ unsigned char tnt_raw[];
    __shared__ cg_mbarrier_t mb;
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t n = cg_cluster_num_blocks(&cl), r = cg_cluster_block_rank(&cl);
    unsigned char *box = tnt_align1024(tnt_raw);
    for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
        box[i] = 0xA5;
    cg_fence_proxy_async_smem();
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&mb, 1);
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl); /* every CTA's barrier and box ready */
    if (threadIdx.x == 0) {
        (void)cg_mbarrier_arrive_tx_cluster(&mb, box_bytes);
        if (r == 0)
            cg_tensor_load_2d_multicast(box, &map, coords[0], coords[1], &mb, (uint16_t)((1u << n) - 1u));
    }
    cg_mbarrier_wait_parity_cluster(&mb, 0);
    for (uint32_t i = threadIdx.x; i < box_bytes; i += blockDim.x)
        out[(size_t)blockIdx.x * box_bytes + i] = box[i];
    cg_cluster_sync(&cl); /* no CTA leaves while the multicast may still write into another */
}

extern "C" int tnt_multicast(const cg_tensor_map_t *map, int csize, const int32_t *coords, uint32_t box_bytes,
                             void *out)
{
    cg_tensor_map_t m = *map;
    void *args[] = {(void *)&m, (void *)&coords, (void *)&box_bytes, (void *)&out};
    return cgt_launch_cluster((const void *)tnt_multicast_kernel, (unsigned)csize, (unsigned)csize, 128u,
                              (size_t)box_bytes + 1024u, args);
}
