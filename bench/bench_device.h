/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/bench_device.h — device helpers both kernel files use, so the
 * anchor and the cgc kernel of a row do exactly the same non-barrier work.
 * C style (no templates) so cgc_rows.cu stays plain C in spirit.
 */
#ifndef CGC_BENCH_DEVICE_H
#define CGC_BENCH_DEVICE_H

#include "bench/bench.h"

/* Linear thread index in the grid, for the sink slot. */
static __device__ __forceinline__ unsigned long long bench_gtid(void)
{
    return (unsigned long long)blockIdx.x * blockDim.x + threadIdx.x;
}

/* Store a per-thread value the host never reads, so the compiler must keep
 * every computation that feeds it (one store per thread, after the loop). */
static __device__ __forceinline__ void bench_sink(const bench_args_t *a, unsigned long long v)
{
    a->sink[bench_gtid()] = v;
}

/* Latency-bound "independent work": spin on the SM clock for `cycles`,
 * mixing acc so the loop has a result. Time-based rather than instruction-
 * based, so it costs the same whether 1 or 32 warps do it at once (the
 * rotating-slow-warp analysis assumes work takes a fixed time). */
static __device__ __forceinline__ unsigned bench_spin(unsigned cycles, unsigned acc)
{
    if (cycles == 0)
        return acc;
    long long t0 = clock64();
    do {
        acc = acc * 1664525u + 1013904223u;
    } while (clock64() - t0 < (long long)cycles);
    return acc;
}

/* The rotating slow warp: in iteration i, warp (i mod warps) does `slow`
 * extra cycles after its arrive; every warp does `work` cycles. */
static __device__ __forceinline__ unsigned bench_rotating_work(const bench_args_t *a, long long i,
                                                               unsigned acc)
{
    unsigned warps = blockDim.x >> 5;
    unsigned warp = threadIdx.x >> 5;
    unsigned cycles = a->work + ((unsigned)(i % warps) == warp ? a->slow : 0u);
    return bench_spin(cycles, acc);
}

/* Global -> shared copy rows: the tile block b copies in its iteration i
 * (every block does exactly a.iters tiles, walking the buffer in order). */
static __device__ __forceinline__ const int4 *bench_tile_src(const bench_args_t *a, long long i)
{
    unsigned long long t = ((unsigned long long)i * gridDim.x + blockIdx.x) % a->ntiles;
    return a->src + t * (a->tile_bytes / sizeof(int4));
}

/* Consume a tile just landed in shared memory: one int4 per thread, spread
 * over the tile (the copy, not the use, is what the rows time). */
static __device__ __forceinline__ unsigned bench_consume_tile(const int4 *tile, unsigned tile_bytes,
                                                              unsigned acc)
{
    unsigned n = tile_bytes / sizeof(int4);
    int4 v = tile[(threadIdx.x * 7u) % n];
    return acc ^ (unsigned)v.x ^ (unsigned)v.w;
}

/* The completion function of the seed-000 shape: sum the block's smem words
 * and add them into the accumulator (one thread, serial, as cuda::barrier's
 * completion step runs it). Unrolled by 4 on both sides: unrolled further,
 * the copy cgc calls through a pointer needs more registers than the call ABI
 * leaves free and saves them to the stack (52 bytes of spills at the default
 * unroll; 8 at 4, the ABI's minimum being 4). */
static __device__ __forceinline__ void bench_sum_into(const int *smem, unsigned n,
                                                      unsigned long long *acc)
{
    int sum = 0;
#pragma unroll 4
    for (unsigned k = 0; k < n; ++k)
        sum += smem[k];
    *acc += (unsigned long long)(unsigned)sum;
}


// --- device-scope barrier rows: the checked phase --------------------------------------

/* What the device-barrier rows (cgc and anchor alike) do around each
 * arrive + wait, so that a barrier that releases a phase early is caught and
 * the two kernels do the same work. Before its arrive, a thread writes
 * bench_dbar_value(launch, phase, gtid) into its slot of the phase's half of
 * `slots` (the halves alternate by phase parity: a slot is rewritten two
 * phases later, after every reader of it has arrived in the phase between);
 * after its wait it reads the slot of a thread of another block, chosen by
 * hash, and counts a mismatch in errors. `launch` is read once per launch
 * from a counter the last phase's thread 0 raises, so values of an earlier
 * launch never match. */
