/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/tensor_transpose.cu — a 2-D tiled transpose with tensor TMA: each
 * block loads a 32 x 32 tile with cg_tensor_load_2d (128-byte swizzle, so
 * reading it by column hits 32 different banks), transposes it into a second
 * shared tile, and writes that with one bulk tensor store, cg_tensor_store_2d.
 * The matrix is not a multiple of the tile: edge tiles load zeros beyond the
 * matrix, and the store skips what lies outside the output.
 * C++ (CUTLASS / cuda::ptx) -> cgc:
 *   cuTensorMapEncodeTiled(&map, ...)                  -> cg_tensor_map_encode(&map, &desc)
 *   cp_async_bulk_tensor(space_cluster, space_global, smem, &map, {x, y}, bar)
 *                                                      -> cg_tensor_load_2d(smem, &map, x, y, &bar)
 *   cp_async_bulk_tensor(space_global, space_shared, &map, {x, y}, smem)
 *                                                      -> cg_tensor_store_2d(&map, x, y, smem)
 *   cp_async_bulk_commit_group(); cp_async_bulk_wait_group<0>()
 *                                                      -> cg_bulk_commit_group(); cg_bulk_wait_group(0)
 */
#include <cuda_runtime.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

#define TT_TILE 32 /* 32 floats = 128 bytes: one swizzle span per tile row */

/* Byte offset of element (row, col) of a 32 x 32 float tile loaded with
 * 128-byte swizzle: the 16-byte chunk index within the row is XORed with the
 * row number modulo 8 (async/tensor.h). */
__device__ __forceinline__ uint32_t tt_swizzled(uint32_t row, uint32_t col)
{
    return row * 128u + ((((col * 4u) >> 4) ^ (row % 8u)) << 4) + (col * 4u) % 16u;
}

__global__ void tensor_transpose_kernel(const __grid_constant__ cg_tensor_map_t in_map,
                                        const __grid_constant__ cg_tensor_map_t out_map)
{
    extern __shared__ unsigned char raw[];
    __shared__ cg_mbarrier_t bar;
    /* The swizzle pattern repeats every 1024 bytes: align the tile to that. */
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(raw);
    unsigned char *tin = raw + ((1024u - base % 1024u) % 1024u);
    float *tout = (float *)(tin + TT_TILE * TT_TILE * sizeof(float));
    const int x0 = blockIdx.x * TT_TILE, y0 = blockIdx.y * TT_TILE;

    if (threadIdx.x == 0) {
        cg_mbarrier_init(&bar, 1);
        cg_fence_proxy_async_smem(); /* the init is visible to the engine's complete_tx */
        /* Expect the whole box (zeros beyond the edge count too), then load. */
        (void)cg_mbarrier_arrive_tx(&bar, TT_TILE * TT_TILE * sizeof(float));
        cg_tensor_load_2d(tin, &in_map, x0, y0, &bar);
    }
    __syncthreads(); /* the barrier is initialized before anyone waits on it */
    cg_mbarrier_wait_parity(&bar, 0);

    /* tout[c][r] = tin[r][c]: consecutive threads read down a column of tin
     * (conflict-free thanks to the swizzle) and write along a row of tout. */
    for (uint32_t i = threadIdx.x; i < TT_TILE * TT_TILE; i += blockDim.x) {
        const uint32_t r = i % TT_TILE, c = i / TT_TILE;
        tout[c * TT_TILE + r] = *(const float *)(tin + tt_swizzled(r, c));
    }
    cg_fence_proxy_async_smem(); /* every writer: its tout writes before the engine reads them */
    __syncthreads();
    if (threadIdx.x == 0) {
        cg_tensor_store_2d(&out_map, y0, x0, tout); /* output is W rows of H: coordinates swap */
        cg_bulk_commit_group();
        cg_bulk_wait_group(0); /* written before the block exits */
    }
}

