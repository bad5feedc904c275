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

BENCH_BLOCK_ROTATING_KERNEL(kc_block_rotating)
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
 * cuda::barrier<block, F> writes; F inlined as C++'s). `bar` is the type's
 * name. */
static __device__ void kc_light_count_fn(void *p) { *(unsigned *)p += 1u; }
CG_BARRIER_FN_DEFINE(kc_light_bar, kc_light_count_fn);
#define BENCH_COMPL_LIGHT_DEFINED_KERNEL(kname, bar)                           \
    __global__ void kname(bench_args_t a)                                      \
    {                                                                          \
        __shared__ unsigned count;                                             \
        __shared__ bar##_t b;                                                  \
        if (threadIdx.x == 0) {                                                \
            count = 0;                                                         \
            bar##_init(&b, blockDim.x, &count);                                \
        }                                                                      \
        __syncthreads();                                                       \
        unsigned long long wrong = 0;                                          \
        unsigned acc = threadIdx.x;                                            \
        for (long long i = 0; i < a.iters; ++i) {                              \
            cg_token_t t = bar##_arrive(&b);                                   \
            bar##_wait(&b, t);                                                 \
            BENCH_COMPL_LIGHT_CHECK_(i, acc, wrong);                           \
        }                                                                      \
        BENCH_COMPL_LIGHT_END_(a, acc, wrong);                                 \
    }
BENCH_COMPL_LIGHT_DEFINED_KERNEL(kc_barrier_compl_light_defined, kc_light_bar)
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

/* `early` (a literal; 1 only in the self-test's d_cluster_broken): even
 * phases are read before the barrier that publishes them. A macro, so that
 * the row's kernel (early = 0) compiles to the PTX it had before the switch. */
#define BENCH_CLUSTER_SYNC_KERNEL_D(kname, early)                                                                    \
    __global__ void kname(bench_args_t a)                                                                            \
    {                                                                                                                \
        __shared__ unsigned slots[2][1024];                                                                          \
        cg_cluster_t cl = cg_this_cluster();                                                                         \
        const uint32_t peer = (cg_cluster_block_rank(&cl) + 1u) % cg_cluster_num_blocks(&cl);                        \
        const unsigned pid = (blockIdx.x - cg_cluster_block_rank(&cl) + peer) * blockDim.x + bench_cluster_peer_thread(); \
        const unsigned *remote[2] = {(const unsigned *)cg_cluster_map_shared_rank(&cl, slots[0], peer),             \
                                     (const unsigned *)cg_cluster_map_shared_rank(&cl, slots[1], peer)};            \
        unsigned long long wrong = 0;                                                                                \
        unsigned acc = threadIdx.x;                                                                                  \
        for (long long i = 0; i < a.iters; ++i) {                                                                    \
            acc += (unsigned)i;                                                                                      \
            if (bench_checked_phase(i))                                                                              \
                slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());                   \
            if ((early) && (i & 1) == 0 && bench_checked_phase(i)) /* the defect */                                  \
                wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] !=                  \
                         bench_slot_value(a.nonce, i, pid);                                                          \
            cg_cluster_sync(&cl);                                                                                    \
            if (!((early) && (i & 1) == 0) && bench_checked_phase(i))                                                \
                wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] !=                  \
                         bench_slot_value(a.nonce, i, pid);                                                          \
        }                                                                                                            \
        cg_cluster_sync(&cl); /* no CTA exits while another may read its slots */                                    \
        bench_check_report(&a, wrong);                                                                               \
        bench_sink(&a, acc);                                                                                         \
    }
BENCH_CLUSTER_SYNC_KERNEL_D(kc_cluster_sync, 0)
BENCH_CLUSTER_SYNC_KERNEL_D(kd_cluster_broken, 1)
BENCH_BUILT(c_cluster_sync, kc_cluster_sync)
BENCH_EXPORT(d_cluster_broken, kd_cluster_broken) /* the self-test's (selftest.cu) */

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
 * `early` (1 only in the self-test's d_dsmem_push_broken): each round is read
 * before its wait on `full` (then waited for, so nothing hangs).
 */
static __device__ __forceinline__ void dsmem_push_kernel(const bench_args_t *a, int bulk, int early)
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
        if (!early)
            cg_mbarrier_wait_parity_cluster(&full, (uint32_t)(i & 1));
        for (unsigned k = threadIdx.x; k < n; k += blockDim.x) {
            const int4 v = recv[k];
            acc ^= (unsigned)v.x;
            wrong += bench_vec_ne(v, bench_dsmem_vec(from, i, k));
        }
        if (early) /* the defect: the round was read before this wait */
            cg_mbarrier_wait_parity_cluster(&full, (uint32_t)(i & 1));
        cg_cluster_sync(&cl);
    }
    bench_check_report(a, wrong);
    bench_sink(a, acc);
}

