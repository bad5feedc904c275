/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/pipeline_multicast.cu — a tile loaded once, shared by a whole
 * cluster: the sliced cluster form of cg_pipeline_t (multicast) against the
 * same kernel where every CTA loads the tile itself.
 *
 * 64 MiB of random words in 16 KiB tiles; in clusters of 4, CTA r computes
 * for each tile t of its cluster out[t][r] = sum_j tile_t[j] * w_r[j] (mod
 * 2^32) with its own weights (examples/pipeline_project.cuh). With multicast
 * each of the four CTAs reads a quarter of each tile from global memory and
 * the copy engine writes that quarter into all four CTAs, so the tile is read
 * once per cluster by four copy streams; the twin reads it four times. Both results are checked
 * element by element against the host; the summary gives each kernel's time
 * and the global bytes each reads per cluster, divided by the cluster size.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"
#include "pipeline_project.cuh"

#define PM_CLUSTER 4u

__global__ void __launch_bounds__(PJ_THREADS) pipeline_multicast_kernel(const uint32_t *in, size_t ntiles,
                                                                        uint32_t *out, unsigned long long *acc)
{
    pj_project(in, ntiles, out, acc, PJ_SLICED);
}

__global__ void __launch_bounds__(PJ_THREADS) pipeline_local_kernel(const uint32_t *in, size_t ntiles,
                                                                    uint32_t *out, unsigned long long *acc)
{
    pj_project(in, ntiles, out, acc, PJ_TWIN);
}

/* Launch one of the two kernels (same grid, same clusters), time it, copy
 * its output back. Returns 0, or 2 with `detail` set. */
static int run_one(const void *kernel, const uint32_t *din, size_t ntiles, uint32_t *dout, unsigned long long *dacc,
                   unsigned grid, uint32_t *hout, float *ms, char *detail, size_t detail_len)
{
    int rc = 0;
    cudaEvent_t e0 = NULL, e1 = NULL;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = grid;
    cfg.block.x = PJ_THREADS;
    cfg.cluster.x = PM_CLUSTER;
    cfg.dynamic_smem = PJ_SMEM_BYTES;
    void *args[] = {(void *)&din, (void *)&ntiles, (void *)&dout, (void *)&dacc};
    cg_status_t st;
    CGX_CUDA(cudaMemset(dout, 0, ntiles * PM_CLUSTER * 4u));
    CGX_CUDA(cudaMemset(dacc, 0, (size_t)grid * 8u));
    CGX_CUDA(cudaEventCreate(&e0));
    CGX_CUDA(cudaEventCreate(&e1));
    CGX_CUDA(cudaEventRecord(e0));
    st = cg_launch(&cfg, kernel, args);
    if (st != CG_SUCCESS) {
        snprintf(detail, detail_len, "cg_launch: %s: %s", cg_status_string(st), cg_last_error_detail());
        rc = 2;
        goto done;
    }
    CGX_CUDA(cudaEventRecord(e1));
    CGX_CUDA(cudaDeviceSynchronize());
    CGX_CUDA(cudaEventElapsedTime(ms, e0, e1));
    CGX_CUDA(cudaMemcpy(hout, dout, ntiles * PM_CLUSTER * 4u, cudaMemcpyDeviceToHost));
done:
    if (e0)
        cudaEventDestroy(e0);
    if (e1)
        cudaEventDestroy(e1);
    return rc;
}

/* Every output against the host's; 0 when all match, else 1 with detail. */
static int check(const char *which, const uint32_t *got, const uint32_t *want, size_t n, char *detail,
                 size_t detail_len)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < n; ++i)
        if (got[i] != want[i] && bad++ == 0)
            first = i;
    if (bad == 0)
        return 0;
    snprintf(detail, detail_len, "%s: %zu of %zu outputs wrong (first: tile %zu, rank %zu = 0x%08x, want 0x%08x)",
             which, bad, n, first / PM_CLUSTER, first % PM_CLUSTER, got[first], want[first]);
    return 1;
}

