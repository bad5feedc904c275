/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/anchors.cu — the anchors: each operation written with NVIDIA's C++
 * (Cooperative Groups, libcu++ cuda::barrier, cuda::memcpy_async) or, for the
 * floors, the bare PTX. Every kernel loops its operation a.iters times, keeps
 * a per-thread value alive through the sink, and does nothing else in the
 * loop that its cgc twin (cgc_rows.cu) does not also do.
 */
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda/barrier>

#include "bench/bench.h"
#include "bench/bench_device.h"

namespace cg = cooperative_groups;

using block_barrier_t = cuda::barrier<cuda::thread_scope_block>;

// --- block sync -----------------------------------------------------------

__global__ void k_syncthreads(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        __syncthreads();
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_syncthreads, k_syncthreads)

// --- block split arrive + wait ----------------------------------------------

/* C++ CG: barrier_arrive() returns an empty token, barrier_wait() is a
 * __syncthreads — no overlap, which is what the anchor shows. */
__global__ void k_cg_block_split(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    cg::thread_block b = cg::this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        auto t = b.barrier_arrive();
        b.barrier_wait(std::move(t));
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_block_split, k_cg_block_split)

/* A cuda::barrier<thread_scope_block> in shared memory, initialized for the
 * whole block (raw storage + init(), the documented way: no dynamic
 * initialization of a __shared__ object). */
static __device__ __forceinline__ block_barrier_t *block_barrier_setup(void *storage)
{
    block_barrier_t *bar = reinterpret_cast<block_barrier_t *>(storage);
    if (threadIdx.x == 0)
        init(bar, (ptrdiff_t)blockDim.x);
    __syncthreads();
    return bar;
}

__global__ void k_cuda_barrier_split(bench_args_t a)
{
    __shared__ alignas(block_barrier_t) unsigned char storage[sizeof(block_barrier_t)];
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    block_barrier_t *bar = block_barrier_setup(storage);
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        block_barrier_t::arrival_token t = bar->arrive();
        bar->wait(std::move(t));
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cuda_barrier_split, k_cuda_barrier_split)

/* The floor: one mbarrier in shared memory, every thread arrives
 * (mbarrier.arrive.release.cta) and spins on mbarrier.try_wait.acquire.cta
 * with the state the arrive returned. Nothing a library can add on top of
 * this is free; cgc's split barrier should sit within 5% of it. */
static __device__ __forceinline__ unsigned raw_mbar_init(unsigned long long *mbar)
{
    unsigned addr = (unsigned)__cvta_generic_to_shared(mbar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(blockDim.x) : "memory");
    __syncthreads();
    return addr;
}
static __device__ __forceinline__ unsigned long long raw_mbar_arrive(unsigned addr)
{
    unsigned long long state;
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(state) : "r"(addr) : "memory");
    return state;
}
static __device__ __forceinline__ void raw_mbar_wait(unsigned addr, unsigned long long state)
{
    unsigned done;
    do {
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                     "selp.u32 %0, 1, 0, p;\n\t}"
                     : "=r"(done)
                     : "r"(addr), "l"(state)
                     : "memory");
    } while (!done);
}

/* Rotating: the rotating slow warp's floor (issue 33): the same work as the
 * rotating rows' kernels between the arrive and the wait, so the ratio a
 * split barrier can reach against C++ CG on that workload is measured in
 * the same run. */
template <bool Rotating>
__global__ void k_mbarrier_raw(bench_args_t a)
{
    __shared__ alignas(8) unsigned long long mbar;
    const unsigned addr = raw_mbar_init(&mbar);
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        if (!Rotating)
            acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        const unsigned long long state = raw_mbar_arrive(addr);
        if (Rotating)
            acc = bench_rotating_work(&a, i, acc);
        raw_mbar_wait(addr, state);
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_mbarrier_raw, k_mbarrier_raw<false>)

// --- rotating slow warp ----------------------------------------------------------

/* Every warp arrives, does a.work cycles of independent work (the slow warp
 * of this iteration a.slow more), then waits. CG's wait is a __syncthreads,
 * so each iteration costs the slow warp's whole time. */
__global__ void k_cg_block_rotating(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    cg::thread_block b = cg::this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        BENCH_BLOCK_PUBLISH(a, i);
        auto t = b.barrier_arrive();
        acc = bench_rotating_work(&a, i, acc);
        b.barrier_wait(std::move(t));
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_block_rotating, k_cg_block_rotating)

