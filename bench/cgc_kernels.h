/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/cgc_kernels.h — cgc kernel bodies that more than one benchmark row or
 * file builds, each variant from the same text: cgc_rows.cu with the
 * library's defaults, and the design files (designs/*.cu), which set one of
 * the library's tuning macros first, so a setting the library chose is
 * measured against its alternatives in the same run.
 */
#ifndef CGC_BENCH_CGC_KERNELS_H
#define CGC_BENCH_CGC_KERNELS_H

#include "cg/cg.h"

#include "bench/bench.h"
#include "bench/bench_device.h"

/* Light completion function: one thread adds 1 to a shared counter per phase;
 * every thread reads it after its wait (the anchor's compl_count). `form`:
 * 0 calls it through the pointer stored at init; 1 names it at the arrive
 * (cg_barrier_fn_arrive_with: a direct call the compiler inlines); 2 writes
 * the step inline (arrive_elect / complete; no function stored).
 * BENCH_COMPL_LIGHT_KERNEL_Q_ also takes the function's qualifiers (the
 * direct-call probe below: __noinline__). */
/* The light rows' per-phase check (the shared `count` F adds 1 to: F ran
 * exactly once per phase, its write seen after the wait) and their end. */
#define BENCH_COMPL_LIGHT_CHECK_(i, acc, wrong)                                \
    do {                                                                       \
        const unsigned c_ = count;                                             \
        (acc) += c_;                                                           \
        (wrong) += c_ != (unsigned)((i) + 1);                                  \
    } while (0)
#define BENCH_COMPL_LIGHT_END_(a, acc, wrong)                                  \
    do {                                                                       \
        bench_check_report(&(a), (wrong));                                     \
        bench_sink(&(a), (acc));                                               \
        if (threadIdx.x == 0)                                                  \
            (a).acc[blockIdx.x] = count;                                       \
    } while (0)
