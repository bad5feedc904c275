/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/dsmem_histogram.cu — histograms reduced in distributed shared
 * memory (DSMEM), two ways.
 *
 * Part 1: a 4096-bin histogram of 4M values, reduced across each
 * thread-block cluster by PUSHING, not pulling. Each CTA of a cluster of n
 * counts its share of the input into a private full histogram in its own
 * shared memory (fast local atomics). Bin range k (4096 / n bins) belongs to
 * cluster rank k. Then each CTA pushes, with the bulk copy engine, slice k
 * of its private histogram into slot <its rank> of CTA k's receive area
 * (cg_dsmem_push_bulk), completing the bytes on CTA k's mbarrier — for every
 * k but its own: its own slice it reads in place from its private histogram
 * (a bulk push is a copy to ANOTHER CTA; the shared::cta -> shared::cluster
 * engine aimed at the issuing CTA itself is what compute-sanitizer memcheck
 * rejects, "not located in remote CTA", and a local copy would only move
 * bytes that are already here). Each CTA waits on its OWN mbarrier for the
 * n - 1 remote slices of its range (no flag, no cluster barrier for the
 * data), sums them with its own, and adds its range to the global
 * histogram. A cluster barrier at the end keeps every CTA alive until no
 * push from or into its shared memory can still be in flight.
 *
 * Part 2: a histogram too large for one SM's shared memory (2^16 bins =
 * 256 KiB of counters over clusters of 2, 2^17 = 512 KiB over clusters of
 * 4): no CTA holds a full copy; each owns every C-th bin, and a key whose bin
 * a peer owns is added straight into the peer's shared memory with a DSMEM
 * reduction (cg_dsmem_red_add_relaxed_u32). The kernel body is
 * examples/dsmem_histogram.cuh (read it for the steps and their barriers),
 * shared with the workload benchmark bench/workloads/histogram.cu, which
 * times it against CUB's DeviceHistogram::HistogramEven. A persistent grid:
 * cg_max_active_clusters says how many clusters fit at once. The same part
 * runs the routed form of the .cuh (each key's 16-bit counter index pushed
 * to its owner CTA in 512-byte batches with st.async, counted there with a
 * local atomic) at 2^16 bins over clusters of 2 and 4 and 2^17 over 4,
 * and the keys-multicast form (every key tile loaded once per cluster and
 * multicast by the TMA engine into every CTA, each CTA counting the bins it
 * owns) at 2^16 bins over clusters of 2 with 32-bit counters and at 2^17
 * over clusters of 2 (also with an L2 prefetch of the keys ahead of the
 * copies) and 4 with packed 16-bit counters, and one CTA with
 * 16-bit counters at 2^16 bins (no cluster at all). The 16-bit forms run a
 * second key set too, three quarters of it ONE value, so that every CTA
 * drains that bin's 16-bit counter into the output several times.
 */
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "dsmem_histogram.cuh"
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

/* --------------------------------------------------------------------------
 * Part 2: bins spread over the cluster (examples/dsmem_histogram.cuh)
 * ------------------------------------------------------------------------ */

DH_KERNEL(dsmem_histogram_spread_c2, 1)
DH_KERNEL(dsmem_histogram_spread_c4, 2)
/* the routed form: keys pushed to their owner CTA in batches (st.async) */
DH_ROUTE_KERNEL(dsmem_histogram_route_c2, 1, 1024, DH_ROUTE_SLOTS)
DH_ROUTE_KERNEL(dsmem_histogram_route_c4, 2, 512, DH_ROUTE_SLOTS)
/* the same, one staging store a key (the benchmark's design row) */
DH_ROUTE_KERNEL_SEL(dsmem_histogram_route_sel_c2, 1, 1024, DH_ROUTE_SLOTS)
DH_ROUTE_KERNEL_SEL(dsmem_histogram_route_sel_c4, 2, 512, DH_ROUTE_SLOTS)
/* keys multicast to the cluster, each CTA counting its own bins */
DH_MC_KERNEL(dsmem_histogram_mc_c2, 1, 0, 3)
DH_MC_KERNEL(dsmem_histogram_mc16_c2, 1, 1, 3)
DH_MC_KERNEL(dsmem_histogram_mc16_c4_s5, 2, 1, 5)
/* the same with an L2 prefetch of the keys ahead of the copies (a tensor map) */
DH_MC_PF_KERNEL(dsmem_histogram_mc16_pf_c2, 1, 1, 3)
/* one CTA, packed 16-bit counters, no cluster */
DH_KERNEL16(dsmem_histogram_c16)

