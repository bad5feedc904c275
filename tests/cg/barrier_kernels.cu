/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/barrier_kernels.cu — split barriers of the block, cluster and grid
 * groups under random arrival order, with the data each phase publishes
 * checked on the other side. */
#include <cooperative_groups.h>

#include "cg/groups.h"
#include "cg/launch.h"
#include "tests/cg/barrier_kernels.h"

/* cg_launch of k on a 1-D grid: `blocks` blocks of `threads` threads, in
 * clusters of `cluster` blocks (0: the default, no cluster shape),
 * cooperative or not, on `stream` (0: the default stream). */
static cg_status_t launch_1d(const void *k, void **args, uint32_t blocks, uint32_t threads, uint32_t cluster,
                             int cooperative, cudaStream_t stream)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = blocks;
    cfg.block.x = threads;
    cfg.cluster.x = cluster;
    cfg.cooperative = cooperative;
    cfg.stream = stream;
    return cg_launch(&cfg, k, args);
}

/* ---- helpers ---------------------------------------------------------------- */

__device__ static uint32_t mix(uint32_t a, uint32_t b, uint32_t c, uint32_t d)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u ^ (c + 0x165667B1u) * 0xC2B2AE3Du ^ d * 0x27D4EB2Fu;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h;
}

__device__ static void fail(cgt_fail_t *f, uint32_t iter, uint32_t got, uint32_t want)
{
    if (atomicAdd(&f->errors, 1u) == 0) {
        f->first_iter = iter;
        f->first_block = blockIdx.x;
        f->first_thread = threadIdx.x;
        f->got = got;
        f->want = want;
    }
}

/* A random pause: most threads go straight on, some sleep up to ~1 us, so the
 * order in which threads and warps arrive changes every phase. */
__device__ static void jitter(uint32_t h)
{
    if ((h & 3u) == 0)
        __nanosleep((h >> 2) & 1023u);
    else if ((h & 3u) == 1)
        for (uint32_t k = (h >> 4) & 63u; k; k--)
            __threadfence_block();
}


/* What a thread counted (cgt_fail_t: checks, phases, cluster_phases), added
 * at its end; threads that counted no phase add nothing there. */
__device__ static void report_counts(cgt_fail_t *f, unsigned long long checks, unsigned long long phases,
                                     unsigned long long cluster_phases)
{
    if (checks)
        atomicAdd(&f->checks, checks);
    if (phases)
        atomicAdd(&f->phases, phases);
    if (cluster_phases)
        atomicAdd(&f->cluster_phases, cluster_phases);
}

/* The value thread `t` of block `b` publishes in phase `i`. */
__device__ static uint32_t code(uint32_t seed, uint32_t i, uint32_t b, uint32_t t) { return mix(seed, i, b, t) | 1u; }

/* ---- block split barrier ------------------------------------------------- */

__global__ void k_block_split(uint32_t iters, uint32_t seed, int prepare, cgt_fail_t *f)
{
    __shared__ uint32_t buf[2][1024];
    cg_thread_block_t b = cg_this_thread_block();
    if (prepare)
        cg_thread_block_barrier_prepare(&b);
    uint32_t tid = cg_thread_block_thread_rank(&b), n = cg_thread_block_num_threads(&b);
    unsigned long long checks = 0, phases = 0;
    for (uint32_t i = 0; i < iters; i++) {
        uint32_t h = mix(seed, i, blockIdx.x, tid);
        jitter(h);
        buf[i & 1][tid] = code(seed, i, blockIdx.x, tid);
        cg_token_t tok = cg_thread_block_barrier_arrive(&b);
        jitter(h >> 7);
        cg_thread_block_barrier_wait(&b, tok);
        phases += tid == 0;
        uint32_t peer = (tid * 7u + i + 1u) % n;
        uint32_t got = buf[i & 1][peer], want = code(seed, i, blockIdx.x, peer);
        if (got != want)
            fail(f, i, got, want);
        ++checks;
    }
    report_counts(f, checks, phases, 0);
}

