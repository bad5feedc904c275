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

/* The light rows' function and checks with the barrier type whose function
 * is fixed at compile time (CG_BARRIER_FN_DEFINE: what a port of
 * cuda::barrier<block, F> writes; F inlined as C++'s). */
static __device__ void kc_light_count_fn(void *p) { *(unsigned *)p += 1u; }
CG_BARRIER_FN_DEFINE(kc_light_bar, kc_light_count_fn);
__global__ void kc_barrier_compl_light_defined(bench_args_t a)
{
    __shared__ unsigned count;
    __shared__ kc_light_bar_t bar;
    if (threadIdx.x == 0) {
        count = 0;
        kc_light_bar_init(&bar, blockDim.x, &count);
    }
    __syncthreads();
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        cg_token_t t = kc_light_bar_arrive(&bar);
        kc_light_bar_wait(&bar, t);
        const unsigned c = count;
        acc += c;
        wrong += c != (unsigned)(i + 1); /* F ran exactly once per phase */
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
    if (threadIdx.x == 0)
        a.acc[blockIdx.x] = count;
}
BENCH_BUILT(c_barrier_compl_light_defined, kc_barrier_compl_light_defined)

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

/* The relaxed barrier (cgc_kernels.h): a stale data read is allowed, a
 * short arrival count is WRONG. */
BENCH_CLUSTER_RELAXED_KERNEL(kc_cluster_relaxed)
BENCH_BUILT(c_cluster_relaxed, kc_cluster_relaxed)

/* The shared-memory-only cluster barrier: the same check as the split rows
 * (write the own CTA's slot, barrier, read the neighbour's through DSMEM),
 * which is what its release and acquire cover. The slot a thread reads at
 * phase i is rewritten by its owner at phase i + 2: a DSMEM read the
 * restricted release does not cover under the PTX model; a reordered read
 * would see phase i + 2's value and count as wrong (cg/cluster_group.h). */
__global__ void kc_cluster_smem(bench_args_t a)
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
        cg_token_t t = cg_cluster_barrier_arrive_smem(&cl);
        cg_cluster_barrier_wait(&cl, t);
        if (bench_checked_phase(i))
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
    }
    cg_cluster_sync(&cl); /* no CTA exits while another may read its slots */
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(c_cluster_smem, kc_cluster_smem)

// --- grid ------------------------------------------------------------------------------

BENCH_GRID_SYNC_KERNEL(kc_grid_sync)
BENCH_BUILT(c_grid_sync, kc_grid_sync)
BENCH_GRID_SPLIT_KERNEL(kc_grid_split, 0)
BENCH_BUILT(c_grid_split, kc_grid_split)
BENCH_GRID_SPLIT_KERNEL(kc_grid_split_probe, 1)
BENCH_BUILT(c_grid_split_probe, kc_grid_split_probe)

// --- device-scope barrier: arrive + wait, every phase checked ------------------------------

BENCH_DEVICE_BARRIER_KERNEL(kc_device_barrier, bench_dbar_stats_cgc)
BENCH_BUILT(c_device_barrier, kc_device_barrier)

// --- DSMEM exchange: push into the neighbour ------------------------------------------------

