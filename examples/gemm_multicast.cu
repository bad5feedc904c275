/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/gemm_multicast.cu — a bf16 GEMM (fp32 accumulate, fp32 C) whose
 * main loop is fed by cgc's cluster pipeline with tensor TMA multicast: in a
 * 2 x 2 cluster of CTAs, the two CTAs of a cluster row share each A tile and
 * the two of a column each B tile, so each CTA loads half of its A and half
 * of its B tile and multicasts them (examples/gemm_multicast.cuh).
 *
 * Runs C = A * B on random inputs (multiples of 1/256 in [-1, 1), exact in
 * bf16) with the multicast kernel in 2 x 2 and 1 x 2 clusters and with its
 * twin (every CTA loads its own tiles), and checks every element of each C
 * against a host reference (double sums; tolerance 1e-3 * (|ref| + sqrt(K)):
 * the kernels sum bf16 products in fp32 in a different order, while a wrong
 * tile, box or swizzle moves an element by about |ref|). Only a few
 * clusters are launched, so each CTA walks several tiles and the pipeline
 * wraps many times.
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"
#include "gemm_multicast.cuh"

__global__ void __launch_bounds__(GM_THREADS, 1)
    gemm_multicast_kernel(const __grid_constant__ cg_tensor_map_t map_a, const __grid_constant__ cg_tensor_map_t map_b,
                          gm_problem_t pr)
{
    gm_gemm(&map_a, &map_b, pr);
}

/* bf16 bits of a value that bf16 holds exactly (a multiple of 1/256 in
 * [-1, 1)): the float's upper half. */
static uint16_t gmx_bf16_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return (uint16_t)(u >> 16);
}

