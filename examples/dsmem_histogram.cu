/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/dsmem_histogram.cu — a real workload: a 4096-bin histogram of 4M
 * values, reduced across each thread-block cluster in distributed shared
 * memory by PUSHING, not pulling.
 *
 * Each CTA of a cluster of n counts its share of the input into a private
 * full histogram in its own shared memory (fast local atomics). Bin range k
 * (4096 / n bins) belongs to cluster rank k. Then each CTA pushes, with the
 * bulk copy engine, slice k of its private histogram into slot <its rank> of
 * CTA k's receive area (cg_dsmem_push_bulk), completing the bytes on CTA k's
 * mbarrier — for every k but its own: its own slice it reads in place from
 * its private histogram (a bulk push is a copy to ANOTHER CTA; the
 * shared::cta -> shared::cluster engine aimed at the issuing CTA itself is
 * what compute-sanitizer memcheck rejects, "not located in remote CTA", and
 * a local copy would only move bytes that are already here). Each CTA waits
 * on its OWN mbarrier for the n - 1 remote slices of its range (no flag, no
 * cluster barrier for the data), sums them with its own, and adds its range
 * to the global histogram. A cluster barrier at the end keeps every CTA alive
 * until no push from or into its shared memory can still be in flight.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

#define NBINS 4096u

__global__ void dsmem_histogram_kernel(const uint32_t *in, size_t n_in, uint32_t *hist)
{
    extern __shared__ __align__(16) uint32_t sm[];
    uint32_t *priv = sm;          /* this CTA's counts of every bin */
    uint32_t *recv = sm + NBINS;  /* slot j: CTA j's counts of this CTA's bin range */
    __shared__ cg_mbarrier_t full; /* 1 arrival (ours) + (n - 1) slices of S * 4 bytes */

    cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t blk = cg_this_thread_block();
    const uint32_t n = cg_cluster_num_blocks(&cl), r = cg_cluster_block_rank(&cl);
    const uint32_t S = NBINS / n; /* bins per rank */
    const uint32_t t = cg_thread_block_thread_rank(&blk);

    for (uint32_t i = t; i < NBINS; i += blockDim.x)
        priv[i] = 0;
    if (t == 0) {
        cg_mbarrier_init(&full, 1);
        cg_mbarrier_init_fence_cluster(); /* visible to the CTAs that will push to us */
    }
    cg_cluster_sync(&cl); /* every CTA's mbarrier exists before anyone pushes */
    if (t == 0)
        (void)cg_mbarrier_arrive_tx_cluster(&full, (n - 1u) * S * 4u);

    /* 1. private histogram of this CTA's share of the input */
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = (size_t)blockIdx.x * blockDim.x + t; i < n_in; i += stride)
        atomicAdd(&priv[in[i] % NBINS], 1u);

    /* 2. push slice k of priv to CTA k != r, slot r (the bulk engine reads
     * priv: every writer fences its generic-proxy atomics, then the block
     * syncs; the same sync makes priv readable by every thread of this CTA) */
    cg_fence_proxy_async_smem();
    cg_sync(&blk);
    if (t == 0) /* one thread starts the n - 1 copies; the engine runs them */
        for (uint32_t k = 0; k < n; ++k)
            if (k != r)
                cg_dsmem_push_bulk(recv + r * S, priv + k * S, S * 4u, &full, k);

    /* 3. the n - 1 remote slices have landed (acquire at cluster scope: other
     * CTAs sent them); slot r of recv is unused, our own slice is priv's */
    cg_mbarrier_wait_parity_cluster(&full, 0);
    for (uint32_t b = t; b < S; b += blockDim.x) {
        uint32_t sum = priv[r * S + b];
        for (uint32_t j = 0; j < n; ++j)
            if (j != r)
                sum += recv[j * S + b];
        if (sum)
            atomicAdd(&hist[r * S + b], sum);
    }

    /* 4. no CTA exits while a push it sent may still read its priv */
    cg_cluster_sync(&cl);
}

static int run(uint32_t csize, const uint32_t *din, const uint32_t *hin, size_t n_in, const uint32_t *want,
               uint32_t *dhist, uint32_t *hhist, char *detail, size_t detail_len)
{
    cudaError_t err;
    if ((err = cudaMemset(dhist, 0, NBINS * 4)) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        return 2;
    }
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = 16u * csize;
    cfg.block.x = 512;
    cfg.cluster.x = csize;
    cfg.dynamic_smem = 2u * NBINS * 4u;
    void *args[] = {(void *)&din, (void *)&n_in, (void *)&dhist};
    cg_status_t st = cg_launch(&cfg, (const void *)dsmem_histogram_kernel, args);
    if (st != CG_SUCCESS) {
        snprintf(detail, detail_len, "cluster %u: %s: %s", csize, cg_status_string(st), cg_last_error_detail());
        return 2;
    }
    if ((err = cudaDeviceSynchronize()) != cudaSuccess ||
        (err = cudaMemcpy(hhist, dhist, NBINS * 4, cudaMemcpyDeviceToHost)) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        return 2;
    }
    (void)hin;
    int bad = 0, first = -1;
    for (uint32_t b = 0; b < NBINS; ++b)
        if (hhist[b] != want[b] && bad++ == 0)
            first = (int)b;
    if (bad) {
        snprintf(detail, detail_len, "cluster %u: %d of %u bins wrong (first: bin %d = %u, want %u)", csize, bad,
                 NBINS, first, hhist[first], want[first]);
        return 1;
    }
    return 0;
}

extern "C" int cgx_dsmem_histogram(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("clusters and DSMEM", detail, detail_len) != 0)
        return 2;
    const size_t n_in = (size_t)1 << 22;
    uint32_t *hin = (uint32_t *)malloc(n_in * 4), *want = (uint32_t *)calloc(NBINS, 4),
             *hhist = (uint32_t *)malloc(NBINS * 4);
    uint32_t *din = NULL, *dhist = NULL;
    int rc = 2;
    cudaError_t err;
    if (!hin || !want || !hhist) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    srand((unsigned)time(NULL) ^ 0x4157u);
    for (size_t i = 0; i < n_in; ++i) {
        /* skewed: a quarter of the values fall in 16 hot bins */
        const uint32_t v = (rand() & 3) == 0 ? (uint32_t)(rand() % 16) * 257u : (uint32_t)rand();
        hin[i] = v;
        want[v % NBINS]++;
    }
    if ((err = cudaMalloc((void **)&din, n_in * 4)) != cudaSuccess ||
        (err = cudaMalloc((void **)&dhist, NBINS * 4)) != cudaSuccess ||
        (err = cudaMemcpy(din, hin, n_in * 4, cudaMemcpyHostToDevice)) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        goto done;
    }
    rc = run(4, din, hin, n_in, want, dhist, hhist, detail, detail_len);
    if (rc == 0)
        rc = run(8, din, hin, n_in, want, dhist, hhist, detail, detail_len);
    if (rc == 0)
        snprintf(detail, detail_len,
                 "%zu values into %u bins, clusters of 4 and 8, DSMEM push reduce-scatter: all bins verified", n_in,
                 NBINS);
done:
    cudaFree(din);
    cudaFree(dhist);
    free(hin);
    free(want);
    free(hhist);
    return rc;
}

CGX_MAIN(cgx_dsmem_histogram)
