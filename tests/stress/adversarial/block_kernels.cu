/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/adversarial/block_kernels.cu — the block-, cluster- and grid-level
 * barriers under what their contracts allow (issue 10): random per-thread
 * delays, partial warps and odd 3-D blocks, divergent call sites (the same
 * barrier call written in both arms of a branch taken per thread), several
 * barrier objects in one warp, drops and exited threads, lanes of a warp in
 * separate loops, data checked every phase.
 *
 * Data check (every kernel): before its arrive for phase p a thread writes
 * val(p, thread) into slot [p & 1][thread]; after its wait for p it reads the
 * slot of another participant of the same barrier and compares. A slot is
 * rewritten for phase p + 2 only after phase p + 1 completed, which needs
 * the reader's arrival in p + 1, which comes after its read.
 *
 * Counts (adversarial.cuh, adv_tally): every thread counts its checks, one
 * thread per barrier object counts the phases it saw complete, and the last
 * thread of each block to leave writes them over the block's poisoned
 * record; the host compares them, block by block and object by object, with
 * what it asked for.
 */
#include <cuda_runtime.h>
#include <stdint.h>

#include "cg/cg.h"
#include "tests/stress/adversarial/adversarial.cuh"

struct abt_report {
    unsigned long long errors;
    unsigned long long first[4]; /* phase, block, thread, got */
    unsigned long long claimed;
};

/* adv_mix for the host test (it mirrors the kernels' choices). */
extern "C" uint32_t abt_host_mix(uint64_t seed, uint64_t a, uint64_t b) { return adv_mix(seed, a, b); }

static __device__ __forceinline__ uint32_t abt_mix(uint64_t seed, uint64_t a, uint64_t b)
{
    return adv_mix(seed, a, b);
}

static __device__ __forceinline__ uint32_t abt_val(uint64_t seed, uint32_t p, uint32_t blk, uint32_t t)
{
    return abt_mix(seed, ((uint64_t)blk << 32) | p, t) | 1u;
}

static __device__ __forceinline__ void abt_delay(uint32_t r, uint32_t every, uint32_t max_ns)
{
    if (max_ns == 0u || (r % every) != 0u)
        return;
    adv_spin_ns((r >> 8) % (max_ns + 1u));
}

static __device__ void abt_bad(abt_report *rep, uint32_t p, uint32_t blk, uint32_t t, uint32_t got)
{
    atomicAdd(&rep->errors, 1ull);
    if (atomicCAS(&rep->claimed, 0ull, 1ull) == 0ull) {
        rep->first[0] = p;
        rep->first[1] = blk;
        rep->first[2] = t;
        rep->first[3] = got;
    }
}

static __device__ __forceinline__ uint32_t abt_rank(void)
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}

