/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/histogram.cu — wl_histogram: a histogram of 2^28 keys into
 * 2^12 .. 2^17 32-bit bins (16 KiB .. 512 KiB of counters), cgc's kernels of
 * examples/dsmem_histogram.cuh against the strongest kernels a user would
 * write without cgc, in one process, timed interleaved (A B A B ...).
 *
 * Keys: 32-bit words holding values in [0, 2^17); bin = key >> (17 - log2
 * bins) (CUB's HistogramEven with bins + 1 levels from 0 to 2^17). Two
 * distributions, each drawn once on the host (xorshift, fixed seed) with
 * its exact count per key value:
 *   uniform: every value alike;
 *   skewed:  half the keys in 41 runs of 32 neighbouring values (1% of the
 *            value range, so 1% of the bins at every bin count), the other
 *            half uniform.
 *
 * Up to 2^15 bins (the counters fit one CTA's shared memory):
 *   target: cgc's kernel at cluster 1 (dh_histogram: a persistent grid,
 *     16-byte loads, shared-memory atomics, cgc's block barrier and launch)
 *     against THE SAME KERNEL IN PLAIN CUDA (k_plain_one_cta: the same key
 *     loop, DH_FOR_EACH_KEY, __syncthreads, a <<<>>> launch of the same
 *     grid): <= 1.02.
 *   info: the same cgc kernel against CUB's HistogramEven (the faster of its
 *     uint32 and float sample paths).
 * 2^16 and 2^17 bins (more than one SM's shared memory holds at 4 B a bin):
 *   target: cgc's keys-multicast kernel (dh_histogram_mc: a cluster of 2
 *     reads each tile of keys once, the TMA engine multicasts it into both
 *     CTAs, each CTA counts the bins it owns with local shared atomics;
 *     32-bit counters at 2^16, packed 16-bit counters at 2^17) against the
 *     FASTEST of the anchors: >= 1.3x its throughput (time <= 1/1.3):
 *       multi-pass: k_plain_slices, one pass per slice of the bins that
 *         fits one CTA (as many bins as the opt-in shared memory holds,
 *         slices balanced: 2 x 2^15 at 2^16, 3 x 43691 at 2^17), every CTA
 *         making the passes one after another over all keys (one launch);
 *       multi-pass, slices concurrent: the same kernel with the grid split
 *         into one group of CTAs per slice, all slices counted at once over
 *         the same keys (the groups read the same key stream at about the
 *         same time, so the reads after the first can hit L2);
 *       C++ CG DSMEM: the CUDA Programming Guide's distributed-shared-memory
 *         histogram (cluster.map_shared_rank + atomicAdd, cluster.sync()),
 *         tuned as cgc's reduction kernel is (persistent grid, 16-byte
 *         loads, bins interleaved over the ranks, own bins without the map),
 *         at cluster 2 (2^16) / 4 (2^17);
 *       multi-pass with packed 16-bit counters (k_plain_slices16, the same
 *         dh_add16 helper cgc's 16-bit kernels use): at 2^16 ONE slice, i.e.
 *         a plain one-CTA kernel with no cluster; at 2^17 2 x 2^16, passes
 *         one after another or concurrent. A user can pack counters without
 *         any cluster, so these are anchors too.
 *   info: the multicast kernel with 16-bit counters and 5 stages (cluster 2
 *     at 2^16, cluster 4 at 2^17); the target's form with an L2 prefetch of
 *     the keys 6 tiles ahead (DH_MC_PF_KERNEL); cgc's one-CTA kernel with 16-bit
 *     counters at 2^16 (against the fastest anchor, and against the plain
 *     16-bit kernel as a <= 1.02 row: the same kernel without cgc); the
 *     routed kernel of the 2026-11-28 run (its faster form per bin count);
 *     the multicast kernel against each anchor; CUB.
 *
 * The floor: a kernel with the same grid and loads that only sums the keys
 * (checked against the host's sum); each note says what fraction of its
 * speed a kernel reached.
 *
 * Timing: every contender of a row set is launched once and checked, then
 * --repeats rounds each launch every contender once (interleaved), each
 * launch held behind a blocking kernel (the host's launch work not timed,
 * as wl_time_ms_blocked); the median per contender. A timed launch is
 * cudaMemsetAsync of the contender's own output + its kernel(s) (CUB's
 * call zeroes its output with its own init kernel).
 *
 * Checks: each contender writes its own output buffer; every bin of it is
 * compared with the host's exact count (and the total with the key count)
 * after the first launch AND after every timed launch. A mismatch prints
 * WRONG with the first differing bin; the exit status is 3. A first launch
 * that has not finished after 20 s prints HANG with the kernel's name and
 * exits 4 (a protocol bug must not eat the GPU session).
 *
 *   wl_histogram [--csv PATH] [--quick] [--repeats R] [--list]
 */
#include <cooperative_groups.h>
#include <cub/device/device_histogram.cuh>
#include <cuda_runtime.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/workloads/wl.h"
#include "cg/cg.h"
#include "examples/dsmem_histogram.cuh"

namespace cxx = cooperative_groups;

/* --- cgc's kernels ------------------------------------------------------------------ */

DH_KERNEL(k_hist_c1, 0)
DH_KERNEL16(k_hist16_c1)
/* keys multicast (dh_histogram_mc): the 2^16 target (cluster 2, 32-bit
 * counters, 3 stages) and its 16-bit twin (64 KiB of counters, 5 stages);
 * the 2^17 target (cluster 2, 16-bit, 3 stages) and its cluster-4 twin */
DH_MC_KERNEL(k_mc_c2, 1, 0, 3)
DH_MC_KERNEL(k_mc16_c2_s5, 1, 1, 5)
DH_MC_KERNEL(k_mc16_c2, 1, 1, 3)
DH_MC_KERNEL(k_mc16_c4_s5, 2, 1, 5)
/* the two targets' forms with the L2 prefetch DH_MC_PF_AHEAD tiles ahead */
DH_MC_PF_KERNEL(k_mc_pf_c2, 1, 0, 3)
DH_MC_PF_KERNEL(k_mc16_pf_c2, 1, 1, 3)
/* the routed kernel, each bin count's faster form in the 2026-11-28 run */
DH_ROUTE_KERNEL(k_route_c2, 1, 1024, DH_ROUTE_SLOTS)
DH_ROUTE_KERNEL_SEL(k_route_sel_c4, 2, 512, DH_ROUTE_SLOTS)

/* --- the anchors: plain CUDA, no cgc call ------------------------------------------- */

/* The one-CTA kernel in plain CUDA: dh_histogram at cluster 1, line for
 * line (the same key loop), with __syncthreads and a <<<>>> launch. */
__global__ void __launch_bounds__(DH_THREADS, 1) k_plain_one_cta(dh_params_t p)
{
    extern __shared__ __align__(16) uint32_t cnt[];
    const uint32_t t = threadIdx.x, nt = blockDim.x;
    for (uint32_t i = t; i < p.nbins; i += nt)
        cnt[i] = 0u;
    __syncthreads();
#define HW_ONE1_(k)                                                                                        \
    do {                                                                                                   \
        const uint32_t b_ = (k) >> p.shift;                                                                \
        if (b_ < p.nbins)                                                                                  \
            atomicAdd(&cnt[b_], 1u);                                                                       \
    } while (0)
    DH_FOR_EACH_KEY(p.keys, p.n, (size_t)blockIdx.x * nt + t, (size_t)gridDim.x * nt, HW_ONE1_);
    __syncthreads();
    for (uint32_t i = t; i < p.nbins; i += nt) {
        const uint32_t c = cnt[i];
        if (c)
            atomicAdd(&p.hist[i], c);
    }
}

/* The multi-pass kernel: slice q holds bins [q * per, (q + 1) * per) in one
 * CTA's shared memory. The grid is `groups` groups of CTAs (CTA b in group
 * b mod groups); group g counts slices g, g + groups, ... one after another,
 * each over every key, striding over its own CTAs. groups = 1: every CTA
 * makes every pass (sequential passes); groups = nslices: all slices at
 * once, each by 1/nslices of the grid. */
typedef struct hw_slices {
    dh_params_t p;
    uint32_t per;     /* bins a slice (the last may have fewer) */
    uint32_t nslices;
    uint32_t groups;
} hw_slices_t;

/* The multi-pass body; c16 (a compile-time constant): packed 16-bit
 * counters (dh_add16, the helper cgc's 16-bit kernels use: plain CUDA,
 * nothing of a cluster in it), so a slice holds twice the bins. */
static __device__ __forceinline__ void hw_plain_slices(const hw_slices_t &a, uint32_t c16)
{
    extern __shared__ __align__(16) uint32_t cnt[];
    const uint32_t t = threadIdx.x, nt = blockDim.x;
    const uint32_t g = blockIdx.x % a.groups, member = blockIdx.x / a.groups, members = gridDim.x / a.groups;
    if (member >= members)
        return; /* the host launches a multiple of groups; never taken */
    for (uint32_t q = g; q < a.nslices; q += a.groups) {
        const uint32_t lo = q * a.per, nb = a.p.nbins - lo < a.per ? a.p.nbins - lo : a.per;
        for (uint32_t i = t; i < (c16 ? (nb + 1u) / 2u : nb); i += nt)
            cnt[i] = 0u;
        __syncthreads();
#define HW_SL1_(k)                                                                                         \
    do {                                                                                                   \
        const uint32_t l_ = ((k) >> a.p.shift) - lo;                                                       \
        if (l_ < nb) {                                                                                     \
            if (c16)                                                                                       \
                dh_add16(cnt, l_, &a.p.hist[lo + l_]);                                                     \
            else                                                                                           \
                atomicAdd(&cnt[l_], 1u);                                                                   \
        }                                                                                                  \
    } while (0)
        if (c16) { /* the main loop's 16 keys a thread: every add, then the drain tests (dh_add16_vecs) */
            uint32_t *const dh_c16_words_ = cnt;
            const dh_c16_map_t dh_c16_map_ = {a.p.shift, lo, nb, 0u, 0u, a.p.hist};
            DH_FOR_EACH_KEY_V(a.p.keys, a.p.n, (size_t)member * nt + t, (size_t)members * nt, DH_COUNTV16_, HW_SL1_);
        } else {
            DH_FOR_EACH_KEY(a.p.keys, a.p.n, (size_t)member * nt + t, (size_t)members * nt, HW_SL1_);
        }
        __syncthreads();
        for (uint32_t i = t; i < nb; i += nt) {
            const uint32_t c = c16 ? dh_get16(cnt, i) : cnt[i];
            if (c)
                atomicAdd(&a.p.hist[lo + i], c);
        }
        __syncthreads(); /* every count read before the next slice zeroes them */
    }
}

__global__ void __launch_bounds__(DH_THREADS, 1) k_plain_slices(hw_slices_t a) { hw_plain_slices(a, 0u); }

/* The same with 16-bit counters: ONE slice (one pass, one CTA a histogram)
 * at 2^16 bins, 2 at 2^17. A user who packs counters gets this without any
 * cluster, so it is an anchor. */
__global__ void __launch_bounds__(DH_THREADS, 1) k_plain_slices16(hw_slices_t a) { hw_plain_slices(a, 1u); }

/* The C++ CG distributed-shared-memory histogram (the CUDA Programming
 * Guide's, "Distributed Shared Memory"): bins over the cluster's shared
 * memory, cluster.sync() before and after, a peer's counter reached with
 * cluster.map_shared_rank + atomicAdd. Tuned as cgc's reduction kernel:
 * the same persistent grid and key loop, bin b in rank b mod C (hot
 * neighbours spread), power-of-two arithmetic, own bins without the map. */
__global__ void __launch_bounds__(DH_THREADS, 1) k_cxx_cg_dsmem(dh_params_t p)
{
    extern __shared__ __align__(16) uint32_t smem[];
    cxx::cluster_group cluster = cxx::this_cluster();
    const uint32_t csize = cluster.num_blocks(), rank = cluster.block_rank();
    const uint32_t lc = (uint32_t)__ffs((int)csize) - 1u, per = p.nbins >> lc;
    const uint32_t t = threadIdx.x, nt = blockDim.x;
    for (uint32_t i = t; i < per; i += nt)
        smem[i] = 0u;
    cluster.sync();
#define HW_CG1_(k)                                                                                         \
    do {                                                                                                   \
        const uint32_t b_ = (k) >> p.shift, o_ = b_ & (csize - 1u);                                        \
        if (b_ < p.nbins) {                                                                                \
            if (o_ == rank)                                                                                \
                atomicAdd(&smem[b_ >> lc], 1u);                                                            \
            else                                                                                           \
                atomicAdd(cluster.map_shared_rank(smem, o_) + (b_ >> lc), 1u);                             \
        }                                                                                                  \
    } while (0)
    DH_FOR_EACH_KEY(p.keys, p.n, (size_t)blockIdx.x * nt + t, (size_t)gridDim.x * nt, HW_CG1_);
    cluster.sync();
    for (uint32_t i = t; i < per; i += nt) {
        const uint32_t c = smem[i];
        if (c)
            atomicAdd(&p.hist[(i << lc) | rank], c);
    }
}

/* The floor: the same grid reads every key with the same 16-byte loads and
 * only sums them (mod 2^32, checked against the host's sum). */
__global__ void __launch_bounds__(DH_THREADS, 1) k_read_keys(const uint32_t *keys, size_t n, uint32_t *sum)
{
    const uint32_t t = threadIdx.x, nt = blockDim.x;
    uint32_t acc = 0;
#define HW_SUM1_(k) (acc += (k))
    DH_FOR_EACH_KEY(keys, n, (size_t)blockIdx.x * nt + t, (size_t)gridDim.x * nt, HW_SUM1_);
    for (int o = 16; o > 0; o /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31u) == 0u)
        atomicAdd(sum, acc);
}

