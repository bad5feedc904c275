/*
 * bench/pipeline_rows.cu — the streaming rows: global -> shared through a
 * multi-stage pipeline, in TB/s, against the best plain 16-byte-load kernel
 * and against a cuda::pipeline / cuda::memcpy_async ring of the same depth.
 *
 * Every kernel streams the same buffer (2 GiB, 256 MiB with --quick; far
 * larger than L2, so it comes from DRAM) once per launch and sums its 32-bit
 * words into a 64-bit checksum, which the host compares after EVERY launch
 * with the sum it computed from the hash fill: a wrong sum prints WRONG, and
 * the benchmark then exits 5. The kernels:
 *
 *   plain   grid-stride int4 loads, U loads in flight per thread (U = 4, 8;
 *           default and .cs loads), full occupancy: the best of them is the
 *           anchor "best plain int4 loads";
 *   ring    cuda::pipeline<thread_scope_block> with S stages of B bytes,
 *           cuda::memcpy_async(block, stage, src, aligned_size_t<16>(B),
 *           pipe) (per-thread cp.async), 128 threads, every thread produces
 *           and consumes (the libcu++ pattern);
 *   cgc     cg_pipeline_t, warp-specialized: one elected lane of warp 0
 *           acquires, bulk-copies the tile (cg_pipeline_copy) and commits
 *           its bytes; 4 consumer warps wait, sum, release per warp;
 *   cgc blk cg_pipeline_t in the block shape (info): 128 threads produce and
 *           consume, thread 0 issues the bulk copy (cg_pipeline_producer_copy).
 *
 * S = 2, 3, 4 and B = 16 KiB, 32 KiB. Each kernel runs as many blocks per
 * SM as fit (its own occupancy), block b taking tiles b, b + grid, ... The
 * kernels are timed in interleaved rounds (one launch each per round, CUDA
 * events around the launch), `repeats` rounds, median reported.
 *
 * The cgc kernels are C style (cg/cg.h); the anchors are libcu++ C++.
 */
#include <cooperative_groups.h>
#include <cuda/pipeline>

#include <math.h>
#include <new>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/bench.h"
#include "cg/cg.h"

namespace bcg = cooperative_groups;

// --- shared device helpers -------------------------------------------------------------

/* The checksum: the sum of the 32-bit words, mod 2^64. */
static __device__ __forceinline__ unsigned long long bs_sum4(int4 v)
{
    return (unsigned long long)(unsigned)v.x + (unsigned)v.y + (unsigned)v.z + (unsigned)v.w;
}

/* Each warp's partial sum into the launch's checksum (one atomic per warp). */
static __device__ __forceinline__ void bs_publish(unsigned long long acc, unsigned long long *sum)
{
    for (int o = 16; o > 0; o >>= 1)
        acc += __shfl_xor_sync(0xFFFFFFFFu, acc, o);
    if (threadIdx.x % 32u == 0)
        atomicAdd(sum, acc);
}

