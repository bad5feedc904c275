/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/warp_aggregated_atomics.cu — a port of NVIDIA's CUDA sample
 * warpAggregatedAtomicsCG to C with cgc.
 *
 * Part 1, filter: every thread that holds a positive value reserves one slot
 * of the output with a warp-aggregated increment: the threads that took the
 * branch form a coalesced group, its rank 0 adds the group's size to the
 * counter once, the old value is broadcast from rank 0, and each thread
 * writes at old + its rank. One atomic per warp instead of one per thread.
 *
 * Part 2, buckets: every index whose value v is below the bucket count goes
 * into bucket v's slice of an index array. The same increment, but on the
 * threads of the coalesced group that have the same bucket
 * (labeled_partition by the bucket number): one atomic per distinct bucket
 * per warp.
 *
 * The C++ -> cgc map:
 *   cg::coalesced_group a = cg::coalesced_threads(); -> cg_coalesced_group_t a = cg_coalesced_threads();
 *   a.thread_rank(), a.size()          -> cg_coalesced_thread_rank(&a), cg_coalesced_num_threads(&a)
 *   a.shfl(res, 0)                     -> cg_coalesced_shfl_i32(&a, res, 0)
 *   cg::labeled_partition(a, bucket)   -> cg_coalesced_labeled_partition(&a, (uint32_t)bucket)
 *   cg::this_grid().thread_rank()/size() -> cg_grid_thread_rank(&g), cg_grid_num_threads(&g)
 *
 * Both versions (cgc, and the C++ CG code as the oracle) run in this process
 * on the same fresh random input, each into its own output. Checks: each
 * count equals the host's; the filtered output holds exactly the host's
 * multiset of positive values (compared as a histogram over the value range,
 * which is the same as sorting both and comparing) and nothing was written
 * past the count (the rest is still poison); each bucket's slice holds exactly
 * the indices whose value is that bucket, each once; cgc's counts equal C++'s.
 */
#include <cooperative_groups.h>
#include <cuda_runtime.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cgc/cg/cg.h>

#include "example_util.h"

namespace cpp_cg = cooperative_groups;

#define WAA_N (1 << 21)       /* elements (1 << 16 under CGT_QUICK) */
#define WAA_RANGE 1000        /* filter input values in [-WAA_RANGE, WAA_RANGE] */
#define WAA_BUCKETS 5         /* the sample's bucket count */
#define WAA_BLOCK 512         /* the sample's block size */
#define WAA_POISON ((int)0x80000001)

/* --------------------------------------------------------------------------
 * cgc (C style)
 * ------------------------------------------------------------------------ */

/* Reserve one slot of *counter for each calling thread, one atomic per
 * coalesced group: returns the caller's slot. */
static __device__ int cgc_agg_inc(int *counter)
{
    cg_coalesced_group_t active = cg_coalesced_threads();
    int base = 0;
    if (cg_coalesced_thread_rank(&active) == 0)
        base = atomicAdd(counter, (int)cg_coalesced_num_threads(&active));
    base = cg_coalesced_shfl_i32(&active, base, 0);
    return base + (int)cg_coalesced_thread_rank(&active);
}

__global__ void cgc_filter_positive(int *dst, int *nres, const int *src, int n)
{
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x)
        if (src[i] > 0)
            dst[cgc_agg_inc(nres)] = src[i];
}

/* The same with one atomic per bucket present among the coalesced threads. */
static __device__ int cgc_agg_inc_bucket(int bucket, int *counters)
{
    cg_coalesced_group_t active = cg_coalesced_threads();
    cg_coalesced_group_t same = cg_coalesced_labeled_partition(&active, (uint32_t)bucket);
    int base = 0;
    if (cg_coalesced_thread_rank(&same) == 0)
        base = atomicAdd(&counters[bucket], (int)cg_coalesced_num_threads(&same));
    base = cg_coalesced_shfl_i32(&same, base, 0);
    return base + (int)cg_coalesced_thread_rank(&same);
}