__global__ void k_to_float(const uint32_t *in, float *out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = (float)in[i];
}

#define HW_KEY_BITS 17u
#define HW_LOG2_KEYS 28
#define HW_LOG2_KEYS_QUICK 24
#define HW_MIN_LOG2_BINS 12
#define HW_MAX_LOG2_BINS 17
#define HW_HOT_RUNS 41u /* runs of 32 values: 1312 values = 1.0% of 2^17 */
#define HW_SMALL_TARGET 1.02        /* cgc / the same kernel in plain CUDA, <= 2^15 bins */
#define HW_BIG_SPEEDUP 1.3          /* the routed kernel's throughput over the faster anchor, >= 2^16 bins */
#define HW_MAX_RUNS 16

static const char *const hw_dist_name[2] = {"uniform", "skewed (1/2 of keys in 1% of bins)"};

/* --- keys ------------------------------------------------------------------------------- */

static inline uint64_t hw_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* n keys of distribution dist into keys, their count per value into fine
 * (2^17 counters, zeroed here). */
static void hw_make_keys(int dist, size_t n, uint32_t *keys, uint32_t *fine)
{
    uint64_t s = 0x9e3779b97f4a7c15ull ^ (uint64_t)(dist + 1) * 0xbf58476d1ce4e5b9ull;
    uint32_t hot[HW_HOT_RUNS];
    const uint32_t mask = (1u << HW_KEY_BITS) - 1u;
    memset(fine, 0, sizeof(uint32_t) << HW_KEY_BITS);
    /* distinct runs of 32 values, aligned to 32 */
    for (uint32_t h = 0; h < HW_HOT_RUNS; ++h) {
        uint32_t r;
        int again;
        do {
            r = (uint32_t)(hw_next(&s) >> 40) % ((1u << HW_KEY_BITS) / 32u);
            again = 0;
            for (uint32_t j = 0; j < h; ++j)
                again |= hot[j] == r;
        } while (again);
        hot[h] = r;
    }
    for (size_t i = 0; i < n; ++i) {
        const uint64_t x = hw_next(&s);
        uint32_t v;
        if (dist == 1 && (x & 1u))
            v = hot[(uint32_t)(x >> 40) % HW_HOT_RUNS] * 32u + ((uint32_t)(x >> 8) & 31u);
        else
            v = (uint32_t)(x >> 20) & mask;
        keys[i] = v;
        fine[v]++;
    }
}

