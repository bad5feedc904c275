/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/selftest.cu — the self-test's broken variants (bench --self-test),
 * one per checked family that the older self-test rows (the device barrier
 * of designs_dbar_broken.cu, the block barrier of designs_block_broken.cu)
 * did not cover; the pipeline and multicast ones are in stream.cu. Each is
 * its family's kernel with one defect, checked by the family's own check
 * (bench_device.h); each row must print WRONG, and `bench --self-test` exits
 * 0 only when every one did. Most defects sit where the checks before issue
 * 27 did not look, so those checks passed them:
 *
 *   d_cluster_broken          cluster sync whose even phases are read before
 *                             the barrier (the old check sampled i % 8 == 7:
 *                             odd phases only)
 *   d_cluster_relaxed_broken  the relaxed row's kernel with its checks
 *                             between the arrive and the wait, as a wait that
 *                             does not wait (the old relaxed rows counted
 *                             every mismatch as a stale read: never WRONG)
 *   d_grid_broken             grid sync, even phases read before the barrier
 *   d_copy_broken             one-thread TMA copy whose tile is read before
 *                             the mbarrier wait
 *   d_dsmem_push_broken       single-buffer st.async push, each round's
 *                             message read before the wait (the old rows sent
 *                             the same data every round and checked it once,
 *                             after the last round)
 *   d_reduce32_broken         tile-32 reduce whose result is off by one in
 *                             every warp but warp 0 (the old replay checked
 *                             warp 0 of the first and last blocks only)
 *
 * None of the defects can hang: every barrier is still called as its
 * protocol needs, only the reads move or the result changes.
 */
#define BENCH_RELAXED_EARLY 1
#include "bench/cgc_kernels.h"

// --- cluster sync: even phases read before the barrier -----------------------------

__global__ void kd_cluster_broken(bench_args_t a)
{
    __shared__ unsigned slots[2][1024];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t peer = (cg_cluster_block_rank(&cl) + 1u) % cg_cluster_num_blocks(&cl);
    const unsigned pid = (blockIdx.x - cg_cluster_block_rank(&cl) + peer) * blockDim.x + bench_cluster_peer_thread();
    const unsigned *remote[2] = {(const unsigned *)cg_cluster_map_shared_rank(&cl, slots[0], peer),
                                 (const unsigned *)cg_cluster_map_shared_rank(&cl, slots[1], peer)};
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        const bool chk = bench_checked_phase(i), early = (i & 1) == 0;
        if (chk)
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
        if (chk && early) /* the defect: the peer's value before the barrier that publishes it */
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] !=
                     bench_slot_value(a.nonce, i, pid);
        cg_cluster_sync(&cl);
        if (chk && !early)
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] !=
                     bench_slot_value(a.nonce, i, pid);
    }
    cg_cluster_sync(&cl);
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(d_cluster_broken, kd_cluster_broken)

// --- relaxed cluster barrier: its checks before the wait (BENCH_RELAXED_EARLY) -------

BENCH_CLUSTER_RELAXED_KERNEL(kd_cluster_relaxed_broken)
BENCH_EXPORT(d_cluster_relaxed_broken, kd_cluster_relaxed_broken)

// --- grid sync: even phases read before the barrier ---------------------------------

__global__ void BENCH_GRID_BOUNDS kd_grid_broken(bench_args_t a)
{
    cg_grid_t g = cg_this_grid();
    const unsigned long long gt = bench_gtid(), n = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_GRID_PUBLISH(a, i, gt, n);
        if ((i & 1) == 0) /* the defect */
            BENCH_GRID_VERIFY(a, i, gt, n, wrong);
        cg_grid_sync(&g);
        if ((i & 1) != 0)
            BENCH_GRID_VERIFY(a, i, gt, n, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(d_grid_broken, kd_grid_broken)

// --- one-thread TMA copy: the tile read before its wait ------------------------------

__global__ void __launch_bounds__(1024) kd_copy_broken(bench_args_t a)
{
    extern __shared__ int4 tile[];
    __shared__ cg_mbarrier_t mbar;
    if (threadIdx.x == 0)
        cg_mbarrier_init(&mbar, 1);
    __syncthreads();
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        if (threadIdx.x == 0) {
            cg_fence_proxy_async_smem();
            (void)cg_mbarrier_arrive_tx(&mbar, a.tile_bytes);
            cg_memcpy_async_tx(tile, bench_tile_src(&a, i), a.tile_bytes, &mbar);
        }
        acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong); /* the defect */
        cg_mbarrier_wait_parity(&mbar, (uint32_t)(i & 1));
        __syncthreads();
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(d_copy_broken, kd_copy_broken)

// --- DSMEM single-buffer push: each round read before its wait ------------------------

__global__ void kd_dsmem_push_broken(bench_args_t a)
{
    extern __shared__ int4 dyn[];
    __shared__ cg_mbarrier_t full;
    cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t b = cg_this_thread_block();
    const unsigned n = a.xfer_bytes / sizeof(int4);
    int4 *send = dyn;
    int4 *recv = dyn + n;
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&full, 1);
        cg_mbarrier_init_fence_cluster();
    }
    const uint32_t nb = cg_cluster_num_blocks(&cl), me = cg_cluster_block_rank(&cl);
    const uint32_t peer = (me + 1u) % nb;
    const unsigned from = blockIdx.x - me + (me + nb - 1u) % nb;
    cg_cluster_sync(&cl);
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
            send[k] = bench_dsmem_vec(blockIdx.x, i, k);
        if (threadIdx.x == 0)
            (void)cg_mbarrier_arrive_tx(&full, a.xfer_bytes);
        cg_dsmem_push(&b, recv, send, a.xfer_bytes, &full, peer);
        for (unsigned k = threadIdx.x; k < n; k += blockDim.x) { /* the defect: before the wait */
            const int4 v = recv[k];
            acc ^= (unsigned)v.x;
            wrong += bench_vec_ne(v, bench_dsmem_vec(from, i, k));
        }
        cg_mbarrier_wait_parity_cluster(&full, (uint32_t)(i & 1));
        cg_cluster_sync(&cl);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(d_dsmem_push_broken, kd_dsmem_push_broken)

// --- tile-32 reduce, off by one outside warp 0 -----------------------------------------

__global__ void kd_reduce32_broken(bench_args_t a)
{
    cg_thread_block_t b = cg_this_thread_block();
    cg_tile_t t = cg_tiled_partition(&b, 32u);
    const unsigned seed = bench_coll_seed();
    unsigned x = seed >> 16;
    for (long long i = 0; i < a.iters; ++i) {
        int32_t r = cg_tile_reduce_i32(&t, (int32_t)x, CG_OP_PLUS);
        if (threadIdx.x >= 32u) /* the defect */
            r += 1;
        x = bench_coll_next((unsigned)r, seed + (unsigned)i);
    }
    bench_coll_report(&a, x);
}
BENCH_EXPORT(d_reduce32_broken, kd_reduce32_broken)
