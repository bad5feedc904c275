/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/stream.cu — the streaming rows (issue 13): global -> shared through
 * cg_pipeline_t, and the multicast example's kernel against its twin.
 *
 * Unlike the other rows these do not loop an operation a.iters times: every
 * launch streams the whole source (1 GiB, or a quarter of free memory if that
 * is less) once, and the row reports the median time of a launch, the bytes
 * per second it reaches, and the device's copy roofline measured in the same
 * run. Every timed launch's checksum is compared with the host's; a wrong one
 * marks the row WRONG (the runner exits 3).
 *
 *   c_stream_pipelineN      cg_pipeline_t, N = 2, 3, 4 stages of 24 KiB:
 *                           warp 0's elected thread issues one bulk copy per
 *                           stage, 4 consumer warps sum every word; 2 blocks/SM
 *   a_stream_plain          the plain int4-load streaming kernel: 4 loads in
 *                           flight per thread (ld.global.nc.v4), 1024 threads,
 *                           2 blocks/SM, summing every word
 *   a_stream_cuda_pipelineN cuda::pipeline<thread_scope_block> with N stages,
 *                           cuda::memcpy_async(block, ..., pipe) of 24 KiB
 *                           tiles, every thread produces and consumes; the
 *                           same grid and tiles as the cgc kernel
 *   c_project_sliced / c_project_multicast / c_project_local
 *                           examples/pipeline_project.cuh: every CTA loads
 *                           a 1/C slice of each tile and multicasts it
 *                           (sliced), one root CTA loads and multicasts
 *                           every tile (multicast), every CTA loads every
 *                           tile itself (local, the twin); clusters of the
 *                           row's size. The anchor of these rows is the
 *                           FASTER twin: the twin is timed both in the
 *                           row's clusters and without a cluster launch
 *                           (a.group), interleaved with the cgc kernel
 *                           (A B C A B C ...), every launch checked
 *   c_project_sliced_l2 / c_project_local_l2
 *                           the same on an 8 MiB L2-resident input read
 *                           again and again (PJ_L2_WINDOW_TILES): the twin
 *                           is L2 -> SM bound, where multicast can pay
 *   d_project_*_every_sm (bench/designs/pipeline_every_sm.cu)
 *                           the same sliced kernel and twin launched with
 *                           the first GPU run's grid (every SM, whole
 *                           clusters); the library rows launch every
 *                           cluster kernel with one wave of co-resident
 *                           clusters (bs_one_wave_grid)
 *   p_project_timed_*       probe: the same with PJ_TIMED (cycles per step)
 *
 * Checksums: the stream kernels add every 32-bit word into a 64-bit sum per
 * block; the projection kernels each CTA's dot products (mod 2^32), checked
 * per cluster rank. The source is written once by a fill kernel with word
 * i = bs_hash(i) and the host computes every expected sum from the same hash.
 *
 * The roofline: a device-to-device cudaMemcpy of the same size, timed in the
 * same run, counted as read + write bytes (2 x size / time); the theoretical
 * peak from the device attributes (memory clock x bus width x 2) is printed
 * beside it.
 */
#include <cuda/pipeline>
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cg/cg.h"

#include "bench/bench.h"
#include "bench/project_forms.cuh"
#include "examples/pipeline_project.cuh"

#define BS_TILE 24576u                  /* stage / tile bytes of the stream rows */
#define BS_TILE_VECS (BS_TILE / 16u)
#define BS_CONSUMER_WARPS 4u
#define BS_CGC_THREADS (32u * (1u + BS_CONSUMER_WARPS))
#define BS_CUDA_PIPE_THREADS 256u
#define BS_PLAIN_THREADS 1024u
#define BS_BLOCKS_PER_SM 2u