/* The source: word k = hash(k, seed) (lowbias32 of a golden-ratio step). */
static __host__ __device__ __forceinline__ unsigned bs_word(unsigned seed, unsigned long long k)
{
    unsigned x = (unsigned)k * 0x9E3779B9u ^ (unsigned)(k >> 32) ^ seed;
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

__global__ void bs_fill(unsigned *dst, unsigned long long words, unsigned seed)
{
    for (unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x; i < words;
         i += (unsigned long long)gridDim.x * blockDim.x)
        dst[i] = bs_word(seed, i);
}

// --- cgc: warp-specialized pipeline (C style) ------------------------------------------

#define BS_CONSUMER_WARPS 4u
#define BS_CGC_THREADS (32u * (1u + BS_CONSUMER_WARPS))

/* One elected producer lane, 4 consumer warps; stages and stage_bytes are
 * constants in each kernel below (this body is inlined into them). */
static __device__ __forceinline__ void bs_cgc_ws(const int4 *src, unsigned long long bytes, unsigned long long *sum,
                                                 uint32_t stages, uint32_t stage_bytes)
{
    __shared__ cg_pipeline_stage_t ring[4];
    extern __shared__ __align__(128) int4 bs_buf[];
    const uint32_t warp = threadIdx.x / 32u;
    if (threadIdx.x == 0)
        cg_pipeline_init(ring, stages, 1, BS_CONSUMER_WARPS);
    __syncthreads();
    cg_pipeline_t p = cg_pipeline_make(ring, stages, bs_buf, stage_bytes);
    const unsigned long long ntiles = bytes / stage_bytes;
    if (warp == 0) {
        if (cg_elect_sync(0xFFFFFFFFu))
            for (unsigned long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
                void *stage = cg_pipeline_acquire(&p);
                cg_pipeline_copy(&p, stage, (const char *)src + t * stage_bytes, stage_bytes);
                cg_pipeline_commit(&p, stage_bytes);
            }
        return;
    }
    const uint32_t c = threadIdx.x - 32u;
    unsigned long long acc = 0;
    for (unsigned long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const int4 *stage = (const int4 *)cg_pipeline_wait(&p);
#pragma unroll
        for (uint32_t k = 0; k < stage_bytes / 16u / (32u * BS_CONSUMER_WARPS); ++k)
            acc += bs_sum4(stage[c + k * 32u * BS_CONSUMER_WARPS]);
        cg_pipeline_release_warp(&p);
    }
    bs_publish(acc, sum);
}

/* The block shape: every thread produces and consumes, S fills in flight. */
static __device__ __forceinline__ void bs_cgc_block(const int4 *src, unsigned long long bytes,
                                                    unsigned long long *sum, uint32_t stages, uint32_t stage_bytes)
{
    __shared__ cg_pipeline_stage_t ring[4];
    extern __shared__ __align__(128) int4 bs_buf[];
    if (threadIdx.x == 0)
        cg_pipeline_init(ring, stages, blockDim.x, blockDim.x);
    __syncthreads();
    cg_pipeline_t p = cg_pipeline_make(ring, stages, bs_buf, stage_bytes);
    const unsigned long long ntiles = bytes / stage_bytes;
    unsigned long long fetch = blockIdx.x, acc = 0;
    for (uint32_t s = 0; s < stages && fetch < ntiles; ++s, fetch += gridDim.x) {
        void *stage = cg_pipeline_producer_acquire(&p);
        if (threadIdx.x == 0)
            cg_pipeline_producer_copy(&p, stage, (const char *)src + fetch * stage_bytes, stage_bytes);
        cg_pipeline_producer_commit(&p);
    }
    for (unsigned long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const int4 *stage = (const int4 *)cg_pipeline_consumer_wait(&p);
#pragma unroll
        for (uint32_t k = 0; k < stage_bytes / 16u / 128u; ++k)
            acc += bs_sum4(stage[threadIdx.x + k * 128u]);
        cg_pipeline_consumer_release(&p);
        if (fetch < ntiles) {
            void *next = cg_pipeline_producer_acquire(&p);
            if (threadIdx.x == 0)
                cg_pipeline_producer_copy(&p, next, (const char *)src + fetch * stage_bytes, stage_bytes);
            cg_pipeline_producer_commit(&p);
            fetch += gridDim.x;
        }
    }
    bs_publish(acc, sum);
}

/* One kernel per (S, B): the body inlined with constants. */
#define BS_CGC_KERNELS(S, KB)                                                                      \
    __global__ void __launch_bounds__(BS_CGC_THREADS) bs_cgc_ws_##S##_##KB(                        \
        const int4 *src, unsigned long long bytes, unsigned long long *sum)                        \
    {                                                                                              \
        bs_cgc_ws(src, bytes, sum, S, KB * 1024u);                                                 \
    }                                                                                              \
    __global__ void __launch_bounds__(128) bs_cgc_block_##S##_##KB(const int4 *src, unsigned long long bytes, \
                                                                   unsigned long long *sum)        \
    {                                                                                              \
        bs_cgc_block(src, bytes, sum, S, KB * 1024u);                                              \
    }
