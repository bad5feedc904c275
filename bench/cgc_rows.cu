/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/cgc_rows.cu — the cgc side of every benchmark row, written the way a
 * cgc user writes kernels: C style, `#include <cg/cg.h>`, cgc calls only (no
 * cooperative_groups, no libcu++). Each kernel mirrors its anchor in
 * anchors.cu, with the cgc call in place of the C++ one.
 *
 * bench_cgc_missing() exists so a row whose cgc API is not (yet) in the tree
 * can be reported as MISSING by returning NULL from its getter
 * (BENCH_MISSING) instead of failing the build.
 */
#include "cg/cg.h"

#include "bench/bench.h"
#include "bench/bench_device.h"
#include "bench/cgc_kernels.h"

/* A getter for a kernel that cannot be built yet, and the reason. */
#define BENCH_MISSING(name, why)                      \
    extern "C" const void *name(void) { return NULL; } \
    static const char *const name##_why = why;
#define BENCH_BUILT(name, kernel) \
    BENCH_EXPORT(name, kernel)    \
    static const char *const name##_why = "";

// --- block sync and split barrier ---------------------------------------------

__global__ void kc_block_sync(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    cg_thread_block_t b = cg_this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        cg_thread_block_sync(&b);
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_block_sync, kc_block_sync)

/* The group's split barrier. Its first arrive sets the block's mbarrier up
 * (one __syncthreads, once per launch; the 0-iteration baseline does not pay
 * it, 1/iters of it stays in the figure). */
BENCH_BLOCK_SPLIT_KERNEL(kc_block_split, 0)
BENCH_BUILT(c_block_split, kc_block_split)

BENCH_BLOCK_SPLIT_KERNEL(kc_block_split_prepared, 1)
BENCH_BUILT(c_block_split_prepared, kc_block_split_prepared)

/* cg_barrier_t, the C form of cuda::barrier<thread_scope_block>. */
__global__ void kc_barrier_split(bench_args_t a)
{
    __shared__ cg_barrier_t bar;
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, blockDim.x);
    __syncthreads();
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        cg_token_t t = cg_barrier_arrive_one(&bar);
        cg_barrier_wait_token(&bar, t);
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_barrier_split, kc_barrier_split)

__global__ void kc_block_rotating(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    cg_thread_block_t b = cg_this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        BENCH_BLOCK_PUBLISH(a, i);
        cg_token_t t = cg_thread_block_barrier_arrive(&b);
        acc = bench_rotating_work(&a, i, acc);
        cg_thread_block_barrier_wait(&b, t);
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_block_rotating, kc_block_rotating)

// --- barrier with a completion function: light (the barrier's own cost) --------

BENCH_COMPL_LIGHT_KERNEL(kc_barrier_compl_light, 0)
BENCH_BUILT(c_barrier_compl_light, kc_barrier_compl_light)

BENCH_COMPL_LIGHT_KERNEL(kc_barrier_compl_light_with, 1)
BENCH_BUILT(c_barrier_compl_light_with, kc_barrier_compl_light_with)

BENCH_COMPL_LIGHT_KERNEL(kc_barrier_compl_light_elect, 2)
BENCH_BUILT(c_barrier_compl_light_elect, kc_barrier_compl_light_elect)

BENCH_FN_ELECT_PROBE_KERNEL(kc_fn_elect_probe, 0)
BENCH_BUILT(c_fn_elect_probe, kc_fn_elect_probe)

BENCH_FN_ELECT_PROBE_KERNEL(kc_fn_elect_fence_probe, 1)
BENCH_BUILT(c_fn_elect_fence_probe, kc_fn_elect_fence_probe)

BENCH_FN_FIXED_COMPLETER_KERNEL(kc_fn_fixed_completer_probe)
BENCH_BUILT(c_fn_fixed_completer_probe, kc_fn_fixed_completer_probe)

BENCH_COMPL_DIRECT_CALL_KERNEL(kc_fn_direct_call_probe)
BENCH_BUILT(c_fn_direct_call_probe, kc_fn_direct_call_probe)

// --- barrier with a completion function (seed 000 shape, heavy: info) ----------

/* The completion function's argument and body: the same sum as the anchor's
 * functor (bench_sum_into), called through cg_barrier_fn_t's pointer. */
typedef struct compl_arg {
    int *smem;
    unsigned n;
    unsigned long long *acc;
} compl_arg_t;

static __device__ void compl_sum_fn(void *p)
{
    compl_arg_t *c = (compl_arg_t *)p;
    bench_sum_into(c->smem, c->n, c->acc);
}

__global__ void kc_barrier_compl(bench_args_t a)
{
    __shared__ int smem[1024];
    __shared__ unsigned long long acc;
    __shared__ compl_arg_t arg;
    __shared__ cg_barrier_fn_t bar;
    if (threadIdx.x == 0) {
        acc = 0;
        arg.smem = smem;
        arg.n = blockDim.x;
        arg.acc = &acc;
        cg_barrier_fn_init(&bar, blockDim.x, compl_sum_fn, &arg);
    }
    __syncthreads();
    for (long long i = 0; i < a.iters; ++i) {
        smem[threadIdx.x] = (int)((unsigned)i ^ threadIdx.x) + (int)acc;
        cg_token_t t = cg_barrier_fn_arrive(&bar);
        cg_barrier_fn_wait(&bar, t);
    }
    bench_sink(&a, acc);
    if (threadIdx.x == 0) {
        a.acc[blockIdx.x] = acc;
        if (a.iters > 0) /* the host replays the sums (bench.cu) */
            atomicAdd(&a.chk[BENCH_CHK_SUM], acc);
    }
    bench_check_report(&a, 0);
}
BENCH_BUILT(c_barrier_compl, kc_barrier_compl)