extern "C" cg_status_t cgt_launch_block_split(uint32_t blocks, uint32_t threads, uint32_t iters, uint32_t seed,
                                              int prepare, cgt_fail_t *f)
{
    void *args[] = {&iters, &seed, &prepare, &f};
    return launch_1d((const void *)k_block_split, args, blocks, threads, 0, 0, 0);
}

/* ---- block overlap --------------------------------------------------------- */

/* Atomic flag accesses (relaxed): the overlap test's signals are meant to
 * race with the barrier, not with each other (racecheck stays quiet). */
__device__ static uint32_t flag_load(uint32_t *flag) { return atomicOr(flag, 0u); }
__device__ static void flag_set(uint32_t *flag) { atomicExch(flag, 1u); }

/* Spin until *flag is nonzero or 200 ms pass; 1 on success. */
__device__ static int spin_until(uint32_t *flag, uint32_t *work)
{
    uint64_t t0, t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
    for (;;) {
        if (flag_load(flag))
            return 1;
        (*work)++;
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        if (t - t0 > 200000000ull)
            return 0;
    }
}

__global__ void k_block_overlap(cgt_fail_t *f)
{
    __shared__ uint32_t arrived_and_running, released_early;
    cg_thread_block_t b = cg_this_thread_block();
    uint32_t warp = cg_thread_block_thread_rank(&b) / 32u, work = 0;
    cg_token_t tok;
    if (cg_thread_block_thread_rank(&b) == 0)
    {
        arrived_and_running = 0;
        released_early = 0;
    }
    /* A first phase: sets the barrier up (its setup is a __syncthreads). */
    tok = cg_thread_block_barrier_arrive(&b);
    cg_thread_block_barrier_wait(&b, tok);

    /* 1. Arrive does not block: warp 0 arrives and then signals; every other
     * warp waits for that signal BEFORE arriving. */
    if (warp == 0) {
        tok = cg_thread_block_barrier_arrive(&b);
        flag_set(&arrived_and_running);
        cg_thread_block_barrier_wait(&b, tok);
    } else {
        if (!spin_until(&arrived_and_running, &work))
            atomicAdd(&f->timeouts, 1u);
        tok = cg_thread_block_barrier_arrive(&b);
        cg_thread_block_barrier_wait(&b, tok);
    }

    /* 2. Wait returns once all have ARRIVED: the other warps arrive and then
     * wait for warp 0 to come out of its wait before they call theirs. */
    if (warp == 0) {
        tok = cg_thread_block_barrier_arrive(&b);
        cg_thread_block_barrier_wait(&b, tok);
        flag_set(&released_early);
    } else {
        tok = cg_thread_block_barrier_arrive(&b);
        if (!spin_until(&released_early, &work))
            atomicAdd(&f->timeouts, 1u);
        cg_thread_block_barrier_wait(&b, tok);
    }
    atomicAdd(&f->progress, work ? 1u : 0u);
}

extern "C" cg_status_t cgt_launch_block_overlap(uint32_t threads, cgt_fail_t *f)
{
    void *args[] = {&f};
    return launch_1d((const void *)k_block_overlap, args, 1, threads, 0, 0, 0);
}

/* ---- cluster split barrier ------------------------------------------------- */

/* reconverge_note: the random pauses diverge each warp; before a cluster
 * barrier call the kernels reconverge it with __syncwarp() (block sizes here
 * are multiples of 32). The non-aligned PTX forms allow a diverged warp, but
 * compute-sanitizer synccheck reports one at barrier.cluster.wait (see
 * cg/cluster_group.h). Arrival order across warps and blocks stays random. */