static __device__ __forceinline__ unsigned bench_dbar_value(unsigned launch, long long phase, unsigned long long g)
{
    unsigned long long x = ((unsigned long long)launch << 40) ^ ((unsigned long long)phase << 20) ^ g;
    x *= 0x9E3779B97F4A7C15ull;
    return (unsigned)(x >> 32) | 1u;
}

static __device__ __forceinline__ unsigned long long bench_dbar_peer(long long phase, unsigned long long g,
                                                                     unsigned long long n)
{
    unsigned long long x = ((unsigned long long)phase * 0xBF58476D1CE4E5B9ull) ^ (g * 0x94D049BB133111EBull);
    x ^= x >> 31;
    unsigned long long p = x % n;
    /* Another block's thread when there is another block. */
    return (p / blockDim.x == blockIdx.x && gridDim.x > 1) ? (p + blockDim.x) % n : p;
}


// --- the checks every other row runs (issue 14) --------------------------------------

/* End of a checked kernel: add this thread's wrong count (atomics only when
 * there is one) and, in thread 0 of every block, the phases it completed.
 * The runner wants BENCH_CHK_WRONG == 0 and BENCH_CHK_PHASES == launches x
 * iters x blocks; a kernel that stops early, or never ran its loop, fails. */
static __device__ __forceinline__ void bench_check_report(const bench_args_t *a, unsigned long long wrong)
{
    if (wrong)
        atomicAdd(&a->chk[BENCH_CHK_WRONG], wrong);
    if (threadIdx.x == 0 && a->iters > 0)
        atomicAdd(&a->chk[BENCH_CHK_PHASES], (unsigned long long)a->iters);
}

/* The per-phase check of the block, tile, cluster and grid barrier rows:
 * before its arrive a thread writes bench_slot_value(nonce, phase, id) into
 * its slot of the phase's half (halves alternate by phase parity: a slot is
 * rewritten two phases later, after every reader of it arrived at the phase
 * between); after its wait it reads the slot of a thread of ANOTHER warp and
 * counts a mismatch. The value is a per-(launch, phase) base plus the
 * thread's id: distinct for every thread, phase (an odd multiplier is a
 * bijection) and launch. About a dozen integer instructions, one store and
 * one load per thread and phase, the same on the cgc and the anchor side. */
static __device__ __forceinline__ unsigned bench_slot_value(unsigned nonce, long long phase, unsigned id)
{
    return ((nonce * 0xC2B2AE3Du) ^ ((unsigned)phase * 0x85EBCA77u)) + id;
}

/* The thread of another warp (of the block; blockDim a power of two >= 64,
 * which every block-barrier row is) whose slot a thread reads after phase i:
 * the warp (i mod warps) | 1 warps away by xor, so the partner rotates. */
static __device__ __forceinline__ unsigned bench_block_peer(long long i)
{
    const unsigned n = blockDim.x;
    if (n < 64u)
        return threadIdx.x ^ 1u;
    return threadIdx.x ^ ((((unsigned)i << 5) & (n - 1u)) | 32u);
}

/* Shared-memory slots for the block check: declare once per kernel. */
#define BENCH_BLOCK_SLOTS __shared__ unsigned bench_slots_[2][1024]
#define BENCH_BLOCK_PUBLISH(a, i) (bench_slots_[(i) & 1][threadIdx.x] = bench_slot_value((a).nonce, (i), threadIdx.x))
#define BENCH_BLOCK_VERIFY(a, i, wrong)                                                          \
    do {                                                                                         \
        const unsigned bench_p_ = bench_block_peer(i);                                           \
        (wrong) += *(volatile unsigned *)&bench_slots_[(i) & 1][bench_p_] !=                     \
                   bench_slot_value((a).nonce, (i), bench_p_);                                   \
    } while (0)

/* Tile-64 rows: the partner is the same rank in the tile's other warp. */
#define BENCH_TILE64_VERIFY(a, i, wrong)                                                         \
    do {                                                                                         \
        const unsigned bench_p_ = threadIdx.x ^ 32u;                                             \
        (wrong) += *(volatile unsigned *)&bench_slots_[(i) & 1][bench_p_] !=                     \
                   bench_slot_value((a).nonce, (i), bench_p_);                                   \
    } while (0)