/* The same with libcu++'s real split barrier (for orientation: shows what a
 * real split barrier gains on this workload, whoever implements it). */
__global__ void k_cuda_barrier_rotating(bench_args_t a)
{
    __shared__ alignas(block_barrier_t) unsigned char storage[sizeof(block_barrier_t)];
    BENCH_BLOCK_SLOTS;
    unsigned long long wrong = 0;
    block_barrier_t *bar = block_barrier_setup(storage);
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        BENCH_BLOCK_PUBLISH(a, i);
        block_barrier_t::arrival_token t = bar->arrive();
        acc = bench_rotating_work(&a, i, acc);
        bar->wait(std::move(t));
        BENCH_BLOCK_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cuda_barrier_rotating, k_cuda_barrier_rotating)

/* The rotating slow warp on the raw mbarrier (issue 33; k_mbarrier_raw). */
BENCH_EXPORT(a_mbarrier_raw_rotating, k_mbarrier_raw<true>)

// --- barrier with a completion function: light (the barrier's own cost) ----------

/* The completion function does almost nothing: one thread adds 1 to a shared
 * counter, which every thread reads after its wait (so the function's write
 * must be visible: the barrier's whole contract, at its smallest). What the
 * row measures is the barrier: arrivals, electing the completer, running F,
 * waking the waiters. TARGETS.md's anchor (254/284/592 ns) is this. */
struct compl_count {
    unsigned *count;
    __device__ void operator()() noexcept { *count += 1u; }
    static __device__ compl_count make(unsigned *c) { return compl_count{c}; }
};

/* The same step with the function chosen at run time (issue 33): F holds a
 * function pointer and its argument and calls through the pointer, what a
 * C++ user writes when the completion step is not known at compile time
 * (the counterpart of cgc's stored-function cg_barrier_fn_t; compl_count's
 * inlined F is the counterpart of CG_BARRIER_FN_DEFINE). The pointer is
 * read from a volatile __device__ variable, so no compiler can resolve the
 * call. */
static __device__ void compl_light_fn(void *p) { *(unsigned *)p += 1u; }
static __device__ void (*volatile compl_light_fn_ptr)(void *) = compl_light_fn;
struct compl_ptr {
    void (*fn)(void *);
    void *arg;
    __device__ void operator()() noexcept { fn(arg); }
    static __device__ compl_ptr make(unsigned *c) { return compl_ptr{compl_light_fn_ptr, c}; }
};

template <typename F>
__global__ void k_cuda_barrier_compl_light(bench_args_t a)
{
    using light_barrier_t = cuda::barrier<cuda::thread_scope_block, F>;
    __shared__ unsigned count;
    __shared__ alignas(light_barrier_t) unsigned char storage[sizeof(light_barrier_t)];
    light_barrier_t *bar = reinterpret_cast<light_barrier_t *>(storage);
    if (threadIdx.x == 0) {
        count = 0;
        new (bar) light_barrier_t((ptrdiff_t)blockDim.x, F::make(&count));
    }
    __syncthreads();
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        typename light_barrier_t::arrival_token t = bar->arrive();
        bar->wait(std::move(t));
        const unsigned c = count;
        acc += c;
        wrong += c != (unsigned)(i + 1); /* F ran exactly once per phase */
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
    if (threadIdx.x == 0)
        a.acc[blockIdx.x] = count;
}
BENCH_EXPORT(a_cuda_barrier_compl_light, k_cuda_barrier_compl_light<compl_count>)
BENCH_EXPORT(a_cuda_barrier_compl_light_ptr, k_cuda_barrier_compl_light<compl_ptr>)

// --- barrier with a completion function (seed 000 shape, heavy: info) -------------

/* Each thread writes its smem word (depending on the running sum, so every
 * phase depends on the previous completion), arrives and waits; the
 * completion function, run once per phase by one thread, sums the words into
 * the block's accumulator. Up to 1024 threads. */
struct compl_sum {
    int *smem;
    unsigned n;
    unsigned long long *acc;
    __device__ void operator()() noexcept { bench_sum_into(smem, n, acc); }
};
using compl_barrier_t = cuda::barrier<cuda::thread_scope_block, compl_sum>;