// --- cluster -----------------------------------------------------------------------

__global__ void kc_cluster_sync(bench_args_t a)
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
        if (bench_checked_phase(i))
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
        cg_cluster_sync(&cl);
        if (bench_checked_phase(i))
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
    }
    cg_cluster_sync(&cl); /* no CTA exits while another may read its slots */
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_cluster_sync, kc_cluster_sync)

__global__ void kc_cluster_split(bench_args_t a)
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
        if (bench_checked_phase(i))
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
        cg_token_t t = cg_cluster_barrier_arrive(&cl);
        cg_cluster_barrier_wait(&cl, t);
        if (bench_checked_phase(i))
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
    }
    cg_cluster_sync(&cl); /* no CTA exits while another may read its slots */
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_cluster_split, kc_cluster_split)

__global__ void kc_cluster_relaxed(bench_args_t a)
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
        if (bench_checked_phase(i))
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
        cg_token_t t = cg_cluster_barrier_arrive_relaxed(&cl);
        cg_cluster_barrier_wait(&cl, t);
        if (bench_checked_phase(i))
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
    }
    cg_cluster_sync(&cl); /* no CTA exits while another may read its slots */
    /* A relaxed arrive orders no memory: a stale read is allowed, counted apart. */
    if (wrong)
        atomicAdd(&a.chk[BENCH_CHK_STALE], wrong);
    bench_check_report(&a, 0);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_cluster_relaxed, kc_cluster_relaxed)

// --- grid ------------------------------------------------------------------------------

BENCH_GRID_SYNC_KERNEL(kc_grid_sync)
BENCH_BUILT(c_grid_sync, kc_grid_sync)

// --- device-scope barrier: arrive + wait, every phase checked ------------------------------

BENCH_DEVICE_BARRIER_KERNEL(kc_device_barrier, bench_dbar_stats_cgc)
BENCH_BUILT(c_device_barrier, kc_device_barrier)

// --- DSMEM exchange: push into the neighbour ------------------------------------------------

/*
 * Dynamic shared memory as the anchor's: send[xfer] then recv[xfer]. Each
 * round every CTA pushes its send buffer into its ring neighbour's (rank + 1)
 * recv buffer; the push completes its bytes on the neighbour's `full`
 * mbarrier. The receiver's thread 0 arrives on its own `full` expecting the
 * bytes, every thread waits on it (acquire at cluster scope), and a cluster
 * barrier closes the round (the next round's push must not land before this
 * round's phase has completed, as in dsmem/dsmem.h's protocol). `bulk` picks
 * the sender: the bulk copy engine (one thread) or st.async from every thread.
 */
static __device__ __forceinline__ void dsmem_push_kernel(const bench_args_t *a, int bulk)
{
    extern __shared__ int4 dyn[];
    __shared__ cg_mbarrier_t full;
    cg_cluster_t cl = cg_this_cluster();
    cg_thread_block_t b = cg_this_thread_block();
    unsigned n = a->xfer_bytes / sizeof(int4);
    int4 *send = dyn;
    int4 *recv = dyn + n;
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x) {
        send[k] = bench_dsmem_vec(blockIdx.x, 0, k);
        recv[k] = make_int4(0, 0, 0, 0); /* poison: what a launch leaves is not this one's */
    }
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&full, 1);
        cg_mbarrier_init_fence_cluster();
    }
    if (bulk)
        cg_fence_proxy_async_smem(); /* send is read by the bulk engine (async proxy) */
    uint32_t peer = (cg_cluster_block_rank(&cl) + 1u) % cg_cluster_num_blocks(&cl);
    cg_cluster_sync(&cl); /* every CTA's mbarrier is initialized before anyone pushes */
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a->iters; ++i) {
        if (threadIdx.x == 0)
            (void)cg_mbarrier_arrive_tx(&full, a->xfer_bytes);
        if (bulk) {
            if (threadIdx.x == 0) {
                cg_dsmem_fence_proxy_async(); /* the peer's generic writes of recv (its poison), before the engine's */
                cg_dsmem_push_bulk(recv, send, a->xfer_bytes, &full, peer);
            }
        } else {
            cg_dsmem_push(&b, recv, send, a->xfer_bytes, &full, peer);
        }
        cg_mbarrier_wait_parity_cluster(&full, (uint32_t)(i & 1));
        cg_cluster_sync(&cl);
    }
    /* After the last round recv holds the send buffer of the previous CTA. */
    unsigned long long wrong = 0;
    const uint32_t nb = cg_cluster_num_blocks(&cl);
    const unsigned from = blockIdx.x - cg_cluster_block_rank(&cl) + (cg_cluster_block_rank(&cl) + nb - 1u) % nb;
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x) {
        acc ^= (unsigned)recv[k].x;
        if (a->iters > 0)
            wrong += bench_vec_ne(recv[k], bench_dsmem_vec(from, 0, k));
    }
    bench_check_report(a, wrong);
    bench_sink(a, acc);
}

