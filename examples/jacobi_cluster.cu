/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/jacobi_cluster.cu — a persistent 2-D Jacobi solver
 * (examples/jacobi_cluster.cuh): every CTA keeps its band of rows in shared
 * memory for all sweeps; in clusters of 4 each CTA publishes its edge rows
 * in its own shared memory and its neighbours in the cluster load them by
 * DSMEM (ld.shared::cluster), while between clusters the rows go through
 * global memory; cgc's split grid barrier orders both (arrive once the
 * band's edge rows are out, wait at the next sweep's start: the interior
 * rows are computed in between).
 *
 * 512 x 512 fp32 points, random values (the boundary too: it stays fixed),
 * 200 sweeps over 16 CTAs of 32 rows; checked element by element against a
 * host Jacobi whose arithmetic is the kernel's (st_point), so the two agree
 * bit for bit; the summary gives how far the field moved toward the fixed
 * point (the largest |u - mean of its neighbours| before and after).
 */
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"
#include "jacobi_cluster.cuh"

#define JX_CLUSTER 4u
#define JX_CTAS 16u

__global__ void jacobi_cluster_kernel(st_problem_t pr) { st_jacobi(&pr, ST_HALO_PULL, 0); }

extern "C" int cgx_jacobi_cluster(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("clusters, DSMEM and a cooperative launch", detail, detail_len) != 0)
        return 2;
    const uint32_t nx = cgx_quick() ? 256u : 512u, ny = nx, sweeps = cgx_quick() ? 50u : 200u;
    const size_t n = (size_t)nx * ny;
    const uint64_t seed = (uint64_t)time(NULL);
    float *hin = (float *)malloc(n * 4u), *want = (float *)malloc(n * 4u), *got = (float *)malloc(n * 4u);
    float *din = NULL, *dout = NULL, *dxch = NULL;
    int rc = 2;
    uint64_t x = seed * 0x2545f4914f6cdd1dull | 1u;
    const char *bad = st_problem_error(nx, ny, JX_CTAS);
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cg_status_t st;
    st_problem_t pr;
    void *args[] = {&pr};
    if (bad) {
        snprintf(detail, detail_len, "%s", bad);
        goto done;
    }
    if (!hin || !want || !got) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    for (size_t i = 0; i < n; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        hin[i] = (float)(x >> 40) / 16777216.0f; /* [0, 1) */
    }
    if (st_host_jacobi(hin, want, nx, ny, sweeps, 0, 2) != 0) {
        snprintf(detail, detail_len, "host reference: out of memory");
        goto done;
    }
    CGX_CUDA(cudaMalloc((void **)&din, n * 4u));
    CGX_CUDA(cudaMalloc((void **)&dout, n * 4u));
    CGX_CUDA(cudaMalloc((void **)&dxch, st_xch_floats(nx, JX_CTAS) * 4u));
    CGX_CUDA(cudaMemcpy(din, hin, n * 4u, cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemset(dout, 0xff, n * 4u)); /* NaN: a point never written fails */
    pr.in = din;
    pr.out = dout;
    pr.xch = dxch;
    pr.nx = nx;
    pr.ny = ny;
    pr.sweeps = sweeps;
    cfg.grid.x = JX_CTAS;
    cfg.block.x = ST_THREADS(nx);
    cfg.cluster.x = JX_CLUSTER;
    cfg.dynamic_smem = st_smem_bytes(nx, ny, JX_CTAS);
    cfg.cooperative = 1; /* the grid barrier */
    st = cg_launch(&cfg, (const void *)jacobi_cluster_kernel, args);
    if (st != CG_SUCCESS) {
        snprintf(detail, detail_len, "cg_launch: %s: %s", cg_status_string(st), cg_last_error_detail());
        goto done;
    }
    CGX_CUDA(cudaDeviceSynchronize());
    CGX_CUDA(cudaMemcpy(got, dout, n * 4u, cudaMemcpyDeviceToHost));
    {
        size_t wrong = 0, first = 0;
        for (size_t i = 0; i < n; ++i)
            if (!(got[i] == want[i]) && wrong++ == 0)
                first = i;
        if (wrong) {
            snprintf(detail, detail_len,
                     "%zu of %zu points differ from the host (seed %llu); first u[%zu][%zu] = %.9g, want %.9g", wrong,
                     n, (unsigned long long)seed, first / nx, first % nx, got[first], want[first]);
            rc = 1;
            goto done;
        }
        snprintf(detail, detail_len,
                 "%ux%u points, %u sweeps, %u CTAs in clusters of %u (DSMEM halos inside a cluster, global + split "
                 "grid barrier between): all %zu points equal the host's bit for bit (seed %llu); max |u - mean of "
                 "neighbours| %.3g -> %.3g",
                 nx, ny, sweeps, JX_CTAS, JX_CLUSTER, n, (unsigned long long)seed, st_host_residual(hin, nx, ny),
                 st_host_residual(got, nx, ny));
    }
    rc = 0;
done:
    cudaFree(din);
    cudaFree(dout);
    cudaFree(dxch);
    free(hin);
    free(want);
    free(got);
    return rc;
}
CGX_MAIN(cgx_jacobi_cluster)