__global__ void k_cuda_barrier_compl(bench_args_t a)
{
    __shared__ int smem[1024];
    __shared__ unsigned long long acc;
    __shared__ alignas(compl_barrier_t) unsigned char storage[sizeof(compl_barrier_t)];
    compl_barrier_t *bar = reinterpret_cast<compl_barrier_t *>(storage);
    if (threadIdx.x == 0) {
        acc = 0;
        new (bar) compl_barrier_t((ptrdiff_t)blockDim.x, compl_sum{smem, blockDim.x, &acc});
    }
    __syncthreads();
    for (long long i = 0; i < a.iters; ++i) {
        smem[threadIdx.x] = (int)((unsigned)i ^ threadIdx.x) + (int)acc;
        compl_barrier_t::arrival_token t = bar->arrive();
        bar->wait(std::move(t));
    }
    bench_sink(&a, acc);
    if (threadIdx.x == 0) {
        a.acc[blockIdx.x] = acc;
        if (a.iters > 0) /* the host replays the sums (bench.cu) */
            atomicAdd(&a.chk[BENCH_CHK_SUM], acc);
    }
    bench_check_report(&a, 0);
}
BENCH_EXPORT(a_cuda_barrier_compl, k_cuda_barrier_compl)

// --- cluster ------------------------------------------------------------------

__global__ void k_cg_cluster_sync(bench_args_t a)
{
    __shared__ unsigned slots[2][1024];
    unsigned long long wrong = 0;
    cg::cluster_group cl = cg::this_cluster();
    const unsigned peer = (cl.block_rank() + 1u) % cl.num_blocks();
    const unsigned pid = (blockIdx.x - cl.block_rank() + peer) * blockDim.x + bench_cluster_peer_thread();
    const unsigned *remote[2] = {cl.map_shared_rank(slots[0], peer), cl.map_shared_rank(slots[1], peer)};
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        if (bench_checked_phase(i))
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
        cl.sync();
        if (bench_checked_phase(i))
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
    }
    cl.sync(); /* no CTA exits while another may read its slots */
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_cluster_sync, k_cg_cluster_sync)

__global__ void k_cg_cluster_split(bench_args_t a)
{
    __shared__ unsigned slots[2][1024];
    unsigned long long wrong = 0;
    cg::cluster_group cl = cg::this_cluster();
    const unsigned peer = (cl.block_rank() + 1u) % cl.num_blocks();
    const unsigned pid = (blockIdx.x - cl.block_rank() + peer) * blockDim.x + bench_cluster_peer_thread();
    const unsigned *remote[2] = {cl.map_shared_rank(slots[0], peer), cl.map_shared_rank(slots[1], peer)};
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        if (bench_checked_phase(i))
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
        auto t = cl.barrier_arrive();
        cl.barrier_wait(std::move(t));
        if (bench_checked_phase(i))
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
    }
    cl.sync(); /* no CTA exits while another may read its slots */
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_cluster_split, k_cg_cluster_split)

/* The floor of the control-only form: aligned relaxed arrive + aligned wait
 * (barrier.cluster.wait is .acquire by default; spelled out). The same checks
 * as cgc's relaxed row: a stale data read is allowed (counted apart), a
 * short arrival count is WRONG (bench_device.h, BENCH_ARRIVALS). */
__global__ void k_ptx_cluster_relaxed(bench_args_t a)
{
    __shared__ unsigned slots[2][1024];
    BENCH_ARRIVALS;
    unsigned long long stale = 0, wrong = 0;
    cg::cluster_group cl = cg::this_cluster();
    const unsigned peer = (cl.block_rank() + 1u) % cl.num_blocks();
    const unsigned pid = (blockIdx.x - cl.block_rank() + peer) * blockDim.x + bench_cluster_peer_thread();
    const unsigned *remote[2] = {cl.map_shared_rank(slots[0], peer), cl.map_shared_rank(slots[1], peer)};
    const unsigned long long *arrived = cl.map_shared_rank(bench_arrived_, peer);
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        const bool chk = bench_checked_phase(i);
        if (chk) {
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
            *(volatile unsigned long long *)&bench_arrived_[threadIdx.x] = bench_arrival_stamp(a.nonce, i);
        }
        asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        if (chk) {
            stale += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
            wrong += bench_arrival_short(*(volatile const unsigned long long *)&arrived[bench_cluster_peer_thread()],
                                         a.nonce, i);
        }
    }
    cl.sync(); /* no CTA exits while another may read its slots */
    if (stale)
        atomicAdd(&a.chk[BENCH_CHK_STALE], stale);
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_ptx_cluster_relaxed, k_ptx_cluster_relaxed)