__global__ void kc_dsmem_push(bench_args_t a) { dsmem_push_kernel(&a, 0); }
__global__ void kc_dsmem_push_bulk(bench_args_t a) { dsmem_push_kernel(&a, 1); }
BENCH_BUILT(c_dsmem_push, kc_dsmem_push)
BENCH_BUILT(c_dsmem_push_bulk, kc_dsmem_push_bulk)

// --- global -> shared copy ------------------------------------------------------------------

/* One-thread TMA bulk copy completing on an mbarrier (seed 001): thread 0
 * fences (the previous tile's generic reads, ordered by the block sync, come
 * before the engine overwrites it), arrives expecting the tile's bytes and
 * starts the copy; everyone waits on the phase's parity, consumes, syncs. */
__global__ void __launch_bounds__(1024) kc_copy_tma(bench_args_t a)
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
        cg_mbarrier_wait_parity(&mbar, (uint32_t)(i & 1));
        acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong);
        __syncthreads();
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_copy_tma, kc_copy_tma)

/* The seed-003 pattern in cgc: the block copies into shared memory on a
 * cg_barrier_t, arrive_and_wait, consume, block sync. */
__global__ void __launch_bounds__(1024) kc_copy_memcpy_async(bench_args_t a)
{
    extern __shared__ int4 tile[];
    __shared__ cg_barrier_t bar;
    cg_thread_block_t b = cg_this_thread_block();
    if (threadIdx.x == 0)
        cg_barrier_init(&bar, blockDim.x);
    __syncthreads();
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        cg_memcpy_async(&b, tile, bench_tile_src(&a, i), a.tile_bytes, &bar);
        cg_barrier_arrive_and_wait(&bar);
        acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong);
        cg_thread_block_sync(&b);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_copy_memcpy_async, kc_copy_memcpy_async)

// --- DSMEM exchange, double-buffered push (dsmem/dsmem.h's protocol) --------------------------

/*
 * Round i uses buffer s = i & 1 of two receive buffers (X messages of
 * blockDim int4 each) and two mbarriers per CTA: full[s] (the receiver's:
 * its thread 0 arrives expecting the round's bytes, the pushes complete them)
 * and empty[s] (the sender's: the receiver's thread 0 arrives on it,
 * remotely, once its whole block has read buffer s). The sender waits
 * empty[s] before refilling buffer s two rounds later, so the only
 * synchronization per round is the receiver's wait on its own full[s]; no
 * cluster barrier in the loop. Every thread pushes its int4 of each of the X
 * messages from registers (st.async, bench_dsmem_vec: new data every round)
 * into the next CTA, and checks its int4 of each message from the previous
 * CTA.
 */
#define BENCH_DSMEM_PUSH_DB_KERNEL(kname, X)                                                              \
    __global__ void kname(bench_args_t a)                                                                 \
    {                                                                                                     \
        extern __shared__ int4 dyn[]; /* recv[2][X * blockDim] */                                         \
        __shared__ cg_mbarrier_t full[2], empty[2];                                                       \
        cg_cluster_t cl = cg_this_cluster();                                                              \
        cg_thread_block_t b = cg_this_thread_block();                                                     \
        const uint32_t v = blockDim.x, nb = cg_cluster_num_blocks(&cl), me = cg_cluster_block_rank(&cl);  \
        const uint32_t to = (me + 1u) % nb, from_rank = (me + nb - 1u) % nb;                               \
        const unsigned from = blockIdx.x - me + from_rank;                                                \
        for (uint32_t k = threadIdx.x; k < 2u * X * v; k += v)                                             \
            dyn[k] = make_int4(0, 0, 0, 0); /* poison */                                                  \
        if (threadIdx.x == 0) {                                                                           \
            cg_mbarrier_init(&full[0], 1);                                                                \
            cg_mbarrier_init(&full[1], 1);                                                                \
            cg_mbarrier_init(&empty[0], 1);                                                               \
            cg_mbarrier_init(&empty[1], 1);                                                               \
            cg_mbarrier_init_fence_cluster();                                                             \
        }                                                                                                 \
        cg_cluster_sync(&cl); /* every CTA's barriers are set up before anyone pushes */                  \
        const uint32_t dst0 = cg_dsmem_addr(dyn, to);                                                     \
        const uint32_t full0 = cg_dsmem_addr(&full[0], to), full1 = cg_dsmem_addr(&full[1], to);          \
        unsigned long long wrong = 0;                                                                     \
        unsigned acc = threadIdx.x;                                                                       \
        for (long long i = 0; i < a.iters; ++i) {                                                         \
            const uint32_t s = (uint32_t)(i & 1), ph = (uint32_t)((i >> 1) & 1);                          \
            if (i >= 2) /* the next CTA has read what we pushed into buffer s two rounds ago */           \
                cg_mbarrier_wait_parity_cluster(&empty[s], ph ^ 1u);                                      \
            if (threadIdx.x == 0)                                                                         \
                (void)cg_mbarrier_arrive_tx(&full[s], X * v * 16u);                                       \
            _Pragma("unroll") for (uint32_t m = 0; m < X; ++m)                                            \
            {                                                                                             \
                const uint32_t k = m * v + threadIdx.x;                                                   \
                const int4 d = bench_dsmem_vec(blockIdx.x, i, k);                                         \
                cg_dsmem_st_async_v4_b32(dst0 + (s * X * v + k) * 16u,                                    \
                                         make_uint4((unsigned)d.x, (unsigned)d.y, (unsigned)d.z, (unsigned)d.w), \
                                         s ? full1 : full0);                                              \
            }                                                                                             \
            cg_mbarrier_wait_parity_cluster(&full[s], ph);                                                \
            const int4 *mine = dyn + s * X * v;                                                           \
            _Pragma("unroll") for (uint32_t m = 0; m < X; ++m)                                            \
            {                                                                                             \
                const int4 r = mine[m * v + threadIdx.x];                                                 \
                wrong += bench_vec_ne(r, bench_dsmem_vec(from, i, m * v + threadIdx.x));                  \
                acc ^= (unsigned)r.x;                                                                     \
            }                                                                                             \
            cg_thread_block_sync(&b); /* the whole block has read buffer s */                             \
            if (threadIdx.x == 0)                                                                         \
                cg_mbarrier_arrive_remote(&empty[s], from_rank);                                          \
        }                                                                                                 \
        cg_cluster_sync(&cl); /* no CTA exits while another may push to it */                             \
        bench_check_report(&a, wrong);                                                                    \
        bench_sink(&a, acc);                                                                              \
    }