static __host__ __device__ __forceinline__ uint32_t bs_hash(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

/* Sum of a warp's lanes' values; lane 0 adds it to *slot. */
static __device__ __forceinline__ void bs_warp_add(unsigned long long *slot, unsigned long long s)
{
    for (int d = 16; d > 0; d /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, d);
    if ((threadIdx.x & 31u) == 0)
        atomicAdd(slot, s);
}

static __device__ __forceinline__ unsigned long long bs_sum4(uint4 v)
{
    return (unsigned long long)v.x + v.y + v.z + v.w;
}

// --- cgc: the warp-specialized pipeline ---------------------------------------------------

/* read_before_wait (the self-test's defect, a constant at each call): the
 * consumers read a stage before its wait, then wait and release as the
 * protocol asks. */
static __device__ __forceinline__ void bs_stream_pipeline(const bench_args_t &a, uint32_t stages,
                                                          bool read_before_wait)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    cg_pipeline_t p = cg_pipeline_attach(smem, stages, BS_TILE);
    if (threadIdx.x == 0)
        cg_pipeline_init_barriers(&p, 1, BS_CONSUMER_WARPS);
    __syncthreads();
    const int4 *src = a.src;
    if (warp == 0) {
        if (cg_elect_sync(0xffffffffu))
            for (unsigned long long t = blockIdx.x; t < a.ntiles; t += gridDim.x) {
                cg_pipeline_producer_acquire(&p);
                cg_pipeline_producer_copy(&p, 0, src + t * BS_TILE_VECS, BS_TILE);
                cg_pipeline_producer_commit(&p, BS_TILE);
            }
        __syncwarp();
        return;
    }
    unsigned long long s = 0;
    for (unsigned long long t = blockIdx.x; t < a.ntiles; t += gridDim.x) {
        const uint4 *x = read_before_wait ? (const uint4 *)cg_pipeline_stage(&p, cg_pipeline_consumer_index(&p))
                                          : (const uint4 *)cg_pipeline_consumer_wait(&p);
        for (uint32_t i = (warp - 1u) * 32u + lane; i < BS_TILE_VECS; i += BS_CONSUMER_WARPS * 32u)
            s += bs_sum4(x[i]);
        if (read_before_wait)
            (void)cg_pipeline_consumer_wait(&p);
        cg_pipeline_consumer_release_warp(&p);
    }
    bs_warp_add(&a.acc[blockIdx.x], s);
}

#define BS_PIPELINE_KERNEL(N)                                                                     \
    __global__ void __launch_bounds__(BS_CGC_THREADS) kb_stream_pipeline##N(bench_args_t a)      \
    {                                                                                             \
        bs_stream_pipeline(a, N, false);                                                          \
    }                                                                                             \
    BENCH_EXPORT(c_stream_pipeline##N, kb_stream_pipeline##N)
BS_PIPELINE_KERNEL(2)
BS_PIPELINE_KERNEL(3)
BS_PIPELINE_KERNEL(4)

// --- anchor: plain 16-byte loads --------------------------------------------------------------

__global__ void __launch_bounds__(BS_PLAIN_THREADS) kb_stream_plain(bench_args_t a)
{
    const uint4 *src = (const uint4 *)a.src;
    const unsigned long long nvec = a.ntiles * BS_TILE_VECS;
    const unsigned long long stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x, s = 0;
    for (; i + 3u * stride < nvec; i += 4u * stride) { /* four loads in flight, then the adds */
        const uint4 v0 = __ldg(src + i), v1 = __ldg(src + i + stride), v2 = __ldg(src + i + 2u * stride),
                    v3 = __ldg(src + i + 3u * stride);
        s += bs_sum4(v0) + bs_sum4(v1) + bs_sum4(v2) + bs_sum4(v3);
    }
    for (; i < nvec; i += stride)
        s += bs_sum4(__ldg(src + i));
    bs_warp_add(&a.acc[blockIdx.x], s);
}
BENCH_EXPORT(a_stream_plain, kb_stream_plain)

// --- anchor: cuda::pipeline ring of the same depth ---------------------------------------------

template <int N>
__global__ void __launch_bounds__(BS_CUDA_PIPE_THREADS) kb_stream_cuda_pipeline(bench_args_t a)
{
    extern __shared__ __align__(128) uint4 tiles[];
    /* raw storage: a __shared__ object with a constructor is refused, and
     * make_pipeline initializes the state's barriers itself */
    typedef cuda::pipeline_shared_state<cuda::thread_scope_block, N> state_t;
    __shared__ alignas(state_t) unsigned char storage[sizeof(state_t)];
    auto block = cooperative_groups::this_thread_block();
    auto pipe = cuda::make_pipeline(block, reinterpret_cast<state_t *>(storage));
    const int4 *src = a.src;
    const unsigned long long first = blockIdx.x, step = gridDim.x;
    const unsigned long long mine = a.ntiles > first ? (a.ntiles - first + step - 1u) / step : 0u;
    unsigned long long next = 0, s = 0;
    for (; next < mine && next < (unsigned long long)N; ++next) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, tiles + (next % N) * BS_TILE_VECS, src + (first + next * step) * BS_TILE_VECS,
                           cuda::aligned_size_t<16>(BS_TILE), pipe);
        pipe.producer_commit();
    }
    for (unsigned long long u = 0; u < mine; ++u) {
        pipe.consumer_wait();
        const uint4 *x = tiles + (u % N) * BS_TILE_VECS;
        for (uint32_t i = threadIdx.x; i < BS_TILE_VECS; i += BS_CUDA_PIPE_THREADS)
            s += bs_sum4(x[i]);
        pipe.consumer_release();
        if (next < mine) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, tiles + (next % N) * BS_TILE_VECS, src + (first + next * step) * BS_TILE_VECS,
                               cuda::aligned_size_t<16>(BS_TILE), pipe);
            pipe.producer_commit();
            ++next;
        }
    }
    bs_warp_add(&a.acc[blockIdx.x], s);
}
BENCH_EXPORT(a_stream_cuda_pipeline2, kb_stream_cuda_pipeline<2>)
BENCH_EXPORT(a_stream_cuda_pipeline3, kb_stream_cuda_pipeline<3>)
BENCH_EXPORT(a_stream_cuda_pipeline4, kb_stream_cuda_pipeline<4>)