/* The floor of the shared-memory-only form, in bare PTX: one
 * shared-memory-restricted release fence, then the aligned relaxed arrive
 * and wait. Checked like the release rows (the fence orders the slot writes). */
__global__ void k_ptx_cluster_smem(bench_args_t a)
{
    __shared__ unsigned slots[2][1024];
    unsigned long long wrong = 0;
    cg::cluster_group cl = cg::this_cluster();
    const unsigned peer = (cl.block_rank() + 1u) % cl.num_blocks();
    const unsigned pid = (blockIdx.x - cl.block_rank() + peer) * blockDim.x + bench_cluster_peer_thread();
    const unsigned *remote[2] = {cl.map_shared_rank(slots[0], peer), cl.map_shared_rank(slots[1], peer)};
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        if (bench_checked_phase(i))
            slots[i & 1][threadIdx.x] = bench_slot_value(a.nonce, i, (unsigned)bench_gtid());
        asm volatile("fence.release.sync_restrict::shared::cta.cluster;" ::: "memory");
        asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
        if (bench_checked_phase(i))
            wrong += *(volatile const unsigned *)&remote[i & 1][bench_cluster_peer_thread()] != bench_slot_value(a.nonce, i, pid);
    }
    cl.sync(); /* no CTA exits while another may read its slots */
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_ptx_cluster_smem, k_ptx_cluster_smem)

// --- grid ---------------------------------------------------------------------