BENCH_DSMEM_PUSH_DB_KERNEL(kc_dsmem_push_db1, 1u)
BENCH_DSMEM_PUSH_DB_KERNEL(kc_dsmem_push_db8, 8u)
BENCH_BUILT(c_dsmem_push_db1, kc_dsmem_push_db1)
BENCH_BUILT(c_dsmem_push_db8, kc_dsmem_push_db8)

// --- DSMEM exchange probes (issue 14): push variants, info rows ------------------------------

/*
 * One kernel body for every probe (docs/design/dsmem_exchange.md argues each
 * protocol). The receive buffer is a ring of R slots of G messages (8 KiB
 * each: blockDim x int4); each slot has a `full` mbarrier in the receiver
 * (count 1: the receiver's arrive expecting the slot's bytes, completed by
 * the pushes) and an `empty` mbarrier in the sender (count: the receiver's
 * warps; each warp releases the slot after reading its part: no block-wide
 * barrier in the loop). Unit u (G messages) goes to slot u % R. Iteration j
 * of the loop produces unit j and consumes unit j - D, so a CTA runs D units
 * ahead of its own reading (D <= R - 1: producing unit j waits for the
 * release of unit j - R, which the next CTA gives in its iteration
 * j - R + D < j, so the ring of CTAs cannot wait on itself).
 *
 * How unit u is pushed (`mode`):
 *   PROBE_ST_ASYNC   every thread st.async's its int4 of each message;
 *   PROBE_WARP_CHAN  the same, but full and empty are per (slot, warp): warp w
 *                    of the receiver waits only for warp w of the sender's
 *                    bytes (each thread reads the int4 its twin wrote), and
 *                    releases only that part;
 *   PROBE_BULK_WARP  every thread stores its int4 into a local send slot,
 *                    fences (generic -> async proxy), __syncwarp, and lane 0
 *                    pushes the warp's 512 B per message with the bulk engine;
 *   PROBE_BULK_WARP_CHAN  the per-warp bulk push on per-warp channels (as
 *                    PROBE_WARP_CHAN): no barrier couples two warps at all;
 *   PROBE_BULK_MSG   the same staging; each warp's lane 0 arrives on the
 *                    slot's local `staged` mbarrier (count: warps), thread 0
 *                    waits on it and pushes the whole unit with one bulk copy.
 * Bulk modes: send slot u % R is refilled only after the receiver released
 * unit u - R (its full phase, so the copy that read the slot, completed
 * first), and the thread that issues a push fences the shared::cluster
 * window (cg_dsmem_fence_proxy_async) after that acquire, so the engine's
 * writes come after the receiver's generic reads of the slot.
 *
 * Every receiver thread checks its int4 of every message of every unit
 * against bench_dsmem_vec(sender, round, index), as the anchor does.
 */
#define PROBE_ST_ASYNC 0
#define PROBE_WARP_CHAN 1
#define PROBE_BULK_WARP 2
#define PROBE_BULK_MSG 3
#define PROBE_BULK_WARP_CHAN 4
#define PROBE_THREADS 512u                  /* the rows' block size (bench.cu) */
#define PROBE_WARPS (PROBE_THREADS / 32u)
#define PROBE_MAX_SLOTS 16u
#define PROBE_MAX_BARS (PROBE_MAX_SLOTS * PROBE_WARPS) /* R <= 16 slots, per warp at most */

