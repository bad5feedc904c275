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
    cg_thread_block_t b = cg_this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        cg_thread_block_sync(&b);
    }
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
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        cg_token_t t = cg_barrier_arrive_one(&bar);
        cg_barrier_wait_token(&bar, t);
    }
    bench_sink(&a, acc);
}
BENCH_BUILT(c_barrier_split, kc_barrier_split)

__global__ void kc_block_rotating(bench_args_t a)
{
    cg_thread_block_t b = cg_this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        cg_token_t t = cg_thread_block_barrier_arrive(&b);
        acc = bench_rotating_work(&a, i, acc);
        cg_thread_block_barrier_wait(&b, t);
    }
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
    if (threadIdx.x == 0)
        a.acc[blockIdx.x] = acc;
}
BENCH_BUILT(c_barrier_compl, kc_barrier_compl)

// --- cluster -----------------------------------------------------------------------

__global__ void kc_cluster_sync(bench_args_t a)
{
    cg_cluster_t cl = cg_this_cluster();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        cg_cluster_sync(&cl);
    }
    bench_sink(&a, acc);
}
BENCH_BUILT(c_cluster_sync, kc_cluster_sync)

__global__ void kc_cluster_split(bench_args_t a)
{
    cg_cluster_t cl = cg_this_cluster();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        cg_token_t t = cg_cluster_barrier_arrive(&cl);
        cg_cluster_barrier_wait(&cl, t);
    }
    bench_sink(&a, acc);
}
BENCH_BUILT(c_cluster_split, kc_cluster_split)

__global__ void kc_cluster_relaxed(bench_args_t a)
{
    cg_cluster_t cl = cg_this_cluster();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        cg_token_t t = cg_cluster_barrier_arrive_relaxed(&cl);
        cg_cluster_barrier_wait(&cl, t);
    }
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
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
        send[k] = make_int4((int)k, (int)blockIdx.x, 1, 2);
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
            if (threadIdx.x == 0)
                cg_dsmem_push_bulk(recv, send, a->xfer_bytes, &full, peer);
        } else {
            cg_dsmem_push(&b, recv, send, a->xfer_bytes, &full, peer);
        }
        cg_mbarrier_wait_parity_cluster(&full, (uint32_t)(i & 1));
        cg_cluster_sync(&cl);
    }
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
        acc ^= (unsigned)recv[k].x;
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
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        if (threadIdx.x == 0) {
            cg_fence_proxy_async_smem();
            (void)cg_mbarrier_arrive_tx(&mbar, a.tile_bytes);
            cg_memcpy_async_tx(tile, bench_tile_src(&a, i), a.tile_bytes, &mbar);
        }
        cg_mbarrier_wait_parity(&mbar, (uint32_t)(i & 1));
        acc = bench_consume_tile(tile, a.tile_bytes, acc);
        __syncthreads();
    }
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
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        cg_memcpy_async(&b, tile, bench_tile_src(&a, i), a.tile_bytes, &bar);
        cg_barrier_arrive_and_wait(&bar);
        acc = bench_consume_tile(tile, a.tile_bytes, acc);
        cg_thread_block_sync(&b);
    }
    bench_sink(&a, acc);
}
BENCH_BUILT(c_copy_memcpy_async, kc_copy_memcpy_async)

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
