/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/pipeline_project.cuh — the kernel body of the multicast example
 * (examples/pipeline_multicast.cu), shared with its benchmark rows
 * (bench/stream.cu) so both run the same code.
 *
 * The input is a sequence of tiles of PJ_TILE_WORDS 32-bit words. A cluster
 * of C CTAs takes tiles t = cluster, cluster + nclusters, ...; CTA rank r of
 * the cluster computes out[t * C + r] = sum_j tile_t[j] * w_r[j] (mod 2^32)
 * with its own weight row w_r (pj_weight): every CTA needs the whole tile,
 * and each computes something different from it.
 *
 *   mode PJ_SLICED (2): every CTA of the cluster loads a 1/C slice of each
 *     tile and multicasts it into all C CTAs' pipelines; each CTA commits
 *     the whole tile on its own full barrier and its consumer warps release
 *     the stage to every CTA (cg_pipeline_cluster_producer_copy_slice,
 *     _commit_local, cg_pipeline_cluster_consumer_release_all_whole_warp:
 *     the kernel's 160 threads are whole warps, so it declares them and
 *     skips the general form's test of the block's shape).
 *     Global bytes read per cluster: one tile per tile, issued by C CTAs.
 *   mode PJ_ROOT (1): CTA 0's elected thread loads each tile ONCE and
 *     multicasts it into all C CTAs' pipelines (cg_pipeline_cluster_*);
 *     every CTA's consumer warps release the stage to CTA 0 remotely. One
 *     copy stream for the whole cluster: slower as C grows (kept for the
 *     benchmark's info row).
 *   mode PJ_TWIN (0): every CTA runs its own pipeline and loads the tile
 *     itself. Global bytes read per cluster: C tiles per tile (the L2 may
 *     serve some of them).
 *
 * Each consumer warp adds its dot products into acc[blockIdx.x] (mod 2^32
 * is all that is meant; the slot is 64-bit for atomicAdd), and, when out is
 * not NULL, into out[t * C + r] (zeroed by the caller).
 *
 * pj_project_ex adds two knobs for the benchmark: `window` reads tile t from
 * tile t % window of the input (an input that stays in L2: the twin then
 * waits on L2 -> SM bandwidth, where multicast pays; the consumers then keep
 * their weights in registers, pj_dot_regs), and `group` lets the
 * twin run WITHOUT a cluster launch, the same CTAs sharing the same tiles
 * (the faster-twin anchor). The benchmark's probe rows build it with
 * PJ_TIMED, its self-test with PJ_READ_BEFORE_WAIT.
 */
#ifndef CGX_PIPELINE_PROJECT_CUH
#define CGX_PIPELINE_PROJECT_CUH

#include <cgc/cg/cg.h>

#define PJ_TILE_BYTES 16384u
#define PJ_TILE_WORDS (PJ_TILE_BYTES / 4u)
/* Stages of the ring (a build may define PJ_STAGES first; 8 and 12
 * measured no better, docs/design/pipeline.md). */
#ifndef PJ_STAGES
#define PJ_STAGES 4u
#endif
/* Consumer warps per CTA (the benchmark's design rows build it with 8:
 * consumers twice as fast per tile, docs/design/pipeline.md). */
#ifndef PJ_WARPS
#define PJ_WARPS 4u
#endif
#define PJ_THREADS (32u * (1u + PJ_WARPS)) /* + the producer warp */
/* 16-byte words of a tile each consumer thread reads. */
#define PJ_VECS_PER_THREAD (PJ_TILE_BYTES / 16u / (PJ_WARPS * 32u))
/* Dynamic shared memory: the pipeline, then the CTA's weight row. */
#define PJ_SMEM_BYTES (CG_PIPELINE_SMEM_BYTES(PJ_STAGES, PJ_TILE_BYTES) + PJ_TILE_BYTES)
/* pj_project's modes: who loads each tile. */
#define PJ_TWIN 0   /* every CTA loads the whole tile itself */
#define PJ_ROOT 1   /* CTA 0 loads it and multicasts it to the cluster */
#define PJ_SLICED 2 /* every CTA loads 1/C of it and multicasts its slice */
/* Tiles of the L2-resident input of pj_project_ex's `window` form (8 MiB:
 * far below the 50 / 60 MiB L2 of an H100 / H200, and far above the
 * shared memory of a cluster). */
#define PJ_L2_WINDOW_TILES 512u

/* Weight j of cluster rank r (host and device). */
static __host__ __device__ __forceinline__ uint32_t pj_weight(uint32_t r, uint32_t j)
{
    uint32_t x = (r + 1u) * 0x9e3779b9u ^ j * 0x85ebca6bu;
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    return x | 1u;
}

/* The multiply-adds of a consumer thread's share: its PJ_VECS_PER_THREAD
 * 16-byte words of the tile times the same words of the weights. */
static __device__ __forceinline__ uint32_t pj_mac(const uint4 *xv, const uint4 *wk)
{
    uint32_t s = 0;
#pragma unroll
    for (uint32_t k = 0; k < PJ_VECS_PER_THREAD; ++k)
        s += xv[k].x * wk[k].x + xv[k].y * wk[k].y + xv[k].z * wk[k].z + xv[k].w * wk[k].w;
    return s;
}

/* A consumer thread's share of one tile's dot product with the weight row
 * w (consumer warp `warp` = 1..PJ_WARPS). All of the thread's loads come
 * first, then the arithmetic, so they are in flight together whatever
 * registers ptxas picks (a loop that loaded and used one pair at a time
 * measured up to 25% slower in one build of the same code; H100). */
static __device__ __forceinline__ uint32_t pj_dot(const uint4 *x, const uint32_t *w, uint32_t warp, uint32_t lane)
{
    const uint4 *wv = (const uint4 *)w;
    const uint32_t i0 = (warp - 1u) * 32u + lane;
    uint4 xv[PJ_VECS_PER_THREAD], wk[PJ_VECS_PER_THREAD];
#pragma unroll
    for (uint32_t k = 0; k < PJ_VECS_PER_THREAD; ++k) {
        xv[k] = x[i0 + k * PJ_WARPS * 32u];
        wk[k] = wv[i0 + k * PJ_WARPS * 32u];
    }
    return pj_mac(xv, wk);
}

/* pj_dot with the thread's weights already in registers (wr: its
 * PJ_VECS_PER_THREAD 16-byte words of w, loaded once): the stage is then the
 * only shared memory the consumers read per use, which the L2-resident form
 * needs (pj_dot's weight loads double the consumers' shared-memory traffic,
 * and with the copy engine's writes that alone caps an SM near the rate L2
 * delivers, so the form would measure shared memory, not L2). */
static __device__ __forceinline__ uint32_t pj_dot_regs(const uint4 *x, const uint4 *wr, uint32_t warp, uint32_t lane)
{
    uint4 xv[PJ_VECS_PER_THREAD];
#pragma unroll
    for (uint32_t k = 0; k < PJ_VECS_PER_THREAD; ++k)
        xv[k] = x[(warp - 1u) * 32u + lane + k * PJ_WARPS * 32u];
    return pj_mac(xv, wr);
}

/* PJ_TIMED 1 (the benchmark's clock64 probe rows): the producer and each
 * consumer warp add the SM cycles of each step of a stage use into
 * acc[PJ_TIME_SLOT + i] (PJ_TIME_* below) at the end. 0 (everything else):
 * no clock is read. The reads are volatile asm with no memory clobber, so
 * the compiler may move a shared load across one; each step's boundary that
 * matters is a wait or a release (asm with a "memory" clobber). */
#ifndef PJ_TIMED
#define PJ_TIMED 0
#endif
#define PJ_TIME_SLOT 2048u
#define PJ_TIME_C_WAIT 0u    /* consumer: waiting for full[k] */
#define PJ_TIME_C_DOT 1u     /* consumer: reading the stage and the weights, multiplying */
#define PJ_TIME_C_RELEASE 2u /* consumer: the release (to every CTA, in the sliced form) */
#define PJ_TIME_C_USES 3u    /* consumer warps x stage uses */
#define PJ_TIME_P_ACQUIRE 4u /* producer: waiting for empty[k] (the releases) */
#define PJ_TIME_P_ISSUE 5u   /* producer: the copy and the commit */
#define PJ_TIME_P_USES 6u    /* producer stage uses */
#define PJ_TIME_SLOTS 7u
#define PJ_CLOCK_() (PJ_TIMED ? clock64() : 0ll)

/* The producer's loop (one elected thread): the tiles t = cid, cid + ncl,
 * ... of its cluster, each loaded as `mode` says (PJ_ROOT: only in CTA 0),
 * then, in the cluster forms, the wait for the last releases. `tim`: the
 * PJ_TIMED slots (NULL otherwise). */
static __device__ __forceinline__ void pj_produce(cg_pipeline_t *p, const uint32_t *in, size_t ntiles,
                                                  uint32_t window, uint32_t cid, uint32_t ncl, uint16_t all, int mode,
                                                  unsigned long long *tim)
{
    long long t_acq = 0, t_issue = 0, uses = 0;
    for (size_t t = cid; t < ntiles; t += ncl) {
        const uint32_t *src = in + (window ? t % window : t) * PJ_TILE_WORDS;
        const long long c0 = PJ_CLOCK_();
        if (PJ_TIMED && mode != PJ_TWIN) { /* the acquire alone, then the rest (the same calls as below) */
            cg_pipeline_cluster_producer_acquire(p);
            const long long c1 = PJ_CLOCK_();
            if (mode == PJ_SLICED) {
                cg_pipeline_cluster_producer_copy_slice(p, src, all);
                cg_pipeline_cluster_producer_commit_local(p, PJ_TILE_BYTES);
            } else {
                cg_pipeline_cluster_producer_copy(p, 0, src, PJ_TILE_BYTES, all);
                cg_pipeline_cluster_producer_commit(p, PJ_TILE_BYTES, all);
            }
            t_acq += c1 - c0;
            t_issue += PJ_CLOCK_() - c1;
            ++uses;
            continue;
        }
        if (PJ_TIMED) { /* the twin */
            cg_pipeline_producer_acquire(p);
            const long long c1 = PJ_CLOCK_();
            cg_pipeline_producer_copy(p, 0, src, PJ_TILE_BYTES);
            cg_pipeline_producer_commit(p, PJ_TILE_BYTES);
            t_acq += c1 - c0;
            t_issue += PJ_CLOCK_() - c1;
            ++uses;
            continue;
        }
        if (mode == PJ_SLICED) {
            cg_pipeline_cluster_producer_acquire(p);
            cg_pipeline_cluster_producer_copy_slice(p, src, all);
            cg_pipeline_cluster_producer_commit_local(p, PJ_TILE_BYTES);
        } else if (mode == PJ_ROOT) {
            cg_pipeline_cluster_producer_acquire(p);
            cg_pipeline_cluster_producer_copy(p, 0, src, PJ_TILE_BYTES, all);
            cg_pipeline_cluster_producer_commit(p, PJ_TILE_BYTES, all);
        } else {
            cg_pipeline_producer_acquire(p);
            cg_pipeline_producer_copy(p, 0, src, PJ_TILE_BYTES);
            cg_pipeline_producer_commit(p, PJ_TILE_BYTES);
        }
    }
    if (mode != PJ_TWIN) { /* every remote release has landed before this CTA may exit */
        cg_pipeline_cluster_producer_tail(p);
    }
    if (PJ_TIMED && tim != NULL) {
        atomicAdd(&tim[PJ_TIME_P_ACQUIRE], (unsigned long long)t_acq);
        atomicAdd(&tim[PJ_TIME_P_ISSUE], (unsigned long long)t_issue);
        atomicAdd(&tim[PJ_TIME_P_USES], (unsigned long long)uses);
    }
}


/* 1 only in the benchmark's self-test (bench/selftest_project.cu): the
 * consumers read each stage BEFORE its wait (then wait and release as the
 * protocol asks), a broken kernel whose checksums must come out wrong. */
#ifndef PJ_READ_BEFORE_WAIT
#define PJ_READ_BEFORE_WAIT 0
#endif

/* The kernel body. `window` (0: none): tile t is read from tile t % window
 * of `in`, so the input stays in L2 and every tile is read many times (the
 * L2-bound form: see the benchmark's "L2-resident" rows). `group` (twin
 * only, launched WITHOUT clusters; 0 otherwise): the CTAs that share tiles
 * are blockIdx.x / group, rank blockIdx.x % group, exactly as a cluster of
 * `group` would be, so the same work is done without a cluster launch. */
static __device__ __forceinline__ void pj_project_ex(const uint32_t *in, size_t ntiles, uint32_t window, uint32_t group,
                                                     uint32_t *out, unsigned long long *acc, int mode)
{
    extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char pj_smem[];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t solo = mode == PJ_TWIN && group != 0u;
    const uint32_t r = solo ? blockIdx.x % group : cg_cluster_block_rank(&cl);
    const uint32_t C = solo ? group : cg_cluster_num_blocks(&cl);
    const uint32_t cid = blockIdx.x / C, ncl = gridDim.x / C;
    const uint32_t warp = threadIdx.x / 32u, lane = threadIdx.x % 32u;
    const uint16_t all = (uint16_t)((1u << C) - 1u);
    const int clustered = mode != PJ_TWIN;
    uint32_t *w = (uint32_t *)(pj_smem + CG_PIPELINE_SMEM_BYTES(PJ_STAGES, PJ_TILE_BYTES));
    for (uint32_t j = threadIdx.x; j < PJ_TILE_WORDS; j += blockDim.x)
        w[j] = pj_weight(r, j);

    cg_pipeline_t p;
    if (clustered) {
        p = cg_pipeline_attach_cluster(pj_smem, PJ_STAGES, PJ_TILE_BYTES, 0);
        /* root: CTA 0's empty barriers count every CTA's consumer warps;
         * sliced: every CTA's do (each CTA's producer writes into all) */
        if (threadIdx.x == 0)
            cg_pipeline_init_barriers_cluster(&p, C * PJ_WARPS);
        cg_cluster_sync(&cl); /* barriers and weights ready in every CTA */
    } else {
        p = cg_pipeline_attach(pj_smem, PJ_STAGES, PJ_TILE_BYTES);
        if (threadIdx.x == 0)
            cg_pipeline_init_barriers(&p, 1, PJ_WARPS);
        __syncthreads();
    }

    if (warp == 0) {
        if ((mode != PJ_ROOT || r == 0) && cg_elect_sync(0xffffffffu))
            pj_produce(&p, in, ntiles, window, cid, ncl, all, mode, PJ_TIMED ? acc + PJ_TIME_SLOT : NULL);
        __syncwarp();
    } else {
        uint32_t mine = 0;
        long long t_wait = 0, t_dot = 0, t_rel = 0, uses = 0;
        uint4 wr[PJ_VECS_PER_THREAD]; /* the L2-resident form: this thread's weights, in registers */
        if (window) {
#pragma unroll
            for (uint32_t k = 0; k < PJ_VECS_PER_THREAD; ++k)
                wr[k] = ((const uint4 *)w)[(warp - 1u) * 32u + lane + k * PJ_WARPS * 32u];
        }
        for (size_t t = cid; t < ntiles; t += ncl) {
            const long long c0 = PJ_CLOCK_();
            const uint4 *x = PJ_READ_BEFORE_WAIT ? (const uint4 *)cg_pipeline_stage(&p, cg_pipeline_consumer_index(&p))
                             : (const uint4 *)(clustered ? cg_pipeline_cluster_consumer_wait(&p)
                                                         : cg_pipeline_consumer_wait(&p));
            const long long c1 = PJ_CLOCK_();
            uint32_t s = window ? pj_dot_regs(x, wr, warp, lane) : pj_dot(x, w, warp, lane);
            const long long c2 = PJ_CLOCK_();
            if (PJ_READ_BEFORE_WAIT) /* the self-test's defect: the wait after the reads */
                (void)(clustered ? cg_pipeline_cluster_consumer_wait(&p) : cg_pipeline_consumer_wait(&p));
            if (mode == PJ_SLICED) /* whole warps (PJ_THREADS), declared: no test of the block's shape */
                cg_pipeline_cluster_consumer_release_all_whole_warp(&p, all);
            else if (mode == PJ_ROOT)
                cg_pipeline_cluster_consumer_release_warp(&p);
            else
                cg_pipeline_consumer_release_warp(&p);
            if (PJ_TIMED) {
                const long long c3 = PJ_CLOCK_();
                t_wait += c1 - c0;
                t_dot += c2 - c1;
                t_rel += c3 - c2;
                ++uses;
            }
            for (int d = 16; d > 0; d /= 2)
                s += __shfl_xor_sync(0xffffffffu, s, d);
            if (lane == 0 && out != NULL)
                atomicAdd(&out[t * C + r], s);
            mine += s;
        }
        if (lane == 0)
            atomicAdd(&acc[blockIdx.x], (unsigned long long)mine);
        if (PJ_TIMED && lane == 0) {
            atomicAdd(&acc[PJ_TIME_SLOT + PJ_TIME_C_WAIT], (unsigned long long)t_wait);
            atomicAdd(&acc[PJ_TIME_SLOT + PJ_TIME_C_DOT], (unsigned long long)t_dot);
            atomicAdd(&acc[PJ_TIME_SLOT + PJ_TIME_C_RELEASE], (unsigned long long)t_rel);
            atomicAdd(&acc[PJ_TIME_SLOT + PJ_TIME_C_USES], (unsigned long long)uses);
        }
    }
    if (clustered)
        cg_cluster_sync(&cl); /* no CTA exits while a multicast or a release may still reach it */
}

/* The example's kernel body: the whole input streamed once, clusters as
 * launched. */
static __device__ __forceinline__ void pj_project(const uint32_t *in, size_t ntiles, uint32_t *out,
                                                  unsigned long long *acc, int mode)
{
    pj_project_ex(in, ntiles, 0u, 0u, out, acc, mode);
}

#endif /* CGX_PIPELINE_PROJECT_CUH */