__global__ void kc_dsmem_push(bench_args_t a) { dsmem_push_kernel(&a, 0, 0); }
__global__ void kc_dsmem_push_bulk(bench_args_t a) { dsmem_push_kernel(&a, 1, 0); }
__global__ void kd_dsmem_push_broken(bench_args_t a) { dsmem_push_kernel(&a, 0, 1); }
BENCH_BUILT(c_dsmem_push, kc_dsmem_push)
BENCH_BUILT(c_dsmem_push_bulk, kc_dsmem_push_bulk)
BENCH_EXPORT(d_dsmem_push_broken, kd_dsmem_push_broken) /* the self-test's */

// --- global -> shared copy ------------------------------------------------------------------

BENCH_COPY_TMA_KERNEL(kc_copy_tma, 0)
BENCH_COPY_TMA_KERNEL(kd_copy_broken, 1) /* `early`: the self-test's twin */
BENCH_BUILT(c_copy_tma, kc_copy_tma)
BENCH_EXPORT(d_copy_broken, kd_copy_broken) /* the self-test's */

BENCH_COPY_BAR_KERNEL(kc_copy_memcpy_async, BENCH_COPY_BAR_PLAIN)
BENCH_BUILT(c_copy_memcpy_async, kc_copy_memcpy_async)

/* The same with the alignment stated (issue 34): libcu++'s PTX, no proxy
 * fence, as the anchor's cuda::memcpy_async with aligned_size_t<16>. */
BENCH_COPY_BAR_KERNEL(kc_copy_memcpy_async_aligned, BENCH_COPY_BAR_ALIGNED)
BENCH_BUILT(c_copy_memcpy_async_aligned, kc_copy_memcpy_async_aligned)

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
/* What every double-buffered push kernel starts with: the receive buffers
 * (poisoned), full and empty barriers (empty counting one release a round),
 * the ring neighbours, a cluster barrier, and the neighbour's addresses. */
#define BENCH_DSMEM_DB_PROLOGUE(X)                                                                        \
    extern __shared__ int4 dyn[]; /* recv[2][X * blockDim] */                                             \
    __shared__ cg_mbarrier_t full[2], empty[2];                                                           \
    cg_cluster_t cl = cg_this_cluster();                                                                  \
    cg_thread_block_t b = cg_this_thread_block();                                                         \
    const uint32_t v = blockDim.x, nb = cg_cluster_num_blocks(&cl), me = cg_cluster_block_rank(&cl);      \
    const uint32_t to = (me + 1u) % nb, from_rank = (me + nb - 1u) % nb;                                   \
    const unsigned from = blockIdx.x - me + from_rank;                                                    \
    for (uint32_t k = threadIdx.x; k < 2u * X * v; k += v)                                                 \
        dyn[k] = make_int4(-1, -1, -1, -1); /* poison: no int4 sent has .y = -1 (.y is its index) */      \
    if (threadIdx.x == 0) {                                                                               \
        cg_mbarrier_init(&full[0], 1);                                                                    \
        cg_mbarrier_init(&full[1], 1);                                                                    \
        cg_mbarrier_init(&empty[0], 1);                                                                   \
        cg_mbarrier_init(&empty[1], 1);                                                                   \
        cg_mbarrier_init_fence_cluster();                                                                 \
    }                                                                                                     \
    cg_cluster_sync(&cl); /* every CTA's barriers are set up before anyone pushes */                      \
    const uint32_t dst0 = cg_dsmem_addr(dyn, to);                                                         \
    const uint32_t full0 = cg_dsmem_addr(&full[0], to), full1 = cg_dsmem_addr(&full[1], to);              \
    unsigned long long wrong = 0;                                                                         \
    unsigned acc = threadIdx.x;

/* Round j's push: wait until the next CTA released what this CTA pushed into
 * its buffer j & 1 two rounds ago, let this CTA's own full[j & 1] expect
 * round j's bytes (thread 0), and st.async this thread's int4 of each of the
 * X messages into the next CTA, completing on its full[j & 1]. */
template <uint32_t X>
static __device__ __forceinline__ void bench_dsmem_db_push(long long j, uint32_t v, cg_mbarrier_t *full,
                                                           cg_mbarrier_t *empty, uint32_t dst0, uint32_t full0,
                                                           uint32_t full1)
{
    const uint32_t s = (uint32_t)(j & 1), ph = (uint32_t)((j >> 1) & 1);
    if (j >= 2)
        cg_mbarrier_wait_parity_cluster(&empty[s], ph ^ 1u);
    if (threadIdx.x == 0)
        (void)cg_mbarrier_arrive_tx(&full[s], X * v * 16u);
#pragma unroll
    for (uint32_t m = 0; m < X; ++m) {
        const uint32_t k = m * v + threadIdx.x;
        const int4 d = bench_dsmem_vec(blockIdx.x, j, k);
        cg_dsmem_st_async_v4_b32(dst0 + (s * X * v + k) * 16u,
                                 make_uint4((unsigned)d.x, (unsigned)d.y, (unsigned)d.z, (unsigned)d.w),
                                 s ? full1 : full0);
    }
}