/* --- contenders: what one row set launches ------------------------------------------ */

typedef enum { HW_CGC, HW_PLAIN, HW_PLAIN_CLUSTER, HW_CUB_U32, HW_CUB_F32 } hw_kind_t;

typedef struct hw_run {
    const char *what; /* what it is, for the rows */
    hw_kind_t kind;
    const void *kernel;
    cg_launch_config_t cfg;   /* HW_CGC */
    uint32_t grid, block;     /* HW_PLAIN, HW_PLAIN_CLUSTER */
    uint32_t cluster;         /* HW_PLAIN_CLUSTER (and the note) */
    size_t smem;              /* dynamic shared memory a CTA */
    dh_params_t p;            /* the kernel's argument (HW_CGC, one-CTA and CG kernels) */
    int pf;                   /* 1: the prefetching multicast kernel takes pfa, not p */
    dh_mc_pf_params_t pfa;
    hw_slices_t s;            /* the multi-pass kernel's argument */
    int slices;               /* 1: k_plain_slices takes s, not p */
    const float *fkeys;       /* HW_CUB_F32 */
    void *temp;               /* CUB's temporary storage */
    size_t temp_bytes;
    uint32_t *dhist;          /* its own output */
    size_t hist_bytes;
    int usable;               /* set up and fits */
    char skip[200];           /* why not */
    int wrong;
    char why[256];
    int host_timed;           /* a launch call waited for the stream: its times include host work */
    float t[64];
    int nt;
    double ns;                /* median, -1 when none */
    char shape[128];          /* grid, cluster and counters, for the note */
} hw_run_t;

/* A plain cluster launch's configuration: `grid` CTAs of r->block threads
 * in clusters of r->cluster, r->smem bytes of dynamic shared memory. */
static void hw_cluster_config(const hw_run_t *r, uint32_t grid, cudaLaunchConfig_t *lc, cudaLaunchAttribute *attr)
{
    memset(lc, 0, sizeof *lc);
    lc->gridDim = dim3(grid);
    lc->blockDim = dim3(r->block);
    lc->dynamicSmemBytes = r->smem;
    attr[0].id = cudaLaunchAttributeClusterDimension;
    attr[0].val.clusterDim.x = r->cluster;
    attr[0].val.clusterDim.y = 1;
    attr[0].val.clusterDim.z = 1;
    lc->attrs = attr;
    lc->numAttrs = 1;
}

static cudaError_t hw_launch(void *ctx)
{
    hw_run_t *r = (hw_run_t *)ctx;
    cudaError_t e = cudaSuccess;
    if (r->kind == HW_CUB_U32 || r->kind == HW_CUB_F32) {
        /* without temporary storage yet: the size query (hw_setup) */
        size_t bytes = r->temp_bytes;
        const int levels = (int)r->p.nbins + 1, n = (int)r->p.n;
        if (r->kind == HW_CUB_F32)
            e = cub::DeviceHistogram::HistogramEven(r->temp, bytes, r->fkeys, r->dhist, levels, 0.0f,
                                                    (float)(1u << HW_KEY_BITS), n, (cudaStream_t)0);
        else
            e = cub::DeviceHistogram::HistogramEven(r->temp, bytes, r->p.keys, r->dhist, levels, 0u,
                                                    (unsigned)(1u << HW_KEY_BITS), n, (cudaStream_t)0);
        if (!r->temp)
            r->temp_bytes = bytes;
        return e;
    }
    if ((e = cudaMemsetAsync(r->dhist, 0, r->hist_bytes, 0)) != cudaSuccess)
        return e;
    void *args[] = {r->pf ? (void *)&r->pfa : r->slices ? (void *)&r->s : (void *)&r->p};
    if (r->kind == HW_CGC) {
        const cg_status_t st = cg_launch(&r->cfg, r->kernel, args);
        if (st != CG_SUCCESS) {
            fprintf(stderr, "wl_histogram: cg_launch of %s: %s: %s\n", r->what, cg_status_string(st),
                    cg_last_error_detail());
            return cudaErrorLaunchFailure;
        }
        return cudaSuccess;
    }
    if (r->kind == HW_PLAIN)
        return cudaLaunchKernel(r->kernel, dim3(r->grid), dim3(r->block), args, r->smem, 0);
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr[1];
    hw_cluster_config(r, r->grid, &lc, attr);
    return cudaLaunchKernelExC(&lc, r->kernel, args);
}