/* Cluster and grid rows check one phase in 8, every thread of the grid
 * then: the check's remote read (DSMEM, or another block's line in L2) waits
 * on the critical path, and checked at every phase it tripled a grid sync at
 * 8 blocks/SM and halved the relaxed cluster rows' headroom (bench/README.md,
 * "What the checks cost"). Which one rotates: phase i is checked when
 * i % 8 == (i / 8) % 8, so every 64 phases each residue mod 8 is checked
 * once, odd and even phases alike (until issue 27 it was i % 8 == 7, odd
 * phases only: a barrier broken on even phases passed; the self-test's
 * d_cluster_broken and d_grid_broken are such barriers). Consecutive checked
 * phases (63 and 64) are fine: the check is sound at every phase. The phase
 * count is still checked for every phase. */
#define BENCH_CHECK_EVERY 8
static __device__ __forceinline__ bool bench_checked_phase(long long i)
{
    return ((unsigned)i & (BENCH_CHECK_EVERY - 1u)) == (((unsigned)i >> 3) & (BENCH_CHECK_EVERY - 1u));
}

/* Every grid kernel (cgc, anchor, settings): the grid rows run at most 2048
 * threads per SM (8 x 256 ... 32 x 64), so 32 registers a thread; without
 * the bound the sampled check's branch took cgc's kernel to 34 and the 8/SM
 * rows could not co-reside (H100, 2026-11-24). */
#define BENCH_GRID_BOUNDS __launch_bounds__(256, 8)

/* Grid rows: the slots are a.slots (2 x the largest grid), the peer a thread
 * of another block (bench_dbar_peer), the id the global thread index. */
#define BENCH_GRID_PUBLISH(a, i, g, n)                                                           \
    do {                                                                                         \
        if (bench_checked_phase(i))                                                              \
            (a).slots[((i) & 1) * (n) + (g)] = bench_slot_value((a).nonce, (i), (unsigned)(g));  \
    } while (0)
#define BENCH_GRID_VERIFY(a, i, g, n, wrong)                                                     \
    do {                                                                                         \
        if (bench_checked_phase(i)) {                                                            \
            const unsigned long long bench_p_ = bench_dbar_peer((i), (g), (n));                  \
            (wrong) += *(volatile unsigned *)&(a).slots[((i) & 1) * (n) + bench_p_] !=           \
                       bench_slot_value((a).nonce, (i), (unsigned)bench_p_);                     \
        }                                                                                        \
    } while (0)

/* Split grid rows ("split grid barrier, work between"): each iteration a
 * thread writes its slot of the phase's half (as the grid rows, but at EVERY
 * phase), arrives, runs a.xfers dependent FMAs, waits, and loads the slot of a
 * thread of another block (bench_dbar_peer). The loaded value is compared
 * after the NEXT iteration's FMAs (its latency hides behind them; the slot
 * cannot change before: its writer rewrites it two phases later, after this
 * thread's next arrive, which the load precedes), and once after the loop:
 * every phase checked on every side alike. The floor runs the same loop with
 * no barrier (ARRIVE and WAIT empty, `checked` 0: its loads race and are only
 * sunk). With `probe` 1, thread 0 and thread 32 (warp 1) time their arrive,
 * their FMAs and their wait with clock64 and add the sums to
 * a.acc[side * 8 + (thread 0: 0 arrive, 1 work, 2 wait, 3 phases; thread 32:
 * 4..7 the same)]; bench_grid_probe_verify prints them. */
