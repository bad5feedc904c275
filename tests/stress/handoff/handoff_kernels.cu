/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/handoff/handoff_kernels.cu — the write-after-read handoff kernels
 * (handoff.h): every shape, with the library's release and with the weaker
 * releases that serve as positive controls.
 *
 * Layout of every block: 16 reader warps (threads 0..511) and one more warp
 * (warp 16: the writer of the push and pull shapes, the producer of the TMA
 * shape, idle but present in the barrier shapes). Reader thread t owns the 8
 * uint4 slots t*8 .. t*8+7 of a 64 KiB buffer: a warp's load of slot k puts
 * its 32 lanes 128 bytes apart, in the same four banks, so each load is a
 * 32-way bank conflict; before those, every reader queues 16 such loads of a
 * 4 KiB noise area. Loads are volatile asm, so they issue in program order
 * before the release, and their values are first used after it.
 */
#include <cuda_runtime.h>

#include "async/pipeline.h"
#include "barrier/mbarrier.h"
#include "cg/groups.h"
#include "dsmem/dsmem.h"
#include "tests/dsmem/cluster_launch.cuh"
#include "tests/stress/handoff/handoff.h"
#include "tests/support/hash.h"

#define HO_READERS 512u                /* reader threads per block (16 warps) */
#define HO_THREADS (HO_READERS + 32u)  /* plus the writer / producer warp */
#define HO_SLOTS (HO_READERS * 8u)     /* uint4 slots of a buffer: 64 KiB */
#define HO_NOISE 256u                  /* uint4 of the noise area: 4 KiB */
#define HO_NOISE_LOADS 16
#define HO_TILES 8u                    /* TMA shape: distinct source tiles */
#define HO_NOISE_WARPS 4u              /* TMA shape: warps that keep shared memory busy throughout */
#define HO_TMA_THREADS (HO_THREADS + 32u * HO_NOISE_WARPS)
#define HO_SPIN 4000000000ll           /* bounded waits, clock64 cycles (~2 s) */

/* Device-side totals (summed over every thread of every block). */
typedef struct ho_dev {
    unsigned long long words, wrong, handoffs, timeouts;
    unsigned claimed, first_block, first_round, first_word, first_got, first_want;
} ho_dev_t;

/* ------------------------------------------------------------------------ */
/* Values, loads, bounded waits                                              */
/* ------------------------------------------------------------------------ */

static __device__ __forceinline__ uint32_t ho_h(uint32_t x)
{
    return cgt_hash32(x);
}

/* The value of slot i written by block `who` for round `round`. */
static __device__ __forceinline__ uint4 ho_val(uint32_t who, uint32_t round, uint32_t i, uint32_t seed)
{
    const uint32_t h = ho_h(seed ^ ho_h(who * 0x9E3779B1u ^ ho_h(round * 0x85EBCA77u + i)));
    return make_uint4(h, h ^ 0x5bd1e995u, h + round, ~h);
}

/* ld.shared.v4.u32, volatile: issued where the program puts it. */
static __device__ __forceinline__ uint4 ho_ld(const uint4 *p)
{
    uint4 v;
    asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];"
                 : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                 : "r"(cg_smem_addr(p))
                 : "memory");
    return v;
}

static __device__ __forceinline__ void ho_st(uint4 *p, uint4 v)
{
    asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(cg_smem_addr(p)), "r"(v.x), "r"(v.y), "r"(v.z),
                 "r"(v.w)
                 : "memory");
}

/* Queue the noise: 16 bank-conflicted loads; their xor is used later. */
static __device__ __forceinline__ void ho_noise(const uint4 *noise, uint32_t lane, uint4 n[HO_NOISE_LOADS])
{
#pragma unroll
    for (int k = 0; k < HO_NOISE_LOADS; ++k)
        n[k] = ho_ld(&noise[lane * 8u + (uint32_t)(k & 7)]);
}

static __device__ __forceinline__ uint32_t ho_fold(const uint4 n[HO_NOISE_LOADS])
{
    uint32_t s = 0;
#pragma unroll
    for (int k = 0; k < HO_NOISE_LOADS; ++k)
        s ^= n[k].x ^ n[k].w;
    return s;
}