/* Each contender's own output and its grid; `usable` says it fits. */
static void hw_setup(wl_opts_t *o, hw_run_t *r, int sms)
{
    r->usable = 0;
    r->ns = -1.0;
    if (WL_CHECK(o, cudaMalloc((void **)&r->dhist, r->hist_bytes)))
        return;
    r->p.hist = r->dhist;
    r->s.p.hist = r->dhist;
    r->pfa.p.hist = r->dhist;
    if (r->kind == HW_CUB_U32 || r->kind == HW_CUB_F32) {
        r->temp = NULL;
        r->temp_bytes = 0;
        if (WL_CHECK(o, hw_launch(r)) || WL_CHECK(o, cudaMalloc(&r->temp, r->temp_bytes ? r->temp_bytes : 16)))
            return;
        snprintf(r->shape, sizeof r->shape, "CUB's own grid");
        r->usable = 1;
        return;
    }
    if (r->kind == HW_CGC) {
        uint32_t clusters = 0;
        if (r->pf) {
            const cg_status_t ms = dh_mc_pf_map(&r->pfa, r->p, r->cluster);
            if (ms != CG_SUCCESS) {
                snprintf(r->skip, sizeof r->skip, "its prefetch map: %s: %s", cg_status_string(ms),
                         cg_last_error_detail());
                return;
            }
        }
        const cg_status_t st = cg_max_active_clusters(&r->cfg, r->kernel, &clusters);
        if (st != CG_SUCCESS || clusters == 0) {
            snprintf(r->skip, sizeof r->skip, "does not fit: %s: %s", cg_status_string(st), cg_last_error_detail());
            return;
        }
        r->cfg.grid.x = clusters * (r->cfg.cluster.x ? r->cfg.cluster.x : 1u);
        snprintf(r->shape, sizeof r->shape, "%u clusters x %u x %u threads, %zu KiB shared/CTA", clusters,
                 r->cfg.cluster.x ? r->cfg.cluster.x : 1u, r->cfg.block.x, r->cfg.dynamic_smem / 1024);
        r->usable = 1;
        return;
    }
    if (WL_CHECK(o, cudaFuncSetAttribute(r->kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)r->smem)))
        return;
    if (r->kind == HW_PLAIN) {
        int per_sm = 0;
        if (WL_CHECK(o, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, r->kernel, (int)r->block, r->smem)))
            return;
        uint32_t g = (uint32_t)(per_sm * sms);
        if (r->slices)
            g -= g % r->s.groups; /* whole groups */
        if (g == 0) {
            snprintf(r->skip, sizeof r->skip, "does not fit (%zu B shared)", r->smem);
            return;
        }
        r->grid = g;
        snprintf(r->shape, sizeof r->shape, "%u CTAs x %u threads, %zu KiB shared/CTA%s", g, r->block, r->smem / 1024,
                 r->slices ? (r->s.groups > 1 ? ", slices concurrent" : ", slices one after another") : "");
        r->usable = 1;
        return;
    }
    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr[1];
    hw_cluster_config(r, r->cluster, &lc, attr);
    int clusters = 0;
    if (WL_CHECK(o, cudaOccupancyMaxActiveClusters(&clusters, r->kernel, &lc)))
        return;
    if (clusters <= 0) {
        snprintf(r->skip, sizeof r->skip, "cluster %u does not fit (%zu B shared)", r->cluster, r->smem);
        return;
    }
    r->grid = (uint32_t)clusters * r->cluster;
    snprintf(r->shape, sizeof r->shape, "%d clusters x %u x %u threads, %zu KiB shared/CTA", clusters, r->cluster,
             r->block, r->smem / 1024);
    r->usable = 1;
}

static void hw_free(hw_run_t *r)
{
    cudaFree(r->dhist);
    cudaFree(r->temp);
    r->dhist = NULL;
    r->temp = NULL;
}

/* --- the check ------------------------------------------------------------------------------ */

/* hist (device, nbins) against the host's counts; 0 when every bin and the
 * total are right, else 1 with `why`. */
static int hw_check(wl_opts_t *o, const uint32_t *dhist, uint32_t nbins, const uint32_t *want, size_t n,
                    uint32_t *scratch, const char *who, char *why, size_t why_len)
{
    if (WL_CHECK(o, cudaMemcpy(scratch, dhist, sizeof(uint32_t) * nbins, cudaMemcpyDeviceToHost))) {
        snprintf(why, why_len, "%s: the copy back failed", who);
        return 1;
    }
    uint64_t total = 0;
    uint32_t bad = 0, first = 0;
    for (uint32_t b = 0; b < nbins; ++b) {
        total += scratch[b];
        if (scratch[b] != want[b] && bad++ == 0)
            first = b;
    }
    if (bad) {
        snprintf(why, why_len, "%s: %u of %u bins wrong, first bin %u = %u, want %u", who, bad, nbins, first,
                 scratch[first], want[first]);
        return 1;
    }
    if (total != n) {
        snprintf(why, why_len, "%s: %llu keys counted, want %zu", who, (unsigned long long)total, n);
        return 1;
    }
    return 0;
}

/* --- timing: every contender once per round, interleaved ------------------------------ */

static int hw_cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Waits for the device, at most HW_FIRST_LAUNCH_S seconds (a kernel's
 * first launch: a protocol that hangs must not take the whole GPU session
 * with it): past that, says which kernel and exits (status 4), which tears
 * the context down. */
#define HW_FIRST_LAUNCH_S 20.0
static cudaError_t hw_sync_bounded(const char *what)
{
    cudaEvent_t ev;
    cudaError_t e = cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
    if (e != cudaSuccess || (e = cudaEventRecord(ev, 0)) != cudaSuccess)
        return e;
    for (long waited_us = 0;; waited_us += 200) {
        e = cudaEventQuery(ev);
        if (e != cudaErrorNotReady)
            break;
        if (waited_us > (long)(HW_FIRST_LAUNCH_S * 1e6)) {
            printf("HANG: %s did not finish within %.0f s; stopping (exit 4)\n", what, HW_FIRST_LAUNCH_S);
            fflush(stdout);
            exit(4);
        }
        usleep(200);
    }
    cudaEventDestroy(ev);
    return e == cudaSuccess ? cudaDeviceSynchronize() : e;
}

/* Launch each usable contender once (output poisoned first) and check it;
 * then o->repeats rounds, each launching every contender that was right
 * once, held behind the blocking kernel (wl.h) so the events time the GPU
 * work alone, and checking what each timed launch left. Sets ns (median),
 * wrong / why. */