__global__ void k_cluster_split(uint32_t iters, uint32_t seed, int relaxed_first, cgt_fail_t *f)
{
    __shared__ uint32_t buf[2][1024];
    cg_cluster_t cl = cg_this_cluster();
    uint32_t tid = threadIdx.x, n = blockDim.x;
    uint32_t me = cg_cluster_block_rank(&cl), nb = cg_cluster_num_blocks(&cl);
    uint32_t cluster_id = blockIdx.x / nb;
    const int counter = me == 0 && tid == 0; /* counts the cluster barrier's phases */
    unsigned long long checks = 0, phases = 0;
    if (relaxed_first) {
        /* Control-only phase: every CTA of the cluster has started. */
        cg_token_t t0 = cg_cluster_barrier_arrive_relaxed(&cl);
        cg_cluster_barrier_wait(&cl, t0);
    }
    for (uint32_t i = 0; i < iters; i++) {
        uint32_t h = mix(seed, i, blockIdx.x, tid);
        jitter(h);
        buf[i & 1][tid] = code(seed ^ cluster_id, i, me, tid);
        __syncwarp(); /* see reconverge_note */
        cg_token_t tok = cg_cluster_barrier_arrive(&cl);
        uint32_t peer = (me + 1u + i) % nb, slot = (tid * 5u + i) % n;
        const uint32_t *remote = (const uint32_t *)cg_cluster_map_shared_rank(&cl, &buf[i & 1][0], peer);
        jitter(h >> 9);
        __syncwarp();
        cg_cluster_barrier_wait(&cl, tok);
        phases += counter;
        uint32_t got = remote[slot], want = code(seed ^ cluster_id, i, peer, slot);
        if (got != want)
            fail(f, i, got, want);
        ++checks;
    }
    report_counts(f, checks, phases, 0);
    cg_cluster_exit_sync(&cl);
}

/* ---- relaxed cluster barrier: every arrival before any wait returns ---------- */

__global__ void k_cluster_relaxed_arrivals(uint32_t iters, uint32_t seed, int fenced, cgt_fail_t *f)
{
    __shared__ uint32_t arrived[1024];
    cg_cluster_t cl = cg_this_cluster();
    uint32_t tid = threadIdx.x, n = blockDim.x;
    uint32_t me = cg_cluster_block_rank(&cl), nb = cg_cluster_num_blocks(&cl);
    const int counter = me == 0 && tid == 0;
    unsigned long long checks = 0, phases = 0;
    arrived[tid] = 0;
    cg_cluster_sync(&cl); /* every CTA started and zeroed its counts before any DSMEM access */
    for (uint32_t i = 0; i < iters; i++) {
        uint32_t h = mix(seed, i, blockIdx.x, tid);
        jitter(h);
        *(volatile uint32_t *)&arrived[tid] = i + 1u; /* this thread's arrivals, phase i's included */
        if (fenced)
            asm volatile("fence.acq_rel.cluster;" ::: "memory");
        __syncwarp(); /* see reconverge_note */
        cg_token_t tok = cg_cluster_barrier_arrive_relaxed(&cl);
        jitter(h >> 9);
        __syncwarp();
        cg_cluster_barrier_wait(&cl, tok);
        phases += counter;
        /* One thread of every CTA of the cluster, a different one each phase. */
        const uint32_t peer_t = (tid * 5u + i) % n;
        for (uint32_t r = 0; r < nb; ++r) {
            const uint32_t *remote = (const uint32_t *)cg_cluster_map_shared_rank(&cl, &arrived[0], r);
            const uint32_t got = *(const volatile uint32_t *)&remote[peer_t];
            if (got != i + 1u && got != i + 2u)
                fail(f, i, got, i + 1u);
            ++checks;
        }
    }
    report_counts(f, checks, phases, 0);
    cg_cluster_exit_sync(&cl);
}

extern "C" cg_status_t cgt_launch_cluster_relaxed_arrivals(uint32_t blocks, uint32_t threads, uint32_t cluster,
                                                           uint32_t iters, uint32_t seed, int fenced, cgt_fail_t *f)
{
    void *args[] = {&iters, &seed, &fenced, &f};
    return launch_1d((const void *)k_cluster_relaxed_arrivals, args, blocks, threads, cluster, 0, 0);
}

extern "C" cg_status_t cgt_launch_cluster_split(uint32_t blocks, uint32_t threads, uint32_t cluster, uint32_t iters,
                                                uint32_t seed, int relaxed_first, cgt_fail_t *f)
{
    void *args[] = {&iters, &seed, &relaxed_first, &f};
    return launch_1d((const void *)k_cluster_split, args, blocks, threads, cluster, 0, 0);
}