/*
 * Dynamic shared memory as the anchor's: send[xfer] then recv[xfer]. Each
 * round every CTA writes the round's data into its send buffer
 * (bench_dsmem_vec: new every round) and pushes it into its ring neighbour's
 * (rank + 1) recv buffer; the push completes its bytes on the neighbour's
 * `full` mbarrier. The receiver's thread 0 arrives on its own `full`
 * expecting the bytes, every thread waits on it (acquire at cluster scope)
 * and checks its int4 of the round's message, and a cluster barrier closes
 * the round (the next round's push must not land before this round's phase
 * has completed and been read, as in dsmem/dsmem.h's protocol; and the send
 * buffer is rewritten only after every push from it has landed). `bulk` picks
 * the sender: the bulk copy engine (one thread, after a block barrier: it
 * sends every thread's writes) or st.async from every thread (each pushes the
 * int4 it wrote: cg_dsmem_push gives thread t int4 t, t + blockDim, ...).
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
    if (threadIdx.x == 0) {
        cg_mbarrier_init(&full, 1);
        cg_mbarrier_init_fence_cluster();
    }
    const uint32_t nb = cg_cluster_num_blocks(&cl);
    const uint32_t peer = (cg_cluster_block_rank(&cl) + 1u) % nb;
    const unsigned from = blockIdx.x - cg_cluster_block_rank(&cl) + (cg_cluster_block_rank(&cl) + nb - 1u) % nb;
    cg_cluster_sync(&cl); /* every CTA's mbarrier is initialized before anyone pushes */
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a->iters; ++i) {
        for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
            send[k] = bench_dsmem_vec(blockIdx.x, i, k);
        if (bulk) {
            cg_fence_proxy_async_smem(); /* send is read by the bulk engine (async proxy) */
            cg_thread_block_sync(&b);
        }
        if (threadIdx.x == 0)
            (void)cg_mbarrier_arrive_tx(&full, a->xfer_bytes);
        if (bulk) {
            if (threadIdx.x == 0) {
                cg_dsmem_fence_proxy_async(); /* the peer's generic reads of recv, before the engine's writes */
                cg_dsmem_push_bulk(recv, send, a->xfer_bytes, &full, peer);
            }
        } else {
            cg_dsmem_push(&b, recv, send, a->xfer_bytes, &full, peer);
        }
        cg_mbarrier_wait_parity_cluster(&full, (uint32_t)(i & 1));
        for (unsigned k = threadIdx.x; k < n; k += blockDim.x) {
            const int4 v = recv[k];
            acc ^= (unsigned)v.x;
            wrong += bench_vec_ne(v, bench_dsmem_vec(from, i, k));
        }
        cg_cluster_sync(&cl);
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
 * remotely, once its whole block has read buffer s: cg_dsmem_release, a
 * cluster-scope release restricted to its own shared memory;
 * docs/design/dsmem_exchange.md says why not CTA scope). The sender waits
 * empty[s] before refilling buffer s two rounds later, so the only
 * synchronization per round is the receiver's wait on its own full[s]; no
 * cluster barrier in the loop. Every thread pushes its int4 of each of the X
 * messages from registers (st.async, bench_dsmem_vec: new data every round)
 * into the next CTA, and checks its int4 of each message from the previous
 * CTA.
 */
#define BENCH_DSMEM_PUSH_DB_KERNEL(kname, X, WARP)                                                            \
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
            cg_mbarrier_init(&empty[0], WARP ? v / 32u : 1u);                                             \
            cg_mbarrier_init(&empty[1], WARP ? v / 32u : 1u);                                             \
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
            if (WARP) { /* each warp releases its part: no block barrier in the loop */                 \
                __syncwarp();                                                                             \
                if (threadIdx.x % 32u == 0)                                                               \
                    cg_dsmem_release(&empty[s], from_rank);                                              \
            } else {                                                                                      \
                cg_thread_block_sync(&b); /* the whole block has read buffer s */                         \
                if (threadIdx.x == 0)                                                                     \
                    cg_dsmem_release(&empty[s], from_rank);                                              \
            }                                                                                             \
        }                                                                                                 \
        cg_cluster_sync(&cl); /* no CTA exits while another may push to it */                             \
        bench_check_report(&a, wrong);                                                                    \
        bench_sink(&a, acc);                                                                              \
    }

BENCH_DSMEM_PUSH_DB_KERNEL(kc_dsmem_push_db1, 1u, 0)
BENCH_DSMEM_PUSH_DB_KERNEL(kc_dsmem_push_db8, 8u, 0)
BENCH_BUILT(c_dsmem_push_db1, kc_dsmem_push_db1)
BENCH_BUILT(c_dsmem_push_db8, kc_dsmem_push_db8)
/* Probe (info): every warp releases its own part of the buffer (empty counts
 * the 16 warps), so no block barrier sits in the loop. */
BENCH_DSMEM_PUSH_DB_KERNEL(kp_dsmem_push_warp1, 1u, 1)
BENCH_DSMEM_PUSH_DB_KERNEL(kp_dsmem_push_warp8, 8u, 1)
BENCH_BUILT(p_dsmem_push_warp1, kp_dsmem_push_warp1)
BENCH_BUILT(p_dsmem_push_warp8, kp_dsmem_push_warp8)

/* Probe (info): the same exchange with the release forwarded. The block has
 * one more warp (blockDim = 512 + 32); the first 512 threads push and read as
 * above, and each of their warps, after reading buffer s, releases it to a
 * LOCAL barrier consumed[s] (CTA scope, counts the 16 warps) instead of the
 * block barrier and thread 0's remote arrive. The last warp waits on
 * consumed[s] (acquire at CTA scope) and makes the one cluster-scope release
 * on the sender's empty[s]: cumulative over every reader's loads (PTX model:
 * their release and its acquire are in one CTA), so the sender's acquire of
 * it orders them before its next push. No block barrier in the loop and no
 * reader warp waits for the cluster-scope fence. */