BS_CGC_KERNELS(2, 16)
BS_CGC_KERNELS(3, 16)
BS_CGC_KERNELS(4, 16)
BS_CGC_KERNELS(2, 32)
BS_CGC_KERNELS(3, 32)
BS_CGC_KERNELS(4, 32)

// --- anchors: plain loads and the cuda::pipeline ring (C++) --------------------------------

/* Grid-stride int4 loads, U in flight per thread; CS: ld.global.cs
 * (streaming, evict-first) instead of the default load. */
template <int U, bool CS>
__global__ void __launch_bounds__(256) bs_plain(const int4 *src, unsigned long long bytes, unsigned long long *sum)
{
    const unsigned long long n = bytes / 16u, stride = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long i = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x, acc = 0;
    for (; i + (U - 1) * stride < n; i += U * stride) {
        int4 v[U];
#pragma unroll
        for (int u = 0; u < U; ++u)
            v[u] = CS ? __ldcs(src + i + u * stride) : src[i + u * stride];
#pragma unroll
        for (int u = 0; u < U; ++u)
            acc += bs_sum4(v[u]);
    }
    for (; i < n; i += stride)
        acc += bs_sum4(src[i]);
    bs_publish(acc, sum);
}

/* The libcu++ pattern: every thread of the block produces and consumes,
 * S stages in flight; the stage slots are tracked here (the pipeline does
 * not name them). */
template <int S, int B>
__global__ void __launch_bounds__(128) bs_ring(const int4 *src, unsigned long long bytes, unsigned long long *sum)
{
    using state_t = cuda::pipeline_shared_state<cuda::thread_scope_block, S>;
    extern __shared__ __align__(128) int4 bs_buf[];
    /* Raw storage (a __shared__ object may not have a constructor run at
     * block start); make_pipeline initializes its barriers. */
    __shared__ alignas(state_t) unsigned char storage[sizeof(state_t)];
    state_t *state = reinterpret_cast<state_t *>(storage);
    if (threadIdx.x == 0)
        new (state) state_t();
    __syncthreads();
    bcg::thread_block block = bcg::this_thread_block();
    auto pipe = cuda::make_pipeline(block, state);
    const unsigned long long ntiles = bytes / B;
    unsigned long long fetch = blockIdx.x, acc = 0;
    unsigned slot_in = 0, slot_out = 0;
    for (int s = 0; s < S && fetch < ntiles; ++s, fetch += gridDim.x) {
        pipe.producer_acquire();
        cuda::memcpy_async(block, bs_buf + slot_in * (B / 16), src + fetch * (B / 16), cuda::aligned_size_t<16>(B),
                           pipe);
        pipe.producer_commit();
        slot_in = slot_in + 1 == S ? 0 : slot_in + 1;
    }
    for (unsigned long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
        pipe.consumer_wait();
        const int4 *stage = bs_buf + slot_out * (B / 16);
#pragma unroll
        for (unsigned k = 0; k < B / 16 / 128; ++k)
            acc += bs_sum4(stage[threadIdx.x + k * 128u]);
        pipe.consumer_release();
        slot_out = slot_out + 1 == S ? 0 : slot_out + 1;
        if (fetch < ntiles) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, bs_buf + slot_in * (B / 16), src + fetch * (B / 16),
                               cuda::aligned_size_t<16>(B), pipe);
            pipe.producer_commit();
            slot_in = slot_in + 1 == S ? 0 : slot_in + 1;
            fetch += gridDim.x;
        }
    }
    bs_publish(acc, sum);
}

// --- the runner ------------------------------------------------------------------------------

typedef enum bs_kind { BS_PLAIN, BS_RING, BS_CGC, BS_CGC_BLOCK } bs_kind_t;

#define BS_MAX_REPEATS 64

typedef struct bs_variant {
    const char *what;     /* what it is, for the table */
    const void *fn;
    bs_kind_t kind;
    unsigned threads, stages, stage_kb;
    unsigned smem;        /* dynamic shared memory */
    int blocks;           /* grid: SMs x blocks per SM that fit */
    float ms[BS_MAX_REPEATS];
    double med_ms;
    int wrong;            /* launches whose checksum was wrong */
} bs_variant_t;