/* ---- grid split barrier ------------------------------------------------------ */

__global__ void k_grid_split(uint32_t iters, uint32_t seed, uint32_t *buf, cgt_fail_t *f)
{
    cg_grid_t g = cg_this_grid();
    uint32_t gt = (uint32_t)cg_grid_thread_rank(&g), total = (uint32_t)cg_grid_num_threads(&g);
    unsigned long long checks = 0, phases = 0;
    for (uint32_t i = 0; i < iters; i++) {
        uint32_t h = mix(seed, i, blockIdx.x, threadIdx.x);
        jitter(h);
        buf[(size_t)(i & 1) * total + gt] = code(seed, i, 0, gt);
        cg_token_t tok = cg_grid_barrier_arrive(&g);
        jitter(h >> 11);
        cg_grid_barrier_wait(&g, tok);
        phases += gt == 0;
        uint32_t peer = (gt * 13u + 1u + i * 977u) % total;
        uint32_t got = buf[(size_t)(i & 1) * total + peer], want = code(seed, i, 0, peer);
        if (got != want)
            fail(f, i, got, want);
        ++checks;
    }
    report_counts(f, checks, phases, 0);
}

extern "C" cg_status_t cgt_launch_grid_split(uint32_t blocks, uint32_t threads, uint32_t iters, uint32_t seed,
                                             uint32_t *buf, cgt_fail_t *f)
{
    void *args[] = {&iters, &seed, &buf, &f};
    return launch_1d((const void *)k_grid_split, args, blocks, threads, 0, 1, 0);
}

/* ---- grid sync, many phases -------------------------------------------------- */

/* The launch's grid workspace address as the driver hands it to every
 * launch (%envreg1 high, %envreg2 low; the ABI C++ CG reads too): read here
 * with the test's own asm, not through the library's internal wrapper. */
__device__ static unsigned long long grid_workspace(void)
{
    uint32_t hi, lo;
    asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
    asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
    return ((unsigned long long)hi << 32) | lo;
}

/* slots[2][blocks]: in phase i block b writes i into slots[i&1][b]; after the
 * sync it must read exactly i from another block's slot (nobody can write
 * that slot again before this block arrives twice more). When `info` is not
 * NULL: info[0] = the launch's workspace address (block 0). `objects` 1: one
 * const cg_grid_t for the whole kernel; 3: phase i uses object i % 3 of two
 * kept for the whole kernel and one made fresh for the phase (the barrier's
 * state is the block's, in shared memory, whatever object a call names).
 * With 1 or 3 objects, phases i % 4 == 1 and 2 are cg_grid_sync and the
 * others split arrive/wait (sync after split, sync after sync, split after
 * sync, split after split: the grid sync below the spread barrier's size
 * is an atom that keeps only the state's sense; the split reads it).
 * `objects` 0: one object, phases i % 4 == 1 are C++ CG's grid.sync() and
 * the others cg_grid_sync (mixing them is supported anywhere in a launch). */
__global__ void k_grid_phases(uint32_t iters, uint32_t objects, uint32_t *slots, cgt_fail_t *f,
                              unsigned long long *info)
{
    const cg_grid_t kept[2] = {cg_this_grid(), cg_this_grid()};
    if (info != NULL && blockIdx.x == 0 && threadIdx.x == 0)
        info[0] = grid_workspace();
    uint32_t b = (uint32_t)cg_grid_block_rank(&kept[0]), n = (uint32_t)cg_grid_num_blocks(&kept[0]);
    volatile uint32_t *s = slots;
    unsigned long long checks = 0, phases = 0;
    for (uint32_t i = 0; i < iters; i++) {
        const cg_grid_t fresh = cg_this_grid();
        uint32_t which = objects == 3u ? i % 3u : 0u;
        const cg_grid_t *g = which == 2u ? &fresh : &kept[which];
        if (threadIdx.x == 0)
            s[(i & 1) * n + b] = i;
        if (objects == 0u) {
            if (i % 4u == 1u)
                cooperative_groups::this_grid().sync();
            else
                cg_grid_sync(g);
        } else if (i % 4u == 1u || i % 4u == 2u) {
            cg_grid_sync(g);
        } else {
            cg_token_t t = cg_grid_barrier_arrive(g);
            cg_grid_barrier_wait(g, t);
        }
        phases += b == 0 && threadIdx.x == 0;
        if (threadIdx.x == 0) {
            uint32_t peer = (b + 1u + i) % n, got = s[(i & 1) * n + peer];
            if (got != i)
                fail(f, i, got, i);
            ++checks;
        }
    }
    report_counts(f, checks, phases, 0);
}