template <uint32_t X>
__global__ void kp_dsmem_push_fwd(bench_args_t a)
{
    extern __shared__ int4 dyn[]; /* recv[2][X * v] */
    __shared__ cg_mbarrier_t full[2], empty[2], consumed[2];
    cg_cluster_t cl = cg_this_cluster();
    const uint32_t v = 512u, nb = cg_cluster_num_blocks(&cl), me = cg_cluster_block_rank(&cl); /* + 1 warp */
    const uint32_t to = (me + 1u) % nb, from_rank = (me + nb - 1u) % nb;
    const unsigned from = blockIdx.x - me + from_rank;
    const uint32_t lane = threadIdx.x % 32u;
    for (uint32_t k = threadIdx.x; k < 2u * X * v; k += blockDim.x)
        dyn[k] = make_int4(0, 0, 0, 0); /* poison */
    if (threadIdx.x == 0) {
        for (int k = 0; k < 2; ++k) {
            cg_mbarrier_init(&full[k], 1);
            cg_mbarrier_init(&empty[k], 1);
            cg_mbarrier_init(&consumed[k], v / 32u);
        }
        cg_mbarrier_init_fence_cluster();
    }
    cg_cluster_sync(&cl);
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    if (threadIdx.x < v) {
        const uint32_t dst0 = cg_dsmem_addr(dyn, to);
        const uint32_t full0 = cg_dsmem_addr(&full[0], to), full1 = cg_dsmem_addr(&full[1], to);
        for (long long i = 0; i < a.iters; ++i) {
            const uint32_t s = (uint32_t)(i & 1), ph = (uint32_t)((i >> 1) & 1);
            if (i >= 2)
                cg_mbarrier_wait_parity_cluster(&empty[s], ph ^ 1u);
            if (threadIdx.x == 0)
                (void)cg_mbarrier_arrive_tx(&full[s], X * v * 16u);
#pragma unroll
            for (uint32_t m = 0; m < X; ++m) {
                const uint32_t k = m * v + threadIdx.x;
                const int4 d = bench_dsmem_vec(blockIdx.x, i, k);
                cg_dsmem_st_async_v4_b32(dst0 + (s * X * v + k) * 16u,
                                         make_uint4((unsigned)d.x, (unsigned)d.y, (unsigned)d.z, (unsigned)d.w),
                                         s ? full1 : full0);
            }
            cg_mbarrier_wait_parity_cluster(&full[s], ph);
            const int4 *mine = dyn + s * X * v;
#pragma unroll
            for (uint32_t m = 0; m < X; ++m) {
                const int4 r = mine[m * v + threadIdx.x];
                wrong += bench_vec_ne(r, bench_dsmem_vec(from, i, m * v + threadIdx.x));
                acc ^= (unsigned)r.x;
            }
            __syncwarp();
            if (lane == 0)
                (void)cg_mbarrier_arrive(&consumed[s]); /* release.cta, local */
        }
    } else {
        for (long long i = 0; i < a.iters; ++i) {
            const uint32_t s = (uint32_t)(i & 1), ph = (uint32_t)((i >> 1) & 1);
            cg_mbarrier_wait_parity(&consumed[s], ph); /* acquire.cta: every reader warp */
            if (lane == 0)
                cg_mbarrier_arrive_remote(&empty[s], from_rank); /* release.cluster */
        }
    }
    cg_cluster_sync(&cl);
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_BUILT(p_dsmem_push_fwd1, kp_dsmem_push_fwd<1u>)
BENCH_BUILT(p_dsmem_push_fwd8, kp_dsmem_push_fwd<8u>)

// --- collectives: reduce on tiles of 32, 16 and 8, inclusive_scan on tiles of 32 and 16 ------

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
BENCH_COLL_KERNEL(kc_reduce8_i32, 8u, int32_t, cg_tile_reduce_i32)
BENCH_COLL_KERNEL(kc_reduce8_f32, 8u, float, cg_tile_reduce_f32)
BENCH_COLL_KERNEL(kc_reduce8_f64, 8u, double, cg_tile_reduce_f64)
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
BENCH_BUILT(c_reduce8_i32, kc_reduce8_i32)
BENCH_BUILT(c_reduce8_f32, kc_reduce8_f32)
BENCH_BUILT(c_reduce8_f64, kc_reduce8_f64)
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
 * and cg_wait_prior. COPY(dst, src) is the copy call: the alignment-stated
 * form (cuda::aligned_size_t<A>'s counterpart, what the anchor uses) or the
 * plain four-argument form (alignment tested at run time). */
#define BENCH_MEMCPY_STAGES_KERNEL(kname, S, COPY)                                                 \
    __global__ void __launch_bounds__(1024) kname(bench_args_t a)                                 \
    {                                                                                              \
        extern __shared__ int4 stage[];                                                            \
        cg_thread_block_t b = cg_this_thread_block();                                              \
        const unsigned n = a.tile_bytes / sizeof(int4);                                            \
        for (unsigned j = 0; j + 1u < (S); ++j)                                                    \
            COPY(stage + j * n, bench_tile_src(&a, j));                                            \
        unsigned long long wrong = 0;                                                              \
        unsigned acc = threadIdx.x;                                                                \
        for (long long i = 0; i < a.iters; ++i) {                                                  \
            const long long nx = i + (S) - 1;                                                      \
            COPY(stage + (unsigned)(nx % (S)) * n, bench_tile_src(&a, nx));                        \
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
#define BENCH_COPY_PLAIN(d, s) cg_memcpy_async(&b, (d), (s), a.tile_bytes)
#define BENCH_COPY_A16(d, s) cg_memcpy_async_aligned(&b, (d), (s), a.tile_bytes, 16)
#define BENCH_COPY_A8(d, s) cg_memcpy_async_aligned(&b, (d), (s), a.tile_bytes, 8)
#define BENCH_COPY_A4(d, s) cg_memcpy_async_aligned(&b, (d), (s), a.tile_bytes, 4)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages2, 2u, BENCH_COPY_A16)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages3, 3u, BENCH_COPY_A16)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages4, 4u, BENCH_COPY_A16)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages2_a8, 2u, BENCH_COPY_A8)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages3_a8, 3u, BENCH_COPY_A8)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages4_a8, 4u, BENCH_COPY_A8)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages2_a4, 2u, BENCH_COPY_A4)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages3_a4, 3u, BENCH_COPY_A4)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages4_a4, 4u, BENCH_COPY_A4)
BENCH_MEMCPY_STAGES_KERNEL(kc_memcpy_stages3_plain, 3u, BENCH_COPY_PLAIN)
BENCH_BUILT(c_memcpy_stages2, kc_memcpy_stages2)
BENCH_BUILT(c_memcpy_stages3, kc_memcpy_stages3)
BENCH_BUILT(c_memcpy_stages4, kc_memcpy_stages4)
BENCH_BUILT(c_memcpy_stages2_a8, kc_memcpy_stages2_a8)
BENCH_BUILT(c_memcpy_stages3_a8, kc_memcpy_stages3_a8)
BENCH_BUILT(c_memcpy_stages4_a8, kc_memcpy_stages4_a8)
BENCH_BUILT(c_memcpy_stages2_a4, kc_memcpy_stages2_a4)
BENCH_BUILT(c_memcpy_stages3_a4, kc_memcpy_stages3_a4)
BENCH_BUILT(c_memcpy_stages4_a4, kc_memcpy_stages4_a4)
BENCH_BUILT(c_memcpy_stages3_plain, kc_memcpy_stages3_plain)
#else
BENCH_MISSING(c_memcpy_stages2, "cg_memcpy_async(&g, dst, src, bytes) + cg_wait_prior (CG_HAS_GROUP_WAIT_PRIOR) not in this tree")
BENCH_MISSING(c_memcpy_stages3, "cg_memcpy_async(&g, dst, src, bytes) + cg_wait_prior (CG_HAS_GROUP_WAIT_PRIOR) not in this tree")
BENCH_MISSING(c_memcpy_stages4, "cg_memcpy_async(&g, dst, src, bytes) + cg_wait_prior (CG_HAS_GROUP_WAIT_PRIOR) not in this tree")
BENCH_MISSING(c_memcpy_stages2_a8, "cg_memcpy_async_aligned + cg_wait_prior not in this tree")
BENCH_MISSING(c_memcpy_stages3_a8, "cg_memcpy_async_aligned + cg_wait_prior not in this tree")
BENCH_MISSING(c_memcpy_stages4_a8, "cg_memcpy_async_aligned + cg_wait_prior not in this tree")
BENCH_MISSING(c_memcpy_stages2_a4, "cg_memcpy_async_aligned + cg_wait_prior not in this tree")
BENCH_MISSING(c_memcpy_stages3_a4, "cg_memcpy_async_aligned + cg_wait_prior not in this tree")
BENCH_MISSING(c_memcpy_stages4_a4, "cg_memcpy_async_aligned + cg_wait_prior not in this tree")
BENCH_MISSING(c_memcpy_stages3_plain, "cg_memcpy_async(&g, dst, src, bytes) + cg_wait_prior not in this tree")
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