#define BS_PLAIN_V(U, CS, what) {what, (const void *)bs_plain<U, CS>, BS_PLAIN, 256, 0, 0, 0, 0, {0}, 0, 0}
#define BS_RING_V(S, KB) {"cuda::pipeline ring", (const void *)bs_ring<S, KB * 1024>, BS_RING, 128, S, KB, S * KB * 1024u, 0, {0}, 0, 0}
#define BS_CGC_V(S, KB) {"cg_pipeline_t (warp-specialized TMA)", (const void *)bs_cgc_ws_##S##_##KB, BS_CGC, BS_CGC_THREADS, S, KB, S * KB * 1024u, 0, {0}, 0, 0}
#define BS_CGCB_V(S, KB) {"cg_pipeline_t (block shape, TMA)", (const void *)bs_cgc_block_##S##_##KB, BS_CGC_BLOCK, 128, S, KB, S * KB * 1024u, 0, {0}, 0, 0}

static bs_variant_t g_variants[] = {
    BS_PLAIN_V(4, false, "plain int4 loads, 4 in flight"),
    BS_PLAIN_V(8, false, "plain int4 loads, 8 in flight"),
    BS_PLAIN_V(8, true, "plain int4 loads (.cs), 8 in flight"),
    BS_RING_V(2, 16), BS_RING_V(3, 16), BS_RING_V(4, 16), BS_RING_V(2, 32), BS_RING_V(3, 32), BS_RING_V(4, 32),
    BS_CGC_V(2, 16), BS_CGC_V(3, 16), BS_CGC_V(4, 16), BS_CGC_V(2, 32), BS_CGC_V(3, 32), BS_CGC_V(4, 32),
    BS_CGCB_V(2, 16), BS_CGCB_V(3, 16), BS_CGCB_V(4, 16), BS_CGCB_V(2, 32), BS_CGCB_V(3, 32), BS_CGCB_V(4, 32),
};
#define BS_NV ((int)(sizeof g_variants / sizeof g_variants[0]))

#define BS_OP "streaming global->shared"