static float gmx_bf16_value(uint16_t h)
{
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* One launch of `pr` in clusters of cm x cn with `nclusters` clusters; copies
 * C back. 0, or 2 with `detail` set. */
static int gmx_run(const cg_tensor_map_t *ma, const cg_tensor_map_t *mb, gm_problem_t pr, uint32_t nclusters,
                   float *hc, char *detail, size_t detail_len)
{
    int rc = 0;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    void *args[] = {(void *)ma, (void *)mb, (void *)&pr};
    cg_status_t st;
    cfg.grid.x = nclusters * pr.cm * pr.cn;
    cfg.block.x = GM_THREADS;
    cfg.cluster.x = pr.cm * pr.cn;
    cfg.dynamic_smem = GM_SMEM_BYTES;
    CGX_CUDA(cudaMemset(pr.c, 0xff, (size_t)pr.m * pr.n * 4u)); /* NaN: an unwritten element fails */
    st = cg_launch(&cfg, (const void *)gemm_multicast_kernel, args);
    if (st != CG_SUCCESS) {
        snprintf(detail, detail_len, "cg_launch: %s: %s", cg_status_string(st), cg_last_error_detail());
        return 2;
    }
    CGX_CUDA(cudaDeviceSynchronize());
    CGX_CUDA(cudaMemcpy(hc, pr.c, (size_t)pr.m * pr.n * 4u, cudaMemcpyDeviceToHost));
done:
    return rc;
}

/* Every element against the reference; 0, or 1 with the first bad one. */
static int gmx_check(const char *which, const float *got, const double *want, uint32_t m, uint32_t n, uint32_t k,
                     char *detail, size_t detail_len)
{
    size_t bad = 0, first = 0;
    for (size_t i = 0; i < (size_t)m * n; ++i) {
        const double tol = 1e-3 * (fabs(want[i]) + sqrt((double)k));
        if (!(fabs((double)got[i] - want[i]) <= tol) && bad++ == 0)
            first = i;
    }
    if (bad == 0)
        return 0;
    snprintf(detail, detail_len, "%s: %zu of %zu elements wrong; first C[%zu][%zu] = %.6f, want %.6f", which, bad,
             (size_t)m * n, first / n, first % n, got[first], want[first]);
    return 1;
}

extern "C" int cgx_gemm_multicast(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("clusters, tensor TMA multicast and wgmma", detail, detail_len) != 0)
        return 2;
    if (gm_device_error() != NULL) {
        snprintf(detail, detail_len, "%s", gm_device_error());
        return 2;
    }
    const uint32_t m = cgx_quick() ? 512u : 1024u, n = cgx_quick() ? 512u : 768u, k = cgx_quick() ? 256u : 576u;
    const uint64_t seed = (uint64_t)time(NULL);
    uint16_t *ha = (uint16_t *)malloc((size_t)m * k * 2u), *hb = (uint16_t *)malloc((size_t)n * k * 2u);
    double *want = (double *)malloc((size_t)m * n * sizeof(double));
    float *got = (float *)malloc((size_t)m * n * 4u), *fa = (float *)malloc((size_t)m * k * 4u),
          *fb = (float *)malloc((size_t)n * k * 4u);
    void *da = NULL, *db = NULL;
    float *dc = NULL;
    cg_tensor_map_t ma, mb;
    cg_status_t st;
    int rc = 2;
    uint64_t x = seed * 0x2545f4914f6cdd1dull | 1u;
    static const struct {
        uint32_t cm, cn;
        int mode;
        const char *name;
    } runs[] = {{2, 2, GM_MULTICAST, "multicast 2x2"}, {1, 2, GM_MULTICAST, "multicast 1x2"}, {2, 2, GM_TWIN, "twin 2x2"}};
    if (!ha || !hb || !want || !got || !fa || !fb) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    for (size_t i = 0; i < (size_t)m * k + (size_t)n * k; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        const float v = (float)((int)(x >> 55) - 256) / 256.0f;
        if (i < (size_t)m * k)
            ha[i] = gmx_bf16_bits(v), fa[i] = gmx_bf16_value(ha[i]);
        else
            hb[i - (size_t)m * k] = gmx_bf16_bits(v), fb[i - (size_t)m * k] = gmx_bf16_value(hb[i - (size_t)m * k]);
    }
    for (uint32_t i = 0; i < m; ++i)
        for (uint32_t j = 0; j < n; ++j) {
            double s = 0;
            for (uint32_t kk = 0; kk < k; ++kk)
                s += (double)fa[(size_t)i * k + kk] * fb[(size_t)j * k + kk];
            want[(size_t)i * n + j] = s;
        }
    CGX_CUDA(cudaMalloc(&da, (size_t)m * k * 2u));
    CGX_CUDA(cudaMalloc(&db, (size_t)n * k * 2u));
    CGX_CUDA(cudaMalloc((void **)&dc, (size_t)m * n * 4u));
    CGX_CUDA(cudaMemcpy(da, ha, (size_t)m * k * 2u, cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemcpy(db, hb, (size_t)n * k * 2u, cudaMemcpyHostToDevice));
    if ((st = gm_encode_map(&ma, da, m, k)) != CG_SUCCESS || (st = gm_encode_map(&mb, db, n, k)) != CG_SUCCESS) {
        snprintf(detail, detail_len, "cg_tensor_map_encode: %s: %s", cg_status_string(st), cg_last_error_detail());
        goto done;
    }
    for (size_t r = 0; r < sizeof runs / sizeof runs[0]; ++r) {
        gm_problem_t pr = {dc, m, n, k, runs[r].cm, runs[r].cn, runs[r].mode};
        const char *bad = gm_problem_error(&pr);
        if (bad) {
            snprintf(detail, detail_len, "%s: %s", runs[r].name, bad);
            rc = 1;
            goto done;
        }
        /* 3 clusters: each walks several tiles (and the last ones fewer) */
        if ((rc = gmx_run(&ma, &mb, pr, 3u, got, detail, detail_len)) != 0)
            goto done;
        if ((rc = gmx_check(runs[r].name, got, want, m, n, k, detail, detail_len)) != 0)
            goto done;
    }
    snprintf(detail, detail_len,
             "C = A * B, %ux%ux%u bf16 -> fp32 (seed %llu), wgmma + 5-stage TMA pipeline: every element matches the "
             "host with A and B multicast in 2x2 clusters, A multicast in 1x2 clusters, and without multicast",
             m, n, k, (unsigned long long)seed);
    rc = 0;
done:
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
    free(ha);
    free(hb);
    free(want);
    free(got);
    free(fa);
    free(fb);
    return rc;
}
CGX_MAIN(cgx_gemm_multicast)