/*
 * AHEAD = 1, the library rows (dsmem/dsmem.h's recommended loop since phase
 * B): iteration i pushes round i + 1 BEFORE it waits for and reads round i,
 * so the link carries the next round's bytes while this one is read and
 * checked; the block loads its int4s, syncs, thread 0 releases, and only then
 * the values are checked. The push of round i + 1 into buffer (i + 1) & 1
 * waits for the release of round i - 1, which the next CTA gave at the end
 * of its iteration i - 1: iteration i of any CTA waits only on iterations
 * <= i - 1 of its neighbours, so there is no deadlock, and two buffers still
 * suffice (docs/design/dsmem_exchange.md, "The push-ahead protocol").
 * AHEAD = 0 (info row: the phase-A protocol, measured 2026-11-28 on an H200
 * at 0.98 / 0.75 / 0.75 of the pull with 1 message, 1.02 / 0.92 / 0.91 with
 * 8): push round i, wait, read and check it, block barrier, release.
 * EARLY (1 only in the self-test's d_dsmem_push_db_broken): a round is read
 * before its wait on full[s], then waited for (nothing hangs).
 */
#define BENCH_DSMEM_PUSH_DB_KERNEL(kname, X, AHEAD, EARLY)                                                 \
    __global__ void kname(bench_args_t a)                                                                 \
    {                                                                                                     \
        BENCH_DSMEM_DB_PROLOGUE(X)                                                                        \
        auto push = [&](long long j) { bench_dsmem_db_push<X>(j, v, full, empty, dst0, full0, full1); };  \
        if (AHEAD && a.iters > 0)                                                                         \
            push(0);                                                                                      \
        for (long long i = 0; i < a.iters; ++i) {                                                         \
            const uint32_t s = (uint32_t)(i & 1), ph = (uint32_t)((i >> 1) & 1);                          \
            if (!AHEAD)                                                                                   \
                push(i);                                                                                  \
            else if (i + 1 < a.iters)                                                                     \
                push(i + 1); /* on the link while this round is read and checked */                       \
            if (!(EARLY))                                                                                 \
                cg_mbarrier_wait_parity_cluster(&full[s], ph);                                            \
            const int4 *mine = dyn + s * X * v;                                                           \
            int4 r[X];                                                                                    \
            _Pragma("unroll") for (uint32_t m = 0; m < X; ++m) r[m] = mine[m * v + threadIdx.x];          \
            if (EARLY) /* the defect: the round was read before its full wait */                          \
                cg_mbarrier_wait_parity_cluster(&full[s], ph);                                            \
            if (!AHEAD)                                                                                   \
                BENCH_DSMEM_DB_CHECK(X, r, i);                                                            \
            cg_thread_block_sync(&b); /* the whole block has read buffer s */                             \
            if (threadIdx.x == 0)                                                                         \
                cg_dsmem_release(&empty[s], from_rank);                                                   \
            if (AHEAD)                                                                                    \
                BENCH_DSMEM_DB_CHECK(X, r, i);                                                            \
        }                                                                                                 \
        cg_cluster_sync(&cl); /* no CTA exits while another may push to it */                             \
        bench_check_report(&a, wrong);                                                                    \
        bench_sink(&a, acc);                                                                              \
    }
/* Each thread's X int4 of round i against what the previous CTA sent. */
#define BENCH_DSMEM_DB_CHECK(X, r, i)                                                                     \
    _Pragma("unroll") for (uint32_t m = 0; m < X; ++m)                                                    \
    {                                                                                                     \
        wrong += bench_vec_ne(r[m], bench_dsmem_vec(from, i, m * v + threadIdx.x));                       \
        acc ^= (unsigned)r[m].x;                                                                          \
    }

BENCH_DSMEM_PUSH_DB_KERNEL(kc_dsmem_push_db1, 1u, 1, 0)
BENCH_DSMEM_PUSH_DB_KERNEL(kc_dsmem_push_db8, 8u, 1, 0)
BENCH_BUILT(c_dsmem_push_db1, kc_dsmem_push_db1)
BENCH_BUILT(c_dsmem_push_db8, kc_dsmem_push_db8)
/* The self-test's broken double buffer, 1 message: each round read before
 * its wait on full[s] (EARLY), in the phase-A loop (AHEAD 0), where the
 * round read early was pushed in the same iteration and has usually not
 * landed: caught in the first GPU run (1.3e9 wrong int4 fields). In the
 * push-ahead loop the round read early was pushed an iteration before and
 * has often landed, so the early read would mostly be right and the
 * self-test could not tell that the check works. The check is the same
 * code in both loops (BENCH_DSMEM_DB_CHECK). */