#define BENCH_COMPL_LIGHT_KERNEL(kname, form) BENCH_COMPL_LIGHT_KERNEL_Q_(kname, form, )
#define BENCH_COMPL_LIGHT_KERNEL_Q_(kname, form, qual)                         \
    static __device__ qual void kname##_fn(void *p) { *(unsigned *)p += 1u; }  \
    __global__ void kname(bench_args_t a)                                      \
    {                                                                          \
        __shared__ unsigned count;                                             \
        __shared__ cg_barrier_fn_t bar;                                        \
        if (threadIdx.x == 0) {                                                \
            count = 0;                                                         \
            if ((form) != 0) /* only the pointer form stores the function */  \
                cg_barrier_fn_init(&bar, blockDim.x, NULL, NULL);              \
            else                                                               \
                cg_barrier_fn_init(&bar, blockDim.x, kname##_fn, &count);      \
        }                                                                      \
        __syncthreads();                                                       \
        unsigned long long wrong = 0;                                          \
        unsigned acc = threadIdx.x;                                            \
        for (long long i = 0; i < a.iters; ++i) {                              \
            cg_token_t t;                                                      \
            if ((form) == 2) {                                                 \
                if (cg_barrier_fn_arrive_elect(&bar, &t)) {                    \
                    count += 1u;                                               \
                    cg_barrier_fn_complete(&bar, t);                           \
                }                                                              \
            } else {                                                           \
                t = (form) == 1 ? cg_barrier_fn_arrive_with(&bar, kname##_fn, &count) \
                                : cg_barrier_fn_arrive(&bar);                  \
            }                                                                  \
            cg_barrier_fn_wait(&bar, t);                                       \
            BENCH_COMPL_LIGHT_CHECK_(i, acc, wrong);                           \
        }                                                                      \
        BENCH_COMPL_LIGHT_END_(a, acc, wrong);                                 \
    }

/* 1 only in the block self-test kernel (designs/block_broken.cu): the
 * barrier is released one phase early as the check sees it — a thread reads
 * the other warps' phase-i values right after the barrier of phase i - 1
 * (its arrive + wait moved after the read). The barrier itself stays whole
 * (no thread ever runs a phase ahead, so nothing can hang); the check must
 * find the values not yet written. */
#if !defined(BENCH_BLOCK_EARLY_RELEASE)
#define BENCH_BLOCK_EARLY_RELEASE 0
#endif

/* The block group's split barrier, arrive then wait, back to back, every
 * phase checked (bench_device.h); `prepare`: set the barrier up before the
 * loop (cg_thread_block_barrier_prepare) instead of at the first arrive. */
#define BENCH_BLOCK_SPLIT_KERNEL(kname, prepare)                     \
    __global__ void kname(bench_args_t a)                            \
    {                                                                \
        BENCH_BLOCK_SLOTS;                                           \
        unsigned long long wrong = 0;                                \
        cg_thread_block_t b = cg_this_thread_block();                \
        if (prepare)                                                 \
            cg_thread_block_barrier_prepare(&b);                     \
        unsigned acc = threadIdx.x;                                  \
        for (long long i = 0; i < a.iters; ++i) {                    \
            acc += (unsigned)i;                                      \
            BENCH_BLOCK_PUBLISH(a, i);                               \
            if (!BENCH_BLOCK_EARLY_RELEASE) {                        \
                cg_token_t t = cg_thread_block_barrier_arrive(&b);   \
                cg_thread_block_barrier_wait(&b, t);                 \
            }                                                        \
            BENCH_BLOCK_VERIFY(a, i, wrong);                         \
            if (BENCH_BLOCK_EARLY_RELEASE) {                         \
                cg_token_t t = cg_thread_block_barrier_arrive(&b);   \
                cg_thread_block_barrier_wait(&b, t);                 \
            }                                                        \
        }                                                            \
        bench_check_report(&a, wrong);                               \
        bench_sink(&a, acc);                                         \
    }

/* The rotating slow warp (what the split barrier is for): every warp arrives,
 * works a.work cycles (the iteration's slow warp a.slow more), then waits;
 * every phase checked. */
#define BENCH_BLOCK_ROTATING_KERNEL(kname)                           \
    __global__ void kname(bench_args_t a)                            \
    {                                                                \
        BENCH_BLOCK_SLOTS;                                           \
        unsigned long long wrong = 0;                                \
        cg_thread_block_t b = cg_this_thread_block();                \
        unsigned acc = threadIdx.x;                                  \
        for (long long i = 0; i < a.iters; ++i) {                    \
            BENCH_BLOCK_PUBLISH(a, i);                               \
            cg_token_t t = cg_thread_block_barrier_arrive(&b);       \
            acc = bench_rotating_work(&a, i, acc);                   \
            cg_thread_block_barrier_wait(&b, t);                     \
            BENCH_BLOCK_VERIFY(a, i, wrong);                         \
        }                                                            \
        bench_check_report(&a, wrong);                               \
        bench_sink(&a, acc);                                         \
    }

/* One-thread TMA bulk copy completing on an mbarrier (seed 001): thread 0
 * fences (the previous tile's generic reads, ordered by the block sync, come
 * before the engine overwrites it; BENCH_COPY_TMA_FENCE 0 leaves it out, as
 * seed 001 and libcu++'s memcpy_async do), starts the copy and then arrives
 * expecting the tile's bytes (seed 001's order); everyone waits on the
 * phase's parity, consumes, syncs. (cgc_rows.cu; designs/copy_tx_nofence.cu
 * without the fence.) */
#ifndef BENCH_COPY_TMA_FENCE
#define BENCH_COPY_TMA_FENCE 1
#endif
#define BENCH_COPY_TMA_KERNEL(kname, early)\
    __global__ void __launch_bounds__(1024) kname(bench_args_t a)                       \
    {                                                                                   \
        extern __shared__ int4 tile[];                                                  \
        __shared__ cg_mbarrier_t mbar;                                                  \
        if (threadIdx.x == 0)                                                           \
            cg_mbarrier_init(&mbar, 1);                                                 \
        __syncthreads();                                                                \
        unsigned long long wrong = 0;                                                   \
        unsigned acc = threadIdx.x;                                                     \
        for (long long i = 0; i < a.iters; ++i) {                                       \
            if (threadIdx.x == 0) {                                                     \
                if (BENCH_COPY_TMA_FENCE)                                               \
                    cg_fence_proxy_async_smem();                                        \
                cg_memcpy_async_tx(tile, bench_tile_src(&a, i), a.tile_bytes, &mbar);   \
                (void)cg_mbarrier_arrive_tx(&mbar, a.tile_bytes);                       \
            }                                                                           \
            if (early) /* the self-test's defect: the tile read before its wait */     \
                acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong); \
            cg_mbarrier_wait_parity(&mbar, (uint32_t)(i & 1));                          \
            if (!(early))                                                               \
                acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong); \
            __syncthreads();                                                            \
        }                                                                               \
        bench_check_report(&a, wrong);                                                  \
        bench_sink(&a, acc);                                                            \
    }