static void hw_measure(wl_opts_t *o, hw_run_t *r, int nr, const uint32_t *want, size_t n, uint32_t *scratch)
{
    const uint32_t nbins = r[0].p.nbins;
    unsigned *hflag = NULL, *dflag = NULL;
    cudaEvent_t a = NULL, b = NULL;
    for (int i = 0; i < nr; ++i) {
        r[i].nt = 0;
        if (!r[i].usable)
            continue;
        if (WL_CHECK(o, cudaMemset(r[i].dhist, 0xab, r[i].hist_bytes)) || WL_CHECK(o, hw_launch(&r[i])) ||
            WL_CHECK(o, hw_sync_bounded(r[i].what))) {
            r[i].usable = 0;
            snprintf(r[i].skip, sizeof r[i].skip, "a CUDA error in its first launch (stderr)");
            continue;
        }
        r[i].wrong = hw_check(o, r[i].dhist, nbins, want, n, scratch, r[i].what, r[i].why, sizeof r[i].why);
    }
    if (WL_CHECK(o, cudaHostAlloc((void **)&hflag, 2 * sizeof(unsigned), cudaHostAllocMapped)) ||
        WL_CHECK(o, cudaHostGetDevicePointer((void **)&dflag, hflag, 0)) || WL_CHECK(o, cudaEventCreate(&a)) ||
        WL_CHECK(o, cudaEventCreate(&b)))
        goto out;
    for (int rep = 0; rep < o->repeats && rep < 64; ++rep)
        for (int i = 0; i < nr; ++i) {
            if (!r[i].usable || r[i].wrong)
                continue;
            float ms = 0.0f;
            *(volatile unsigned *)hflag = 0u;
            *(volatile unsigned *)(hflag + 1) = 0u;
            wl_blocking_kernel<0><<<1, 1>>>(dflag, WL_BLOCK_TIMEOUT_NS, dflag + 1);
            if (WL_CHECK(o, cudaGetLastError()) || WL_CHECK(o, cudaEventRecord(a))) {
                *(volatile unsigned *)hflag = 1u;
                goto out;
            }
            const cudaError_t le = hw_launch(&r[i]);
            const cudaError_t re = cudaEventRecord(b);
            __sync_synchronize();
            *(volatile unsigned *)hflag = 1u;
            if (WL_CHECK(o, le) || WL_CHECK(o, re) || WL_CHECK(o, cudaEventSynchronize(b))) {
                cudaDeviceSynchronize();
                r[i].usable = 0;
                snprintf(r[i].skip, sizeof r[i].skip, "a CUDA error in a timed launch (stderr)");
                continue;
            }
            cudaEventElapsedTime(&ms, a, b);
            if (*(volatile unsigned *)(hflag + 1) != 0u)
                r[i].host_timed = 1; /* the launch call waited for the stream: host work in this time */
            r[i].t[r[i].nt++] = ms;
            if (hw_check(o, r[i].dhist, nbins, want, n, scratch, r[i].what, r[i].why, sizeof r[i].why))
                r[i].wrong = 1; /* a fast wrong answer is WRONG */
        }
out:
    if (a)
        cudaEventDestroy(a);
    if (b)
        cudaEventDestroy(b);
    if (hflag)
        cudaFreeHost(hflag);
    for (int i = 0; i < nr; ++i)
        if (r[i].nt > 0) {
            qsort(r[i].t, (size_t)r[i].nt, sizeof(float), hw_cmp_float);
            r[i].ns = r[i].t[r[i].nt / 2] * 1e6;
        }
}

/* --- rows ------------------------------------------------------------------------------ */

/* One row: contender `a` (cgc's side) against contender `b`, or against the
 * fastest anchor (HW_VS_ANCHOR) or the faster CUB call (HW_VS_CUB). */
#define HW_VS_ANCHOR (-1)
#define HW_VS_CUB (-2)
typedef struct hw_rowdef {
    const char *op;
    char config[112];
    int a, b;
    double max_ratio; /* 0: info */
} hw_rowdef_t;

#define HW_OP_SMALL "workload: histogram, fits one CTA"
#define HW_OP_SMALL_CUB "workload: histogram, fits one CTA (info: vs CUB)"
#define HW_OP_BIG "workload: histogram, larger than one SM"
#define HW_OP_BIG_DESIGN "workload: histogram, larger than one SM (info: design)"
#define HW_OP_BIG_ANCHOR "workload: histogram, larger than one SM (info: each anchor)"
#define HW_OP_BIG_CUB "workload: histogram, larger than one SM (info: vs CUB)"

/* Contender indices of a row set. Up to 2^15 bins: */
enum { HS_CGC, HS_PLAIN, HS_CUB_U32, HS_CUB_F32, HS_N };
/* 2^16, 2^17 bins: */
enum {
    HB_MC,           /* target: keys multicast, cluster 2 (2^16: 32-bit counters; 2^17: 16-bit) */
    HB_MC_ALT,       /* keys multicast, 16-bit counters, 5 stages (2^16: cluster 2; 2^17: cluster 4) */
    HB_MC_PF,        /* the target's form with the L2 prefetch (dh_histogram_mc's pf) */
    HB_ONE16,        /* cgc one-CTA kernel, 16-bit counters (2^16 only) */
    HB_ROUTE,        /* routed (the 2026-11-28 target form): 2^16 cluster 2; 2^17 one store a key, cluster 4 */
    HB_MULTI_SEQ,    /* anchor: multi-pass, passes one after another */
    HB_MULTI_CONC,   /* anchor: multi-pass, slices concurrent */
    HB_CXX_CG,       /* anchor: C++ CG DSMEM, cluster dh_cluster_for(bins) */
    HB_MULTI16_SEQ,  /* anchor: multi-pass, 16-bit counters (2^16: ONE pass, one CTA a histogram) */
    HB_MULTI16_CONC, /* anchor: the same, slices concurrent (2^17 only) */
    HB_CUB_U32,
    HB_CUB_F32,
    HB_N
};
#define HB_FIRST_ANCHOR HB_MULTI_SEQ
#define HB_LAST_ANCHOR HB_MULTI16_CONC
#define HW_OP_C16 "workload: histogram, fits one CTA with 16-bit counters"

static const char *hw_dist_short(int dist) { return dist ? "skewed" : "uniform"; }

/* Fill one row definition; the config is printf-formatted. */
static void hw_def(hw_rowdef_t *d, const char *op, int a, int b, double max_ratio, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));
static void hw_def(hw_rowdef_t *d, const char *op, int a, int b, double max_ratio, const char *fmt, ...)
{
    va_list ap;
    d->op = op;
    d->a = a;
    d->b = b;
    d->max_ratio = max_ratio;
    va_start(ap, fmt);
    vsnprintf(d->config, sizeof d->config, fmt, ap);
    va_end(ap);
}

