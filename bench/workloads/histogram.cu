/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/workloads/histogram.cu — wl_histogram: a histogram of 2^28 keys into
 * 2^12 .. 2^17 32-bit bins (16 KiB .. 512 KiB of counters), cgc's kernel of
 * examples/dsmem_histogram.cuh (the bins spread over a cluster's shared
 * memory, peers' bins reached with DSMEM reductions) against CUB's
 * DeviceHistogram::HistogramEven, in one process.
 *
 * Keys: 32-bit words holding values in [0, 2^17); bin = key >> (17 - log2
 * bins), CUB's HistogramEven with bins + 1 levels from 0 to 2^17 (the same
 * even bins). Two distributions, each drawn once on the host (xorshift,
 * fixed seed) with its exact count per key value:
 *   uniform: every value alike;
 *   skewed:  half the keys in 41 runs of 32 neighbouring values (1% of the
 *            value range, so 1% of the bins at every bin count), the other
 *            half uniform.
 *
 * cgc: a persistent grid (cg_max_active_clusters clusters of DH_THREADS
 * threads, launched with cg_launch), the cluster size from the bin count
 * (dh_cluster_for: 1 up to 2^15 bins, 2 at 2^16, 4 at 2^17); info rows
 * run the same kernel with 2x and 4x that cluster size. The timed launch is
 * cudaMemsetAsync of the output + the kernel (CUB's call likewise zeroes its
 * output with its own init kernel).
 *
 * The anchor: CUB's HistogramEven as a user calls it, twice: on the uint32
 * keys (CUB computes each bin as (key - lower) * bins / range in 64-bit
 * integer arithmetic) and on a float copy of the same keys (its
 * floating-point path: one multiply by the reciprocal); the row's ratio is
 * against the FASTER of the two, both times in the note. Temporary storage
 * is sized and allocated outside the timed region.
 *
 * The floor: a kernel with cgc's grid and loads that only sums the keys
 * (checked against the host's sum); each note says what fraction of its
 * speed the histogram reached.
 *
 * Timing: wl_time_ms_blocked (the host's work in cg_launch and in CUB's
 * dispatch hidden behind a blocking kernel), median of --repeats.
 *
 * Checks, in a separate launch of each (cgc at every cluster size, both CUB
 * calls), and again on what the last timed launch left: every bin equal to
 * the host's exact count, the total equal to the number of keys. A mismatch
 * prints WRONG with the first differing bin and the exit status is 3.
 *
 * Targets: cgc / CUB time <= 1/1.5 (1.5x CUB's throughput) at >= 2^16 bins,
 * <= 1.00 below.
 *
 *   wl_histogram [--csv PATH] [--quick] [--repeats R] [--list]
 */
#include <cub/device/device_histogram.cuh>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/workloads/wl.h"
#include "cg/cg.h"
#include "examples/dsmem_histogram.cuh"

/* --- the kernels: one per cluster size ----------------------------------------------- */

DH_KERNEL(k_hist_c1, 0)
DH_KERNEL(k_hist_c2, 1)
DH_KERNEL(k_hist_c4, 2)
DH_KERNEL(k_hist_c8, 3)
DH_KERNEL(k_hist_c16, 4)

static const void *hw_kernel(uint32_t c)
{
    switch (c) {
    case 1:
        return (const void *)k_hist_c1;
    case 2:
        return (const void *)k_hist_c2;
    case 4:
        return (const void *)k_hist_c4;
    case 8:
        return (const void *)k_hist_c8;
    case 16:
        return (const void *)k_hist_c16;
    default:
        return NULL;
    }
}

/* The floor: the same grid reads every key with the same 16-byte loads and
 * only sums them (mod 2^32, checked against the host's sum). n is a multiple
 * of 4 and keys 16-byte aligned here. */
__global__ void __launch_bounds__(DH_THREADS, 1) k_read_keys(const uint4 *keys, size_t nvec, uint32_t *sum)
{
    const size_t gt = (size_t)blockIdx.x * blockDim.x + threadIdx.x, gstride = (size_t)gridDim.x * blockDim.x;
    uint32_t acc = 0;
    size_t i = gt;
    for (; i + (DH_VECS - 1) * gstride < nvec; i += DH_VECS * gstride) {
        uint4 v[DH_VECS];
#pragma unroll
        for (int u = 0; u < DH_VECS; ++u)
            v[u] = __ldg(keys + i + u * gstride);
#pragma unroll
        for (int u = 0; u < DH_VECS; ++u)
            acc += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    for (; i < nvec; i += gstride) {
        const uint4 v = __ldg(keys + i);
        acc += v.x + v.y + v.z + v.w;
    }
    for (int o = 16; o > 0; o /= 2)
        acc += __shfl_xor_sync(0xffffffffu, acc, o);
    if ((threadIdx.x & 31u) == 0u)
        atomicAdd(sum, acc);
}

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
    k_read_keys<<<f->blocks, DH_THREADS>>>((const uint4 *)f->keys, f->n / 4u, f->sum);
    return cudaGetLastError();
}

__global__ void k_to_float(const uint32_t *in, float *out, size_t n)
{
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x)
        out[i] = (float)in[i];
}

#define HW_OP "workload: histogram"
#define HW_KEY_BITS 17u
#define HW_LOG2_KEYS 28
#define HW_LOG2_KEYS_QUICK 24
#define HW_MIN_LOG2_BINS 12
#define HW_MAX_LOG2_BINS 17
#define HW_HOT_RUNS 41u /* runs of 32 values: 1312 values = 1.0% of 2^17 */

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

/* --- launches ----------------------------------------------------------------------------- */

typedef struct hw_cgc {
    cg_launch_config_t cfg;
    const void *kernel;
    dh_params_t p;
    size_t hist_bytes;
} hw_cgc_t;

static cudaError_t hw_cgc_launch(void *ctx)
{
    hw_cgc_t *c = (hw_cgc_t *)ctx;
    void *args[] = {(void *)&c->p};
    cudaError_t e = cudaMemsetAsync(c->p.hist, 0, c->hist_bytes, 0);
    if (e != cudaSuccess)
        return e;
    const cg_status_t st = cg_launch(&c->cfg, c->kernel, args);
    if (st != CG_SUCCESS) {
        fprintf(stderr, "wl_histogram: cg_launch (%u blocks, cluster %u, %zu B shared): %s: %s\n", c->cfg.grid.x,
                c->cfg.cluster.x, c->cfg.dynamic_smem, cg_status_string(st), cg_last_error_detail());
        return cudaErrorLaunchFailure;
    }
    return cudaSuccess;
}

typedef struct hw_cub {
    int is_float;
    const uint32_t *keys;
    const float *fkeys;
    uint32_t *hist;
    int levels;
    int n;
    void *temp;
    size_t temp_bytes;
} hw_cub_t;

static cudaError_t hw_cub_call(hw_cub_t *c, void *temp, size_t *temp_bytes)
{
    if (c->is_float)
        return cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, c->fkeys, c->hist, c->levels, 0.0f,
                                                   (float)(1u << HW_KEY_BITS), c->n, (cudaStream_t)0);
    return cub::DeviceHistogram::HistogramEven(temp, *temp_bytes, c->keys, c->hist, c->levels, 0u,
                                               (unsigned)(1u << HW_KEY_BITS), c->n, (cudaStream_t)0);
}