/* The seed-003 pattern in cgc: the block copies into shared memory on a
 * cg_barrier_t, arrive_and_wait, consume, block sync. COPY(b, dst, src,
 * bytes, bar) is the copy call. */
#define BENCH_COPY_BAR_PLAIN(b, d, s, n, bar) cg_memcpy_async((b), (d), (s), (n), (bar))
#define BENCH_COPY_BAR_ALIGNED(b, d, s, n, bar) cg_memcpy_async_aligned((b), (d), (s), (n), 16, (bar))
#define BENCH_COPY_BAR_KERNEL(kname, COPY)                                              \
    __global__ void __launch_bounds__(1024) kname(bench_args_t a)                       \
    {                                                                                   \
        extern __shared__ int4 tile[];                                                  \
        __shared__ cg_barrier_t bar;                                                    \
        cg_thread_block_t b = cg_this_thread_block();                                   \
        if (threadIdx.x == 0)                                                           \
            cg_barrier_init(&bar, blockDim.x);                                          \
        __syncthreads();                                                                \
        unsigned long long wrong = 0;                                                   \
        unsigned acc = threadIdx.x;                                                     \
        for (long long i = 0; i < a.iters; ++i) {                                       \
            COPY(&b, tile, bench_tile_src(&a, i), a.tile_bytes, &bar);                  \
            cg_barrier_arrive_and_wait(&bar);                                           \
            acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong); \
            cg_thread_block_sync(&b);                                                   \
        }                                                                               \
        bench_check_report(&a, wrong);                                                  \
        bench_sink(&a, acc);                                                            \
    }

/* Tile-64 sync (cg/wide_tile.h), every phase checked against the same rank
 * of the tile's other warp. */
#define BENCH_TILE64_SYNC_KERNEL(kname)                              \
    __global__ void kname(bench_args_t a)                            \
    {                                                                \
        BENCH_BLOCK_SLOTS;                                           \
        cg_thread_block_t b = cg_this_thread_block();                \
        cg_wide_tile_t t = cg_wide_tiled_partition(&b, 64);          \
        unsigned long long wrong = 0;                                \
        unsigned acc = threadIdx.x;                                  \
        for (long long i = 0; i < a.iters; ++i) {                    \
            acc += (unsigned)i;                                      \
            BENCH_BLOCK_PUBLISH(a, i);                               \
            cg_wide_tile_sync(&t);                                   \
            BENCH_TILE64_VERIFY(a, i, wrong);                        \
        }                                                            \
        bench_check_report(&a, wrong);                               \
        bench_sink(&a, acc);                                         \
    }

/* The relaxed barrier: a stale data read is allowed (counted apart), a short
 * arrival count is WRONG (bench_device.h, BENCH_ARRIVALS). BENCH_RELAXED_EARLY
 * (the self-test's d_cluster_relaxed_broken, selftest.cu): the checks run
 * between the arrive and the wait, as a wait that does not wait would. */