static __device__ __forceinline__ uint32_t abt_block(void)
{
    return (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

#define ABT_MAX_THREADS 1024

/* --- 1. the thread block group's split barrier ------------------------------ */

/* Every thread of the block, divergent call sites, random delays between
 * arrive and wait; prepared (mode 1) or set up by the first arrive (mode 0). */
extern "C" __global__ void abt_block_split_kernel(abt_report *rep, adv_block_rec *recs, uint64_t seed,
                                                  uint32_t phases, uint32_t mode, uint32_t max_ns)
{
    __shared__ uint32_t slots[2][ABT_MAX_THREADS];
    __shared__ adv_tally tally;
    const uint32_t n = blockDim.x * blockDim.y * blockDim.z, t = abt_rank(), blk = abt_block();
    if (t == 0)
        adv_tally_init(&tally);
    __syncthreads();
    cg_thread_block_t b = cg_this_thread_block();
    if (mode == 1)
        cg_thread_block_barrier_prepare(&b);
    unsigned long long checks = 0, done = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        const uint32_t r = abt_mix(seed, p, blk * 4096u + t);
        slots[p & 1u][t] = abt_val(seed, p, blk, t);
        cg_token_t tok;
        if (r & 1u) {
            tok = cg_thread_block_barrier_arrive(&b);
            abt_delay(r, 16u, max_ns);
        } else {
            abt_delay(r >> 1, 32u, max_ns);
            tok = cg_thread_block_barrier_arrive(&b);
        }
        cg_thread_block_barrier_wait(&b, tok);
        ++done;
        const uint32_t peer = (r >> 12) % n, got = slots[p & 1u][peer];
        if (got != abt_val(seed, p, blk, peer))
            abt_bad(rep, p, blk, t, got);
        ++checks;
    }
    adv_tally_leave(&tally, &recs[blk], n, checks, t == 0 ? 0 : -1, done);
}

/* --- 2. cg_barrier_t: several objects in one warp, drops, exits ------------- */

/* Thread t uses bars[owner(t)] (3 barriers, owner by hash, so every warp holds
 * several); a thread whose hash says so arrive_and_drop's at phase drop_at and
 * returns. Peers: threads of the same barrier that are still there. */
extern "C" __global__ void abt_barrier_objects_kernel(abt_report *rep, adv_block_rec *recs, uint64_t seed,
                                                      uint32_t phases, uint32_t drop_at, uint32_t max_ns)
{
    __shared__ uint32_t slots[2][ABT_MAX_THREADS];
    __shared__ cg_barrier_t bars[3];
    __shared__ uint32_t members[3][ABT_MAX_THREADS];
    __shared__ uint32_t count[3], stay[3];
    __shared__ adv_tally tally;
    const uint32_t n = blockDim.x * blockDim.y * blockDim.z, t = abt_rank(), blk = abt_block();
    const uint32_t k = abt_mix(seed, 77u, t) % 3u;
    const bool dropper = (abt_mix(seed, 78u, t) & 3u) == 0u;
    if (t == 0) {
        uint32_t c[3] = {0, 0, 0}, s[3] = {0, 0, 0};
        for (uint32_t i = 0; i < n; ++i) { /* stayers first in each list */
            const uint32_t ki = abt_mix(seed, 77u, i) % 3u;
            if ((abt_mix(seed, 78u, i) & 3u) != 0u)
                members[ki][s[ki]++] = i;
        }
        for (uint32_t q = 0; q < 3; ++q)
            c[q] = s[q];
        for (uint32_t i = 0; i < n; ++i) {
            const uint32_t ki = abt_mix(seed, 77u, i) % 3u;
            if ((abt_mix(seed, 78u, i) & 3u) == 0u)
                members[ki][c[ki]++] = i;
        }
        for (uint32_t q = 0; q < 3; ++q) {
            count[q] = c[q];
            stay[q] = s[q];
            cg_barrier_init(&bars[q], c[q] ? c[q] : 1u);
        }
        adv_tally_init(&tally);
    }
    __syncthreads();
    /* The phase counter of barrier k: its first member (a stayer, if it has
     * one), after each of its waits. */
    const bool counter = members[k][0] == t;
    unsigned long long checks = 0, done = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        const uint32_t r = abt_mix(seed, p, blk * 4096u + t);
        slots[p & 1u][t] = abt_val(seed, p, blk, t);
        if (dropper && p == drop_at) {
            cg_barrier_arrive_and_drop(&bars[k]);
            break; /* exits */
        }
        cg_token_t tok;
        if (t & 1u) {
            tok = cg_barrier_arrive_one(&bars[k]);
            abt_delay(r, 32u, max_ns);
            cg_barrier_wait_token(&bars[k], tok);
        } else if (r & 2u) {
            cg_barrier_arrive_and_wait(&bars[k]);
        } else {
            tok = cg_barrier_arrive_one(&bars[k]);
            while (!cg_barrier_try_wait_for(&bars[k], tok, 200u)) {
            }
        }
        done += counter;
        /* Peers: before drop_at every member of barrier k; from drop_at on
         * its stayers (never empty here: this thread is one). */
        const uint32_t pool = p >= drop_at ? stay[k] : count[k];
        const uint32_t peer = members[k][(r >> 12) % pool], got = slots[p & 1u][peer];
        if (got != abt_val(seed, p, blk, peer))
            abt_bad(rep, p, blk, t, got);
        ++checks;
    }
    adv_tally_leave(&tally, &recs[blk], n, checks, counter ? (int)k : -1, done);
}

/* --- 3. cg_barrier_fn_t: the completion function, exactly once per phase ----- */