/* The rows of one (distribution, bin count), in print order; returns how many. */
static int hw_rowdefs(int dist, int lb, hw_rowdef_t *d)
{
    int k = 0;
    const char *ds = hw_dist_short(dist);
    if (lb <= 15) {
        hw_def(&d[k++], HW_OP_SMALL, HS_CGC, HS_PLAIN, HW_SMALL_TARGET, "2^%d bins, %s, cluster 1", lb, ds);
        hw_def(&d[k++], HW_OP_SMALL_CUB, HS_CGC, HW_VS_CUB, 0.0, "2^%d bins, %s, cluster 1", lb, ds);
        return k;
    }
    const uint32_t c = dh_cluster_for(1u << lb);
    hw_def(&d[k++], HW_OP_BIG, HB_MC, HW_VS_ANCHOR, 1.0 / HW_BIG_SPEEDUP, "2^%d bins, %s, keys multicast, cluster 2%s", lb,
           ds, lb == 16 ? "" : ", 16-bit counters");
    hw_def(&d[k++], HW_OP_BIG_DESIGN, HB_MC_ALT, HW_VS_ANCHOR, 0.0, "2^%d bins, %s, keys multicast, cluster %u, 16-bit "
           "counters, 5 stages", lb, ds, lb == 16 ? 2u : 4u);
    hw_def(&d[k++], HW_OP_BIG_DESIGN, HB_MC_PF, HW_VS_ANCHOR, 0.0, "2^%d bins, %s, keys multicast, cluster 2%s, L2 "
           "prefetch", lb, ds, lb == 16 ? "" : ", 16-bit counters");
    if (lb == 16) {
        hw_def(&d[k++], HW_OP_BIG_DESIGN, HB_ONE16, HW_VS_ANCHOR, 0.0, "2^%d bins, %s, one CTA, 16-bit counters", lb, ds);
        hw_def(&d[k++], HW_OP_C16, HB_ONE16, HB_MULTI16_SEQ, HW_SMALL_TARGET, "2^%d bins, %s, cluster 1", lb, ds);
    }
    hw_def(&d[k++], HW_OP_BIG_DESIGN, HB_ROUTE, HW_VS_ANCHOR, 0.0, "2^%d bins, %s, routed%s, cluster %u", lb, ds,
           lb == 16 ? "" : " 1 store a key", c);
    hw_def(&d[k++], HW_OP_BIG_ANCHOR, HB_MC, HB_MULTI_SEQ, 0.0, "2^%d bins, %s, vs multi-pass", lb, ds);
    hw_def(&d[k++], HW_OP_BIG_ANCHOR, HB_MC, HB_MULTI_CONC, 0.0, "2^%d bins, %s, vs multi-pass slices concurrent", lb, ds);
    hw_def(&d[k++], HW_OP_BIG_ANCHOR, HB_MC, HB_CXX_CG, 0.0, "2^%d bins, %s, vs C++ CG DSMEM, cluster %u", lb, ds, c);
    hw_def(&d[k++], HW_OP_BIG_ANCHOR, HB_MC, HB_MULTI16_SEQ, 0.0, "2^%d bins, %s, vs %s", lb, ds,
           lb == 16 ? "one CTA, 16-bit counters" : "multi-pass, 16-bit counters");
    if (lb > 16)
        hw_def(&d[k++], HW_OP_BIG_ANCHOR, HB_MC, HB_MULTI16_CONC, 0.0,
               "2^%d bins, %s, vs multi-pass, 16-bit counters, slices concurrent", lb, ds);
    hw_def(&d[k++], HW_OP_BIG_CUB, HB_MC, HW_VS_CUB, 0.0, "2^%d bins, %s, keys multicast, cluster 2", lb, ds);
    return k;
}

static void hw_list(int quick)
{
    (void)quick;
    hw_rowdef_t d[16];
    for (int dist = 0; dist < 2; ++dist)
        for (int lb = HW_MIN_LOG2_BINS; lb <= HW_MAX_LOG2_BINS; ++lb) {
            const int k = hw_rowdefs(dist, lb, d);
            for (int i = 0; i < k; ++i) {
                if (d[i].max_ratio > 0)
                    printf("%s | %s | target <=%.2f%s\n", d[i].op, d[i].config, d[i].max_ratio,
                           d[i].max_ratio > 0.9 ? " (the same kernel in plain CUDA)" : " (>= 1.3x the faster anchor)");
                else
                    printf("%s | %s | info\n", d[i].op, d[i].config);
            }
        }
}

/* The index of the fastest right contender among [lo, hi], -1 if none. */
static int hw_fastest(const hw_run_t *r, int lo, int hi)
{
    int best = -1;
    for (int i = lo; i <= hi; ++i)
        if (r[i].ns > 0 && !r[i].wrong && (best < 0 || r[i].ns < r[best].ns))
            best = i;
    return best;
}

static double hw_gkeys(size_t n, double ns) { return ns > 0 ? n / ns : 0.0; }

/* Print the rows of one row set. */
static void hw_rows(wl_opts_t *o, FILE *csv, int dist, int lb, hw_run_t *r, int nr, size_t n, double floor_ns)
{
    hw_rowdef_t d[16];
    const int k = hw_rowdefs(dist, lb, d);
    const int cub_lo = lb <= 15 ? (int)HS_CUB_U32 : (int)HB_CUB_U32;
    const int best_cub = hw_fastest(r, cub_lo, cub_lo + 1);
    const int best_anchor = lb <= 15 ? -1 : hw_fastest(r, HB_FIRST_ANCHOR, HB_LAST_ANCHOR);
    int anchor_wrong = 0;
    char anchors[600] = "";
    if (lb > 15) {
        size_t len = 0;
        for (int i = HB_FIRST_ANCHOR; i <= HB_LAST_ANCHOR; ++i) {
            anchor_wrong |= r[i].wrong;
            if (!r[i].kernel)
                continue; /* not run at this bin count */
            len += (size_t)snprintf(anchors + len, sizeof anchors - len, "%s%s %.1f", len ? ", " : "", r[i].what,
                                    hw_gkeys(n, r[i].ns));
            if (len >= sizeof anchors)
                break;
        }
    }
    for (int i = 0; i < k; ++i) {
        const int bi = d[i].b == HW_VS_ANCHOR ? best_anchor : d[i].b == HW_VS_CUB ? best_cub : d[i].b;
        const hw_run_t *A = &r[d[i].a], *B = bi >= 0 ? &r[bi] : NULL;
        char note[1100];
        wl_row_t row;
        memset(&row, 0, sizeof row);
        row.op = d[i].op;
        row.config = d[i].config;
        row.cgc_what = A->what;
        row.anc_what = B ? B->what : (d[i].b == HW_VS_ANCHOR ? "the fastest anchor (none ran)" : "CUB (did not run)");
        row.max_ratio = d[i].max_ratio;
        row.min_speedup = d[i].max_ratio > 0 ? 1.0 / d[i].max_ratio : 0.0;
        row.cgc_ns = A->ns;
        row.anc_ns = B ? B->ns : -1.0;
        const int b_wrong = d[i].b == HW_VS_ANCHOR ? anchor_wrong : B ? B->wrong : 0;
        row.wrong = A->wrong || b_wrong;
        if (!A->usable)
            snprintf(note, sizeof note, "%s: %s", A->what, A->skip);
        else if (A->wrong)
            snprintf(note, sizeof note, "WRONG: %s", A->why);
        else if (b_wrong)
            snprintf(note, sizeof note, "WRONG (the anchor): %s",
                     d[i].b == HW_VS_ANCHOR ? "an anchor's output (its own row names it)" : B->why);
        else
            snprintf(note, sizeof note,
                     "%.1f Gkeys/s (%.0f GB/s, %.0f%% of reading the keys alone), %s%s; %s %.1f Gkeys/s%s%s; "
                     "every bin of every timed launch checked",
                     hw_gkeys(n, A->ns), 4.0 * hw_gkeys(n, A->ns),
                     A->ns > 0 && floor_ns > 0 ? 100.0 * floor_ns / A->ns : 0.0, A->shape,
                     A->host_timed ? " (host launch work in its time)" : "", B ? B->what : "-",
                     B ? hw_gkeys(n, B->ns) : 0.0, d[i].b == HW_VS_ANCHOR ? "; anchors (Gkeys/s): " : "",
                     d[i].b == HW_VS_ANCHOR ? anchors : "");
        row.note = note;
        wl_row(o, csv, &row);
    }
    (void)nr;
}