static cudaError_t hw_cub_launch(void *ctx)
{
    hw_cub_t *c = (hw_cub_t *)ctx;
    size_t bytes = c->temp_bytes;
    return hw_cub_call(c, c->temp, &bytes);
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

/* Run launch once (output poisoned first) and check it. */
static int hw_run_check(wl_opts_t *o, wl_launch_fn launch, void *ctx, uint32_t *dhist, uint32_t nbins,
                        const uint32_t *want, size_t n, uint32_t *scratch, const char *who, char *why, size_t why_len)
{
    if (WL_CHECK(o, cudaMemset(dhist, 0xab, sizeof(uint32_t) * nbins)) || WL_CHECK(o, launch(ctx)) ||
        WL_CHECK(o, cudaDeviceSynchronize())) {
        snprintf(why, why_len, "%s: a CUDA error in the check launch (stderr)", who);
        return 1;
    }
    return hw_check(o, dhist, nbins, want, n, scratch, who, why, why_len);
}

/* --- rows ------------------------------------------------------------------------------------ */

/* The cluster sizes run at nbins: the chosen one first, then 2x and 4x (info). */
static int hw_clusters(uint32_t nbins, uint32_t out[3])
{
    const uint32_t c = dh_cluster_for(nbins);
    int k = 0;
    out[k++] = c;
    if (2u * c <= DH_MAX_CLUSTER)
        out[k++] = 2u * c;
    if (4u * c <= DH_MAX_CLUSTER)
        out[k++] = 4u * c;
    return k;
}

static double hw_target(int log2bins) { return log2bins >= 16 ? 1.0 / 1.5 : 1.0; }

static void hw_list(int quick)
{
    for (int dist = 0; dist < 2; ++dist)
        for (int lb = HW_MIN_LOG2_BINS; lb <= HW_MAX_LOG2_BINS; ++lb) {
            uint32_t cs[3];
            const int nc = hw_clusters(1u << lb, cs);
            for (int k = 0; k < nc; ++k)
                printf("%s%s | 2^%d bins, 2^%d keys, %s, cluster %u | %s\n", HW_OP, k ? " (info: other cluster size)" : "",
                       lb, quick ? HW_LOG2_KEYS_QUICK : HW_LOG2_KEYS, hw_dist_name[dist], cs[k],
                       k ? "info" : (lb >= 16 ? "target <=0.67 (>= 1.5x CUB)" : "target <=1.00"));
        }
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
    uint32_t *dkeys = NULL, *dhist = NULL;
    float *dfkeys = NULL;
    if (!keys || !fine || !want || !scratch) {
        fprintf(stderr, "wl_histogram: host allocation failed\n");
        return 2;
    }
    if (WL_CHECK(&o, cudaMalloc((void **)&dkeys, sizeof(uint32_t) * n)) ||
        WL_CHECK(&o, cudaMalloc((void **)&dfkeys, sizeof(float) * n)) ||
        WL_CHECK(&o, cudaMalloc((void **)&dhist, sizeof(uint32_t) * nfine)))
        return wl_exit(&o);
    printf("# wl_histogram: 2^%d keys (values in [0, 2^%u)), %u threads a CTA, median of %d; ratio = cgc time / the "
           "faster CUB call's\n",
           o.quick ? HW_LOG2_KEYS_QUICK : HW_LOG2_KEYS, HW_KEY_BITS, DH_THREADS, o.repeats);
    printf("%-44s %-28s %10s %10s %7s %7s %-5s %s\n", "operation", "config", "cgc_ns", "anchor_ns", "ratio", "target",
           "verd", "note");

    for (int dist = 0; dist < 2; ++dist) {
        hw_make_keys(dist, n, keys, fine);
        if (WL_CHECK(&o, cudaMemcpy(dkeys, keys, sizeof(uint32_t) * n, cudaMemcpyHostToDevice)))
            break;
        k_to_float<<<1024, 256>>>(dkeys, dfkeys, n);
        if (WL_CHECK(&o, cudaGetLastError()) || WL_CHECK(&o, cudaDeviceSynchronize()))
            break;
        /* the floor: the keys read once by a grid like cgc's, nothing counted */
        double floor_ns = -1.0;
        {
            uint32_t host_sum = 0, dev_sum = 1, *dsum = NULL;
            int per_sm = 0, dev = 0, sms = 0;
            for (size_t i = 0; i < n; ++i)
                host_sum += keys[i];
            if (!WL_CHECK(&o, cudaMalloc((void **)&dsum, sizeof(uint32_t))) && !WL_CHECK(&o, cudaGetDevice(&dev)) &&
                !WL_CHECK(&o, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev)) &&
                !WL_CHECK(&o, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_read_keys, DH_THREADS, 0))) {
                hw_floor_t f = {dkeys, n, dsum, (uint32_t)(per_sm * sms)};
                const float ms = wl_time_ms_blocked(&o, hw_floor_launch, &f);
                if (!WL_CHECK(&o, cudaMemcpy(&dev_sum, dsum, sizeof dev_sum, cudaMemcpyDeviceToHost)) &&
                    dev_sum == host_sum && ms > 0)
                    floor_ns = ms * 1e6;
                else if (dev_sum != host_sum) {
                    printf("WRONG: the read-only floor kernel summed the keys to %u, want %u\n", dev_sum, host_sum);
                    ++o.wrong;
                }
            }
            cudaFree(dsum);
            printf("# %s keys: reading them alone (the floor) %.3f ms, %.1f Gkeys/s, %.0f GB/s\n", hw_dist_name[dist],
                   floor_ns / 1e6, floor_ns > 0 ? n / floor_ns : 0.0, floor_ns > 0 ? 4.0 * n / floor_ns : 0.0);
        }
        for (int lb = HW_MIN_LOG2_BINS; lb <= HW_MAX_LOG2_BINS; ++lb) {
            const uint32_t nbins = 1u << lb, shift = HW_KEY_BITS - (uint32_t)lb;
            char config[96], note[640], why[256], cub_why[256];
            for (uint32_t b = 0; b < nbins; ++b) {
                uint32_t w = 0;
                for (uint32_t k = 0; k < (1u << shift); ++k)
                    w += fine[(b << shift) + k];
                want[b] = w;
            }

            /* the anchor: both CUB calls, each checked, the faster one timed as the anchor */
            double cub_ns[2] = {-1.0, -1.0};
            int cub_wrong = 0;
            cub_why[0] = '\0';
            for (int f = 0; f < 2; ++f) {
                hw_cub_t c;
                memset(&c, 0, sizeof c);
                c.is_float = f;
                c.keys = dkeys;
                c.fkeys = dfkeys;
                c.hist = dhist;
                c.levels = (int)nbins + 1;
                c.n = (int)n;
                if (WL_CHECK(&o, hw_cub_call(&c, NULL, &c.temp_bytes)) ||
                    WL_CHECK(&o, cudaMalloc(&c.temp, c.temp_bytes ? c.temp_bytes : 16)))
                    continue;
                if (hw_run_check(&o, hw_cub_launch, &c, dhist, nbins, want, n, scratch,
                                 f ? "CUB (float samples)" : "CUB (uint32 samples)", why, sizeof why)) {
                    cub_wrong = 1;
                    snprintf(cub_why, sizeof cub_why, "%s", why);
                } else {
                    const float ms = wl_time_ms_blocked(&o, hw_cub_launch, &c);
                    if (ms > 0)
                        cub_ns[f] = ms * 1e6;
                    if (hw_check(&o, dhist, nbins, want, n, scratch, f ? "CUB (float) after timing" : "CUB after timing",
                                 why, sizeof why)) {
                        cub_wrong = 1;
                        snprintf(cub_why, sizeof cub_why, "%s", why);
                    }
                }
                cudaFree(c.temp);
            }
            const int best = cub_ns[1] > 0 && (cub_ns[0] <= 0 || cub_ns[1] < cub_ns[0]) ? 1 : 0;
            const double anc_ns = cub_ns[best];

            uint32_t cs[3];
            const int nc = hw_clusters(nbins, cs);
            for (int k = 0; k < nc; ++k) {
                const uint32_t C = cs[k];
                snprintf(config, sizeof config, "2^%d bins, %s, cluster %u", lb, dist ? "skewed" : "uniform", C);
                hw_cgc_t c;
                memset(&c, 0, sizeof c);
                const cg_launch_config_t init = CG_LAUNCH_CONFIG_INIT;
                c.cfg = init;
                c.cfg.block.x = DH_THREADS;
                c.cfg.cluster.x = C > 1 ? C : 0; /* C = 1: a plain launch */
                c.cfg.dynamic_smem = DH_SMEM_BYTES(nbins, C);
                c.kernel = hw_kernel(C);
                c.p.keys = dkeys;
                c.p.n = n;
                c.p.hist = dhist;
                c.p.nbins = nbins;
                c.p.shift = shift;
                c.hist_bytes = sizeof(uint32_t) * nbins;
                uint32_t clusters = 0;
                const cg_status_t st = cg_max_active_clusters(&c.cfg, c.kernel, &clusters);
                wl_row_t row;
                memset(&row, 0, sizeof row);
                row.op = k ? HW_OP " (info: other cluster size)" : HW_OP;
                row.config = config;
                row.cgc_what = C > 1 ? "cgc (bins over the cluster's DSMEM, cg_dsmem_red_add_relaxed_u32)"
                                     : "cgc (bins in the CTA's shared memory, no cluster)";
                row.anc_what = best ? "CUB HistogramEven (float samples)" : "CUB HistogramEven (uint32 samples)";
                row.max_ratio = k ? 0.0 : hw_target(lb);
                row.min_speedup = k ? 0.0 : 1.0 / hw_target(lb);
                if (st != CG_SUCCESS || clusters == 0) {
                    snprintf(note, sizeof note, "cluster %u does not fit: %s: %s", C, cg_status_string(st),
                             cg_last_error_detail());
                    row.note = note;
                    wl_row(&o, csv, &row);
                    continue;
                }
                c.cfg.grid.x = clusters * C;
                int wrong = hw_run_check(&o, hw_cgc_launch, &c, dhist, nbins, want, n, scratch, "cgc", why, sizeof why);
                double cgc_ns = -1.0;
                if (!wrong) {
                    const float ms = wl_time_ms_blocked(&o, hw_cgc_launch, &c);
                    if (ms > 0)
                        cgc_ns = ms * 1e6;
                    wrong = hw_check(&o, dhist, nbins, want, n, scratch, "cgc after timing", why, sizeof why);
                }
                row.cgc_ns = cgc_ns;
                row.anc_ns = anc_ns;
                row.wrong = wrong || cub_wrong;
                if (wrong)
                    snprintf(note, sizeof note, "WRONG: %s", why);
                else if (cub_wrong)
                    snprintf(note, sizeof note, "WRONG (the anchor): %s", cub_why);
                else
                    snprintf(note, sizeof note,
                             "cgc %.1f Gkeys/s (%.0f GB/s, %.0f%% of reading the keys alone), %u clusters x %u x %u "
                             "threads, %zu KiB counters/CTA; CUB uint32 %.1f, float %.1f Gkeys/s; every bin checked",
                             cgc_ns > 0 ? n / cgc_ns : 0.0, cgc_ns > 0 ? 4.0 * n / cgc_ns : 0.0,
                             cgc_ns > 0 && floor_ns > 0 ? 100.0 * floor_ns / cgc_ns : 0.0, clusters, C, DH_THREADS,
                             DH_SMEM_BYTES(nbins, C) / 1024, cub_ns[0] > 0 ? n / cub_ns[0] : 0.0,
                             cub_ns[1] > 0 ? n / cub_ns[1] : 0.0);
                row.note = note;
                wl_row(&o, csv, &row);
            }
        }
    }
    cudaFree(dkeys);
    cudaFree(dfkeys);
    cudaFree(dhist);
    free(keys);
    free(fine);
    free(want);
    free(scratch);
    if (csv)
        fclose(csv);
    return wl_exit(&o);
}