static __device__ __forceinline__ void dsmem_probe_kernel(const bench_args_t *a, const uint32_t X, const uint32_t G,
                                                          const uint32_t R, const uint32_t D, const int mode,
                                                          const uint32_t RA, int4 *recv_a, int4 *recv_b, int4 *send,
                                                          cg_mbarrier_t *full, cg_mbarrier_t *empty,
                                                          cg_mbarrier_t *staged)
{
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t v = blockDim.x, W = v / 32u, warp = threadIdx.x >> 5, lane = threadIdx.x & 31u;
    if (v != PROBE_THREADS) { /* the barrier arrays and the static send slots assume the rows' shape */
        bench_check_report(a, 1);
        return;
    }
    const uint32_t nb = cg_cluster_num_blocks(&cl), me = cg_cluster_block_rank(&cl);
    const uint32_t to = (me + 1u) % nb, from_rank = (me + nb - 1u) % nb;
    const unsigned from = blockIdx.x - me + from_rank;
    const int bulk = mode == PROBE_BULK_WARP || mode == PROBE_BULK_MSG || mode == PROBE_BULK_WARP_CHAN;
    const int chan = mode == PROBE_WARP_CHAN || mode == PROBE_BULK_WARP_CHAN;
    const uint32_t per_slot = G * v; /* int4 per slot */
    const uint32_t nbars = chan ? R * W : R;
/* Receive slot s: the first RA slots at recv_a, the rest at recv_b (the rows'
 * dynamic shared memory may hold fewer slots than the ring has). */
#define PROBE_SLOT(s) ((RA == R || (s) < RA) ? recv_a + (s) * per_slot : recv_b + ((s) - RA) * per_slot)
    for (uint32_t s = 0; s < R; ++s)
        for (uint32_t k = threadIdx.x; k < per_slot; k += v) {
            PROBE_SLOT(s)[k] = make_int4(-1, -1, -1, -1); /* poison: bench_dsmem_vec's .y and .w are never -1 */
            if (bulk)
                send[s * per_slot + k] = make_int4(-1, -1, -1, -1);
        }
    if (threadIdx.x == 0) {
        for (uint32_t k = 0; k < nbars; ++k) {
            cg_mbarrier_init(&full[k], 1);
            cg_mbarrier_init(&empty[k], chan ? 1u : W);
        }
        for (uint32_t k = 0; k < R; ++k)
            cg_mbarrier_init(&staged[k], W);
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl); /* every CTA's barriers are set up before anyone pushes */
    const uint32_t dsta = cg_dsmem_addr(recv_a, to); /* the next CTA's ring */
    const uint32_t dstb = RA < R ? cg_dsmem_addr(recv_b, to) : 0u;
#define PROBE_REMOTE_SLOT(s) ((RA == R || (s) < RA) ? dsta + (s) * per_slot * 16u : dstb + ((s) - RA) * per_slot * 16u)
    const uint32_t full0 = cg_dsmem_addr(full, to); /* and its full barriers */
    const long long units = a->iters * (long long)(X / G);
    /* Producer and consumer positions: slot, the parity of the slot's phase,
     * round and first message of the unit. */
    uint32_t ps = 0, pp = 0, pm = 0, cs = 0, cp = 0, cm = 0;
    long long pi = 0, ci = 0;
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long j = 0; j < units + (long long)D; ++j) {
        if (j < units) { /* produce unit j into slot ps of the next CTA */
            const uint32_t bar = chan ? ps * W + warp : ps;
            if (j >= (long long)R) /* the next CTA released unit j - R (phase parity pp ^ 1) */
                cg_mbarrier_wait_parity_cluster(&empty[bar], pp ^ 1u);
            if (!bulk) {
#pragma unroll
                for (uint32_t g = 0; g < G; ++g) {
                    const int4 d = bench_dsmem_vec(blockIdx.x, pi, (pm + g) * v + threadIdx.x);
                    cg_dsmem_st_async_v4_b32(PROBE_REMOTE_SLOT(ps) + (g * v + threadIdx.x) * 16u,
                                             make_uint4((unsigned)d.x, (unsigned)d.y, (unsigned)d.z, (unsigned)d.w),
                                             full0 + bar * 8u);
                }
            } else {
#pragma unroll
                for (uint32_t g = 0; g < G; ++g)
                    send[(ps * G + g) * v + threadIdx.x] = bench_dsmem_vec(blockIdx.x, pi, (pm + g) * v + threadIdx.x);
                cg_fence_proxy_async_smem(); /* my stores, before the engine reads them */
                __syncwarp();
                if (mode == PROBE_BULK_WARP || mode == PROBE_BULK_WARP_CHAN) {
                    if (lane == 0) {
                        cg_dsmem_fence_proxy_async(); /* the receiver's reads of the slot, before the engine's writes */
#pragma unroll
                        for (uint32_t g = 0; g < G; ++g) {
                            const uint32_t off = g * v + warp * 32u;
                            cg_dsmem_bulk_copy(PROBE_REMOTE_SLOT(ps) + off * 16u, cg_smem_addr(send + ps * per_slot + off),
                                               512u, full0 + bar * 8u);
                        }
                    }
                } else {
                    /* staged[ps], not one barrier for all units: a warp that ran ahead
                     * to unit j + 1 would arrive in unit j's phase. A warp reaches unit
                     * j + R only after the release of unit j, so after this phase. */
                    if (lane == 0)
                        (void)cg_mbarrier_arrive(&staged[ps]); /* my warp's stores, released to thread 0 */
                    if (threadIdx.x == 0) {
                        /* Phase j / R: it cannot run a phase further before this wait,
                         * since warp 0 arrives for unit j + R only after it. */
                        cg_mbarrier_wait_parity(&staged[ps], pp);
                        cg_dsmem_fence_proxy_async();
                        cg_dsmem_bulk_copy(PROBE_REMOTE_SLOT(ps), cg_smem_addr(send + ps * per_slot),
                                           per_slot * 16u, full0 + bar * 8u);
                    }
                }
            }
            if (++ps == R) {
                ps = 0;
                pp ^= 1u;
            }
            if ((pm += G) == X) {
                pm = 0;
                ++pi;
            }
        }
        if (j >= (long long)D) { /* consume unit j - D from slot cs of this CTA */
            const uint32_t bar = chan ? cs * W + warp : cs;
            if (chan) {
                if (lane == 0)
                    (void)cg_mbarrier_arrive_tx(&full[bar], G * 512u);
            } else if (threadIdx.x == 0) {
                (void)cg_mbarrier_arrive_tx(&full[bar], per_slot * 16u);
            }
            cg_mbarrier_wait_parity_cluster(&full[bar], cp); /* the pushed bytes, acquired */
#pragma unroll
            for (uint32_t g = 0; g < G; ++g) {
                const int4 r = PROBE_SLOT(cs)[g * v + threadIdx.x];
                wrong += bench_vec_ne(r, bench_dsmem_vec(from, ci, (cm + g) * v + threadIdx.x));
                acc ^= (unsigned)r.x;
            }
            __syncwarp(); /* my warp's reads of the slot, before lane 0's release */
            if (lane == 0)
                cg_mbarrier_arrive_remote(&empty[bar], from_rank);
            if (++cs == R) {
                cs = 0;
                cp ^= 1u;
            }
            if ((cm += G) == X) {
                cm = 0;
                ++ci;
            }
        }
    }
    cg_cluster_sync(&cl); /* no CTA exits while another may push to it or read its send slots */
    bench_check_report(a, wrong);
    bench_sink(a, acc);