/* Compare 8 loaded slots with the values of `who`'s round; count words. */
static __device__ void ho_check(ho_dev_t *d, const uint4 v[8], uint32_t who, uint32_t round, uint32_t t,
                                uint32_t seed, unsigned long long *words, unsigned long long *wrong)
{
#pragma unroll
    for (uint32_t k = 0; k < 8u; ++k) {
        const uint32_t i = t * 8u + k;
        const uint4 w = ho_val(who, round, i, seed);
        const uint32_t g[4] = {v[k].x, v[k].y, v[k].z, v[k].w}, e[4] = {w.x, w.y, w.z, w.w};
#pragma unroll
        for (int c = 0; c < 4; ++c) {
            if (g[c] != e[c]) {
                ++*wrong;
                if (atomicCAS(&d->claimed, 0u, 1u) == 0u) {
                    d->first_block = blockIdx.x;
                    d->first_round = round;
                    d->first_word = i * 4u + (uint32_t)c;
                    d->first_got = g[c];
                    d->first_want = e[c];
                }
            }
        }
        *words += 4u;
    }
}

/* Wait for a phase of parity `par` (cluster acquire), bounded. */
static __device__ bool ho_wait(cg_mbarrier_t *mb, uint32_t par)
{
    const long long t0 = clock64();
    while (!cg_mbarrier_try_wait_parity_cluster(mb, par))
        if (clock64() - t0 > HO_SPIN)
            return false;
    return true;
}

/* The writer's poll: test_wait (no suspension), so it reacts at once. */
static __device__ bool ho_poll(cg_mbarrier_t *mb, uint32_t par)
{
    const long long t0 = clock64();
    while (!cg_mbarrier_test_wait_parity_cluster(mb, par))
        if (clock64() - t0 > HO_SPIN)
            return false;
    return true;
}

/* ------------------------------------------------------------------------ */
/* The releases                                                              */
/* ------------------------------------------------------------------------ */

/* mbarrier.arrive.release.cta.shared::cluster.b64 _, [remAddr]: the CTA-scope
 * remote release the library removed (a .cta release never synchronizes with
 * an acquire in another CTA). Kept here as a control only. */
static __device__ __forceinline__ void ho_arrive_remote_cta(cg_mbarrier_t *mb, uint32_t rank)
{
    asm volatile("mbarrier.arrive.release.cta.shared::cluster.b64 _, [%0];" ::"r"(cg_dsmem_addr(mb, rank))
                 : "memory");
}

/* One reader's release of the buffer to CTA `rank`'s barrier `mb`. */
template <int FORM, int SHAPE>
static __device__ __forceinline__ void ho_release(cg_mbarrier_t *mb, uint32_t rank)
{
    if (FORM == HO_FORM_NONE)
        cg_mbarrier_arrive_remote_relaxed(mb, rank);
    else if (FORM == HO_FORM_CTA)
        ho_arrive_remote_cta(mb, rank);
    else if (FORM == HO_FORM_CLUSTER)
        cg_mbarrier_arrive_remote(mb, rank);
    else if (SHAPE == HO_SHAPE_PUSH)
        cg_dsmem_release(mb, rank); /* the library's receiver release */
    else
        cg_mbarrier_release_smem_remote(mb, rank); /* pull: NOT a library claim (DSMEM reads), measured only */
}

static __device__ void ho_total(ho_dev_t *d, unsigned long long words, unsigned long long wrong,
                                unsigned long long handoffs, unsigned long long timeouts)
{
    if (words)
        atomicAdd(&d->words, words);
    if (wrong)
        atomicAdd(&d->wrong, wrong);
    if (handoffs)
        atomicAdd(&d->handoffs, handoffs);
    if (timeouts)
        atomicAdd(&d->timeouts, timeouts);
}

/* ------------------------------------------------------------------------ */
/* What every kernel of the ring shapes starts with                         */
/* ------------------------------------------------------------------------ */

/* The dynamic shared memory: the buffer (HO_SLOTS slots), then the noise. */
static __device__ __forceinline__ uint4 *ho_dyn_smem(void)
{
    extern __shared__ __align__(128) uint4 ho_smem[];
    return ho_smem;
}

/* Where this CTA stands in its cluster's ring of nb CTAs: rank me; it hands
 * off to `next` and takes over from `prev` (global block index prev_block). */