BENCH_DSMEM_PUSH_DB_KERNEL(kd_dsmem_push_db_broken, 1u, 0, 1)
BENCH_EXPORT(d_dsmem_push_db_broken, kd_dsmem_push_db_broken)
/* Info: the phase-A loop (push after reading the round before). */
BENCH_DSMEM_PUSH_DB_KERNEL(kp_dsmem_push_after1, 1u, 0, 0)
BENCH_DSMEM_PUSH_DB_KERNEL(kp_dsmem_push_after8, 8u, 0, 0)
BENCH_BUILT(p_dsmem_push_after1, kp_dsmem_push_after1)
BENCH_BUILT(p_dsmem_push_after8, kp_dsmem_push_after8)

// --- collectives: reduce on tiles of 32, 16 and 8, inclusive_scan on tiles of 32 and 16 ------

/* The anchors' chain (bench_device.h): each input made from the previous
 * result, replayed by the host for the sampled threads. `off` (1 only in the
 * self-test's d_reduce32_broken): the result is off by one in every warp but
 * warp 0 (the replay once checked warp 0 alone). */
#define BENCH_COLL_KERNEL(kname, n, T, call) BENCH_COLL_KERNEL_D(kname, n, T, call, 0)
#define BENCH_COLL_KERNEL_D(kname, n, T, call, off)                            \
    __global__ void kname(bench_args_t a)                                      \
    {                                                                          \
        cg_thread_block_t b = cg_this_thread_block();                          \
        cg_tile_t t = cg_tiled_partition(&b, n);                               \
        const unsigned seed = bench_coll_seed();                               \
        unsigned x = seed >> 16;                                               \
        for (long long i = 0; i < a.iters; ++i) {                              \
            T r = call(&t, (T)x, CG_OP_PLUS);                                  \
            if ((off) && threadIdx.x >= 32u) /* the defect */                  \
                r += (T)1;                                                     \
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
BENCH_COLL_KERNEL_D(kd_reduce32_broken, 32u, int32_t, cg_tile_reduce_i32, 1)
BENCH_EXPORT(d_reduce32_broken, kd_reduce32_broken) /* the self-test's */
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
BENCH_TILE64_SYNC_KERNEL(kc_tile64_sync)
BENCH_BUILT(c_tile64_sync, kc_tile64_sync)
#else
BENCH_MISSING(c_tile64_sync, "cg/wide_tile.h (CG_HAS_WIDE_TILE) not in this tree")
#endif

// --- group memcpy_async + wait_prior, S stages ------------------------------------------------

#if defined(CG_HAS_GROUP_WAIT_PRIOR)
/* The anchor's pipeline (anchors.cu, k_memcpy_stages) with cgc's group copy
 * and cg_wait_prior. COPY(dst, src) is the copy call: the alignment-stated
 * form (cuda::aligned_size_t<A>'s counterpart, what the anchor uses) or the
 * plain four-argument form (alignment tested at run time). EARLY (1 only in
 * the self-test's d_memcpy_stages_broken): each stage is read before
 * cg_wait_prior, then waited for. */
#define BENCH_MEMCPY_STAGES_KERNEL(kname, S, COPY) BENCH_MEMCPY_STAGES_KERNEL_D(kname, S, COPY, 0)
#define BENCH_MEMCPY_STAGES_KERNEL_D(kname, S, COPY, EARLY)                                        \
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
            if (!(EARLY))                                                                          \
                cg_wait_prior(&b, (S) - 1u);                                                       \
            const int4 *t = stage + (unsigned)(i % (S)) * n;                                       \
            const unsigned long long tno = bench_tile_no(&a, i);                                   \
            for (unsigned e = threadIdx.x; e < n; e += blockDim.x) {                               \
                const int4 v = t[e];                                                               \
                wrong += bench_vec_ne(v, bench_src_vec(tno * n + e));                              \
                acc ^= (unsigned)v.x;                                                              \
            }                                                                                      \
            if (EARLY) /* the defect: the stage was read before wait_prior */                      \
                cg_wait_prior(&b, (S) - 1u);                                                       \
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
BENCH_MEMCPY_STAGES_KERNEL_D(kd_memcpy_stages_broken, 2u, BENCH_COPY_A16, 1)
BENCH_EXPORT(d_memcpy_stages_broken, kd_memcpy_stages_broken) /* the self-test's */
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
extern "C" const void *d_memcpy_stages_broken(void) { return NULL; } /* the self-test row then reads NOT CAUGHT */
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