extern "C" int cgx_pipeline_multicast(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("clusters and multicast bulk copies", detail, detail_len) != 0)
        return 2;
    const size_t bytes = (size_t)64 << 20, n = bytes / 4u, ntiles = bytes / PJ_TILE_BYTES;
    uint32_t *hin = (uint32_t *)malloc(bytes), *want = (uint32_t *)calloc(ntiles * PM_CLUSTER, 4),
             *got = (uint32_t *)malloc(ntiles * PM_CLUSTER * 4);
    uint32_t *wt = (uint32_t *)malloc((size_t)PM_CLUSTER * PJ_TILE_WORDS * 4);
    uint32_t *din = NULL, *dout = NULL;
    unsigned long long *dacc = NULL;
    int rc = 2, sms = 0;
    unsigned grid = 0;
    float ms_mc = 0.f, ms_local = 0.f;
    uint64_t x = (uint64_t)time(NULL) * 0x2545f4914f6cdd1dull | 1u;
    if (!hin || !want || !got || !wt) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    for (size_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        hin[i] = (uint32_t)(x >> 32);
    }
    for (uint32_t r = 0; r < PM_CLUSTER; ++r)
        for (uint32_t j = 0; j < PJ_TILE_WORDS; ++j)
            wt[r * PJ_TILE_WORDS + j] = pj_weight(r, j);
    for (size_t t = 0; t < ntiles; ++t)
        for (uint32_t r = 0; r < PM_CLUSTER; ++r) {
            uint32_t s = 0;
            const uint32_t *tile = hin + t * PJ_TILE_WORDS, *wr = wt + r * PJ_TILE_WORDS;
            for (uint32_t j = 0; j < PJ_TILE_WORDS; ++j)
                s += tile[j] * wr[j];
            want[t * PM_CLUSTER + r] = s;
        }
    CGX_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    grid = (unsigned)sms / PM_CLUSTER * PM_CLUSTER;
    CGX_CUDA(cudaMalloc((void **)&din, bytes));
    CGX_CUDA(cudaMalloc((void **)&dout, ntiles * PM_CLUSTER * 4u));
    CGX_CUDA(cudaMalloc((void **)&dacc, (size_t)grid * 8u));
    CGX_CUDA(cudaMemcpy(din, hin, bytes, cudaMemcpyHostToDevice));

    if ((rc = run_one((const void *)pipeline_multicast_kernel, din, ntiles, dout, dacc, grid, got, &ms_mc, detail,
                      detail_len)) != 0)
        goto done;
    if ((rc = check("multicast", got, want, ntiles * PM_CLUSTER, detail, detail_len)) != 0)
        goto done;
    if ((rc = run_one((const void *)pipeline_local_kernel, din, ntiles, dout, dacc, grid, got, &ms_local, detail,
                      detail_len)) != 0)
        goto done;
    if ((rc = check("without multicast", got, want, ntiles * PM_CLUSTER, detail, detail_len)) != 0)
        goto done;
    {
        const size_t per_cluster = bytes / (grid / PM_CLUSTER); /* the tiles one cluster takes */
        snprintf(detail, detail_len,
                 "%zu tiles of 16 KiB, %u clusters of %u, each CTA its own weights: all %zu outputs match the host "
                 "with and without multicast; global bytes read per cluster / %u: %zu KiB with sliced multicast (each "
                 "CTA loads 1/%u of each tile for all), %zu KiB without; %.2f ms vs %.2f ms (first launch of each)",
                 ntiles, grid / PM_CLUSTER, PM_CLUSTER, ntiles * PM_CLUSTER, PM_CLUSTER,
                 (per_cluster / PM_CLUSTER) >> 10, PM_CLUSTER, per_cluster >> 10, ms_mc, ms_local);
    }
    rc = 0;
done:
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dacc);
    free(hin);
    free(want);
    free(got);
    free(wt);
    return rc;
}

CGX_MAIN(cgx_pipeline_multicast)