struct ho_ring {
    uint32_t nb, me, next, prev, prev_block;
};

static __device__ __forceinline__ ho_ring ho_ring_of(const cg_cluster_t *cl)
{
    const uint32_t nb = cg_cluster_num_blocks(cl), me = cg_cluster_block_rank(cl);
    const uint32_t prev = (me + nb - 1u) % nb;
    return ho_ring{nb, me, (me + 1u) % nb, prev, blockIdx.x - me + prev};
}

/* The HO_NOISE words the noise loads read: each thread writes from its index
 * on, by a stride of HO_THREADS. */
static __device__ __forceinline__ void ho_fill_noise(uint4 *noise, uint32_t seed)
{
    for (uint32_t i = threadIdx.x; i < HO_NOISE; i += HO_THREADS)
        noise[i] = make_uint4(i, i * 3u, i ^ seed, ~i);
}

/* Thread 0 sets up the push and pull shapes' barriers: full (1 arrival: the
 * writer says "round j is in the buffer", with the bytes on the push shape)
 * and empty (HO_READERS arrivals: every reader thread says "done with it"),
 * fenced for the cluster. */
static __device__ __forceinline__ void ho_init_handoff(cg_mbarrier_t *full, cg_mbarrier_t *empty)
{
    if (threadIdx.x == 0) {
        cg_mbarrier_init(full, 1);
        cg_mbarrier_init(empty, HO_READERS);
        cg_mbarrier_init_fence_cluster();
    }
}

/* ------------------------------------------------------------------------ */
/* Push: the writer refills the reader's own buffer with st.async            */
/* ------------------------------------------------------------------------ */

template <int FORM>
__global__ void __launch_bounds__(HO_THREADS, 1) ho_push_kernel(ho_dev_t *d, uint32_t rounds, uint32_t seed)
{
    uint4 *buf = ho_dyn_smem(), *noise = buf + HO_SLOTS;
    __shared__ cg_mbarrier_t full, empty;
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    const auto [nb, me, next, prev, prev_block] = ho_ring_of(&cl);
    for (uint32_t i = t; i < HO_SLOTS; i += HO_THREADS)
        buf[i] = make_uint4(0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u, 0xA5A5A5A5u);
    ho_fill_noise(noise, seed);
    ho_init_handoff(&full, &empty); /* empty: every reader thread of the next CTA releases */
    cg_cluster_sync(&cl);
    unsigned long long words = 0, wrong = 0, handoffs = 0, timeouts = 0;
    if (warp == HO_READERS / 32u) { /* the writer: pushes round j into the next CTA's buffer */
        const uint32_t dst = cg_dsmem_addr(buf, next), fullp = cg_dsmem_addr(&full, next);
        for (uint32_t j = 0; j < rounds; ++j) {
            if (j > 0 && !ho_poll(&empty, (j - 1u) & 1u)) {
                ++timeouts;
                break;
            }
            for (uint32_t i = lane; i < HO_SLOTS; i += 32u)
                cg_dsmem_st_async_v4_b32(dst + i * 16u, ho_val(blockIdx.x, j, i, seed), fullp);
        }
        /* every release aimed at this CTA has landed before it may exit */
        if (rounds > 0 && timeouts == 0 && !ho_poll(&empty, (rounds - 1u) & 1u))
            ++timeouts;
    } else { /* a reader of its own buffer */
        uint32_t sink = 0;
        for (uint32_t j = 0; j < rounds; ++j) {
            if (t == 0)
                (void)cg_mbarrier_arrive_tx(&full, HO_SLOTS * 16u);
            if (!ho_wait(&full, j & 1u)) {
                ++timeouts;
                break;
            }
            uint4 n[HO_NOISE_LOADS], v[8];
            ho_noise(noise, lane, n);
#pragma unroll
            for (uint32_t k = 0; k < 8u; ++k)
                v[k] = ho_ld(&buf[t * 8u + k]);
            ho_release<FORM, HO_SHAPE_PUSH>(&empty, prev);
            ho_check(d, v, prev_block, j, t, seed, &words, &wrong);
            sink ^= ho_fold(n);
        }
        handoffs = t == 0 ? rounds : 0;
        if (sink == 0x12345678u)
            words += 0; /* keeps the noise loads alive */
    }
    cg_cluster_sync(&cl);
    ho_total(d, words, wrong, handoffs, timeouts);
}