// --- the multicast example's kernel and its twin -----------------------------------------------

BD_SLICED_PAIR(c_project_sliced)

__global__ void __launch_bounds__(PJ_THREADS) kb_project_multicast(bench_args_t a)
{
    pj_project((const uint32_t *)a.src, a.ntiles, NULL, a.acc, PJ_ROOT);
}
BENCH_EXPORT(c_project_multicast, kb_project_multicast)

/* The twin: launched in clusters (a.group 0) or, for the faster-twin
 * anchor, without (a.group = the row's cluster size; bench_stream_row). */
BD_TWIN_PAIR(c_project_local)

/* The _l2 forms above (c_project_sliced_l2, c_project_local_l2) read an
 * input of PJ_L2_WINDOW_TILES tiles (8 MiB) again and again: tile t of the
 * launch is tile t % 512 of the source, so after the first pass every load
 * hits L2, and the twin asks L2 for C copies of every tile (one per CTA of
 * the group) while the multicast form asks for one. Each tile is 4096
 * multiply-adds of 32-bit words per CTA: far less work per byte than the
 * SM could do, so the twin waits on L2 -> SM bandwidth, the case multicast is
 * built for (a filter bank, a batch of heads or experts scoring the same
 * input: every CTA of a cluster applies its own weights to the same data). */

// --- self-test: broken variants (bench --self-test) --------------------------------------------

/* The 2-stage stream pipeline whose consumers read each stage before its
 * wait (then wait and release as the protocol asks): the checksum must come
 * out wrong. */
__global__ void __launch_bounds__(BS_CGC_THREADS) kd_stream_pipeline_broken(bench_args_t a)
{
    bs_stream_pipeline(a, 2, true);
}
BENCH_EXPORT(d_stream_pipeline_broken, kd_stream_pipeline_broken)

/* The sliced multicast kernel whose consumers read each stage before its
 * wait is the example's own kernel with PJ_READ_BEFORE_WAIT: its own
 * translation unit, selftest_project.cu. */

// --- host: the source, the expected sums, the roofline ------------------------------------------