#if !defined(BENCH_RELAXED_EARLY)
#define BENCH_RELAXED_EARLY 0
#endif
#define BENCH_CLUSTER_RELAXED_KERNEL(kname)                                                                          \
    __global__ void kname(bench_args_t a)                                                                            \
    {                                                                                                                \
        __shared__ unsigned slots[2][1024];                                                                          \
        BENCH_ARRIVALS;                                                                                              \
        cg_cluster_t cl = cg_this_cluster();                                                                         \
        const uint32_t peer = (cg_cluster_block_rank(&cl) + 1u) % cg_cluster_num_blocks(&cl);                        \
        const unsigned pid = (blockIdx.x - cg_cluster_block_rank(&cl) + peer) * blockDim.x + bench_cluster_peer_thread(); \
        const unsigned *remote[2] = {(const unsigned *)cg_cluster_map_shared_rank(&cl, slots[0], peer),             \
                                     (const unsigned *)cg_cluster_map_shared_rank(&cl, slots[1], peer)};            \
        const unsigned long long *arrived =                                                                          \
            (const unsigned long long *)cg_cluster_map_shared_rank(&cl, bench_arrived_, peer);                       \
        unsigned long long stale = 0, wrong = 0;                                                                     \
        unsigned acc = threadIdx.x;                                                                                  \
        for (long long i = 0; i < a.iters; ++i) {                                                                    \
            acc += (unsigned)i;                                                                                      \
            const bool chk = bench_checked_phase(i);                                                                 \
            if (chk) {                                                                                               \
                slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());                    \
                *(volatile unsigned long long *)&bench_arrived_[threadIdx.x] = bench_arrival_stamp(a.nonce, i);      \
            }                                                                                                        \
            cg_token_t t = cg_cluster_barrier_arrive_relaxed(&cl);                                                   \
            if (!BENCH_RELAXED_EARLY)                                                                                \
                cg_cluster_barrier_wait(&cl, t);                                                                     \
            if (chk) {                                                                                               \
                stale += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] !=                  \
                         bench_slot_value(a.nonce, i, pid);                                                          \
                wrong += bench_arrival_short(                                                                        \
                    *(volatile const unsigned long long *)&arrived[bench_cluster_peer_thread()], a.nonce, i);        \
            }                                                                                                        \
            if (BENCH_RELAXED_EARLY)                                                                                 \
                cg_cluster_barrier_wait(&cl, t);                                                                     \
        }                                                                                                            \
        cg_cluster_sync(&cl); /* no CTA exits while another may read its slots */                                    \
        if (stale)                                                                                                   \
            atomicAdd(&a.chk[BENCH_CHK_STALE], stale);                                                               \
        bench_check_report(&a, wrong);                                                                               \
        bench_sink(&a, acc);                                                                                         \
    }

/* Back-to-back grid syncs, one cg_grid_t for the kernel (cgc_rows.cu with the
 * library's defaults; designs/grid_*.cu with one setting changed), bounded
 * like the anchor (BENCH_GRID_BOUNDS, bench_device.h). `early` (a constant;
 * 1 only in the self-test's d_grid_broken, selftest.cu): even phases are
 * checked before the barrier that publishes them. */
#define BENCH_GRID_SYNC_KERNEL(kname) BENCH_GRID_SYNC_KERNEL_D(kname, 0)
#define BENCH_GRID_SYNC_KERNEL_D(kname, early)     \
    __global__ void BENCH_GRID_BOUNDS kname(bench_args_t a) \
    {                                              \
        cg_grid_t g = cg_this_grid();              \
        const unsigned long long gt = bench_gtid(), n = (unsigned long long)gridDim.x * blockDim.x; \
        unsigned long long wrong = 0;              \
        unsigned acc = threadIdx.x;                \
        for (long long i = 0; i < a.iters; ++i) {  \
            const bool pre = (early) && (i & 1) == 0; \
            acc += (unsigned)i;                    \
            BENCH_GRID_PUBLISH(a, i, gt, n);       \
            if (pre) /* the defect */              \
                BENCH_GRID_VERIFY(a, i, gt, n, wrong); \
            cg_grid_sync(&g);                      \
            if (!pre)                              \
                BENCH_GRID_VERIFY(a, i, gt, n, wrong); \
        }                                          \
        bench_check_report(&a, wrong);             \
        bench_sink(&a, acc);                       \
    }

/* Split grid rows: arrive, a.xfers FMAs, wait, every phase checked
 * (BENCH_GRID_SPLIT_BODY, bench_device.h); `probe` 1 times the steps into
 * a.acc (side 0). The group is const: cg_grid_barrier_arrive/wait take a
 * const cg_grid_t. */
#define BENCH_GRID_SPLIT_KERNEL(kname, probe)                                                    \
    __global__ void BENCH_GRID_BOUNDS kname(bench_args_t a)                                      \
    {                                                                                            \
        const cg_grid_t g = cg_this_grid();                                                      \
        BENCH_GRID_SPLIT_BODY(a, 1, probe, 0, cg_token_t bench_t_ = cg_grid_barrier_arrive(&g),  \
                              cg_grid_barrier_wait(&g, bench_t_));                               \
    }