/* ------------------------------------------------------------------------ */
/* Pull: the reader loads the writer's buffer through DSMEM                  */
/* ------------------------------------------------------------------------ */

template <int FORM>
__global__ void __launch_bounds__(HO_THREADS, 1) ho_pull_kernel(ho_dev_t *d, uint32_t rounds, uint32_t seed)
{
    uint4 *buf = ho_dyn_smem(), *noise = buf + HO_SLOTS;
    __shared__ cg_mbarrier_t full, empty;
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    const auto [nb, me, next, prev, prev_block] = ho_ring_of(&cl);
    ho_fill_noise(noise, seed);
    /* full: the previous CTA's writer says "round j is in my buffer"; empty:
     * the next CTA's readers say "done with your buffer" */
    ho_init_handoff(&full, &empty);
    cg_cluster_sync(&cl);
    unsigned long long words = 0, wrong = 0, handoffs = 0, timeouts = 0;
    if (warp == HO_READERS / 32u) { /* the writer of this CTA's own buffer */
        for (uint32_t j = 0; j < rounds; ++j) {
            if (j > 0 && !ho_poll(&empty, (j - 1u) & 1u)) {
                ++timeouts;
                break;
            }
            for (uint32_t i = lane; i < HO_SLOTS; i += 32u)
                ho_st(&buf[i], ho_val(blockIdx.x, j, i, seed));
            __syncwarp();
            /* local writes handed to the next CTA's readers */
            cg_mbarrier_release_smem_remote_if(&full, next, lane == 0);
        }
        if (rounds > 0 && timeouts == 0 && !ho_poll(&empty, (rounds - 1u) & 1u))
            ++timeouts;
    } else { /* a reader of the previous CTA's buffer */
        const uint32_t src = cg_dsmem_addr(buf, prev);
        uint32_t sink = 0;
        for (uint32_t j = 0; j < rounds; ++j) {
            if (!ho_wait(&full, j & 1u)) {
                ++timeouts;
                break;
            }
            uint4 n[HO_NOISE_LOADS], v[8];
            ho_noise(noise, lane, n);
#pragma unroll
            for (uint32_t k = 0; k < 8u; ++k)
                v[k] = cg_dsmem_ld_v4(src + (t * 8u + k) * 16u);
            ho_release<FORM, HO_SHAPE_PULL>(&empty, prev);
            ho_check(d, v, prev_block, j, t, seed, &words, &wrong);
            sink ^= ho_fold(n);
        }
        handoffs = t == 0 ? rounds : 0;
        if (sink == 0x12345678u)
            words += 0;
    }
    cg_cluster_sync(&cl);
    ho_total(d, words, wrong, handoffs, timeouts);
}

/* ------------------------------------------------------------------------ */
/* TMA: the sliced multicast pipeline                                        */
/* ------------------------------------------------------------------------ */

#define HO_STAGES 2u
#define HO_STAGE_BYTES (HO_SLOTS * 16u)
#define HO_PIPE_BYTES ((CG_PIPELINE_SMEM_BYTES(HO_STAGES, HO_STAGE_BYTES) + 127u) & ~(size_t)127u)

/* FORM 4 (only here): the library's warp release, cg_pipeline_cluster_consumer_release_all_warp. */
#define HO_FORM_LIB_WARP 4
/* FORM 5 (only here): the caller-declared whole-warp release,
 * cg_pipeline_cluster_consumer_release_all_whole_warp (the readers are whole warps). */
#define HO_FORM_LIB_WHOLE_WARP 5

/* In this shape the refill comes from L2 through the copy engine, a
 * microsecond or more after the release: the readers' own queued noise is
 * drained by then, so HO_NOISE_WARPS more warps keep issuing bank-conflicted
 * loads for the whole run, and every reader's loads wait behind them. */