struct abt_fn_state {
    uint32_t runs;       /* completions so far */
    uint32_t sum_ok;     /* completions whose sum of the phase's values was right */
    uint32_t n, blk;
    uint64_t seed;
    const uint32_t *slots; /* [2][ABT_MAX_THREADS] */
};

static __device__ void abt_completion(void *arg)
{
    abt_fn_state *s = (abt_fn_state *)arg;
    const uint32_t p = s->runs;
    uint32_t sum = 0, want = 0;
    for (uint32_t i = 0; i < s->n; ++i) {
        sum += s->slots[(p & 1u) * ABT_MAX_THREADS + i];
        want += abt_val(s->seed, p, s->blk, i);
    }
    s->sum_ok += sum == want;
    s->runs = p + 1u;
}

/* The last arrival completes; every thread is delayed at random before or
 * after its arrive. */
extern "C" __global__ void abt_barrier_fn_kernel(abt_report *rep, adv_block_rec *recs, uint64_t seed,
                                                 uint32_t phases, uint32_t max_ns)
{
    __shared__ uint32_t slots[2][ABT_MAX_THREADS];
    __shared__ cg_barrier_fn_t bar;
    __shared__ abt_fn_state st;
    __shared__ adv_tally tally;
    const uint32_t n = blockDim.x * blockDim.y * blockDim.z, t = abt_rank(), blk = abt_block();
    if (t == 0) {
        adv_tally_init(&tally);
        st.runs = 0;
        st.sum_ok = 0;
        st.n = n;
        st.blk = blk;
        st.seed = seed;
        st.slots = &slots[0][0];
        cg_barrier_fn_init(&bar, n, abt_completion, &st);
    }
    __syncthreads();
    unsigned long long checks = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        const uint32_t r = abt_mix(seed, p, blk * 4096u + t);
        slots[p & 1u][t] = abt_val(seed, p, blk, t);
        cg_token_t tok;
        if (r & 1u)
            abt_delay(r, 16u, max_ns);
        tok = cg_barrier_fn_arrive(&bar);
        if (!(r & 1u))
            abt_delay(r, 16u, max_ns);
        cg_barrier_fn_wait(&bar, tok);
        /* The function ran exactly once for this phase, after every arrival. */
        const uint32_t runs = *(volatile uint32_t *)&st.runs, ok = *(volatile uint32_t *)&st.sum_ok;
        if (runs != p + 1u || ok != p + 1u)
            abt_bad(rep, p, blk, t, runs * 65536u + ok);
        ++checks;
    }
    /* The barrier's phases as the completion function counted them (every
     * thread has passed its last wait: the last phase's run is visible). */
    adv_tally_leave(&tally, &recs[blk], n, checks, t == 0 ? 0 : -1, t == 0 ? *(volatile uint32_t *)&st.runs : 0u);
}

/* --- 4. cg_mbarrier_arrive_warp: lanes of one warp on two mbarriers ------------ */

extern "C" __global__ void abt_arrive_warp_kernel(abt_report *rep, adv_block_rec *recs, uint64_t seed,
                                                  uint32_t phases)
{
    __shared__ uint32_t slots[2][ABT_MAX_THREADS];
    __shared__ cg_mbarrier_t bars[2];
    __shared__ adv_tally tally;
    const uint32_t n = blockDim.x, t = threadIdx.x, blk = blockIdx.x, k = t & 1u;
    if (t < 2u)
        cg_mbarrier_init(&bars[t], n / 2u);
    if (t == 0)
        adv_tally_init(&tally);
    __syncthreads();
    unsigned long long checks = 0, done = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        const uint32_t r = abt_mix(seed, p, blk * 4096u + t);
        slots[p & 1u][t] = abt_val(seed, p, blk, t);
        cg_token_t tok = cg_mbarrier_arrive_warp(&bars[k]); /* converged warp, two mbarriers */
        cg_mbarrier_wait(&bars[k], tok);
        ++done;
        const uint32_t peer = (((r >> 12) % n) & ~1u) | k, got = slots[p & 1u][peer];
        if (got != abt_val(seed, p, blk, peer))
            abt_bad(rep, p, blk, t, got);
        ++checks;
    }
    /* Threads 0 and 1 count the phases of mbarriers 0 and 1. */
    adv_tally_leave(&tally, &recs[blk], n, checks, t < 2u ? (int)t : -1, done);
}