/* --- contenders of a row set ----------------------------------------------------------- */

static void hw_init_run(hw_run_t *r, const char *what, hw_kind_t kind, const void *kernel, dh_params_t p)
{
    memset(r, 0, sizeof *r);
    r->what = what;
    r->kind = kind;
    r->kernel = kernel;
    r->p = p;
    r->hist_bytes = sizeof(uint32_t) * p.nbins;
    r->ns = -1.0;
}

static void hw_cgc(hw_run_t *r, const char *what, const void *kernel, uint32_t threads, uint32_t cluster, size_t smem,
                   dh_params_t p)
{
    hw_init_run(r, what, HW_CGC, kernel, p);
    const cg_launch_config_t init = CG_LAUNCH_CONFIG_INIT;
    r->cfg = init;
    r->cfg.block.x = threads;
    r->cfg.cluster.x = cluster > 1 ? cluster : 0; /* 1: a plain launch */
    r->cfg.dynamic_smem = smem;
    r->cluster = cluster;
    r->smem = smem;
}

/* The contenders of (bin count), keys already on the device. */
static int hw_contenders(hw_run_t *r, int lb, dh_params_t p, const float *dfkeys, int smem_optin)
{
    const uint32_t nbins = 1u << lb;
    int nr;
    if (lb <= 15) {
        hw_cgc(&r[HS_CGC], "cgc one-CTA kernel (cluster 1)", (const void *)k_hist_c1, DH_THREADS, 1,
               DH_SMEM_BYTES(nbins, 1), p);
        hw_init_run(&r[HS_PLAIN], "the same kernel in plain CUDA", HW_PLAIN, (const void *)k_plain_one_cta, p);
        r[HS_PLAIN].block = DH_THREADS;
        r[HS_PLAIN].smem = DH_SMEM_BYTES(nbins, 1);
        hw_init_run(&r[HS_CUB_U32], "CUB HistogramEven (uint32 samples)", HW_CUB_U32, NULL, p);
        hw_init_run(&r[HS_CUB_F32], "CUB HistogramEven (float samples)", HW_CUB_F32, NULL, p);
        r[HS_CUB_F32].fkeys = dfkeys;
        nr = HS_N;
    } else {
        const uint32_t c = dh_cluster_for(nbins);
        if (lb == 16) {
            hw_cgc(&r[HB_MC], "cgc keys multicast, cluster 2, 32-bit counters", (const void *)k_mc_c2, DH_MC_THREADS, 2,
                   DH_MC_SMEM_BYTES(nbins, 2, 0, 3), p);
            hw_cgc(&r[HB_MC_ALT], "cgc keys multicast, cluster 2, 16-bit counters, 5 stages",
                   (const void *)k_mc16_c2_s5, DH_MC_THREADS, 2, DH_MC_SMEM_BYTES(nbins, 2, 1, 5), p);
            hw_cgc(&r[HB_MC_PF], "cgc keys multicast, cluster 2, 32-bit counters, L2 prefetch", (const void *)k_mc_pf_c2,
                   DH_MC_THREADS, 2, DH_MC_SMEM_BYTES(nbins, 2, 0, 3), p);
            hw_cgc(&r[HB_ONE16], "cgc one-CTA kernel, 16-bit counters (cluster 1)", (const void *)k_hist16_c1,
                   DH_THREADS, 1, DH_SMEM16_BYTES(nbins), p);
            hw_cgc(&r[HB_ROUTE], "cgc routed (st.async batches), cluster 2", (const void *)k_route_c2,
                   dh_route_threads(2), 2, DH_ROUTE_SMEM_BYTES(nbins, 2, dh_route_threads(2), DH_ROUTE_SLOTS), p);
        } else {
            hw_cgc(&r[HB_MC], "cgc keys multicast, cluster 2, 16-bit counters", (const void *)k_mc16_c2, DH_MC_THREADS,
                   2, DH_MC_SMEM_BYTES(nbins, 2, 1, 3), p);
            hw_cgc(&r[HB_MC_ALT], "cgc keys multicast, cluster 4, 16-bit counters, 5 stages",
                   (const void *)k_mc16_c4_s5, DH_MC_THREADS, 4, DH_MC_SMEM_BYTES(nbins, 4, 1, 5), p);
            hw_cgc(&r[HB_MC_PF], "cgc keys multicast, cluster 2, 16-bit counters, L2 prefetch",
                   (const void *)k_mc16_pf_c2, DH_MC_THREADS, 2, DH_MC_SMEM_BYTES(nbins, 2, 1, 3), p);
            hw_init_run(&r[HB_ONE16], "(not run)", HW_CGC, NULL, p);
            hw_cgc(&r[HB_ROUTE], "cgc routed, one staging store a key, cluster 4", (const void *)k_route_sel_c4,
                   dh_route_threads(4), 4, DH_ROUTE_SMEM_BYTES(nbins, 4, dh_route_threads(4), DH_ROUTE_SLOTS), p);
        }
        /* the multi-pass kernels: as many bins a slice as the opt-in shared memory holds (32- or 16-bit
         * counters), slices balanced */
        for (int c16 = 0; c16 < 2; ++c16) {
            const uint32_t maxper = c16 ? (uint32_t)smem_optin / 2u & ~1u : (uint32_t)smem_optin / 4u;
            const uint32_t nslices = (nbins + maxper - 1u) / maxper, balanced = (nbins + nslices - 1u) / nslices;
            const uint32_t per = c16 ? (balanced + 1u) & ~1u : balanced; /* 16-bit: even, whole word pairs */
            for (int conc = 0; conc < 2; ++conc) {
                hw_run_t *m = &r[c16 ? (conc ? HB_MULTI16_CONC : HB_MULTI16_SEQ) : (conc ? HB_MULTI_CONC : HB_MULTI_SEQ)];
                const char *what = c16 ? (nslices == 1u ? "plain one-CTA kernel, 16-bit counters"
                                          : conc ? "plain multi-pass, 16-bit counters, slices concurrent"
                                                 : "plain multi-pass, 16-bit counters")
                                       : conc ? "plain multi-pass, slices concurrent" : "plain multi-pass";
                if (conc && nslices == 1u) { /* one slice: nothing to run concurrently */
                    hw_init_run(m, "(not run)", HW_PLAIN, NULL, p);
                    continue;
                }
                hw_init_run(m, what, HW_PLAIN, c16 ? (const void *)k_plain_slices16 : (const void *)k_plain_slices, p);
                m->slices = 1;
                m->s.p = p;
                m->s.per = per;
                m->s.nslices = nslices;
                m->s.groups = conc ? nslices : 1u;
                m->block = DH_THREADS;
                m->smem = c16 ? (size_t)per * 2u : (size_t)per * 4u;
            }
        }
        hw_init_run(&r[HB_CXX_CG], "C++ CG DSMEM (map_shared_rank + atomicAdd)", HW_PLAIN_CLUSTER,
                    (const void *)k_cxx_cg_dsmem, p);
        r[HB_CXX_CG].block = DH_THREADS;
        r[HB_CXX_CG].cluster = c;
        r[HB_CXX_CG].smem = DH_SMEM_BYTES(nbins, c);
        hw_init_run(&r[HB_CUB_U32], "CUB HistogramEven (uint32 samples)", HW_CUB_U32, NULL, p);
        hw_init_run(&r[HB_CUB_F32], "CUB HistogramEven (float samples)", HW_CUB_F32, NULL, p);
        r[HB_CUB_F32].fkeys = dfkeys;
        r[HB_MC_PF].pf = 1;
        nr = HB_N;
    }
    return nr;
}