__global__ void BENCH_GRID_BOUNDS k_cg_grid_sync(bench_args_t a)
{
    cg::grid_group g = cg::this_grid();
    const unsigned long long gt = bench_gtid(), n = (unsigned long long)gridDim.x * blockDim.x;
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_GRID_PUBLISH(a, i, gt, n);
        g.sync();
        BENCH_GRID_VERIFY(a, i, gt, n, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_grid_sync, k_cg_grid_sync)

/* C++ CG's split grid barrier around a.xfers FMAs, every phase checked
 * (BENCH_GRID_SPLIT_BODY); `probe` 1 times the steps into a.acc (side 1). */
template <int PROBE> __global__ void BENCH_GRID_BOUNDS k_cg_grid_split(bench_args_t a)
{
    const cg::grid_group g = cg::this_grid();
    BENCH_GRID_SPLIT_BODY(a, 1, PROBE, 1, cg::grid_group::arrival_token bench_t_ = g.barrier_arrive(),
                          g.barrier_wait(static_cast<cg::grid_group::arrival_token &&>(bench_t_)));
}
BENCH_EXPORT(a_cg_grid_split, k_cg_grid_split<0>)
BENCH_EXPORT(a_cg_grid_split_probe, k_cg_grid_split<1>)

/* The split rows' floor: the same loop, FMAs, stores and loads, no barrier
 * (its loads race: sunk, not checked). */
__global__ void BENCH_GRID_BOUNDS k_grid_split_floor(bench_args_t a) { BENCH_GRID_SPLIT_BODY(a, 0, 0, 2, , ); }
BENCH_EXPORT(a_grid_split_floor, k_grid_split_floor)

// --- device-scope barrier: cuda::barrier<thread_scope_device>, every phase checked ---------

/* The same kernel as cgc's kc_device_barrier with libcu++'s device-scope
 * barrier in global memory (initialized by init() in the set-up launch). */
typedef cuda::barrier<cuda::thread_scope_device> dbar_t;
static_assert(sizeof(dbar_t) <= 128, "the anchor barrier fits its line of a.dbar_lines");
static __device__ unsigned ka_dbar_slots[2][BENCH_DBAR_MAX_THREADS];
static __device__ unsigned long long ka_dbar_stats[2];
static __device__ unsigned ka_dbar_launch;

__global__ void k_cuda_device_barrier(bench_args_t a)
{
    dbar_t *bar = reinterpret_cast<dbar_t *>(BENCH_DBAR_LINE(a, 0));
    const unsigned long long g = bench_gtid(), n = (unsigned long long)gridDim.x * blockDim.x;
    if (a.iters < 0) {
        if (g == 0) {
            init(bar, (ptrdiff_t)n);
            ka_dbar_stats[0] = ka_dbar_stats[1] = 0;
            ka_dbar_launch = 1;
        }
        return;
    }
    const unsigned launch = *(volatile unsigned *)&ka_dbar_launch;
    unsigned long long errors = 0;
    for (long long i = 0; i < a.iters; ++i) {
        ka_dbar_slots[i & 1][g] = bench_dbar_value(launch, i, g);
        dbar_t::arrival_token t = bar->arrive();
        bar->wait(cuda::std::move(t));
        const unsigned long long p = bench_dbar_peer(i, g, n);
        errors += *(volatile unsigned *)&ka_dbar_slots[i & 1][p] != bench_dbar_value(launch, i, p);
    }
    if (errors)
        atomicAdd(&ka_dbar_stats[0], errors);
    if (g == 0 && a.iters > 0) {
        ka_dbar_stats[1] += (unsigned long long)a.iters;
        ka_dbar_launch = launch + 1u;
    }
    bench_sink(&a, errors);
}
BENCH_EXPORT(a_cuda_device_barrier, k_cuda_device_barrier)

extern "C" int bench_dbar_stats_anchor(unsigned long long out[2])
{
    return (int)cudaMemcpyFromSymbol(out, ka_dbar_stats, sizeof ka_dbar_stats);
}

// --- DSMEM: pull with remote int4 loads ---------------------------------------------

/* Dynamic shared memory: send[xfer] then recv[xfer]. Each round every CTA
 * writes the round's data into its send buffer (bench_dsmem_vec: new every
 * round), cluster.sync() publishes it, every CTA copies the peer's (rank + 1)
 * send buffer into its own recv buffer with int4 loads through
 * map_shared_rank, checking each int4 it moves, and a second cluster.sync()
 * closes the round (the peer may refill its send buffer only after everyone
 * has read it): with one buffer and new data every round, a pull needs both.
 * The last cluster.sync keeps every CTA's shared memory alive until its
 * readers are done. */
__global__ void k_dsmem_pull(bench_args_t a)
{
    extern __shared__ int4 dyn[];
    cg::cluster_group cl = cg::this_cluster();
    unsigned n = a.xfer_bytes / sizeof(int4);
    int4 *send = dyn;
    int4 *recv = dyn + n;
    unsigned peer = (cl.block_rank() + 1) % cl.num_blocks();
    const unsigned from = blockIdx.x - cl.block_rank() + peer;
    const int4 *__restrict__ remote = cl.map_shared_rank(send, peer);
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
            send[k] = bench_dsmem_vec(blockIdx.x, i, k);
        cl.sync();
        /* Four remote loads in flight per thread before the checks and the
         * local stores (the runner makes n a multiple of 4 * blockDim). */
        for (unsigned k = threadIdx.x; k < n; k += 4 * blockDim.x) {
            int4 r[4];
#pragma unroll
            for (unsigned u = 0; u < 4; ++u)
                r[u] = remote[k + u * blockDim.x];
#pragma unroll
            for (unsigned u = 0; u < 4; ++u) {
                wrong += bench_vec_ne(r[u], bench_dsmem_vec(from, i, k + u * blockDim.x));
                recv[k + u * blockDim.x] = r[u];
            }
        }
        cl.sync();
    }
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
        acc ^= (unsigned)recv[k].x;
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_dsmem_pull, k_dsmem_pull)

// --- global -> shared copy -------------------------------------------------------

/* Plain int4 loads: all of a thread's loads issued before its stores (so a
 * 1024-thread block has a whole tile in flight), then the block syncs,
 * consumes one int4 each, and syncs before the tile is overwritten. */
__global__ void __launch_bounds__(1024) k_copy_plain(bench_args_t a)
{
    extern __shared__ int4 tile[];
    enum { MAXU = 4 };
    unsigned n = a.tile_bytes / sizeof(int4);
    unsigned per = n / blockDim.x; /* the runner makes this exact and <= MAXU */
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        const int4 *__restrict__ g = bench_tile_src(&a, i);
        int4 r[MAXU];
#pragma unroll
        for (unsigned u = 0; u < MAXU; ++u)
            if (u < per)
                r[u] = g[threadIdx.x + u * blockDim.x];
#pragma unroll
        for (unsigned u = 0; u < MAXU; ++u)
            if (u < per)
                tile[threadIdx.x + u * blockDim.x] = r[u];
        __syncthreads();
        acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong);
        __syncthreads();
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_copy_plain, k_copy_plain)