/* --- 5. the cluster barrier ------------------------------------------------------ */

/* Every thread of every CTA of the cluster; odd and even lanes run the phase
 * loop in two separate loops; each thread reads a slot of a thread of the
 * next CTA of its cluster through DSMEM. */
extern "C" __global__ void abt_cluster_kernel(abt_report *rep, adv_block_rec *recs, uint64_t seed, uint32_t phases,
                                              uint32_t max_ns)
{
    __shared__ uint32_t slots[2][ABT_MAX_THREADS];
    __shared__ adv_tally tally;
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t n = blockDim.x, t = threadIdx.x, blk = blockIdx.x;
    const uint32_t rank = cg_cluster_block_rank(&cl), size = cg_cluster_num_blocks(&cl);
    const uint32_t peer_rank = (rank + 1u) % size, peer_blk = blk - rank + peer_rank;
    const uint32_t *peer_slots = (const uint32_t *)cg_cluster_map_shared_rank(&cl, &slots[0][0], peer_rank);
    unsigned long long checks = 0, done = 0;
    if (t == 0)
        adv_tally_init(&tally);
    cg_cluster_sync(&cl); /* every CTA started before any DSMEM access */
    if (t & 1u) {
        for (uint32_t p = 0; p < phases; ++p) {
            const uint32_t r = abt_mix(seed, p, blk * 4096u + t);
            slots[p & 1u][t] = abt_val(seed, p, blk, t);
            cg_token_t tok = cg_cluster_barrier_arrive(&cl);
            abt_delay(r, 32u, max_ns);
            cg_cluster_barrier_wait(&cl, tok);
            ++done;
            const uint32_t peer = (r >> 12) % n, got = peer_slots[(p & 1u) * ABT_MAX_THREADS + peer];
            if (got != abt_val(seed, p, peer_blk, peer))
                abt_bad(rep, p, blk, t, got);
            ++checks;
        }
    } else {
        for (uint32_t p = 0; p < phases; ++p) {
            const uint32_t r = abt_mix(seed, p, blk * 4096u + t);
            abt_delay(r, 64u, max_ns);
            slots[p & 1u][t] = abt_val(seed, p, blk, t);
            cg_sync(&cl);
            ++done;
            const uint32_t peer = (r >> 12) % n, got = peer_slots[(p & 1u) * ABT_MAX_THREADS + peer];
            if (got != abt_val(seed, p, peer_blk, peer))
                abt_bad(rep, p, blk, t, got);
            ++checks;
        }
    }
    cg_cluster_exit_sync(&cl); /* no CTA leaves while a peer may read its slots */
    /* Thread 0 counts the cluster barrier's phases in the even lanes' loop
     * (cg_sync), thread 1 in the odd lanes' (split arrive/wait). */
    adv_tally_leave(&tally, &recs[blk], n, checks, t < 2u ? (int)t : -1, done);
}

/* --- 6. the grid barrier ----------------------------------------------------------- */

/* Every thread of a cooperative grid: split arrive/wait with random delays
 * in between, or grid sync; each thread reads a slot of a thread of another
 * block after each phase (global slots, [2][blocks * threads]). */