/* Where cg_barrier_fn_t's time goes (info rows against the raw mbarrier
 * floor): the barrier's election alone — every thread arrive.noComplete on a
 * count-(n+1) mbarrier, the one that saw 2 pending makes the last arrival,
 * everyone waits on its token — with no completion step, and with (`fence`)
 * or without the completer's fence.acq_rel.cta. Timing probes, not barriers
 * anyone should use: without the fence the completer acquires nothing. */
#define BENCH_FN_ELECT_PROBE_KERNEL(kname, fence)                           \
    __global__ void kname(bench_args_t a)                                   \
    {                                                                       \
        __shared__ cg_mbarrier_t mb;                                        \
        if (threadIdx.x == 0)                                               \
            cg_mbarrier_init(&mb, blockDim.x + 1u);                         \
        __syncthreads();                                                    \
        BENCH_BLOCK_SLOTS;                                                  \
        unsigned long long wrong = 0;                                       \
        unsigned acc = threadIdx.x;                                         \
        for (long long i = 0; i < a.iters; ++i) {                           \
            BENCH_BLOCK_PUBLISH(a, i);                                      \
            cg_token_t t = cg_mbarrier_arrive_no_complete(&mb, 1u);         \
            if (cg_mbarrier_pending_count(t) == 2u) {                       \
                if (fence)                                                  \
                    cg_fence_acq_rel_cta();                                \
                (void)cg_mbarrier_arrive(&mb);                              \
            }                                                               \
            cg_mbarrier_wait(&mb, t);                                       \
            BENCH_BLOCK_VERIFY(a, i, wrong);                                \
            acc += (unsigned)i;                                             \
        }                                                                   \
        bench_check_report(&a, wrong);                                      \
        bench_sink(&a, acc);                                                \
    }


/*
 * The device-barrier row's kernel: the whole grid (cooperative, co-resident)
 * on one cg_device_barrier_t; bench_dbar_value/peer (bench_device.h) check
 * every phase. iters < 0: the runner's one set-up launch (thread 0
 * initializes the barrier and the counters). `stats` names the host function
 * that reads {wrong values, phases of thread 0} back. A macro so that the
 * settings files can build it with another tuning macro.
 */
/* 1 only in the self-test kernel (designs/dbar_broken.cu): the waits are
 * skipped, so the checks must find wrong values. */