static __device__ __forceinline__ float bench_fma_chain(float x, unsigned w)
{
    /* The empty asms pin the chain between the arrive and the wait: the
     * compiler may not move the FMAs across them (nor across the barrier's
     * own volatile asms, which they keep their order with). */
    asm volatile("" : "+f"(x));
    for (unsigned k = 0; k < w; ++k)
        x = fmaf(x, 0.9990234375f, 0.0009765625f);
    asm volatile("" : "+f"(x));
    return x;
}
#define BENCH_GRID_SPLIT_BODY(a, checked, probe, side, ARRIVE, WAIT)                             \
    const unsigned long long gt = bench_gtid(), n = (unsigned long long)gridDim.x * blockDim.x;  \
    const bool timed = (probe) && (threadIdx.x == 0u || threadIdx.x == 32u);                     \
    unsigned long long wrong = 0, t_arrive = 0, t_work = 0, t_wait = 0;                          \
    float x = (float)(threadIdx.x & 7u);                                                         \
    unsigned got = 0, want = 0;                                                                  \
    for (long long i = 0; i < (a).iters; ++i) {                                                  \
        (a).slots[(i & 1) * n + gt] = bench_slot_value((a).nonce, i, (unsigned)gt);              \
        const long long c0 = timed ? clock64() : 0;                                              \
        ARRIVE;                                                                                  \
        const long long c1 = timed ? clock64() : 0;                                              \
        x = bench_fma_chain(x, (a).xfers);                                                        \
        if (checked)                                                                             \
            wrong += got != want;                                                                \
        const long long c2 = timed ? clock64() : 0;                                              \
        WAIT;                                                                                    \
        if (timed) {                                                                             \
            const long long c3 = clock64();                                                      \
            t_arrive += (unsigned long long)(c1 - c0);                                           \
            t_work += (unsigned long long)(c2 - c1);                                             \
            t_wait += (unsigned long long)(c3 - c2);                                             \
        }                                                                                        \
        const unsigned long long bench_p_ = bench_dbar_peer(i, gt, n);                           \
        got = *(volatile unsigned *)&(a).slots[(i & 1) * n + bench_p_];                          \
        want = bench_slot_value((a).nonce, i, (unsigned)bench_p_);                               \
    }                                                                                            \
    if (checked)                                                                                 \
        wrong += got != want;                                                                    \
    if (timed && (a).iters > 0) {                                                                \
        unsigned long long *bench_s_ = (a).acc + 8u * (side) + (threadIdx.x == 0u ? 0u : 4u);     \
        atomicAdd(bench_s_ + 0, t_arrive);                                                       \
        atomicAdd(bench_s_ + 1, t_work);                                                         \
        atomicAdd(bench_s_ + 2, t_wait);                                                         \
        atomicAdd(bench_s_ + 3, (unsigned long long)(a).iters);                                  \
    }                                                                                            \
    bench_check_report(&(a), wrong);                                                             \
    bench_sink(&(a), got ^ __float_as_uint(x))

/* Cluster rows: the slot array lives in each CTA's shared memory; after the
 * wait a thread reads, through DSMEM, the slot of thread (tid ^ 32, another
 * warp) of the next CTA of its cluster, `remote` being that CTA's copy of
 * slots[phase & 1] (map_shared_rank). The id is the global thread index, so
 * a value from the wrong CTA never matches. */
static __device__ __forceinline__ unsigned bench_cluster_peer_thread(void) { return threadIdx.x ^ 32u; }

/* Relaxed cluster rows: a relaxed arrive orders no memory (a stale data read
 * is allowed), but the wait must still not return before every thread of
 * the cluster arrived. At a checked phase, before its arrive, each thread
 * stores its arrival stamp (the launch's nonce, and phase + 1) in its own
 * word of bench_arrived_; after the wait it reads, through DSMEM, the stamp
 * of the same peer thread as the data check (tid ^ 32 of the next CTA) and
 * counts it WRONG unless it is this launch's and says phase + 1 or + 2 (the
 * peer may be one phase ahead, never two: its next arrival needs this
 * thread's). Over every thread, every thread's stamp is read each checked
 * phase. The stamp is the thread's own shared-memory store before its arrive,
 * which the relaxed barrier itself does not order (PTX: no ordering of
 * accesses before a relaxed arrive); a cluster barrier's round trip takes far
 * longer than that store takes to land, and a fenced variant of the same
 * check runs in tests/cg:barrier_test (cluster_relaxed_wait_waits_for_every_arrival). */
#define BENCH_ARRIVALS __shared__ unsigned long long bench_arrived_[1024]
static __device__ __forceinline__ unsigned long long bench_arrival_stamp(unsigned nonce, long long i)
{
    return ((unsigned long long)nonce << 32) | (unsigned)(i + 1);
}
static __device__ __forceinline__ unsigned bench_arrival_short(unsigned long long v, unsigned nonce, long long i)
{
    return ((unsigned)(v >> 32) != nonce) | ((unsigned)v - (unsigned)(i + 1) > 1u);
}

/* Copy rows: the source's int4 number j (bench_fill_src writes these). */
static __device__ __forceinline__ int4 bench_src_vec(unsigned long long j)
{
    const unsigned h = (unsigned)(((j + 1ull) * 0x9E3779B97F4A7C15ull) >> 32);
    return make_int4((int)h, (int)(h * 3u), (int)(unsigned)j, (int)~h);
}