/* Prints a CUDA failure with what was being done and returns 1. */
static int bs_failed(cudaError_t e, const char *what)
{
    if (e == cudaSuccess)
        return 0;
    fprintf(stderr, "\nbench: CUDA error in the streaming rows: %s: %s (%s)\n", what, cudaGetErrorString(e),
            cudaGetErrorName(e));
    return 1;
}
#define BS_CK(call)                                                                                \
    do {                                                                                           \
        if (bs_failed((call), #call))                                                              \
            return -1;                                                                             \
    } while (0)

static int bs_cmp_float(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return (x > y) - (x < y);
}

static void bs_csv_field(FILE *f, const char *s, int last)
{
    fputc('"', f);
    for (; *s; ++s) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
    fputc(last ? '\n' : ',', f);
}

/* One table line in bench.cu's columns: op | config | cgc | anchor | ratio |
 * target | verdict | what / note (times in microseconds per launch here). */
static void bs_print(FILE *csv, const char *config, const char *cgc_what, const char *anc_what, double cgc_us,
                     double anc_us, double min_speedup, const char *verdict, const char *note)
{
    char target[48], c[24], a[24], r[24], speed[24];
    if (min_speedup > 0)
        snprintf(target, sizeof target, "<=%.3f (>=%.2fx thr)", 1.0 / min_speedup, min_speedup);
    else
        snprintf(target, sizeof target, "info");
    snprintf(c, sizeof c, cgc_us > 0 ? "%.1fus" : "-", cgc_us);
    snprintf(a, sizeof a, anc_us > 0 ? "%.1fus" : "-", anc_us);
    snprintf(r, sizeof r, cgc_us > 0 && anc_us > 0 ? "%.3f" : "-", cgc_us / anc_us);
    snprintf(speed, sizeof speed, cgc_us > 0 && anc_us > 0 ? "%.3f" : "", anc_us / cgc_us);
    printf("%-28s | %-34s | %9s | %9s | %7s | %-22s | %-7s | %s vs %s%s%s\n", BS_OP, config, c, a, r, target, verdict,
           cgc_what, anc_what, note[0] ? "; " : "", note);
    fflush(stdout);
    if (csv) {
        bs_csv_field(csv, BS_OP, 0);
        bs_csv_field(csv, config, 0);
        bs_csv_field(csv, cgc_what, 0);
        bs_csv_field(csv, anc_what, 0);
        bs_csv_field(csv, c, 0);
        bs_csv_field(csv, a, 0);
        bs_csv_field(csv, r, 0);
        bs_csv_field(csv, speed, 0);
        bs_csv_field(csv, target, 0);
        bs_csv_field(csv, verdict, 0);
        bs_csv_field(csv, note, 1);
        fflush(csv);
    }
}

/* TB/s of one launch streaming `bytes` in `ms`. */
static double bs_tbs(double bytes, double ms)
{
    return ms > 0 ? bytes / (ms * 1e-3) / 1e12 : 0.0;
}

/* The fastest variant of a kind (and depth, when stages != 0). */
static const bs_variant_t *bs_best(bs_kind_t kind, unsigned stages)
{
    const bs_variant_t *best = NULL;
    for (int i = 0; i < BS_NV; ++i) {
        const bs_variant_t *v = &g_variants[i];
        if (v->kind == kind && (stages == 0 || v->stages == stages) && v->med_ms > 0 &&
            (best == NULL || v->med_ms < best->med_ms))
            best = v;
    }
    return best;
}

static void bs_describe(const bs_variant_t *v, char *buf, size_t n)
{
    if (v->kind == BS_PLAIN)
        snprintf(buf, n, "%u thr x %d blk", v->threads, v->blocks);
    else
        snprintf(buf, n, "%u x %u KiB, %u thr x %d blk", v->stages, v->stage_kb, v->threads, v->blocks);
}

/* Compares a cgc variant with an anchor: one table line. Returns 1 PASS,
 * 0 MISS, -1 info (no target), -2 WRONG. */
static int bs_row(FILE *csv, const char *config, const bs_variant_t *cgc, const bs_variant_t *anc, double bytes,
                  double roof_tbs, double min_speedup)
{
    char cw[96], aw[96], note[256];
    bs_describe(cgc, cw, sizeof cw);
    bs_describe(anc, aw, sizeof aw);
    char cgc_what[160], anc_what[160];
    snprintf(cgc_what, sizeof cgc_what, "%s (%s)", cgc->what, cw);
    snprintf(anc_what, sizeof anc_what, "%s (%s)", anc->what, aw);
    const double ct = bs_tbs(bytes, cgc->med_ms), at = bs_tbs(bytes, anc->med_ms);
    snprintf(note, sizeof note, "cgc %.3f TB/s, anchor %.3f TB/s, roofline %.2f TB/s (cgc %.0f%%); checksums %s",
             ct, at, roof_tbs, roof_tbs > 0 ? 100.0 * ct / roof_tbs : 0.0,
             cgc->wrong || anc->wrong ? "WRONG" : "verified every launch");
    const char *verdict;
    int r;
    if (cgc->wrong || anc->wrong) {
        verdict = "WRONG";
        r = -2;
    } else if (min_speedup <= 0) {
        verdict = "info";
        r = -1;
    } else if (at > 0 && ct / at >= min_speedup) {
        verdict = "PASS";
        r = 1;
    } else {
        verdict = "MISS";
        r = 0;
    }
    bs_print(csv, config, cgc_what, anc_what, cgc->med_ms * 1e3, anc->med_ms * 1e3, min_speedup, verdict, note);
    return r;
}

extern "C" int bench_pipeline_rows(const bench_stream_opts_t *o, int *pass, int *miss, int *info)
{
    static const unsigned depths[] = {2, 3, 4};
    if (o->list) {
        for (int i = 0; i < BS_NV; ++i) {
            const bs_variant_t *v = &g_variants[i];
            if (v->kind == BS_PLAIN)
                printf("%-28s | anchor candidate %-17d | %-22s | %s vs the best plain kernel\n", BS_OP, i + 1, "info",
                       v->what);
            else if (v->kind != BS_RING)
                printf("%-28s | %u x %u KiB stages%-17s | %-22s | %s vs cuda::pipeline ring of the same shape\n",
                       BS_OP, v->stages, v->stage_kb, "", "info", v->what);
        }
        for (int d = 0; d < 3; ++d) {
            printf("%-28s | depth %u, best of 16/32 KiB%-8s | %-22s | cg_pipeline_t (warp-specialized TMA) vs best "
                   "plain int4 loads\n",
                   BS_OP, depths[d], "", "<=1.020 (>=0.98x thr)");
            printf("%-28s | depth %u, best of 16/32 KiB%-8s | %-22s | cg_pipeline_t (warp-specialized TMA) vs best "
                   "cuda::pipeline ring\n",
                   BS_OP, depths[d], "", "<=1.000 (>=1.00x thr)");
        }
        return 0;
    }
    if (o->filter && !strstr(BS_OP, o->filter) && !strstr("pipeline cuda::pipeline plain int4 TMA", o->filter))
        return 0;

    cudaDeviceProp prop;
    BS_CK(cudaGetDeviceProperties(&prop, 0));
    int mem_khz = 0, bus_bits = 0;
    BS_CK(cudaDeviceGetAttribute(&mem_khz, cudaDevAttrMemoryClockRate, 0));
    BS_CK(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0));
    const double roof_tbs = 2.0 * (double)mem_khz * 1e3 * (double)bus_bits / 8.0 / 1e12;

    /* The source: 2 GiB (256 MiB quick), at most a quarter of free memory. */
    size_t free_b = 0, total_b = 0;
    BS_CK(cudaMemGetInfo(&free_b, &total_b));
    size_t bytes = o->quick ? ((size_t)256 << 20) : ((size_t)2 << 30);
    if (bytes > free_b / 4)
        bytes = free_b / 4;
    bytes &= ~(size_t)(32u * 1024u - 1u); /* whole tiles of every stage size */
    const unsigned long long words = bytes / 4u;
    const unsigned seed = (unsigned)time(NULL) * 2654435761u ^ 0xC0FFEEu;
    unsigned *src = NULL;
    unsigned long long *dsum = NULL;
    BS_CK(cudaMalloc((void **)&src, bytes));
    BS_CK(cudaMalloc((void **)&dsum, sizeof *dsum));
    bs_fill<<<4 * prop.multiProcessorCount, 256, 0, o->stream>>>(src, words, seed);
    BS_CK(cudaGetLastError());
    /* The reference, on the host, while the fill runs. */
    unsigned long long want = 0;
    for (unsigned long long k = 0; k < words; ++k)
        want += bs_word(seed, k);
    BS_CK(cudaStreamSynchronize(o->stream));
    printf("\n%s: %.2f GiB source (hash fill, checksum %016llx computed on the host), DRAM roofline %.2f TB/s "
           "(2 x %d MHz x %d bit)\n",
           BS_OP, (double)bytes / (1u << 30), want, roof_tbs, mem_khz / 1000, bus_bits);

    /* Shapes: dynamic shared memory opt-in, as many blocks per SM as fit. */
    for (int i = 0; i < BS_NV; ++i) {
        bs_variant_t *v = &g_variants[i];
        if (v->smem > 48u * 1024u)
            BS_CK(cudaFuncSetAttribute(v->fn, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)v->smem));
        int per_sm = 0;
        BS_CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, v->fn, (int)v->threads, v->smem));
        v->blocks = prop.multiProcessorCount * (per_sm > 0 ? per_sm : 1);
        v->wrong = 0;
    }

    int repeats = o->repeats < 1 ? 1 : o->repeats > BS_MAX_REPEATS ? BS_MAX_REPEATS : o->repeats;
    cudaEvent_t e0, e1;
    BS_CK(cudaEventCreate(&e0));
    BS_CK(cudaEventCreate(&e1));
    const int4 *s4 = (const int4 *)src;
    unsigned long long nbytes = bytes;
    /* Round -1 is the warm-up (checked, not timed). */
    for (int r = -1; r < repeats; ++r)
        for (int i = 0; i < BS_NV; ++i) {
            bs_variant_t *v = &g_variants[i];
            void *args[] = {(void *)&s4, (void *)&nbytes, (void *)&dsum};
            unsigned long long got = 0;
            float ms = 0.f;
            BS_CK(cudaMemsetAsync(dsum, 0, sizeof *dsum, o->stream));
            BS_CK(cudaEventRecord(e0, o->stream));
            BS_CK(cudaLaunchKernel(v->fn, dim3((unsigned)v->blocks), dim3(v->threads), args, v->smem, o->stream));
            BS_CK(cudaEventRecord(e1, o->stream));
            BS_CK(cudaMemcpyAsync(&got, dsum, sizeof got, cudaMemcpyDeviceToHost, o->stream));
            BS_CK(cudaStreamSynchronize(o->stream));
            BS_CK(cudaEventElapsedTime(&ms, e0, e1));
            if (got != want) {
                if (v->wrong++ == 0)
                    fprintf(stderr, "bench: WRONG checksum: %s (%u x %u KiB): %016llx, want %016llx\n", v->what,
                            v->stages, v->stage_kb, got, want);
            }
            if (r >= 0)
                v->ms[r] = ms;
        }
    for (int i = 0; i < BS_NV; ++i) {
        bs_variant_t *v = &g_variants[i];
        qsort(v->ms, (size_t)repeats, sizeof v->ms[0], bs_cmp_float);
        v->med_ms = repeats % 2 ? v->ms[repeats / 2] : 0.5 * (v->ms[repeats / 2 - 1] + v->ms[repeats / 2]);
    }
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaFree(src);
    cudaFree(dsum);

    int wrong = 0;
    const double db = (double)bytes;
    /* Each plain variant (the anchor candidates), against the best of them. */
    const bs_variant_t *plain = bs_best(BS_PLAIN, 0);
    if (plain == NULL)
        return -1;
    for (int i = 0; i < BS_NV; ++i)
        if (g_variants[i].kind == BS_PLAIN) {
            char config[64];
            snprintf(config, sizeof config, "anchor candidate %d", i + 1);
            const int r = bs_row(o->csv, config, &g_variants[i], plain, db, roof_tbs, 0.0);
            wrong += r == -2;
            *info += r == -1;
        }
    /* Per shape: cgc (both shapes) against the cuda::pipeline ring of the same shape. */
    for (int i = 0; i < BS_NV; ++i) {
        const bs_variant_t *v = &g_variants[i];
        if (v->kind != BS_CGC && v->kind != BS_CGC_BLOCK)
            continue;
        const bs_variant_t *ring = NULL;
        for (int j = 0; j < BS_NV; ++j)
            if (g_variants[j].kind == BS_RING && g_variants[j].stages == v->stages &&
                g_variants[j].stage_kb == v->stage_kb)
                ring = &g_variants[j];
        char config[64];
        snprintf(config, sizeof config, "%u x %u KiB stages", v->stages, v->stage_kb);
        const int r = bs_row(o->csv, config, v, ring, db, roof_tbs, 0.0);
        wrong += r == -2;
        *info += r == -1;
    }
    /* The targets, per depth: the best warp-specialized cgc ring against the
     * best plain kernel (>= 0.98x) and the best cuda::pipeline ring (>= 1.0x). */
    for (int d = 0; d < 3; ++d) {
        const bs_variant_t *cgc = bs_best(BS_CGC, depths[d]), *ring = bs_best(BS_RING, depths[d]);
        if (cgc == NULL || ring == NULL)
            continue;
        char config[64];
        snprintf(config, sizeof config, "depth %u, best of 16/32 KiB", depths[d]);
        int r = bs_row(o->csv, config, cgc, plain, db, roof_tbs, 0.98);
        wrong += r == -2;
        *pass += r == 1;
        *miss += r == 0;
        r = bs_row(o->csv, config, cgc, ring, db, roof_tbs, 1.0);
        wrong += r == -2;
        *pass += r == 1;
        *miss += r == 0;
    }
    return wrong;
}