__global__ void kb_stream_fill(uint32_t *dst, unsigned long long n)
{
    for (unsigned long long i = (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x; i < n;
         i += (unsigned long long)gridDim.x * blockDim.x)
        dst[i] = bs_hash((uint32_t)i);
}

typedef struct stream_state {
    int ready;
    uint32_t *src;
    size_t bytes;                  /* a multiple of both tile sizes */
    unsigned long long total;      /* sum of every word */
    uint32_t *colsum;              /* sum over tiles of word j of each tile (mod 2^32) */
    uint32_t *colsum_win;          /* the same over the tiles an L2-resident row reads (t % window) */
    unsigned long long *acc;       /* per-block sums */
    size_t acc_slots;
    double d2d_tbs, peak_tbs;      /* roofline */
    cudaStream_t stream;
    cudaEvent_t ev0, ev1;
} stream_state_t;

static stream_state_t g_bs;

#define BS_CK(call)                                 \
    do {                                            \
        cudaError_t e_ = (call);                    \
        if (e_ != cudaSuccess)                      \
            return (int)e_;                         \
    } while (0)

static int bs_setup(void)
{
    stream_state_t *g = &g_bs;
    if (g->ready)
        return 0;
    size_t free_b = 0, total_b = 0;
    BS_CK(cudaMemGetInfo(&free_b, &total_b));
    /* 1 GiB rounded up to whole tiles of both kinds (24 and 16 KiB), or a
     * quarter of free memory (the source and the roofline's copy target) */
    const size_t unit = 3u * PJ_TILE_BYTES;
    size_t want = (((size_t)1 << 30) + unit - 1u) / unit * unit;
    if (want > free_b / 4)
        want = free_b / 4 / unit * unit;
    g->bytes = want;
    BS_CK(cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking));
    BS_CK(cudaEventCreate(&g->ev0));
    BS_CK(cudaEventCreate(&g->ev1));
    BS_CK(cudaMalloc((void **)&g->src, want));
    g->acc_slots = 4096;
    BS_CK(cudaMalloc((void **)&g->acc, g->acc_slots * 8));
    kb_stream_fill<<<1024, 256, 0, g->stream>>>(g->src, want / 4u);
    BS_CK(cudaGetLastError());
    /* the roofline: a device-to-device copy of the same size, best of 3 */
    void *dst = NULL;
    BS_CK(cudaMalloc(&dst, want));
    float best = 0.f;
    for (int r = 0; r < 4; ++r) {
        float ms = 0.f;
        BS_CK(cudaEventRecord(g->ev0, g->stream));
        BS_CK(cudaMemcpyAsync(dst, g->src, want, cudaMemcpyDeviceToDevice, g->stream));
        BS_CK(cudaEventRecord(g->ev1, g->stream));
        BS_CK(cudaEventSynchronize(g->ev1));
        BS_CK(cudaEventElapsedTime(&ms, g->ev0, g->ev1));
        if (r > 0 && (best == 0.f || ms < best)) /* the first is a warm-up */
            best = ms;
    }
    BS_CK(cudaFree(dst));
    g->d2d_tbs = 2.0 * (double)want / ((double)best * 1e-3) / 1e12;
    int mem_khz = 0, bus_bits = 0;
    BS_CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    BS_CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    g->peak_tbs = 2.0 * (double)mem_khz * 1e3 * (double)bus_bits / 8.0 / 1e12;
    /* the expected sums, from the fill's hash */
    g->colsum = (uint32_t *)calloc(PJ_TILE_WORDS, 4);
    g->colsum_win = (uint32_t *)calloc(PJ_TILE_WORDS, 4);
    if (!g->colsum || !g->colsum_win)
        return (int)cudaErrorMemoryAllocation;
    /* an L2-resident row reads tile u of the window ntiles / W times, once
     * more for u < ntiles % W */
    const size_t ptiles = want / PJ_TILE_BYTES;
    for (uint32_t u = 0; u < PJ_L2_WINDOW_TILES && u < ptiles; ++u) {
        const uint32_t times = (uint32_t)(ptiles / PJ_L2_WINDOW_TILES + (u < ptiles % PJ_L2_WINDOW_TILES));
        for (uint32_t j = 0; j < PJ_TILE_WORDS; ++j)
            g->colsum_win[j] += times * bs_hash(u * PJ_TILE_WORDS + j);
    }
    unsigned long long total = 0;
    const size_t n = want / 4u;
    for (size_t i = 0; i < n; ++i) {
        const uint32_t v = bs_hash((uint32_t)i);
        total += v;
        g->colsum[i % PJ_TILE_WORDS] += v;
    }
    g->total = total;
    g->ready = 1;
    return 0;
}

/* One launch of fn over the whole source; its time in ms, its acc slots. */
/* `group`: a twin launched without clusters (cluster 0) that shares tiles
 * among groups of this many CTAs (a.group). */
static int bs_launch(const void *fn, unsigned grid, unsigned block, unsigned cluster, unsigned group, size_t smem,
                     int projection, float *ms)
{
    stream_state_t *g = &g_bs;
    bench_args_t a;
    memset(&a, 0, sizeof a);
    a.src = (const int4 *)g->src;
    a.tile_bytes = projection ? PJ_TILE_BYTES : BS_TILE;
    a.ntiles = g->bytes / a.tile_bytes;
    a.acc = g->acc;
    a.iters = 1;
    a.group = group;
    BS_CK(cudaMemsetAsync(g->acc, 0, g->acc_slots * 8, g->stream));
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3(grid, 1, 1);
    cfg.blockDim = dim3(block, 1, 1);
    cfg.dynamicSmemBytes = smem;
    cfg.stream = g->stream;
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster ? cluster : 1;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = cluster ? 1 : 0;
    void *params[1] = {&a};
    BS_CK(cudaEventRecord(g->ev0, g->stream));
    BS_CK(cudaLaunchKernelExC(&cfg, fn, params));
    BS_CK(cudaEventRecord(g->ev1, g->stream));
    BS_CK(cudaEventSynchronize(g->ev1));
    BS_CK(cudaGetLastError());
    BS_CK(cudaEventElapsedTime(ms, g->ev0, g->ev1));
    return 0;
}