/* The seed-003 pattern: cuda::memcpy_async(block, ..., barrier) with 16-byte
 * alignment (libcu++ issues a bulk copy on sm_90), arrive_and_wait, consume,
 * block.sync. */
__global__ void __launch_bounds__(1024) k_copy_memcpy_async(bench_args_t a)
{
    extern __shared__ int4 tile[];
    __shared__ alignas(block_barrier_t) unsigned char storage[sizeof(block_barrier_t)];
    block_barrier_t *bar = block_barrier_setup(storage);
    cg::thread_block b = cg::this_thread_block();
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        cuda::memcpy_async(b, tile, bench_tile_src(&a, i), cuda::aligned_size_t<16>(a.tile_bytes), *bar);
        bar->arrive_and_wait();
        acc = bench_consume_tile_checked(&a, tile, bench_tile_no(&a, i), i, acc, &wrong);
        b.sync();
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_copy_memcpy_async, k_copy_memcpy_async)

// --- source fill for the copy rows ---------------------------------------------------

__global__ void k_fill_src(int4 *src, unsigned long long n)
{
    for (unsigned long long j = bench_gtid(); j < n; j += (unsigned long long)gridDim.x * blockDim.x)
        src[j] = bench_src_vec(j);
}

extern "C" int bench_fill_src(int4 *src, unsigned long long n, cudaStream_t stream)
{
    k_fill_src<<<1024, 256, 0, stream>>>(src, n);
    return (int)cudaGetLastError();
}

// --- DSMEM exchange, double-buffered: map_shared_rank pull --------------------------------

/* What a user writes with C++ CG: in round i every CTA writes its X messages
 * (blockDim int4 each, one per thread) into its own send[i & 1], one
 * cluster.sync publishes them, and every thread reads its int4 of each of
 * the X messages of the next CTA (rank + 1) through map_shared_rank and
 * checks it. Two buffers: round i + 1 writes the other one, and round i + 2
 * rewrites this one only after the sync of round i + 1, which every reader
 * of round i passed. One synchronization per round for X messages.
 * AHEAD (the candidate anchor given the push's freedom): round i + 1 is
 * written right after round i's loads are issued, while they are in flight,
 * instead of before the sync of round i + 1. Still correct with two buffers:
 * send[(i + 1) & 1] held round i - 1, whose readers all read it before they
 * arrived at sync i, which this CTA has passed; and sync i + 1 publishes the
 * writes. The row that carries the target is run against both forms: the
 * cgc kernel has to beat the faster. */
template <unsigned X, bool AHEAD>
__global__ void k_dsmem_pull_db(bench_args_t a)
{
    extern __shared__ int4 dyn[]; /* send[2][X * blockDim] */
    cg::cluster_group cl = cg::this_cluster();
    const unsigned v = blockDim.x, peer = (cl.block_rank() + 1u) % cl.num_blocks();
    const unsigned from = blockIdx.x - cl.block_rank() + peer;
    const int4 *remote = cl.map_shared_rank(dyn, peer);
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    auto write = [&](long long j) {
        int4 *mine = dyn + (unsigned)(j & 1) * X * v;
#pragma unroll
        for (unsigned m = 0; m < X; ++m)
            mine[m * v + threadIdx.x] = bench_dsmem_vec(blockIdx.x, j, m * v + threadIdx.x);
    };
    if (AHEAD && a.iters > 0)
        write(0);
    for (long long i = 0; i < a.iters; ++i) {
        if (!AHEAD)
            write(i);
        cl.sync();
        const int4 *theirs = remote + (unsigned)(i & 1) * X * v;
        int4 r[X];
#pragma unroll
        for (unsigned m = 0; m < X; ++m)
            r[m] = theirs[m * v + threadIdx.x];
        if (AHEAD && i + 1 < a.iters)
            write(i + 1); /* while round i's loads are in flight */
#pragma unroll
        for (unsigned m = 0; m < X; ++m) {
            wrong += bench_vec_ne(r[m], bench_dsmem_vec(from, i, m * v + threadIdx.x));
            acc ^= (unsigned)r[m].x;
        }
    }
    cl.sync(); /* no CTA exits while another may read its buffers */
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_dsmem_pull_db1, (k_dsmem_pull_db<1, false>))
BENCH_EXPORT(a_dsmem_pull_db8, (k_dsmem_pull_db<8, false>))
BENCH_EXPORT(a_dsmem_pull_db_ahead1, (k_dsmem_pull_db<1, true>))
BENCH_EXPORT(a_dsmem_pull_db_ahead8, (k_dsmem_pull_db<8, true>))