template <int FORM>
__global__ void __launch_bounds__(HO_TMA_THREADS, 1) ho_tma_kernel(ho_dev_t *d, const uint4 *src, uint32_t rounds,
                                                                    uint32_t seed)
{
    uint4 *const ho_smem = ho_dyn_smem();
    uint4 *noise = (uint4 *)((unsigned char *)ho_smem + HO_PIPE_BYTES);
    __shared__ volatile uint32_t ho_done;
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t t = threadIdx.x, lane = t & 31u, warp = t >> 5;
    const uint32_t nb = cg_cluster_num_blocks(&cl);
    const uint16_t mask = (uint16_t)((1u << nb) - 1u);
    cg_pipeline_t p = cg_pipeline_attach_cluster(ho_smem, HO_STAGES, HO_STAGE_BYTES, 0);
    ho_fill_noise(noise, seed);
    if (t == 0) { /* each CTA's empty barrier counts every consumer of every CTA its slice lands in */
        ho_done = 0;
        cg_pipeline_init_barriers_cluster(
            &p, nb * (FORM == HO_FORM_LIB_WARP || FORM == HO_FORM_LIB_WHOLE_WARP ? HO_READERS / 32u : HO_READERS));
    }
    cg_cluster_sync(&cl);
    unsigned long long words = 0, wrong = 0, handoffs = 0, timeouts = 0;
    if (warp > HO_READERS / 32u) { /* noise until the consumers are done */
        uint32_t sink = 0;
        while (!ho_done) {
            uint4 n[HO_NOISE_LOADS];
            ho_noise(noise, lane, n);
            sink ^= ho_fold(n);
        }
        if (sink == 0x12345678u)
            words += 0;
    } else if (warp == HO_READERS / 32u) { /* the producer of this CTA's slice */
        if (lane == 0) {
            for (uint32_t u = 0; u < rounds; ++u) {
                (void)cg_pipeline_cluster_producer_acquire(&p);
                cg_pipeline_cluster_producer_copy_slice(&p, src + (size_t)(u % HO_TILES) * HO_SLOTS, mask);
                cg_pipeline_cluster_producer_commit_local(&p, HO_STAGE_BYTES);
            }
            cg_pipeline_cluster_producer_tail(&p);
        }
        __syncwarp();
    } else {
        uint32_t sink = 0;
        for (uint32_t u = 0; u < rounds; ++u) {
            const uint4 *st = (const uint4 *)cg_pipeline_cluster_consumer_wait(&p);
            uint4 n[HO_NOISE_LOADS], v[8];
            ho_noise(noise, lane, n);
#pragma unroll
            for (uint32_t k = 0; k < 8u; ++k)
                v[k] = ho_ld(&st[t * 8u + k]);
            if (FORM == HO_FORM_LIB) {
                cg_pipeline_cluster_consumer_release_all(&p, mask);
            } else if (FORM == HO_FORM_LIB_WARP) {
                cg_pipeline_cluster_consumer_release_all_warp(&p, mask);
            } else if (FORM == HO_FORM_LIB_WHOLE_WARP) {
                cg_pipeline_cluster_consumer_release_all_whole_warp(&p, mask);
            } else {
                cg_mbarrier_t *mb = cg_pipeline_empty_barrier(&p, p.tail);
                for (uint32_t r = 0; r < nb; ++r) {
                    if (FORM == HO_FORM_NONE)
                        cg_mbarrier_arrive_remote_relaxed(mb, r);
                    else if (FORM == HO_FORM_CTA)
                        ho_arrive_remote_cta(mb, r);
                    else
                        cg_mbarrier_arrive_remote(mb, r);
                }
                cg_pipeline_advance_(&p.tail, &p.tail_phase, p.stages);
            }
            ho_check(d, v, 0xFFFFu, u % HO_TILES, t, seed, &words, &wrong);
            sink ^= ho_fold(n);
        }
        handoffs = t == 0 ? rounds : 0;
        if (sink == 0x12345678u)
            words += 0;
        asm volatile("bar.sync 1, %0;" ::"r"(HO_READERS) : "memory"); /* every consumer is done */
        if (t == 0)
            ho_done = 1;
    }
    cg_cluster_sync(&cl);
    ho_total(d, words, wrong, handoffs, timeouts);
}