static __device__ __forceinline__ int bench_vec_ne(int4 x, int4 y)
{
    return (x.x != y.x) | (x.y != y.y) | (x.z != y.z) | (x.w != y.w);
}

/* The tile number block blockIdx.x copies in iteration i (bench_tile_src's). */
static __device__ __forceinline__ unsigned long long bench_tile_no(const bench_args_t *a, long long i)
{
    return ((unsigned long long)i * gridDim.x + blockIdx.x) % a->ntiles;
}

/* Consume a tile that landed in shared memory and check it: a thread reads
 * one int4 (a different quarter of the tile each iteration, so every int4 is
 * checked every tile_bytes / 16 / blockDim iterations) and compares it with
 * the source's value; a mismatch counts in *wrong. */
static __device__ __forceinline__ unsigned bench_consume_tile_checked(const bench_args_t *a, const int4 *tile,
                                                                      unsigned long long tile_no, long long i,
                                                                      unsigned acc, unsigned long long *wrong)
{
    const unsigned n = a->tile_bytes / sizeof(int4);
    const unsigned per = n / blockDim.x;
    const unsigned e = threadIdx.x + ((unsigned)i % per) * blockDim.x;
    const int4 v = tile[e];
    *wrong += bench_vec_ne(v, bench_src_vec(tile_no * n + e));
    return acc ^ (unsigned)v.x ^ (unsigned)v.w;
}

/* DSMEM rows: the int4 number k that block `from` sends in round `round`. */
static __device__ __forceinline__ int4 bench_dsmem_vec(unsigned from, long long round, unsigned k)
{
    const unsigned h = (from * 0x9E3779B1u) ^ ((unsigned)round * 0x85EBCA77u) ^ (k * 0xC2B2AE3Du);
    return make_int4((int)h, (int)k, (int)from, (int)(unsigned)round);
}

// --- collective rows: a chain the host can replay -------------------------------------

/* Every collective row runs, per thread, x(0) = seed >> 16 and
 *   x(i+1) = bench_coll_next(result(i), seed + i)
 * where result(i) is the collective over x(i) (as T: int, float or double).
 * Each input depends on the previous result, so nothing can be hoisted or
 * dropped. Values stay below 2^16, so sums of 32 of them (below 2^21) are
 * exact in every type: the result does not depend on the order of
 * combination, and the host replays the chain in integers
 * (bench.cu, coll_replay) for the lanes of BENCH_COLL_SAMPLES warps
 * (bench_coll_sample: warp s * (warps - 1) / 3 of block s * (blocks - 1) / 3,
 * s = 0..3: four blocks and four warp indices; until issue 27 it was warp 0
 * of the first and the last block). */
static __device__ __forceinline__ unsigned bench_coll_seed(void)
{
    return (unsigned)((bench_gtid() + 1ull) * 0x9E3779B97F4A7C15ull >> 32);
}
static __device__ __forceinline__ unsigned bench_coll_next(unsigned r, unsigned s) { return (r * 0x9E3779B1u + s) >> 16; }

/* Which sampled warp (0..BENCH_COLL_SAMPLES - 1) the calling thread's warp
 * is, or -1. The host (bench.cu, coll_sample) uses the same formula. */
static __device__ __forceinline__ int bench_coll_sample(void)
{
    const unsigned warps = blockDim.x / 32u, w = threadIdx.x / 32u;
    for (unsigned s = 0; s < BENCH_COLL_SAMPLES; ++s)
        if (blockIdx.x == s * (gridDim.x - 1u) / (BENCH_COLL_SAMPLES - 1u) &&
            w == s * (warps - 1u) / (BENCH_COLL_SAMPLES - 1u))
            return (int)s;
    return -1;
}

/* After the loop: the sampled threads' final x, the phase count, the sink. */
static __device__ __forceinline__ void bench_coll_report(const bench_args_t *a, unsigned x)
{
    const int s = a->iters > 0 ? bench_coll_sample() : -1;
    if (s >= 0)
        a->chk[BENCH_CHK_STATE + 32u * (unsigned)s + (threadIdx.x & 31u)] = x;
    bench_check_report(a, 0);
    bench_sink(a, x);
}

#endif /* CGC_BENCH_DEVICE_H */