// --- collectives: reduce / inclusive_scan on tiles of 32 and 16 -------------------------

/* The chain of bench_device.h (bench_coll_next): each iteration's input is
 * made from the previous result, so the loop can be neither hoisted nor
 * dropped; the host replays it for the sampled threads. */
template <unsigned N, typename T, bool SCAN>
__global__ void k_coll(bench_args_t a)
{
    cg::thread_block_tile<N> t = cg::tiled_partition<N>(cg::this_thread_block());
    const unsigned seed = bench_coll_seed();
    unsigned x = seed >> 16;
    for (long long i = 0; i < a.iters; ++i) {
        T r = SCAN ? cg::inclusive_scan(t, (T)x, cg::plus<T>()) : cg::reduce(t, (T)x, cg::plus<T>());
        x = bench_coll_next((unsigned)r, seed + (unsigned)i);
    }
    bench_coll_report(&a, x);
}
BENCH_EXPORT(a_reduce32_i32, (k_coll<32, int, false>))
BENCH_EXPORT(a_reduce32_f32, (k_coll<32, float, false>))
BENCH_EXPORT(a_reduce32_f64, (k_coll<32, double, false>))
BENCH_EXPORT(a_reduce16_i32, (k_coll<16, int, false>))
BENCH_EXPORT(a_reduce16_f32, (k_coll<16, float, false>))
BENCH_EXPORT(a_reduce16_f64, (k_coll<16, double, false>))
BENCH_EXPORT(a_reduce8_i32, (k_coll<8, int, false>))
BENCH_EXPORT(a_reduce8_f32, (k_coll<8, float, false>))
BENCH_EXPORT(a_reduce8_f64, (k_coll<8, double, false>))
BENCH_EXPORT(a_scan32_i32, (k_coll<32, int, true>))
BENCH_EXPORT(a_scan32_f32, (k_coll<32, float, true>))
BENCH_EXPORT(a_scan32_f64, (k_coll<32, double, true>))
BENCH_EXPORT(a_scan16_i32, (k_coll<16, int, true>))
BENCH_EXPORT(a_scan16_f32, (k_coll<16, float, true>))
BENCH_EXPORT(a_scan16_f64, (k_coll<16, double, true>))

/* A data-dependent branch makes the coalesced group: threads whose x is odd
 * sum their x over coalesced_threads(); the others take x + 1. */
__global__ void k_coalesced_reduce(bench_args_t a)
{
    const unsigned seed = bench_coll_seed();
    unsigned x = seed >> 16;
    for (long long i = 0; i < a.iters; ++i) {
        unsigned r;
        if (x & 1u) {
            cg::coalesced_group g = cg::coalesced_threads();
            r = (unsigned)cg::reduce(g, (int)x, cg::plus<int>());
        } else {
            r = x + 1u;
        }
        x = bench_coll_next(r, seed + (unsigned)i);
    }
    bench_coll_report(&a, x);
}
BENCH_EXPORT(a_coalesced_reduce, k_coalesced_reduce)

// --- tile of 64: thread_block_tile<64>::sync, checked ----------------------------------------

__global__ void k_tile64_sync(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    cg::thread_block_tile<64> t = cg::tiled_partition<64>(cg::this_thread_block());
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        t.sync();
        BENCH_TILE64_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_tile64_sync, k_tile64_sync)

/* The tile-64 sync's PTX floor: each 64-thread tile of the block on its own
 * named barrier (ids 1.., barrier 0 is __syncthreads'), `bar.sync id, 64`,
 * with the same check. C++ CG's thread_block_tile<64>::sync is a software
 * barrier 16x slower than this; cgc's row is judged against this floor. */