__global__ void cgc_map_to_buckets(const int *src, int *indices, int *counters, int n, int nbuckets)
{
    cg_grid_t grid = cg_this_grid();
    for (int i = (int)cg_grid_thread_rank(&grid); i < n; i += (int)cg_grid_num_threads(&grid)) {
        const int bucket = src[i];
        if (bucket < nbuckets)
            indices[cgc_agg_inc_bucket(bucket, counters)] = i;
    }
}

/* --------------------------------------------------------------------------
 * C++ CG (the oracle)
 * ------------------------------------------------------------------------ */

static __device__ int cpp_agg_inc(int *counter)
{
    cpp_cg::coalesced_group active = cpp_cg::coalesced_threads();
    int base = 0;
    if (active.thread_rank() == 0)
        base = atomicAdd(counter, (int)active.size());
    base = active.shfl(base, 0);
    return base + (int)active.thread_rank();
}

__global__ void cpp_filter_positive(int *dst, int *nres, const int *src, int n)
{
    for (int i = threadIdx.x + blockIdx.x * blockDim.x; i < n; i += gridDim.x * blockDim.x)
        if (src[i] > 0)
            dst[cpp_agg_inc(nres)] = src[i];
}

static __device__ int cpp_agg_inc_bucket(int bucket, int *counters)
{
    cpp_cg::coalesced_group active = cpp_cg::coalesced_threads();
    cpp_cg::coalesced_group same = cpp_cg::labeled_partition(active, bucket);
    int base = 0;
    if (same.thread_rank() == 0)
        base = atomicAdd(&counters[bucket], (int)same.size());
    base = same.shfl(base, 0);
    return base + (int)same.thread_rank();
}

__global__ void cpp_map_to_buckets(const int *src, int *indices, int *counters, int n, int nbuckets)
{
    cpp_cg::grid_group grid = cpp_cg::this_grid();
    for (int i = (int)grid.thread_rank(); i < n; i += (int)grid.size()) {
        const int bucket = src[i];
        if (bucket < nbuckets)
            indices[cpp_agg_inc_bucket(bucket, counters)] = i;
    }
}

/* --------------------------------------------------------------------------
 * Host
 * ------------------------------------------------------------------------ */