/* Is the checksum of the last launch right? Stream kernels: the sum of the
 * block sums is every word's sum. Projections: per cluster rank r, the sum
 * (mod 2^32) of its CTAs' slots is sum_j w_r[j] * colsum[j] (colsum_win[j]
 * for an L2-resident row). */
static int bs_checksum_ok(int projection, int window, unsigned grid, unsigned cluster, char *why, size_t why_len)
{
    stream_state_t *g = &g_bs;
    unsigned long long slots[4096];
    if (grid > 4096 || cudaMemcpy(slots, g->acc, (size_t)grid * 8, cudaMemcpyDeviceToHost) != cudaSuccess) {
        snprintf(why, why_len, "could not read the sums back");
        return 0;
    }
    if (!projection) {
        unsigned long long s = 0;
        for (unsigned b = 0; b < grid; ++b)
            s += slots[b];
        if (s != g->total) {
            snprintf(why, why_len, "sum 0x%llx, want 0x%llx", s, g->total);
            return 0;
        }
        return 1;
    }
    for (unsigned r = 0; r < cluster; ++r) {
        uint32_t got = 0, want = 0;
        for (unsigned b = r; b < grid; b += cluster)
            got += (uint32_t)slots[b];
        for (uint32_t j = 0; j < PJ_TILE_WORDS; ++j)
            want += pj_weight(r, j) * (window ? g->colsum_win[j] : g->colsum[j]);
        if (got != want) {
            snprintf(why, why_len, "rank %u: 0x%08x, want 0x%08x", r, got, want);
            return 0;
        }
    }
    return 1;
}

typedef struct bs_shape {
    unsigned block, blocks_per_sm;
    size_t smem;
    int projection; /* the multicast example's kernel (or a design of it): per-rank checksums */
    int window;     /* ... on the L2-resident input (colsum_win) */
    int twin;       /* ... its twin: the row also times it without a cluster launch */
    int timed;      /* ... built with PJ_TIMED: the note gets its cycles per step */
    int every_sm;   /* ... launched in clusters on every SM (r1's grid), not one wave */
} bs_shape_t;

/* Dynamic shared memory of the multicast example's kernel with `stages`. */
#define BS_PJ_SMEM(stages) (CG_PIPELINE_SMEM_BYTES((stages), PJ_TILE_BYTES) + PJ_TILE_BYTES)

/* The multicast example's kernel and its designs: consumer warps, stages,
 * L2-resident, twin, timed, and every_sm (launched in clusters with the
 * grid of every SM, not one wave). */
static const struct {
    bench_kernel_fn fn;
    unsigned warps, stages;
    int window, twin, timed, every_sm;
} bs_projects[] = {
    {c_project_sliced, PJ_WARPS, PJ_STAGES, 0, 0, 0, 0},
    {c_project_multicast, PJ_WARPS, PJ_STAGES, 0, 0, 0, 0},
    {c_project_local, PJ_WARPS, PJ_STAGES, 0, 1, 0, 0},
    {d_project_sliced_broken, PJ_WARPS, PJ_STAGES, 0, 0, 0, 0}, /* self-test */
    {c_project_sliced_l2, PJ_WARPS, PJ_STAGES, 1, 0, 0, 0},
    {c_project_local_l2, PJ_WARPS, PJ_STAGES, 1, 1, 0, 0},
    {d_project_sliced_every_sm, PJ_WARPS, PJ_STAGES, 0, 0, 0, 1},
    {d_project_local_every_sm, PJ_WARPS, PJ_STAGES, 0, 1, 0, 1},
    {d_project_sliced_every_sm_l2, PJ_WARPS, PJ_STAGES, 1, 0, 0, 1},
    {d_project_local_every_sm_l2, PJ_WARPS, PJ_STAGES, 1, 1, 0, 1},
    {d_project_sliced_w8, 8, PJ_STAGES, 0, 0, 0, 0},
    {d_project_local_w8, 8, PJ_STAGES, 0, 1, 0, 0},
    {d_project_sliced_w8_l2, 8, PJ_STAGES, 1, 0, 0, 0},
    {d_project_local_w8_l2, 8, PJ_STAGES, 1, 1, 0, 0},
    {p_project_timed_sliced, 8, PJ_STAGES, 0, 0, 1, 0},
    {p_project_timed_local, 8, PJ_STAGES, 0, 1, 1, 0},
    {p_project_timed_sliced_l2, 8, PJ_STAGES, 1, 0, 1, 0},
    {p_project_timed_local_l2, 8, PJ_STAGES, 1, 1, 1, 0},
};