/* A 2-D float map over `base` (cols x rows, packed) with 32 x 32 boxes. */
static cg_status_t tt_map(cg_tensor_map_t *map, float *base, uint64_t cols, uint64_t rows, cg_tensor_swizzle_t sw)
{
    cg_tensor_map_desc_t d = CG_TENSOR_MAP_DESC_INIT;
    d.dtype = CG_TENSOR_F32;
    d.rank = 2;
    d.global_address = base;
    d.shape[0] = cols;
    d.shape[1] = rows;
    d.box[0] = TT_TILE;
    d.box[1] = TT_TILE;
    d.swizzle = sw;
    return cg_tensor_map_encode(map, &d);
}

extern "C" int cgx_tensor_transpose(char *detail, size_t detail_len)
{
    int rc = cgx_require_sm90("tensor TMA copies", detail, detail_len);
    if (rc != 0)
        return rc;
    srand((unsigned)time(NULL) ^ 0x7e45u); /* fresh inputs each run */
    const int H = 1000 + (rand() % 8) * 4, W = 1500 + (rand() % 8) * 4; /* not multiples of 32 */
    const size_t n = (size_t)H * W;
    float *in = (float *)malloc(n * sizeof(float)), *out = (float *)malloc(n * sizeof(float));
    float *din = NULL, *dout = NULL;
    cg_tensor_map_t in_map, out_map;
    cg_status_t st;
    size_t bad = 0;
    const size_t smem = 2 * TT_TILE * TT_TILE * sizeof(float) + 1024;
    for (size_t i = 0; i < n; ++i)
        in[i] = (float)(rand() % 2000001 - 1000000) / 7.0f;
    CGX_CUDA(cudaMalloc((void **)&din, n * sizeof(float)));
    CGX_CUDA(cudaMalloc((void **)&dout, n * sizeof(float)));
    CGX_CUDA(cudaMemcpy(din, in, n * sizeof(float), cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemset(dout, 0xff, n * sizeof(float))); /* poison: NaN everywhere */
    if ((st = tt_map(&in_map, din, (uint64_t)W, (uint64_t)H, CG_TENSOR_SWIZZLE_128B)) != CG_SUCCESS ||
        (st = tt_map(&out_map, dout, (uint64_t)H, (uint64_t)W, CG_TENSOR_SWIZZLE_NONE)) != CG_SUCCESS) {
        snprintf(detail, detail_len, "cg_tensor_map_encode: %s (%s)", cg_status_name(st), cg_last_error_detail());
        rc = 2;
        goto done;
    }
    CGX_CUDA(cudaFuncSetAttribute((const void *)tensor_transpose_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  (int)smem));
    tensor_transpose_kernel<<<dim3((W + TT_TILE - 1) / TT_TILE, (H + TT_TILE - 1) / TT_TILE), 256, smem>>>(in_map,
                                                                                                       out_map);
    CGX_CUDA(cudaGetLastError());
    CGX_CUDA(cudaDeviceSynchronize());
    CGX_CUDA(cudaMemcpy(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    /* out is W rows of H: out[x][y] = in[y][x], every element. */
    for (int x = 0; x < W; ++x)
        for (int y = 0; y < H; ++y)
            if (memcmp(&out[(size_t)x * H + y], &in[(size_t)y * W + x], sizeof(float)) != 0 && bad++ == 0)
                snprintf(detail, detail_len, "out[%d][%d] = %g, want in[%d][%d] = %g", x, y,
                         (double)out[(size_t)x * H + y], y, x, (double)in[(size_t)y * W + x]);
    if (bad) {
        size_t len = strlen(detail);
        snprintf(detail + len, detail_len - len, " (%zu of %zu elements wrong)", bad, n);
        rc = 1;
    } else {
        snprintf(detail, detail_len, "%d x %d floats transposed in 32 x 32 tiles (edge tiles partial), all %zu "
                 "elements checked",
                 H, W, n);
    }
done:
    cudaFree(din);
    cudaFree(dout);
    free(in);
    free(out);
    return rc;
}

CGX_MAIN(cgx_tensor_transpose)