#undef PROBE_SLOT
#undef PROBE_REMOTE_SLOT
}

/* The probe kernels. Dynamic shared memory is the rows' 2 x X x 8 KiB: RA
 * receive slots there (and at X = 8 the bulk send slots after them); `ext`,
 * static shared memory, holds what does not fit (X = 1: receive slots beyond
 * the first two, bulk send slots). At X = 1 static + dynamic stays within
 * 48 KiB, the most a kernel gets without the opt-in attribute, which the
 * runner sets only for dynamic memory above 48 KiB. */
#define BENCH_DSMEM_PROBE_BODY_(kname, X, G, R, D, mode, RA, ext_decl, recv_b, send)             \
    __global__ void __launch_bounds__(PROBE_THREADS) kname(bench_args_t a)                         \
    {                                                                                              \
        extern __shared__ int4 dyn[];                                                              \
        __shared__ cg_mbarrier_t full[PROBE_MAX_BARS], empty[PROBE_MAX_BARS], staged[PROBE_MAX_SLOTS];\
        ext_decl                                                                                   \
        dsmem_probe_kernel(&a, X, G, R, D, mode, RA, dyn, recv_b, send, full, empty, staged);      \
    }                                                                                              \
    BENCH_EXPORT(c_##kname, kname)
#define BENCH_DSMEM_PROBE(kname, X, G, R, D, mode, send) \
    BENCH_DSMEM_PROBE_BODY_(kname, X, G, R, D, mode, R, , NULL, send)
#define BENCH_DSMEM_PROBE_EXT(kname, X, G, R, D, mode, RA, ext_slots, recv_b, send)                 \
    BENCH_DSMEM_PROBE_BODY_(kname, X, G, R, D, mode, RA,                                           \
                            __shared__ __align__(128) int4 ext[(ext_slots) * PROBE_THREADS];, recv_b, send)

/* (a) per-warp release: the real row's rounds (a slot = a round of X
 * messages, 2 slots, D = 0) with no __syncthreads: each warp releases. */
BENCH_DSMEM_PROBE(dsmem_probe_wrel1, 1u, 1u, 2u, 0u, PROBE_ST_ASYNC, NULL)
BENCH_DSMEM_PROBE(dsmem_probe_wrel8, 8u, 8u, 2u, 0u, PROBE_ST_ASYNC, NULL)
/* (b) a slot per message and a ring deep enough that neither the data nor
 * the release is waited for in steady state: X = 1: 4 slots (2 of them
 * static), each CTA pushes 2 messages ahead of its reading; X = 8: 16 slots,
 * one round (8 messages) ahead. */
BENCH_DSMEM_PROBE_EXT(dsmem_probe_ahead1, 1u, 1u, 4u, 2u, PROBE_ST_ASYNC, 2u, 2u, ext, NULL)
BENCH_DSMEM_PROBE(dsmem_probe_ahead8, 8u, 1u, 16u, 8u, PROBE_ST_ASYNC, NULL)
/* (c) the same rings with per-warp channels. */
BENCH_DSMEM_PROBE_EXT(dsmem_probe_wchan1, 1u, 1u, 4u, 2u, PROBE_WARP_CHAN, 2u, 2u, ext, NULL)
BENCH_DSMEM_PROBE(dsmem_probe_wchan8, 8u, 1u, 16u, 8u, PROBE_WARP_CHAN, NULL)
/* (d) bulk push per warp (512 B copies) and (e) per message (8 KiB, one
 * thread): receive and send rings of R slots. X = 8: both rings in the
 * rows' 128 KiB (8 + 8 slots), 4 messages ahead; X = 1: 2 slots each (the
 * send ring static), 1 message ahead. Not deeper at X = 1: without the
 * runner's opt-in (it asks only for dynamic memory above 48 KiB) static and
 * dynamic shared memory together must stay within 48 KiB. */
BENCH_DSMEM_PROBE_EXT(dsmem_probe_bulkw1, 1u, 1u, 2u, 1u, PROBE_BULK_WARP, 2u, 2u, NULL, ext)
BENCH_DSMEM_PROBE(dsmem_probe_bulkw8, 8u, 1u, 8u, 4u, PROBE_BULK_WARP, dyn + 8u * PROBE_THREADS)
BENCH_DSMEM_PROBE_EXT(dsmem_probe_bulkm1, 1u, 1u, 2u, 1u, PROBE_BULK_MSG, 2u, 2u, NULL, ext)
BENCH_DSMEM_PROBE(dsmem_probe_bulkm8, 8u, 1u, 8u, 4u, PROBE_BULK_MSG, dyn + 8u * PROBE_THREADS)
/* (f) = (c) + (d): per-warp bulk pushes on per-warp channels, the (d) rings. */
BENCH_DSMEM_PROBE_EXT(dsmem_probe_bulkwc1, 1u, 1u, 2u, 1u, PROBE_BULK_WARP_CHAN, 2u, 2u, NULL, ext)
BENCH_DSMEM_PROBE(dsmem_probe_bulkwc8, 8u, 1u, 8u, 4u, PROBE_BULK_WARP_CHAN, dyn + 8u * PROBE_THREADS)

// --- collectives: reduce / inclusive_scan on tiles of 32 and 16 -------------------------------

/* The anchors' chain (bench_device.h): each input made from the previous
 * result, replayed by the host for the sampled threads. */
#define BENCH_COLL_KERNEL(kname, n, T, call)                                   \
    __global__ void kname(bench_args_t a)                                      \
    {                                                                          \
        cg_thread_block_t b = cg_this_thread_block();                          \
        cg_tile_t t = cg_tiled_partition(&b, n);                               \
        const unsigned seed = bench_coll_seed();                               \
        unsigned x = seed >> 16;                                               \
        for (long long i = 0; i < a.iters; ++i) {                              \
            T r = call(&t, (T)x, CG_OP_PLUS);                                  \
            x = bench_coll_next((unsigned)r, seed + (unsigned)i);              \
        }                                                                      \
        bench_coll_report(&a, x);                                              \
    }

BENCH_COLL_KERNEL(kc_reduce32_i32, 32u, int32_t, cg_tile_reduce_i32)
BENCH_COLL_KERNEL(kc_reduce32_f32, 32u, float, cg_tile_reduce_f32)
BENCH_COLL_KERNEL(kc_reduce32_f64, 32u, double, cg_tile_reduce_f64)
BENCH_COLL_KERNEL(kc_reduce16_i32, 16u, int32_t, cg_tile_reduce_i32)
BENCH_COLL_KERNEL(kc_reduce16_f32, 16u, float, cg_tile_reduce_f32)
BENCH_COLL_KERNEL(kc_reduce16_f64, 16u, double, cg_tile_reduce_f64)
BENCH_COLL_KERNEL(kc_scan32_i32, 32u, int32_t, cg_tile_inclusive_scan_i32)
BENCH_COLL_KERNEL(kc_scan32_f32, 32u, float, cg_tile_inclusive_scan_f32)
BENCH_COLL_KERNEL(kc_scan32_f64, 32u, double, cg_tile_inclusive_scan_f64)
BENCH_COLL_KERNEL(kc_scan16_i32, 16u, int32_t, cg_tile_inclusive_scan_i32)
BENCH_COLL_KERNEL(kc_scan16_f32, 16u, float, cg_tile_inclusive_scan_f32)
BENCH_COLL_KERNEL(kc_scan16_f64, 16u, double, cg_tile_inclusive_scan_f64)
BENCH_BUILT(c_reduce32_i32, kc_reduce32_i32)
BENCH_BUILT(c_reduce32_f32, kc_reduce32_f32)
BENCH_BUILT(c_reduce32_f64, kc_reduce32_f64)
BENCH_BUILT(c_reduce16_i32, kc_reduce16_i32)
BENCH_BUILT(c_reduce16_f32, kc_reduce16_f32)
BENCH_BUILT(c_reduce16_f64, kc_reduce16_f64)
BENCH_BUILT(c_scan32_i32, kc_scan32_i32)
BENCH_BUILT(c_scan32_f32, kc_scan32_f32)
BENCH_BUILT(c_scan32_f64, kc_scan32_f64)
BENCH_BUILT(c_scan16_i32, kc_scan16_i32)
BENCH_BUILT(c_scan16_f32, kc_scan16_f32)
BENCH_BUILT(c_scan16_f64, kc_scan16_f64)

/* The anchor's data-dependent branch: odd x sum over the coalesced group. */
__global__ void kc_coalesced_reduce(bench_args_t a)
{
    const unsigned seed = bench_coll_seed();
    unsigned x = seed >> 16;
    for (long long i = 0; i < a.iters; ++i) {
        unsigned r;
        if (x & 1u) {
            cg_coalesced_group_t g = cg_coalesced_threads();
            r = (unsigned)cg_coalesced_reduce_i32(&g, (int32_t)x, CG_OP_PLUS);
        } else {
            r = x + 1u;
        }
        x = bench_coll_next(r, seed + (unsigned)i);
    }
    bench_coll_report(&a, x);
}
BENCH_BUILT(c_coalesced_reduce, kc_coalesced_reduce)

// --- tile of 64: cg_wide_tile_sync (cg/wide_tile.h), checked ----------------------------------

#if defined(CG_HAS_WIDE_TILE)
__global__ void kc_tile64_sync(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    cg_thread_block_t b = cg_this_thread_block();
    cg_wide_tile_t t = cg_wide_tiled_partition(&b, 64);
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        cg_wide_tile_sync(&t);
        BENCH_TILE64_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_tile64_sync, kc_tile64_sync)
#else
BENCH_MISSING(c_tile64_sync, "cg/wide_tile.h (CG_HAS_WIDE_TILE) not in this tree")
#endif

// --- group memcpy_async + wait_prior, S stages ------------------------------------------------

#if defined(CG_HAS_GROUP_WAIT_PRIOR)
/* The anchor's pipeline (anchors.cu, k_memcpy_stages) with cgc's group copy
 * (4 arguments: batches counted per group, no barrier) and cg_wait_prior. */
#define BENCH_MEMCPY_STAGES_KERNEL(kname, S)                                                       \
    __global__ void __launch_bounds__(1024) kname(bench_args_t a)                                 \
    {                                                                                              \
        extern __shared__ int4 stage[];                                                            \
        cg_thread_block_t b = cg_this_thread_block();                                              \
        const unsigned n = a.tile_bytes / sizeof(int4);                                            \
        for (unsigned j = 0; j + 1u < (S); ++j)                                                    \
            cg_memcpy_async(&b, stage + j * n, bench_tile_src(&a, j), a.tile_bytes);               \
        unsigned long long wrong = 0;                                                              \
        unsigned acc = threadIdx.x;                                                                \
        for (long long i = 0; i < a.iters; ++i) {                                                  \
            const long long nx = i + (S) - 1;                                                      \
            cg_memcpy_async(&b, stage + (unsigned)(nx % (S)) * n, bench_tile_src(&a, nx), a.tile_bytes); \
            cg_wait_prior(&b, (S) - 1u);                                                           \
            const int4 *t = stage + (unsigned)(i % (S)) * n;                                       \
            const unsigned long long tno = bench_tile_no(&a, i);                                   \
            for (unsigned e = threadIdx.x; e < n; e += blockDim.x) {                               \
                const int4 v = t[e];                                                               \
                wrong += bench_vec_ne(v, bench_src_vec(tno * n + e));                              \
                acc ^= (unsigned)v.x;                                                              \
            }                                                                                      \
            cg_thread_block_sync(&b);                                                              \
        }                                                                                          \
        cg_wait(&b);                                                                               \
        bench_check_report(&a, wrong);                                                             \
        bench_sink(&a, acc);                                                                       \
    }
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages2, 2u)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages3, 3u)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages4, 4u)
BENCH_BUILT(c_memcpy_stages2, kc_memcpy_stages2)
BENCH_BUILT(c_memcpy_stages3, kc_memcpy_stages3)
BENCH_BUILT(c_memcpy_stages4, kc_memcpy_stages4)
#else
BENCH_MISSING(c_memcpy_stages2, "cg_memcpy_async(&g, dst, src, bytes) + cg_wait_prior (CG_HAS_GROUP_WAIT_PRIOR) not in this tree")
BENCH_MISSING(c_memcpy_stages3, "cg_memcpy_async(&g, dst, src, bytes) + cg_wait_prior (CG_HAS_GROUP_WAIT_PRIOR) not in this tree")
BENCH_MISSING(c_memcpy_stages4, "cg_memcpy_async(&g, dst, src, bytes) + cg_wait_prior (CG_HAS_GROUP_WAIT_PRIOR) not in this tree")
#endif

/* 1 when the cgc kernels were compiled with CG_DEBUG=1 (bounded waits, checks):
 * the runner warns, since such figures are not release figures. */
extern "C" int bench_cgc_debug_build(void) { return CG_DEBUG ? 1 : 0; }

// --- what is missing -------------------------------------------------------------------------

extern "C" const char *bench_cgc_missing(bench_kernel_fn getter)
{
#define BENCH_WHY(name) \
    if (getter == name) \
        return name##_why;
    BENCH_CGC_KERNELS(BENCH_WHY)
#undef BENCH_WHY
    return "unknown kernel";
}