static uint64_t waa_next(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Check one filter output: count, multiset (histogram over the value range)
 * and poison past the count. 0 when right, 1 with `detail` set. */
static int check_filter(int n, const char *who, const int *out, int count, int want_count, const unsigned *want_hist,
                        unsigned *hist, char *detail, size_t detail_len)
{
    if (count != want_count) {
        snprintf(detail, detail_len, "filter (%s): count %d, host counted %d positive values", who, count,
                 want_count);
        return 1;
    }
    memset(hist, 0, sizeof(unsigned) * (WAA_RANGE + 1));
    for (int k = 0; k < count; ++k) {
        if (out[k] <= 0 || out[k] > WAA_RANGE) {
            snprintf(detail, detail_len, "filter (%s): out[%d] = %d, not a positive input value", who, k, out[k]);
            return 1;
        }
        hist[out[k]]++;
    }
    for (int v = 1; v <= WAA_RANGE; ++v)
        if (hist[v] != want_hist[v]) {
            snprintf(detail, detail_len, "filter (%s): value %d appears %u times in the output, %u in the input",
                     who, v, hist[v], want_hist[v]);
            return 1;
        }
    for (int k = count; k < n; ++k)
        if (out[k] != WAA_POISON) {
            snprintf(detail, detail_len, "filter (%s): out[%d] = %d written past the count %d", who, k, out[k],
                     count);
            return 1;
        }
    return 0;
}

/* Check one bucket output: each bucket's count and that its slice holds every
 * index of that bucket exactly once. `seen` is n bytes of scratch. */
static int check_buckets(int n, const char *who, const int *idx, const int *counters, const int *src,
                         const int *want_count, unsigned char *seen, char *detail, size_t detail_len)
{
    memset(seen, 0, n);
    for (int b = 0; b < WAA_BUCKETS; ++b) {
        const int got = counters[b] - b * n;
        if (got != want_count[b]) {
            snprintf(detail, detail_len, "buckets (%s): bucket %d holds %d indices, host counted %d", who, b, got,
                     want_count[b]);
            return 1;
        }
        for (int k = 0; k < got; ++k) {
            const int i = idx[(size_t)b * n + k];
            if (i < 0 || i >= n || src[i] != b || seen[i]) {
                snprintf(detail, detail_len,
                         "buckets (%s): bucket %d slot %d holds index %d (value %d, %s)", who, b, k, i,
                         i >= 0 && i < n ? src[i] : -1,
                         i >= 0 && i < n && seen[i] ? "already seen" : "wrong bucket");
                return 1;
            }
            seen[i] = 1;
        }
    }
    return 0;
}

extern "C" int cgx_warp_aggregated_atomics(char *detail, size_t detail_len)
{
    if (cgx_require_sm90("cgc's examples", detail, detail_len) != 0)
        return 2;
    const int n = cgx_quick() ? 1 << 16 : WAA_N;
    const size_t nb = (size_t)n * sizeof(int);
    const size_t bucket_bytes = nb * WAA_BUCKETS;
    int *h_src = (int *)malloc(nb), *h_bsrc = (int *)malloc(nb), *h_out = (int *)malloc(bucket_bytes);
    unsigned *want_hist = (unsigned *)calloc(WAA_RANGE + 1, sizeof(unsigned));
    unsigned *hist = (unsigned *)malloc(sizeof(unsigned) * (WAA_RANGE + 1));
    unsigned char *seen = (unsigned char *)malloc(n);
    int *d_src = NULL, *d_bsrc = NULL, *d_out = NULL, *d_cnt = NULL;
    int want_pos = 0, want_bucket[WAA_BUCKETS] = {0}, counts[2] = {0, 0};
    int ctr[2][WAA_BUCKETS], init[WAA_BUCKETS];
    int rc = 2;
    uint64_t seed = (uint64_t)time(NULL) ^ 0x9e3779b97f4a7c15ull, s;
    if (!h_src || !h_bsrc || !h_out || !want_hist || !hist || !seen) {
        snprintf(detail, detail_len, "host allocation failed");
        goto done;
    }
    s = seed;
    for (int i = 0; i < n; ++i) {
        /* runs of one sign now and then, so warps see every mix of branches */
        const uint64_t r = waa_next(&s);
        int v = (int)(r % (2 * WAA_RANGE + 1)) - WAA_RANGE;
        if ((i >> 10) % 7 == 3)
            v = v < 0 ? -v : v;
        h_src[i] = v;
        if (v > 0) {
            want_pos++;
            want_hist[v]++;
        }
        const int b = (int)((r >> 32) % (WAA_BUCKETS + 2)); /* a few beyond the last bucket */
        h_bsrc[i] = b;
        if (b < WAA_BUCKETS)
            want_bucket[b]++;
    }
    for (int b = 0; b < WAA_BUCKETS; ++b)
        init[b] = b * n; /* bucket b's slice starts at b * N, as in the sample */

    CGX_CUDA(cudaMalloc((void **)&d_src, nb));
    CGX_CUDA(cudaMalloc((void **)&d_bsrc, nb));
    CGX_CUDA(cudaMalloc((void **)&d_out, bucket_bytes));
    CGX_CUDA(cudaMalloc((void **)&d_cnt, sizeof(int) * WAA_BUCKETS));
    CGX_CUDA(cudaMemcpy(d_src, h_src, nb, cudaMemcpyHostToDevice));
    CGX_CUDA(cudaMemcpy(d_bsrc, h_bsrc, nb, cudaMemcpyHostToDevice));

    /* Part 1: the filter, cgc then C++; the output is poisoned word by word
     * (WAA_POISON is no repeated byte, so cudaMemset cannot write it) */
    rc = 0;
    for (int v = 0; v < 2 && rc == 0; ++v) {
        for (int i = 0; i < n; ++i)
            h_out[i] = WAA_POISON;
        CGX_CUDA(cudaMemcpy(d_out, h_out, nb, cudaMemcpyHostToDevice));
        CGX_CUDA(cudaMemset(d_cnt, 0, sizeof(int)));
        const unsigned grid = (n + WAA_BLOCK - 1) / WAA_BLOCK / 4; /* 4 elements a thread */
        if (v == 0)
            cgc_filter_positive<<<grid, WAA_BLOCK>>>(d_out, d_cnt, d_src, n);
        else
            cpp_filter_positive<<<grid, WAA_BLOCK>>>(d_out, d_cnt, d_src, n);
        CGX_CUDA(cudaGetLastError());
        CGX_CUDA(cudaDeviceSynchronize());
        CGX_CUDA(cudaMemcpy(&counts[v], d_cnt, sizeof(int), cudaMemcpyDeviceToHost));
        CGX_CUDA(cudaMemcpy(h_out, d_out, nb, cudaMemcpyDeviceToHost));
        rc = check_filter(n, v == 0 ? "cgc" : "C++ CG", h_out, counts[v], want_pos, want_hist, hist, detail,
                          detail_len);
    }
    if (rc == 0 && counts[0] != counts[1]) {
        snprintf(detail, detail_len, "filter: cgc counted %d, C++ CG %d", counts[0], counts[1]);
        rc = 1;
    }

    /* Part 2: the buckets, cgc then C++ */
    for (int v = 0; v < 2 && rc == 0; ++v) {
        CGX_CUDA(cudaMemset(d_out, 0xff, bucket_bytes)); /* -1: no index */
        CGX_CUDA(cudaMemcpy(d_cnt, init, sizeof init, cudaMemcpyHostToDevice));
        const unsigned grid = (n + WAA_BLOCK - 1) / WAA_BLOCK; /* one element a thread, as the sample */
        if (v == 0)
            cgc_map_to_buckets<<<grid, WAA_BLOCK>>>(d_bsrc, d_out, d_cnt, n, WAA_BUCKETS);
        else
            cpp_map_to_buckets<<<grid, WAA_BLOCK>>>(d_bsrc, d_out, d_cnt, n, WAA_BUCKETS);
        CGX_CUDA(cudaGetLastError());
        CGX_CUDA(cudaDeviceSynchronize());
        CGX_CUDA(cudaMemcpy(ctr[v], d_cnt, sizeof ctr[v], cudaMemcpyDeviceToHost));
        CGX_CUDA(cudaMemcpy(h_out, d_out, bucket_bytes, cudaMemcpyDeviceToHost));
        rc = check_buckets(n, v == 0 ? "cgc" : "C++ CG", h_out, ctr[v], h_bsrc, want_bucket, seen, detail,
                           detail_len);
    }
    for (int b = 0; b < WAA_BUCKETS && rc == 0; ++b)
        if (ctr[0][b] != ctr[1][b]) {
            snprintf(detail, detail_len, "buckets: bucket %d: cgc counted %d, C++ CG %d", b,
                     ctr[0][b] - b * n, ctr[1][b] - b * n);
            rc = 1;
        }
    if (rc == 0)
        snprintf(detail, detail_len,
                 "%d values (seed %llu): %d positives filtered and %d + %d + %d + %d + %d indices bucketed, "
                 "cgc = C++ CG = host",
                 n, (unsigned long long)seed, want_pos, want_bucket[0], want_bucket[1], want_bucket[2],
                 want_bucket[3], want_bucket[4]);
done:
    cudaFree(d_src);
    cudaFree(d_bsrc);
    cudaFree(d_out);
    cudaFree(d_cnt);
    free(h_src);
    free(h_bsrc);
    free(h_out);
    free(want_hist);
    free(hist);
    free(seen);
    return rc;
}

CGX_MAIN(cgx_warp_aggregated_atomics)