/* --- the floor ----------------------------------------------------------------------- */

typedef struct hw_floor {
    const uint32_t *keys;
    size_t n;
    uint32_t *sum;
    uint32_t blocks;
} hw_floor_t;

static cudaError_t hw_floor_launch(void *ctx)
{
    hw_floor_t *f = (hw_floor_t *)ctx;
    cudaError_t e = cudaMemsetAsync(f->sum, 0, sizeof(uint32_t), 0);
    if (e != cudaSuccess)
        return e;
    k_read_keys<<<f->blocks, DH_THREADS>>>(f->keys, f->n, f->sum);
    return cudaGetLastError();
}

/* The time of reading the keys alone (ns; -1 on failure, WRONG counted). */
static double hw_floor_ns(wl_opts_t *o, const uint32_t *dkeys, const uint32_t *keys, size_t n, int sms)
{
    uint32_t host_sum = 0, dev_sum = 1, *dsum = NULL;
    int per_sm = 0;
    double ns = -1.0;
    for (size_t i = 0; i < n; ++i)
        host_sum += keys[i];
    if (!WL_CHECK(o, cudaMalloc((void **)&dsum, sizeof(uint32_t))) &&
        !WL_CHECK(o, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_read_keys, DH_THREADS, 0))) {
        hw_floor_t f = {dkeys, n, dsum, (uint32_t)(per_sm * sms)};
        const float ms = wl_time_ms_blocked(o, hw_floor_launch, &f);
        if (!WL_CHECK(o, cudaMemcpy(&dev_sum, dsum, sizeof dev_sum, cudaMemcpyDeviceToHost)) && dev_sum == host_sum &&
            ms > 0)
            ns = ms * 1e6;
        else if (dev_sum != host_sum) {
            printf("WRONG: the read-only floor kernel summed the keys to %u, want %u\n", dev_sum, host_sum);
            ++o->wrong;
        }
    }
    cudaFree(dsum);
    return ns;
}

int main(int argc, char **argv)
{
    wl_list_if_asked(argc, argv, hw_list);
    wl_opts_t o = wl_parse(argc, argv, "wl_histogram");
    FILE *csv = wl_open_csv(&o);
    const size_t n = (size_t)1 << (o.quick ? HW_LOG2_KEYS_QUICK : HW_LOG2_KEYS);
    const size_t nfine = (size_t)1 << HW_KEY_BITS;
    uint32_t *keys = (uint32_t *)malloc(sizeof(uint32_t) * n), *fine = (uint32_t *)malloc(sizeof(uint32_t) * nfine);
    uint32_t *want = (uint32_t *)malloc(sizeof(uint32_t) * nfine), *scratch = (uint32_t *)malloc(sizeof(uint32_t) * nfine);
    uint32_t *dkeys = NULL;
    float *dfkeys = NULL;
    int dev = 0, sms = 0, optin = 0;
    if (!keys || !fine || !want || !scratch) {
        fprintf(stderr, "wl_histogram: host allocation failed\n");
        return 2;
    }
    if (WL_CHECK(&o, cudaMalloc((void **)&dkeys, sizeof(uint32_t) * n)) ||
        WL_CHECK(&o, cudaMalloc((void **)&dfkeys, sizeof(float) * n)) || WL_CHECK(&o, cudaGetDevice(&dev)) ||
        WL_CHECK(&o, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) ||
        WL_CHECK(&o, cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev)))
        return wl_exit(&o);
    printf("# wl_histogram: 2^%d keys (values in [0, 2^%u)), median of %d interleaved rounds; ratio = cgc time / "
           "the anchor's (<= 2^15 bins: the same kernel in plain CUDA; 2^16, 2^17: the fastest of multi-pass, "
           "multi-pass with concurrent slices, C++ CG DSMEM)\n",
           o.quick ? HW_LOG2_KEYS_QUICK : HW_LOG2_KEYS, HW_KEY_BITS, o.repeats);
    printf("%-44s %-28s %10s %10s %7s %7s %-5s %s\n", "operation", "config", "cgc_ns", "anchor_ns", "ratio", "target",
           "verd", "note");

    for (int dist = 0; dist < 2; ++dist) {
        hw_make_keys(dist, n, keys, fine);
        if (WL_CHECK(&o, cudaMemcpy(dkeys, keys, sizeof(uint32_t) * n, cudaMemcpyHostToDevice)))
            break;
        k_to_float<<<1024, 256>>>(dkeys, dfkeys, n);
        if (WL_CHECK(&o, cudaGetLastError()) || WL_CHECK(&o, cudaDeviceSynchronize()))
            break;
        /* the floor: the keys read once by the same grid and loads, nothing counted */
        const double floor_ns = hw_floor_ns(&o, dkeys, keys, n, sms);
        printf("# %s keys: reading them alone (the floor) %.3f ms, %.1f Gkeys/s, %.0f GB/s\n", hw_dist_name[dist],
               floor_ns / 1e6, hw_gkeys(n, floor_ns), 4.0 * hw_gkeys(n, floor_ns));
        for (int lb = HW_MIN_LOG2_BINS; lb <= HW_MAX_LOG2_BINS; ++lb) {
            const uint32_t nbins = 1u << lb, shift = HW_KEY_BITS - (uint32_t)lb;
            for (uint32_t b = 0; b < nbins; ++b) {
                uint32_t w = 0;
                for (uint32_t k = 0; k < (1u << shift); ++k)
                    w += fine[(b << shift) + k];
                want[b] = w;
            }
            const dh_params_t p = {dkeys, n, NULL, nbins, shift}; /* keys, n, hist (each its own), bins, shift */
            hw_run_t r[HW_MAX_RUNS];
            const int nr = hw_contenders(r, lb, p, dfkeys, optin);
            for (int i = 0; i < nr; ++i)
                if (r[i].kernel || r[i].kind == HW_CUB_U32 || r[i].kind == HW_CUB_F32)
                    hw_setup(&o, &r[i], sms);
            hw_measure(&o, r, nr, want, n, scratch);
            hw_rows(&o, csv, dist, lb, r, nr, n, floor_ns);
            for (int i = 0; i < nr; ++i)
                hw_free(&r[i]);
        }
    }
    cudaFree(dkeys);
    cudaFree(dfkeys);
    free(keys);
    free(fine);
    free(want);
    free(scratch);
    if (csv)
        fclose(csv);
    return wl_exit(&o);
}