extern "C" __global__ void abt_grid_kernel(abt_report *rep, adv_block_rec *recs, uint32_t *slots, uint64_t seed,
                                           uint32_t phases, uint32_t max_ns)
{
    __shared__ adv_tally tally;
    cg_grid_t g = cg_this_grid();
    const uint32_t nb = gridDim.x * gridDim.y * gridDim.z, bt = blockDim.x * blockDim.y * blockDim.z;
    const uint32_t t = abt_rank(), blk = abt_block(), n = nb * bt, me = blk * bt + t;
    if (t == 0)
        adv_tally_init(&tally);
    __syncthreads();
    unsigned long long checks = 0, done = 0;
    for (uint32_t p = 0; p < phases; ++p) {
        const uint32_t r = abt_mix(seed, p, me);
        slots[(size_t)(p & 1u) * n + me] = abt_val(seed, p, blk, t);
        if (p & 1u) {
            cg_token_t tok = cg_grid_barrier_arrive(&g);
            abt_delay(r, 64u, max_ns);
            cg_grid_barrier_wait(&g, tok);
        } else {
            abt_delay(r, 64u, max_ns);
            cg_grid_sync(&g);
        }
        ++done;
        const uint32_t peer_blk = (blk + 1u + (r >> 12) % (nb > 1u ? nb - 1u : 1u)) % nb;
        const uint32_t peer_t = (r >> 20) % bt;
        const uint32_t got = *(volatile uint32_t *)&slots[(size_t)(p & 1u) * n + peer_blk * bt + peer_t];
        if (got != abt_val(seed, p, peer_blk, peer_t))
            abt_bad(rep, p, blk, t, got);
        ++checks;
    }
    adv_tally_leave(&tally, &recs[blk], bt, checks, t == 0 ? 0 : -1, done);
}

/* --- launchers ------------------------------------------------------------------- */

extern "C" int abt_block_split(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs,
                               uint64_t seed, uint32_t phases, uint32_t mode, uint32_t max_ns)
{
    abt_block_split_kernel<<<blocks, dim3(bx, by, bz)>>>((abt_report *)rep, (adv_block_rec *)recs, seed, phases, mode,
                                                         max_ns);
    return (int)cudaGetLastError();
}

extern "C" int abt_barrier_objects(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs,
                                   uint64_t seed, uint32_t phases, uint32_t drop_at, uint32_t max_ns)
{
    abt_barrier_objects_kernel<<<blocks, dim3(bx, by, bz)>>>((abt_report *)rep, (adv_block_rec *)recs, seed, phases,
                                                             drop_at, max_ns);
    return (int)cudaGetLastError();
}

extern "C" int abt_barrier_fn(unsigned blocks, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs,
                              uint64_t seed, uint32_t phases, uint32_t max_ns)
{
    abt_barrier_fn_kernel<<<blocks, dim3(bx, by, bz)>>>((abt_report *)rep, (adv_block_rec *)recs, seed, phases, max_ns);
    return (int)cudaGetLastError();
}

extern "C" int abt_arrive_warp(unsigned blocks, unsigned threads, void *rep, void *recs, uint64_t seed,
                               uint32_t phases)
{
    abt_arrive_warp_kernel<<<blocks, threads>>>((abt_report *)rep, (adv_block_rec *)recs, seed, phases);
    return (int)cudaGetLastError();
}

extern "C" int abt_cluster(unsigned clusters, unsigned csize, unsigned threads, void *rep, void *recs, uint64_t seed,
                           uint32_t phases, uint32_t max_ns)
{
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = clusters * csize;
    cfg.grid.y = cfg.grid.z = 1;
    cfg.block.x = threads;
    cfg.block.y = cfg.block.z = 1;
    cfg.cluster.x = csize;
    cfg.cluster.y = cfg.cluster.z = 1;
    abt_report *r = (abt_report *)rep;
    adv_block_rec *rc = (adv_block_rec *)recs;
    void *args[] = {&r, &rc, &seed, &phases, &max_ns};
    return (int)cg_launch(&cfg, (const void *)abt_cluster_kernel, args);
}

extern "C" int abt_grid(unsigned per_sm, unsigned bx, unsigned by, unsigned bz, void *rep, void *recs,
                        uint32_t *slots, uint64_t seed, uint32_t phases, uint32_t max_ns, unsigned *blocks_out)
{
    int sms = 0, dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    cg_launch_config_t cfg = CG_LAUNCH_CONFIG_INIT;
    cfg.grid.x = per_sm * (unsigned)sms;
    cfg.grid.y = cfg.grid.z = 1;
    cfg.block.x = bx;
    cfg.block.y = by;
    cfg.block.z = bz;
    cfg.cooperative = 1;
    *blocks_out = cfg.grid.x;
    abt_report *r = (abt_report *)rep;
    adv_block_rec *rc = (adv_block_rec *)recs;
    void *args[] = {&r, &rc, &slots, &seed, &phases, &max_ns};
    return (int)cg_launch(&cfg, (const void *)abt_grid_kernel, args);
}