/* The TMA shape's source: tile u holds ho_val(0xFFFF, u, i, seed). */
__global__ void ho_fill_tiles(uint4 *src, uint32_t seed)
{
    for (uint32_t x = blockIdx.x * blockDim.x + threadIdx.x; x < HO_TILES * HO_SLOTS; x += gridDim.x * blockDim.x)
        src[x] = ho_val(0xFFFFu, x / HO_SLOTS, x % HO_SLOTS, seed);
}

/* ------------------------------------------------------------------------ */
/* Cluster barrier shapes                                                    */
/* ------------------------------------------------------------------------ */

template <int FORM>
static __device__ __forceinline__ void ho_bar_arrive(cg_cluster_t *cl)
{
    if (FORM == HO_FORM_NONE)
        (void)cg_cluster_barrier_arrive_relaxed(cl);
    else if (FORM == HO_FORM_LIB)
        (void)cg_cluster_barrier_arrive_smem(cl);
    else
        (void)cg_cluster_barrier_arrive(cl);
}

/* WAR: read the own buffer, barrier, the previous CTA overwrites it with
 * DSMEM stores; RAW: write the own buffer, barrier, the next CTA reads it
 * through DSMEM. A full cg_cluster_sync closes each round (not under test). */
template <int FORM, int SHAPE>
__global__ void __launch_bounds__(HO_THREADS, 1) ho_bar_kernel(ho_dev_t *d, uint32_t rounds, uint32_t seed)
{
    uint4 *buf = ho_dyn_smem(), *noise = buf + HO_SLOTS;
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t t = threadIdx.x, lane = t & 31u;
    const auto [nb, me, next, prev, prev_block] = ho_ring_of(&cl);
    const bool reader = t < HO_READERS;
    ho_fill_noise(noise, seed);
    const uint32_t dst = cg_dsmem_addr(buf, next), src = cg_dsmem_addr(buf, prev);
    if (SHAPE == HO_SHAPE_BAR_WAR && reader) /* round 0's data, written by the previous CTA */
        for (uint32_t k = 0; k < 8u; ++k)
            cg_dsmem_st_v4(dst + (t * 8u + k) * 16u, ho_val(blockIdx.x, 0, t * 8u + k, seed));
    cg_cluster_sync(&cl);
    unsigned long long words = 0, wrong = 0;
    uint32_t sink = 0;
    for (uint32_t j = 0; j < rounds; ++j) {
        uint4 n[HO_NOISE_LOADS], v[8];
        if (SHAPE == HO_SHAPE_BAR_WAR) {
            if (reader) {
                ho_noise(noise, lane, n);
#pragma unroll
                for (uint32_t k = 0; k < 8u; ++k)
                    v[k] = ho_ld(&buf[t * 8u + k]);
            }
            ho_bar_arrive<FORM>(&cl);
            cg_hw_cluster_wait_acquire();
            if (reader) {
#pragma unroll
                for (uint32_t k = 0; k < 8u; ++k) /* overwrite the next CTA's buffer at once */
                    cg_dsmem_st_v4(dst + (t * 8u + k) * 16u, ho_val(blockIdx.x, j + 1u, t * 8u + k, seed));
                ho_check(d, v, prev_block, j, t, seed, &words, &wrong);
                sink ^= ho_fold(n);
            }
        } else {
            if (reader) {
                ho_noise(noise, lane, n);
#pragma unroll
                for (uint32_t k = 0; k < 8u; ++k)
                    ho_st(&buf[t * 8u + k], ho_val(blockIdx.x, j, t * 8u + k, seed));
            }
            ho_bar_arrive<FORM>(&cl);
            cg_hw_cluster_wait_acquire();
            if (reader) {
#pragma unroll
                for (uint32_t k = 0; k < 8u; ++k)
                    v[k] = cg_dsmem_ld_v4(src + (t * 8u + k) * 16u);
                ho_check(d, v, prev_block, j, t, seed, &words, &wrong);
                sink ^= ho_fold(n);
            }
        }
        cg_cluster_sync(&cl);
    }
    if (sink == 0x12345678u)
        words += 0;
    ho_total(d, words, wrong, t == 0 ? rounds : 0, 0);
}

/* ------------------------------------------------------------------------ */
/* Host side                                                                 */
/* ------------------------------------------------------------------------ */