#if !defined(BENCH_DBAR_SKIP_WAIT)
#define BENCH_DBAR_SKIP_WAIT 0
#endif
#define BENCH_DEVICE_BARRIER_KERNEL(kname, stats)                                                        \
    static __device__ unsigned kname##_slots[2][BENCH_DBAR_MAX_THREADS];                                 \
    static __device__ unsigned long long kname##_stats[2];                                               \
    static __device__ unsigned kname##_launch;                                                           \
    __global__ void kname(bench_args_t a)                                                                \
    {                                                                                                    \
        const unsigned long long g = bench_gtid(), n = (unsigned long long)gridDim.x * blockDim.x;       \
        cg_device_barrier_t *bar = (cg_device_barrier_t *)BENCH_DBAR_LINE(a, 1);                         \
        if (a.iters < 0) {                                                                               \
            if (g == 0) {                                                                                \
                cg_device_barrier_init(bar, (uint32_t)n);                                                \
                kname##_stats[0] = kname##_stats[1] = 0;                                                 \
                kname##_launch = 1;                                                                      \
            }                                                                                            \
            return;                                                                                      \
        }                                                                                                \
        const unsigned launch = *(volatile unsigned *)&kname##_launch;                                   \
        unsigned long long errors = 0;                                                                   \
        for (long long i = 0; i < a.iters; ++i) {                                                        \
            kname##_slots[i & 1][g] = bench_dbar_value(launch, i, g);                                    \
            cg_token_t t = cg_device_barrier_arrive(bar);                                                \
            if (!BENCH_DBAR_SKIP_WAIT)                                                                   \
                cg_device_barrier_wait(bar, t);                                                          \
            const unsigned long long p = bench_dbar_peer(i, g, n);                                       \
            errors += *(volatile unsigned *)&kname##_slots[i & 1][p] != bench_dbar_value(launch, i, p);  \
        }                                                                                                \
        if (errors)                                                                                      \
            atomicAdd(&kname##_stats[0], errors);                                                        \
        if (g == 0 && a.iters > 0) {                                                                     \
            kname##_stats[1] += (unsigned long long)a.iters;                                             \
            kname##_launch = launch + 1u; /* every thread read it before its first arrive */             \
        }                                                                                                \
        bench_sink(&a, errors);                                                                          \
    }                                                                                                    \
    extern "C" int stats(unsigned long long out[2])                                                      \
    {                                                                                                    \
        return (int)cudaMemcpyFromSymbol(out, kname##_stats, sizeof kname##_stats);                      \
    }

/* An election probe for cg_barrier_fn_t (info rows, issue 14): thread 0
 * completes every phase instead of the last arrival. Every thread arrives
 * (mbarrier.arrive.release.cta) on `collect` (count blockDim); thread 0
 * waits for that phase (try_wait.acquire.cta: every arrival's writes), runs
 * the light step inline, and arrives on `release` (count 1, release.cta);
 * everyone waits on release's phase by parity (acquire.cta). The critical
 * path is two phase completions and wake-ups (collect's, release's) instead
 * of the last arrival's state coming back, the per-lane fix-up, the fence
 * and one more arrive. A correct barrier only for arrive_and_wait: thread 0
 * blocks in its arrive until every thread arrived, so it cannot serve a
 * split arrive (a thread whose arrival waits on work thread 0 does after its
 * arrive would deadlock) or arrive_and_drop; release's phase k + 1 needs
 * collect's phase k + 1, which needs every thread's arrival after its wait
 * of phase k, so no waiter can miss its parity. */
#define BENCH_FN_FIXED_COMPLETER_KERNEL(kname)                                  \
    __global__ void kname(bench_args_t a)                                       \
    {                                                                           \
        __shared__ unsigned count;                                              \
        __shared__ cg_mbarrier_t collect, release;                              \
        if (threadIdx.x == 0) {                                                 \
            count = 0;                                                          \
            cg_mbarrier_init(&collect, blockDim.x);                             \
            cg_mbarrier_init(&release, 1u);                                     \
        }                                                                       \
        __syncthreads();                                                        \
        unsigned long long wrong = 0;                                           \
        unsigned acc = threadIdx.x;                                             \
        for (long long i = 0; i < a.iters; ++i) {                               \
            cg_token_t t = cg_mbarrier_arrive(&collect);                        \
            if (threadIdx.x == 0) {                                             \
                cg_mbarrier_wait(&collect, t);                                  \
                count += 1u;                                                    \
                (void)cg_mbarrier_arrive(&release);                             \
            }                                                                   \
            cg_mbarrier_wait_parity(&release, (uint32_t)(i & 1));               \
            const unsigned c = count;                                           \
            acc += c;                                                           \
            wrong += c != (unsigned)(i + 1); /* the step ran once per phase */  \
        }                                                                       \
        bench_check_report(&a, wrong);                                          \
        bench_sink(&a, acc);                                                    \
        if (threadIdx.x == 0)                                                   \
            a.acc[blockIdx.x] = count;                                          \
    }

/* A probe for where the stored-pointer call's time goes (info rows, issue
 * 14): the light function named at the arrive (cg_barrier_fn_arrive_with) but
 * __noinline__, so the completer makes a direct call (CALL.REL, no code-
 * address lookup). ptxas sees every caller of a direct callee: it gives this
 * one no frame (no register save) and, for the one argument it gets, shared
 * loads and stores instead of generic ones. Its time minus the inlined row's
 * is the call and return; the pointer row's minus its is what only an
 * indirect call pays (lookup, ABI save/restore, generic accesses). Same
 * checks as the light rows. */
#define BENCH_COMPL_DIRECT_CALL_KERNEL(kname) BENCH_COMPL_LIGHT_KERNEL_Q_(kname, 1, __noinline__)

#endif /* CGC_BENCH_CGC_KERNELS_H */