template <bool Aligned>
__global__ void k_bar_sync64(bench_args_t a)
{
    BENCH_BLOCK_SLOTS;
    const unsigned id = 1u + threadIdx.x / 64u;
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        BENCH_BLOCK_PUBLISH(a, i);
        if (Aligned)
            asm volatile("bar.sync %0, 64;" ::"r"(id) : "memory");
        else
            asm volatile("barrier.sync %0, 64;" ::"r"(id) : "memory");
        BENCH_TILE64_VERIFY(a, i, wrong);
    }
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_bar_sync64, k_bar_sync64<true>)
/* The floor of what cg_wide_tile_sync promises (issue 33): the non-aligned
 * barrier.sync id, 64, which lanes of a diverged warp may reach separately
 * (bar.sync is barrier.sync.aligned: the warp must execute it together). */
BENCH_EXPORT(a_barrier_sync64, k_bar_sync64<false>)

// --- group memcpy_async + wait_prior, S stages ------------------------------------------------

/* S stage buffers of a.tile_bytes in dynamic shared memory; tile j goes to
 * stage j % S. Prologue: tiles 0..S-2 in flight. Iteration i starts tile
 * i + S - 1, waits until at most S - 1 batches are pending (tile i has landed;
 * wait_prior syncs the block), checks every int4 of tile i (each thread its
 * share) and syncs before the stage is refilled. */
template <unsigned S, unsigned A = 16>
__global__ void __launch_bounds__(1024) k_memcpy_stages(bench_args_t a)
{
    extern __shared__ int4 stage[];
    cg::thread_block b = cg::this_thread_block();
    const unsigned n = a.tile_bytes / sizeof(int4);
    for (unsigned j = 0; j + 1 < S; ++j)
        cg::memcpy_async(b, stage + j * n, bench_tile_src(&a, j), cuda::aligned_size_t<A>(a.tile_bytes));
    unsigned long long wrong = 0;
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        const long long nx = i + S - 1;
        cg::memcpy_async(b, stage + (unsigned)(nx % S) * n, bench_tile_src(&a, nx),
                         cuda::aligned_size_t<A>(a.tile_bytes));
        cg::wait_prior<S - 1>(b);
        const int4 *t = stage + (unsigned)(i % S) * n;
        const unsigned long long tno = bench_tile_no(&a, i);
        for (unsigned e = threadIdx.x; e < n; e += blockDim.x) {
            const int4 v = t[e];
            wrong += bench_vec_ne(v, bench_src_vec(tno * n + e));
            acc ^= (unsigned)v.x;
        }
        b.sync();
    }
    cg::wait(b);
    bench_check_report(&a, wrong);
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_memcpy_stages2, k_memcpy_stages<2>)
BENCH_EXPORT(a_memcpy_stages3, k_memcpy_stages<3>)
BENCH_EXPORT(a_memcpy_stages4, k_memcpy_stages<4>)
BENCH_EXPORT(a_memcpy_stages2_a8, (k_memcpy_stages<2, 8>))
BENCH_EXPORT(a_memcpy_stages3_a8, (k_memcpy_stages<3, 8>))
BENCH_EXPORT(a_memcpy_stages4_a8, (k_memcpy_stages<4, 8>))
BENCH_EXPORT(a_memcpy_stages2_a4, (k_memcpy_stages<2, 4>))
BENCH_EXPORT(a_memcpy_stages3_a4, (k_memcpy_stages<3, 4>))
BENCH_EXPORT(a_memcpy_stages4_a4, (k_memcpy_stages<4, 4>))

// --- what the checks cost: the same anchors without them (info rows) -------------------------

/* The checked kernels above against these: the difference is what the
 * per-phase check adds to a row's both sides (bench/README.md). */
__global__ void k_syncthreads_nochk(bench_args_t a)
{
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        __syncthreads();
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_syncthreads_nochk, k_syncthreads_nochk)

__global__ void k_cg_cluster_sync_nochk(bench_args_t a)
{
    cg::cluster_group cl = cg::this_cluster();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        cl.sync();
    }
    cl.sync();
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_cluster_sync_nochk, k_cg_cluster_sync_nochk)

__global__ void BENCH_GRID_BOUNDS k_cg_grid_sync_nochk(bench_args_t a)
{
    cg::grid_group g = cg::this_grid();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        g.sync();
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_grid_sync_nochk, k_cg_grid_sync_nochk)