extern "C" cg_status_t cgt_launch_grid_phases(uint32_t blocks, uint32_t threads, uint32_t iters, uint32_t objects,
                                              uint32_t *slots, cgt_fail_t *f, unsigned long long *info,
                                              cudaStream_t stream)
{
    void *args[] = {&iters, &objects, &slots, &f, &info};
    return launch_1d((const void *)k_grid_phases, args, blocks, threads, 0, 1, stream);
}

/* ---- stress: block + cluster split barriers, random order --------------------- */

__global__ void k_stress(uint32_t iters, uint32_t seed, cgt_fail_t *f)
{
    __shared__ uint32_t blk[2][1024];
    __shared__ uint32_t clu[2][1024];
    cg_thread_block_t b = cg_this_thread_block();
    cg_cluster_t cl = cg_this_cluster();
    uint32_t tid = cg_thread_block_thread_rank(&b), n = cg_thread_block_num_threads(&b);
    uint32_t me = cg_cluster_block_rank(&cl), nb = cg_cluster_num_blocks(&cl);
    unsigned long long checks = 0, phases = 0, cphases = 0;
    for (uint32_t i = 0; i < iters; i++) {
        uint32_t h = mix(seed, i, blockIdx.x, tid);
        /* Block phase. */
        jitter(h);
        blk[i & 1][tid] = code(seed, i, blockIdx.x, tid);
        cg_token_t bt = cg_barrier_arrive(&b); /* generic call on purpose */
        jitter(h >> 8);
        cg_barrier_wait(&b, bt);
        phases += tid == 0; /* each block's barrier */
        {
            uint32_t peer = (tid + 1u + (h >> 16) % n) % n;
            uint32_t got = blk[i & 1][peer], want = code(seed, i, blockIdx.x, peer);
            if (got != want)
                fail(f, i, got, want);
            ++checks;
        }
        /* Cluster phase. */
        clu[i & 1][tid] = code(seed ^ 0x5A5A5A5Au, i, blockIdx.x, tid);
        jitter(h >> 4);
        __syncwarp(); /* see reconverge_note */
        cg_token_t ct = cg_cluster_barrier_arrive(&cl);
        jitter(h >> 12);
        __syncwarp();
        cg_cluster_barrier_wait(&cl, ct);
        cphases += me == 0 && tid == 0; /* each cluster's barrier */
        {
            uint32_t peer_rank = (me + 1u + i) % nb, slot = (tid * 3u + i) % n;
            const uint32_t *remote = (const uint32_t *)cg_cluster_map_shared_rank(&cl, &clu[i & 1][0], peer_rank);
            uint32_t peer_block = blockIdx.x - me + peer_rank; /* 1-D clusters */
            uint32_t got = remote[slot], want = code(seed ^ 0x5A5A5A5Au, i, peer_block, slot);
            if (got != want)
                fail(f, i, got, want);
            ++checks;
        }
    }
    report_counts(f, checks, phases, cphases);
    cg_cluster_exit_sync(&cl);
}

extern "C" cg_status_t cgt_launch_stress(uint32_t blocks, uint32_t threads, uint32_t cluster, uint32_t iters,
                                         uint32_t seed, cgt_fail_t *f)
{
    void *args[] = {&iters, &seed, &f};
    return launch_1d((const void *)k_stress, args, blocks, threads, cluster, 0, 0);
}

extern "C" const void *cgt_grid_split_kernel(void) { return (const void *)k_grid_split; }
extern "C" const void *cgt_grid_phases_kernel(void) { return (const void *)k_grid_phases; }