static const void *ho_pick(int shape, int form)
{
#define HO_FORMS(K)                                                                                   \
    (form == 0 ? (const void *)K<0> : form == 1 ? (const void *)K<1> : form == 2 ? (const void *)K<2> \
                                                                      : (const void *)K<3>)
    switch (shape) {
    case HO_SHAPE_PUSH:
        return HO_FORMS(ho_push_kernel);
    case HO_SHAPE_PULL:
        return HO_FORMS(ho_pull_kernel);
    case HO_SHAPE_TMA:
        if (form == HO_FORM_LIB_WHOLE_WARP)
            return (const void *)ho_tma_kernel<HO_FORM_LIB_WHOLE_WARP>;
        return form == HO_FORM_LIB_WARP ? (const void *)ho_tma_kernel<HO_FORM_LIB_WARP> : HO_FORMS(ho_tma_kernel);
    case HO_SHAPE_BAR_WAR:
        return form == 0   ? (const void *)ho_bar_kernel<0, HO_SHAPE_BAR_WAR>
               : form == 3 ? (const void *)ho_bar_kernel<3, HO_SHAPE_BAR_WAR>
                           : (const void *)ho_bar_kernel<2, HO_SHAPE_BAR_WAR>;
    case HO_SHAPE_BAR_RAW:
        return form == 0   ? (const void *)ho_bar_kernel<0, HO_SHAPE_BAR_RAW>
               : form == 3 ? (const void *)ho_bar_kernel<3, HO_SHAPE_BAR_RAW>
                           : (const void *)ho_bar_kernel<2, HO_SHAPE_BAR_RAW>;
    }
#undef HO_FORMS
    return NULL;
}

extern "C" int ho_run(int shape, int form, unsigned csize, unsigned rounds, unsigned seed, ho_result_t *out)
{
    const void *fn = ho_pick(shape, form);
    if (!fn || csize < 2 || csize > 16)
        return (int)cudaErrorInvalidValue;
    const size_t smem =
        shape == HO_SHAPE_TMA ? HO_PIPE_BYTES + HO_NOISE * 16u : (size_t)(HO_SLOTS + HO_NOISE) * 16u;
    cudaLaunchAttribute attr[1];
    cudaLaunchConfig_t cfg;
    int fits = 0;
    cudaError_t e = cgt_cluster_config(fn, csize, csize, shape == HO_SHAPE_TMA ? HO_TMA_THREADS : HO_THREADS, smem,
                                       &cfg, attr, &fits);
    if (e != cudaSuccess)
        return (int)e;
    if (fits == 0)
        return HO_DOES_NOT_FIT;
    cfg.gridDim = dim3((unsigned)fits * csize, 1, 1); /* one wave: every cluster runs at once */

    ho_dev_t *dd = NULL;
    uint4 *src = NULL;
    if ((e = cudaMalloc(&dd, sizeof *dd)) != cudaSuccess)
        return (int)e;
    cudaMemset(dd, 0, sizeof *dd);
    if (shape == HO_SHAPE_TMA) {
        if ((e = cudaMalloc(&src, (size_t)HO_TILES * HO_SLOTS * 16u)) != cudaSuccess) {
            cudaFree(dd);
            return (int)e;
        }
        ho_fill_tiles<<<128, 256>>>(src, seed);
        e = cudaLaunchKernelEx(&cfg, (void (*)(ho_dev_t *, const uint4 *, uint32_t, uint32_t))fn, dd,
                               (const uint4 *)src, (uint32_t)rounds, (uint32_t)seed);
    } else {
        e = cudaLaunchKernelEx(&cfg, (void (*)(ho_dev_t *, uint32_t, uint32_t))fn, dd, (uint32_t)rounds,
                               (uint32_t)seed);
    }
    if (e == cudaSuccess)
        e = cudaDeviceSynchronize();
    ho_dev_t h = {};
    if (e == cudaSuccess)
        e = cudaMemcpy(&h, dd, sizeof h, cudaMemcpyDeviceToHost);
    cudaFree(dd);
    cudaFree(src);
    out->words = h.words;
    out->wrong = h.wrong;
    out->handoffs = h.handoffs;
    out->timeouts = h.timeouts;
    out->first_block = h.first_block;
    out->first_round = h.first_round;
    out->first_word = h.first_word;
    out->first_got = h.first_got;
    out->first_want = h.first_want;
    return (int)e;
}
