/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/tensor.cu — the tensor-TMA row: one kernel that walks 64 x 64 tiles
 * of a 2048 x 2048 u32 matrix and reduces each, loading the tile with
 * cg_tensor_load_2d (one thread, completes on an mbarrier) against the same
 * kernel loading it with plain int4 loads. Both kernels' results (a weighted
 * sum per block, so a misplaced element shows) are checked against a host
 * reference after the row: a wrong one makes the row WRONG (exit 3).
 *
 * The map lives in a __device__ variable (the row launcher passes only
 * bench_args_t): bench_tensor_prepare encodes it and copies it there before
 * the row's launches; the kernel takes the tensormap acquire fence first.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "async/tensor.h"
#include "async/tensor_map.h"
#include "barrier/mbarrier.h"
#include "base/fence.h"
#include "bench/bench.h"
#include "bench/bench_device.h"

#define BT_W 2048u /* matrix columns (u32) */
#define BT_H 2048u /* matrix rows */
#define BT_T 64u   /* tile edge: 64 u32 = 256-byte rows, 16 KiB tiles */
#define BT_TX (BT_W / BT_T)
#define BT_TILES (BT_TX * (BT_H / BT_T))
#define BT_MAX_BLOCKS 4096u

__device__ cg_tensor_map_t bench_tensor_map_;
__device__ unsigned long long bench_tensor_result_[2][BT_MAX_BLOCKS]; /* [0] TMA kernel, [1] plain kernel */
__device__ unsigned bench_tensor_misaligned_;

/* Tile of iteration i of this block: the copy rows' walk (bench_tile_src). */
static __device__ __forceinline__ uint32_t bt_tile_index(long long i)
{
    return (uint32_t)(((unsigned long long)i * gridDim.x + blockIdx.x) % BT_TILES);
}

/* The weighted sum of a tile: element e (row-major in the tile) times 2e+1. */
static __device__ __forceinline__ unsigned long long bt_consume(const uint32_t *tile, unsigned long long sum)
{
    for (uint32_t e = threadIdx.x; e < BT_T * BT_T; e += blockDim.x)
        sum += (unsigned long long)tile[e] * (2ull * e + 1ull);
    return sum;
}

/* The block's total, kept only for launches that did work (the timing loop
 * ends with 0-iteration launches). */
static __device__ __forceinline__ void bt_publish(const bench_args_t *a, int which, unsigned long long sum,
                                                  unsigned long long *total)
{
    if (a->iters > 0) {
        atomicAdd(total, sum);
        __syncthreads();
        if (threadIdx.x == 0 && blockIdx.x < BT_MAX_BLOCKS)
            bench_tensor_result_[which][blockIdx.x] = *total;
    }
    bench_sink(a, sum);
}

__global__ void __launch_bounds__(1024) kt_tile_tma(bench_args_t a)
{
    extern __shared__ __align__(128) uint32_t bt_tile[];
    __shared__ cg_mbarrier_t mbar;
    __shared__ unsigned long long total;
    if (threadIdx.x == 0) {
        if ((uint32_t)__cvta_generic_to_shared(bt_tile) % 128u != 0)
            atomicExch(&bench_tensor_misaligned_, 1u);
        total = 0;
        cg_mbarrier_init(&mbar, 1);
        cg_fence_proxy_async_smem();
        cg_tensor_map_fence_acquire(&bench_tensor_map_); /* written by the host through cudaMemcpyToSymbol */
        cg_tensor_map_prefetch(&bench_tensor_map_);
    }
    __syncthreads();
    unsigned long long sum = 0;
    for (long long i = 0; i < a.iters; ++i) {
        if (threadIdx.x == 0) {
            const uint32_t t = bt_tile_index(i);
            cg_fence_proxy_async_smem(); /* the previous tile's reads (ordered by the sync) before the overwrite */
            (void)cg_mbarrier_arrive_tx(&mbar, BT_T * BT_T * 4u);
            cg_tensor_load_2d(bt_tile, &bench_tensor_map_, (int32_t)((t % BT_TX) * BT_T), (int32_t)((t / BT_TX) * BT_T),
                              &mbar);
        }
        cg_mbarrier_wait_parity(&mbar, (uint32_t)(i & 1));
        sum = bt_consume(bt_tile, sum);
        __syncthreads();
    }
    bt_publish(&a, 0, sum, &total);
}
BENCH_EXPORT(c_tensor_tile_tma, kt_tile_tma)

__global__ void __launch_bounds__(1024) kt_tile_plain(bench_args_t a)
{
    extern __shared__ __align__(128) uint32_t bt_tile[];
    __shared__ unsigned long long total;
    if (threadIdx.x == 0)
        total = 0;
    __syncthreads();
    const uint4 *src = (const uint4 *)a.src;
    uint4 *tile4 = (uint4 *)bt_tile;
    unsigned long long sum = 0;
    for (long long i = 0; i < a.iters; ++i) {
        const uint32_t t = bt_tile_index(i), x0 = (t % BT_TX) * BT_T, y0 = (t / BT_TX) * BT_T;
        for (uint32_t v = threadIdx.x; v < BT_T * BT_T / 4u; v += blockDim.x) {
            const uint32_t r = v / (BT_T / 4u), c4 = v % (BT_T / 4u);
            tile4[v] = src[((size_t)(y0 + r) * BT_W + x0) / 4u + c4];
        }
        __syncthreads();
        sum = bt_consume(bt_tile, sum);
        __syncthreads();
    }
    bt_publish(&a, 1, sum, &total);
}
BENCH_EXPORT(a_tensor_tile_plain, kt_tile_plain)