static bs_shape_t bs_shape_of(const void *fn)
{
    bs_shape_t s = {0, 0, 0, 0, 0, 0, 0, 0};
    for (size_t i = 0; i < sizeof bs_projects / sizeof bs_projects[0]; ++i)
        if (fn == bs_projects[i].fn())
            return (bs_shape_t){32u * (1u + bs_projects[i].warps), 1, BS_PJ_SMEM(bs_projects[i].stages), 1,
                                bs_projects[i].window,
                                bs_projects[i].twin, bs_projects[i].timed, bs_projects[i].every_sm};
    if (fn == c_stream_pipeline2())
        s = (bs_shape_t){BS_CGC_THREADS, BS_BLOCKS_PER_SM, CG_PIPELINE_SMEM_BYTES(2, BS_TILE), 0, 0, 0, 0, 0};
    else if (fn == c_stream_pipeline3())
        s = (bs_shape_t){BS_CGC_THREADS, BS_BLOCKS_PER_SM, CG_PIPELINE_SMEM_BYTES(3, BS_TILE), 0, 0, 0, 0, 0};
    else if (fn == c_stream_pipeline4())
        s = (bs_shape_t){BS_CGC_THREADS, BS_BLOCKS_PER_SM, CG_PIPELINE_SMEM_BYTES(4, BS_TILE), 0, 0, 0, 0, 0};
    else if (fn == a_stream_plain())
        s = (bs_shape_t){BS_PLAIN_THREADS, BS_BLOCKS_PER_SM, 0, 0, 0, 0, 0, 0};
    else if (fn == a_stream_cuda_pipeline2())
        s = (bs_shape_t){BS_CUDA_PIPE_THREADS, BS_BLOCKS_PER_SM, 2u * BS_TILE, 0, 0, 0, 0, 0};
    else if (fn == a_stream_cuda_pipeline3())
        s = (bs_shape_t){BS_CUDA_PIPE_THREADS, BS_BLOCKS_PER_SM, 3u * BS_TILE, 0, 0, 0, 0, 0};
    else if (fn == a_stream_cuda_pipeline4())
        s = (bs_shape_t){BS_CUDA_PIPE_THREADS, BS_BLOCKS_PER_SM, 4u * BS_TILE, 0, 0, 0, 0, 0};
    else if (fn == d_stream_pipeline_broken()) /* self-test */
        s = (bs_shape_t){BS_CGC_THREADS, BS_BLOCKS_PER_SM, CG_PIPELINE_SMEM_BYTES(2, BS_TILE), 0, 0, 0, 0, 0};
    return s;
}

static int cmp_f(const void *a, const void *b)
{
    float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

/* Append to a note, never past its end (snprintf's return counts what did
 * not fit). */
static void bs_note_add(char *note, size_t size, const char *fmt, ...)
{
    const size_t used = strlen(note);
    if (used + 1 >= size)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(note + used, size - used, fmt, ap);
    va_end(ap);
}

/* The grid of a cluster launch: one wave. `grid` (every SM, rounded down to
 * whole clusters) cut to the clusters of `cluster` CTAs that the device can
 * hold at once at ONE CTA per SM (cudaOccupancyMaxActiveClusters, asked with
 * more than half an SM's shared memory per CTA so that no SM counts twice).
 * Why: a GPC holds only whole clusters, so on an H200 at one CTA per SM 30
 * clusters of 4 and 15 of 8 fit, not 33 and 16: the rest ran as a partial
 * second wave (or two CTAs to an SM), which cost even the twin 1.32x at
 * clusters 4 and 8 in the first GPU run. A persistent kernel a user writes
 * is sized this way; the twin launched WITHOUT clusters keeps every SM. */
static int bs_one_wave_grid(const void *fn, unsigned block, size_t smem, unsigned cluster, unsigned grid,
                            unsigned *out)
{
    *out = grid;
    int dev = 0, per_sm = 0, optin = 0, n = 0;
    BS_CK(cudaGetDevice(&dev));
    BS_CK(cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev));
    BS_CK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
    cudaFuncAttributes fa;
    BS_CK(cudaFuncGetAttributes(&fa, fn));
    size_t q = (size_t)per_sm / 2u + 1u;
    q = q > fa.sharedSizeBytes ? q - fa.sharedSizeBytes : 0u;
    if (q < smem)
        q = smem;
    if (q + fa.sharedSizeBytes > (size_t)optin)
        q = (size_t)optin - fa.sharedSizeBytes;
    BS_CK(cudaFuncSetAttribute(fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)q));
    cudaLaunchConfig_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.gridDim = dim3(grid, 1, 1);
    cfg.blockDim = dim3(block, 1, 1);
    cfg.dynamicSmemBytes = q;
    cudaLaunchAttribute attr;
    memset(&attr, 0, sizeof attr);
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = cluster;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    BS_CK(cudaOccupancyMaxActiveClusters(&n, fn, &cfg));
    if (n > 0 && (unsigned)n * cluster < grid)
        *out = (unsigned)n * cluster;
    return 0;
}