#define BIG_KEY_BITS 17u /* keys in [0, 2^17) */

/* nbins bins (bin = key >> (17 - log2 nbins)) over clusters of csize,
 * `threads` a CTA, `smem` bytes of dynamic shared memory; checks every bin
 * against the host's counts `fine` (one per key value). */
static int run_spread_ex(uint32_t nbins, uint32_t csize, const void *kernel, uint32_t threads, size_t smem,
                         const uint32_t *dkeys, size_t n, const uint32_t *fine, uint32_t *dhist, uint32_t *hhist,
                         char *detail, size_t detail_len, int pf)
{
    cudaError_t err;
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.block.x = threads;
    cfg.cluster.x = csize > 1u ? csize : 0u; /* 1: a plain launch */
    cfg.dynamic_smem = smem;
    uint32_t clusters = 0;
    /* a persistent grid: as many clusters as can run at once */
    cg_status_t st = cg_max_active_clusters(&cfg, kernel, &clusters);
    if (st != CG_SUCCESS) {
        snprintf(detail, detail_len, "%u bins, cluster %u: cg_max_active_clusters: %s: %s", nbins, csize,
                 cg_status_string(st), cg_last_error_detail());
        return 2;
    }
    if (cgx_quick() && clusters > 8u)
        clusters = 8u; /* a sanitizer's instrumented run: a smaller grid is enough */
    cfg.grid.x = clusters * csize;
    dh_params_t p;
    p.keys = dkeys;
    p.n = n;
    p.hist = dhist;
    p.nbins = nbins;
    p.shift = BIG_KEY_BITS - dh_log2(nbins);
    dh_mc_pf_params_t pfa; /* pf: the prefetching kernel's parameter (p and the keys' tensor map) */
    if (pf && (st = dh_mc_pf_map(&pfa, p, csize)) != CG_SUCCESS) {
        snprintf(detail, detail_len, "%u bins, cluster %u: the prefetch map: %s: %s", nbins, csize,
                 cg_status_string(st), cg_last_error_detail());
        return 2;
    }
    void *args[] = {pf ? (void *)&pfa : (void *)&p};
    if ((err = cudaMemset(dhist, 0, nbins * 4u)) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        return 2;
    }
    st = cg_launch(&cfg, kernel, args);
    if (st != CG_SUCCESS) {
        snprintf(detail, detail_len, "%u bins, cluster %u: %s: %s", nbins, csize, cg_status_string(st),
                 cg_last_error_detail());
        return 2;
    }
    if ((err = cudaDeviceSynchronize()) != cudaSuccess ||
        (err = cudaMemcpy(hhist, dhist, nbins * 4u, cudaMemcpyDeviceToHost)) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        return 2;
    }
    const uint32_t per_bin = (1u << BIG_KEY_BITS) / nbins;
    size_t total = 0, counted = 0;
    for (uint32_t v = 0; v < (1u << BIG_KEY_BITS); ++v)
        counted += fine[v];
    int bad = 0, first = -1;
    uint32_t want_first = 0;
    for (uint32_t b = 0; b < nbins; ++b) {
        uint32_t want = 0;
        for (uint32_t k = 0; k < per_bin; ++k)
            want += fine[b * per_bin + k];
        total += hhist[b];
        if (hhist[b] != want && bad++ == 0) {
            first = (int)b;
            want_first = want;
        }
    }
    if (bad) {
        snprintf(detail, detail_len, "%u bins over clusters of %u: %d bins wrong (first: bin %d = %u, want %u)", nbins,
                 csize, bad, first, hhist[first], want_first);
        return 1;
    }
    if (total != counted) {
        snprintf(detail, detail_len, "%u bins over clusters of %u: %zu of %zu keys counted, want %zu", nbins, csize,
                 total, n, counted);
        return 1;
    }
    return 0;
}

static int run_spread(uint32_t nbins, uint32_t csize, const void *kernel, uint32_t threads, size_t smem,
                      const uint32_t *dkeys, size_t n, const uint32_t *fine, uint32_t *dhist, uint32_t *hhist,
                      char *detail, size_t detail_len)
{
    return run_spread_ex(nbins, csize, kernel, threads, smem, dkeys, n, fine, dhist, hhist, detail, detail_len, 0);
}