// --- host: the matrix, the map, the check ------------------------------------------------

static uint32_t *bt_dev;                 /* the matrix on the device */
static unsigned long long *bt_tile_sums; /* host reference: each tile's weighted sum */

extern "C" int bench_tensor_prepare(bench_args_t *a, char *note, size_t n)
{
    if (bt_dev == NULL) {
        const size_t count = (size_t)BT_W * BT_H;
        uint32_t *host = (uint32_t *)malloc(count * sizeof(uint32_t));
        bt_tile_sums = (unsigned long long *)calloc(BT_TILES, sizeof(unsigned long long));
        if (host == NULL || bt_tile_sums == NULL) {
            snprintf(note, n, "host allocation failed");
            free(host);
            return 1;
        }
        srand((unsigned)time(NULL) ^ 0x7e45u);
        for (size_t k = 0; k < count; ++k)
            host[k] = ((uint32_t)rand() << 16) ^ (uint32_t)rand();
        for (uint32_t t = 0; t < BT_TILES; ++t) {
            const uint32_t x0 = (t % BT_TX) * BT_T, y0 = (t / BT_TX) * BT_T;
            unsigned long long s = 0;
            for (uint32_t e = 0; e < BT_T * BT_T; ++e)
                s += (unsigned long long)host[(size_t)(y0 + e / BT_T) * BT_W + x0 + e % BT_T] * (2ull * e + 1ull);
            bt_tile_sums[t] = s;
        }
        cudaError_t err = cudaMalloc((void **)&bt_dev, count * sizeof(uint32_t));
        if (err == cudaSuccess)
            err = cudaMemcpy(bt_dev, host, count * sizeof(uint32_t), cudaMemcpyHostToDevice);
        free(host);
        if (err != cudaSuccess) {
            snprintf(note, n, "matrix: %s", cudaGetErrorString(err));
            bt_dev = NULL;
            return 1;
        }
        cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
        d.dtype = CG_TENSOR_U32;
        d.rank = 2;
        d.global_address = bt_dev;
        d.shape[0] = BT_W;
        d.shape[1] = BT_H;
        d.box[0] = BT_T;
        d.box[1] = BT_T;
        d.l2_promotion = CG_TENSOR_L2_256B;
        cg_tensor_map_t map;
        const cg_status_t st = cg_tensor_map_encode(&map, &d);
        if (st != CG_SUCCESS) {
            snprintf(note, n, "cg_tensor_map_encode: %s (%s)", cg_status_name(st), cg_last_error_detail());
            return 1;
        }
        if ((err = cudaMemcpyToSymbol(bench_tensor_map_, &map, sizeof map)) != cudaSuccess) {
            snprintf(note, n, "map: %s", cudaGetErrorString(err));
            return 1;
        }
    }
    /* Poison the results so a kernel that never wrote cannot pass. */
    static unsigned long long poison[2][BT_MAX_BLOCKS];
    memset(poison, 0xA5, sizeof poison);
    const unsigned zero = 0;
    cudaError_t err = cudaMemcpyToSymbol(bench_tensor_result_, poison, sizeof poison);
    if (err == cudaSuccess)
        err = cudaMemcpyToSymbol(bench_tensor_misaligned_, &zero, sizeof zero);
    if (err != cudaSuccess) {
        snprintf(note, n, "results: %s", cudaGetErrorString(err));
        return 1;
    }
    a->src = (const int4 *)bt_dev;
    a->ntiles = BT_TILES;
    a->tile_bytes = BT_T * BT_T * 4u;
    return 0;
}

extern "C" int bench_tensor_verify(const bench_args_t *a, unsigned grid, char *note, size_t n)
{
    static unsigned long long got[2][BT_MAX_BLOCKS];
    unsigned mis = 0;
    if (grid > BT_MAX_BLOCKS) {
        snprintf(note, n, ", check: grid of %u blocks exceeds %u", grid, BT_MAX_BLOCKS);
        return 1;
    }
    if (cudaMemcpyFromSymbol(got, bench_tensor_result_, sizeof got) != cudaSuccess ||
        cudaMemcpyFromSymbol(&mis, bench_tensor_misaligned_, sizeof mis) != cudaSuccess) {
        snprintf(note, n, ", check: results could not be read");
        return 1;
    }
    if (mis) {
        snprintf(note, n, ", check: the TMA tile was not 128-byte aligned");
        return 1;
    }
    for (unsigned b = 0; b < grid; ++b) {
        unsigned long long want = 0;
        for (long long i = 0; i < a->iters; ++i)
            want += bt_tile_sums[((unsigned long long)i * grid + b) % BT_TILES];
        for (int k = 0; k < 2; ++k)
            if (got[k][b] != want) {
                snprintf(note, n, ", check: %s kernel block %u sum 0x%llx, want 0x%llx",
                         k == 0 ? "cg_tensor_load_2d" : "plain-load", b, got[k][b], want);
                return 1;
            }
    }
    snprintf(note, n, ", checked: %u blocks x 2 kernels", grid);
    return 0;
}