/* The kernels a row times, in its rounds: the cgc kernel; the anchor as the
 * row launches it; and, when the anchor is the multicast example's twin in
 * a cluster row, the same twin launched WITHOUT clusters (a.group = the
 * cluster's size: the same tiles shared by the same CTAs, none of the
 * cluster launch's placement). The row's anchor is the faster twin (issue
 * 31: the cluster launch can cost a twin 10%). */
#define BS_MAX_K 3

extern "C" int bench_stream_row(bench_kernel_fn cgc, bench_kernel_fn anchor, unsigned cluster, int repeats,
                                bench_stream_result_t *out)
{
    memset(out, 0, sizeof *out);
    int rc = bs_setup();
    if (rc)
        return rc;
    stream_state_t *g = &g_bs;
    const void *fns[BS_MAX_K] = {cgc(), anchor(), anchor()};
    int sms = 0;
    BS_CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    if (repeats > 31)
        repeats = 31;
    if (repeats < 1)
        repeats = 1;
    const int nk = cluster && bs_shape_of(fns[1]).twin ? 3 : 2;
    unsigned grid[BS_MAX_K], launch_cluster[BS_MAX_K], group[BS_MAX_K];
    float med[BS_MAX_K], t[BS_MAX_K][32];
    unsigned long long tim[BS_MAX_K][PJ_TIME_SLOTS]; /* PJ_TIMED kernels: their last launch's cycles */
    memset(tim, 0, sizeof tim);
    int ok[BS_MAX_K];
    char why[BS_MAX_K][96];
    bs_shape_t sh[BS_MAX_K];
    for (int k = 0; k < nk; ++k) {
        const bs_shape_t s = bs_shape_of(fns[k]);
        sh[k] = s;
        if (s.block == 0) {
            out->skip = "unknown stream kernel";
            return 0;
        }
        /* Always opt in to the dynamic size: without it a kernel may take at
         * most 48 KiB of static + dynamic shared memory, and the 2-stage
         * cuda::pipeline anchor asks for exactly 48 KiB of tiles PLUS its
         * static pipeline_shared_state, so the occupancy query said 0. */
        cudaFuncAttributes fa;
        BS_CK(cudaFuncGetAttributes(&fa, fns[k]));
        if (s.smem > 0)
            BS_CK(cudaFuncSetAttribute(fns[k], cudaFuncAttributeMaxDynamicSharedMemorySize, (int)s.smem));
        if (cluster > 8)
            BS_CK(cudaFuncSetAttribute(fns[k], cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
        int per = 0;
        BS_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per, fns[k], (int)s.block, s.smem));
        if (per < (int)s.blocks_per_sm) {
            snprintf(out->note, sizeof out->note,
                     "only %d blocks/SM fit, the row needs %u (%s: %zu B dynamic + %zu B static shared memory, %d "
                     "registers x %u threads)",
                     per, s.blocks_per_sm, k ? "anchor" : "cgc", s.smem, (size_t)fa.sharedSizeBytes, fa.numRegs,
                     s.block);
            out->skip = "does not fit";
            return 0;
        }
        grid[k] = (unsigned)sms * s.blocks_per_sm;
        if (cluster)
            grid[k] = grid[k] / cluster * cluster;
        launch_cluster[k] = k == 2 ? 0u : cluster;
        if (launch_cluster[k] && s.projection && !s.every_sm) {
            rc = bs_one_wave_grid(fns[k], s.block, s.smem, cluster, grid[k], &grid[k]);
            if (rc)
                return rc;
        }
        group[k] = k == 2 ? cluster : 0u;
        ok[k] = 1;
        why[k][0] = '\0';
    }
    /* Rounds A B [C] A B [C] ...: launch 0 of each warms up; every launch is
     * checked. */
    for (int r = 0; r <= repeats; ++r)
        for (int k = 0; k < nk; ++k) {
            rc = bs_launch(fns[k], grid[k], sh[k].block, launch_cluster[k], group[k], sh[k].smem, sh[k].projection,
                           &t[k][r]);
            if (rc)
                return rc;
            if (ok[k] && !bs_checksum_ok(sh[k].projection, sh[k].window, grid[k], cluster, why[k], sizeof why[k]))
                ok[k] = 0;
            if (sh[k].timed && r == repeats)
                BS_CK(cudaMemcpy(tim[k], g->acc + PJ_TIME_SLOT, sizeof tim[k], cudaMemcpyDeviceToHost));
        }
    for (int k = 0; k < nk; ++k) {
        qsort(t[k] + 1, (size_t)repeats, sizeof(float), cmp_f);
        med[k] = repeats % 2 ? t[k][1 + repeats / 2] : 0.5f * (t[k][repeats / 2] + t[k][1 + repeats / 2]);
    }
    /* the anchor: the faster twin when both ran */
    const int solo_faster = nk == 3 && ok[2] && med[2] < med[1];
    out->cgc_ns = (double)med[0] * 1e6;
    out->anc_ns = (double)med[solo_faster ? 2 : 1] * 1e6;
    out->wrong = !ok[0] || !ok[1] || (nk == 3 && !ok[2]);
    out->cgc_wrong = !ok[0];
    const double gib = (double)g->bytes;
    const size_t nsz = sizeof out->note;
    out->note[0] = '\0';
    bs_note_add(out->note, nsz, "%zu MiB/launch: cgc %.2f TB/s, anchor %.2f TB/s", g->bytes >> 20,
                gib / (out->cgc_ns * 1e3), gib / (out->anc_ns * 1e3));
    if (nk == 3)
        bs_note_add(out->note, nsz, "; anchor = the faster twin, %s (in clusters %.1f us, without %.1f us)",
                    solo_faster ? "no cluster launch" : "cluster launch", med[1] * 1e3, med[2] * 1e3);
    if (cluster && sh[0].projection)
        bs_note_add(out->note, nsz, "; grids: cgc %u CTAs, twin in clusters %u, without %u (%s)", grid[0], grid[1],
                    nk == 3 ? grid[2] : 0u, sh[0].every_sm ? "every SM" : "one wave of co-resident clusters");
    if (sh[0].projection && cluster) {
        const size_t per_cluster = g->bytes / (grid[0] / cluster);
        bs_note_add(out->note, nsz, "; %s bytes read per cluster / %u: %zu KiB multicast, %zu KiB twin",
                    sh[0].window ? "from an 8 MiB L2-resident input," : "global", cluster,
                    per_cluster / cluster >> 10, per_cluster >> 10);
    } else {
        bs_note_add(out->note, nsz, "; roofline: D2D cudaMemcpy %.2f TB/s (read+write), peak %.2f TB/s (attributes)",
                    g->d2d_tbs, g->peak_tbs);
    }
    bs_note_add(out->note, nsz, "; %d interleaved repeats; checksums: cgc %s%s, anchor %s%s", repeats,
                ok[0] ? "ok" : "WRONG ", why[0], ok[1] ? "ok" : "WRONG ", why[1]);
    if (nk == 3)
        bs_note_add(out->note, nsz, ", twin without clusters %s%s", ok[2] ? "ok" : "WRONG ", why[2]);
    for (int k = 0; k < nk; ++k) /* cycles per stage use: consumer wait / read+multiply / release; producer */
        if (sh[k].timed && k != (solo_faster ? 1 : 2)) {
            const unsigned long long *c = tim[k];
            const double cu = c[PJ_TIME_C_USES] ? (double)c[PJ_TIME_C_USES] : 1.0;
            const double pu = c[PJ_TIME_P_USES] ? (double)c[PJ_TIME_P_USES] : 1.0;
            bs_note_add(out->note, nsz, "; %s cycles/use: wait %.0f, dot %.0f, release %.0f; producer acquire %.0f, "
                        "issue %.0f", k == 0 ? "cgc" : "anchor", c[PJ_TIME_C_WAIT] / cu, c[PJ_TIME_C_DOT] / cu,
                        c[PJ_TIME_C_RELEASE] / cu, c[PJ_TIME_P_ACQUIRE] / pu, c[PJ_TIME_P_ISSUE] / pu);
        }
    return 0;
}