extern "C" int cgx_dsmem_histogram(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("clusters and DSMEM", detail, detail_len) != 0)
        return 2;
    const size_t n_in = (size_t)1 << 22;
    /* part 2: 2^22 keys (2^20 under CGT_QUICK); the kernel gets them from
     * the second key on, less three at the end, so it starts off a 16-byte
     * boundary and ends with a partial vector */
    const size_t n_big = cgx_quick() ? (size_t)1 << 20 : (size_t)1 << 22, n_used = n_big - 4;
    uint32_t *hin = (uint32_t *)malloc(n_in * 4), *want = (uint32_t *)calloc(NBINS, 4),
             *hhist = (uint32_t *)malloc(NBINS * 4), *big = (uint32_t *)malloc(n_big * 4),
             *fine = (uint32_t *)calloc((size_t)1 << BIG_KEY_BITS, 4),
             *hbig = (uint32_t *)malloc(((size_t)1 << BIG_KEY_BITS) * 4);
    uint32_t *din = NULL, *dhist = NULL, *dbig = NULL, *dbighist = NULL;
    uint64_t seed = (uint64_t)time(NULL) ^ 0x4157u, s = seed | 1u;
    int rc = 2;
    const char *san = getenv("CGT_SANITIZER");
    const int racecheck = san && strcmp(san, "racecheck") == 0;
    cudaError_t err;
    if (!hin || !want || !hhist || !big || !fine || !hbig) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    srand((unsigned)seed);
    for (size_t i = 0; i < n_in; ++i) {
        /* skewed: a quarter of the values fall in 16 hot bins */
        const uint32_t v = (rand() & 3) == 0 ? (uint32_t)(rand() % 16) * 257u : (uint32_t)rand();
        hin[i] = v;
        want[v % NBINS]++;
    }
    /* part 2's keys: a quarter in a hot run of 256 neighbouring values, one
     * in 64 above the upper level (not counted), the rest uniform in
     * [0, 2^17) */
    for (size_t i = 0; i < n_big; ++i) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        const uint32_t r = (uint32_t)(s >> 32), sel = (uint32_t)s & 63u;
        const uint32_t v = sel == 0 ? (1u << BIG_KEY_BITS) + (r >> 8)
                         : sel < 16 ? 0x5a00u + (r & 255u)
                                    : r & ((1u << BIG_KEY_BITS) - 1u);
        big[i] = v;
        if (i >= 1 && i < 1 + n_used && v < (1u << BIG_KEY_BITS))
            fine[v]++;
    }
    if ((err = cudaMalloc((void **)&din, n_in * 4)) != cudaSuccess ||
        (err = cudaMalloc((void **)&dhist, NBINS * 4)) != cudaSuccess ||
        (err = cudaMalloc((void **)&dbig, n_big * 4)) != cudaSuccess ||
        (err = cudaMalloc((void **)&dbighist, ((size_t)1 << BIG_KEY_BITS) * 4)) != cudaSuccess ||
        (err = cudaMemcpy(din, hin, n_in * 4, cudaMemcpyHostToDevice)) != cudaSuccess ||
        (err = cudaMemcpy(dbig, big, n_big * 4, cudaMemcpyHostToDevice)) != cudaSuccess) {
        snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
        goto done;
    }
    rc = run(4, din, hin, n_in, want, dhist, hhist, detail, detail_len);
    if (rc == 0)
        rc = run(8, din, hin, n_in, want, dhist, hhist, detail, detail_len);
    if (rc == 0)
        rc = run_spread(1u << 16, 2, (const void *)dsmem_histogram_spread_c2, DH_THREADS, DH_SMEM_BYTES(1u << 16, 2),
                        dbig + 1, n_used, fine, dbighist, hbig, detail, detail_len);
    if (rc == 0)
        rc = run_spread(1u << 17, 4, (const void *)dsmem_histogram_spread_c4, DH_THREADS, DH_SMEM_BYTES(1u << 17, 4),
                        dbig + 1, n_used, fine, dbighist, hbig, detail, detail_len);
    /* the routed form: 2^16 bins over clusters of 2 and 4, 2^17 over 4 (a CTA
     * holds at most 2^15 counters). Not under compute-sanitizer racecheck:
     * an inbox slot is refilled by a peer's st.async after this CTA handed it
     * back with a remote mbarrier arrive (cg_dsmem_release), an edge
     * racecheck has no model of (tests/stress/handoff's push shape tests that
     * handoff, with its positive controls); memcheck, synccheck and
     * initcheck run it. */
    for (uint32_t sel = 0; sel < 2; ++sel)
        for (uint32_t lb = 16; !racecheck && rc == 0 && lb <= 17; ++lb)
            for (uint32_t c = lb == 16 ? 2u : 4u; rc == 0 && c <= 4; c *= 2) {
                const void *k = sel ? (c == 2 ? (const void *)dsmem_histogram_route_sel_c2
                                              : (const void *)dsmem_histogram_route_sel_c4)
                                    : (c == 2 ? (const void *)dsmem_histogram_route_c2
                                              : (const void *)dsmem_histogram_route_c4);
                rc = run_spread(1u << lb, c, k, dh_route_threads(c),
                                DH_ROUTE_SMEM_BYTES(1u << lb, c, dh_route_threads(c), DH_ROUTE_SLOTS), dbig + 1, n_used,
                                fine, dbighist, hbig, detail, detail_len);
            }
    /* keys multicast and 16-bit counters: on the same keys, then on keys
     * three quarters of which are one value (drains of its 16-bit counter).
     * The multicast forms not under compute-sanitizer racecheck: a stage is
     * refilled by a peer CTA's multicast once the consumers' cluster-wide
     * release is acquired by the producer's wait, an edge racecheck cannot
     * follow (tests/async/pipeline says why); memcheck, synccheck and
     * initcheck run them. */
    for (uint32_t set = 0; rc == 0 && set < 2; ++set) {
        if (set == 1) { /* the hot key set, in place of the first */
            memset(fine, 0, ((size_t)1 << BIG_KEY_BITS) * 4);
            for (size_t i = 0; i < n_big; ++i) {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                const uint32_t v = ((uint32_t)s & 3u) != 0u ? 0x1234u : (uint32_t)(s >> 32) & ((1u << BIG_KEY_BITS) - 1u);
                big[i] = v;
                if (i >= 1 && i < 1 + n_used)
                    fine[v]++;
            }
            if ((err = cudaMemcpy(dbig, big, n_big * 4, cudaMemcpyHostToDevice)) != cudaSuccess) {
                snprintf(detail, detail_len, "CUDA error: %s", cudaGetErrorString(err));
                rc = 2;
                break;
            }
        }
        if (set == 0 && !racecheck)
            rc = run_spread(1u << 16, 2, (const void *)dsmem_histogram_mc_c2, DH_MC_THREADS,
                            DH_MC_SMEM_BYTES(1u << 16, 2, 0, 3), dbig + 1, n_used, fine, dbighist, hbig, detail,
                            detail_len);
        if (rc == 0 && !racecheck)
            rc = run_spread(1u << 17, 2, (const void *)dsmem_histogram_mc16_c2, DH_MC_THREADS,
                            DH_MC_SMEM_BYTES(1u << 17, 2, 1, 3), dbig + 1, n_used, fine, dbighist, hbig, detail,
                            detail_len);
        if (rc == 0 && !racecheck)
            rc = run_spread_ex(1u << 17, 2, (const void *)dsmem_histogram_mc16_pf_c2, DH_MC_THREADS,
                               DH_MC_SMEM_BYTES(1u << 17, 2, 1, 3), dbig + 1, n_used, fine, dbighist, hbig, detail,
                               detail_len, 1);
        if (rc == 0 && !racecheck)
            rc = run_spread(1u << 17, 4, (const void *)dsmem_histogram_mc16_c4_s5, DH_MC_THREADS,
                            DH_MC_SMEM_BYTES(1u << 17, 4, 1, 5), dbig + 1, n_used, fine, dbighist, hbig, detail,
                            detail_len);
        if (rc == 0)
            rc = run_spread(1u << 16, 1, (const void *)dsmem_histogram_c16, DH_THREADS, DH_SMEM16_BYTES(1u << 16),
                            dbig + 1, n_used, fine, dbighist, hbig, detail, detail_len);
    }
    if (rc == 0)
        snprintf(detail, detail_len, "%s", racecheck ? "(the routed and multicast forms not run under racecheck) " : "");
    if (rc == 0)
        snprintf(detail + strlen(detail), detail_len - strlen(detail),
                 "%zu values into %u bins, clusters of 4 and 8, DSMEM push reduce-scatter; %zu keys into 2^16 bins "
                 "over clusters of 2 and 2^17 over clusters of 4, DSMEM reductions; 2^16 and 2^17 bins over "
                 "clusters of 2 and 4, keys routed to their owner with st.async; keys multicast to clusters of 2 and 4 "
                 "(32- and 16-bit counters) and one CTA with 16-bit counters, also on keys 3/4 of one value "
                 "(16-bit drains) (seed %llu): all bins verified",
                 n_in, NBINS, n_used, (unsigned long long)seed);
done:
    cudaFree(din);
    cudaFree(dhist);
    cudaFree(dbig);
    cudaFree(dbighist);
    free(hin);
    free(want);
    free(hhist);
    free(big);
    free(fine);
    free(hbig);
    return rc;
}

CGX_MAIN(cgx_dsmem_histogram)
