/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/anchors.cu — the anchors: each operation written with NVIDIA's C++
 * (Cooperative Groups, libcu++ cuda::barrier, cuda::memcpy_async) or, for the
 * floors, the bare PTX. Every kernel loops its operation a.iters times, keeps
 * a per-thread value alive through the sink, and does nothing else in the
 * loop that its cgc twin (cgc_rows.cu) does not also do.
 */
#include <cooperative_groups.h>
#include <cuda/barrier>

#include "bench/bench.h"
#include "bench/bench_device.h"

namespace cg = cooperative_groups;

using block_barrier_t = cuda::barrier<cuda::thread_scope_block>;

// --- block sync -----------------------------------------------------------

__global__ void k_syncthreads(bench_args_t a)
{
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        __syncthreads();
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_syncthreads, k_syncthreads)

// --- block split arrive + wait ----------------------------------------------

/* C++ CG: barrier_arrive() returns an empty token, barrier_wait() is a
 * __syncthreads — no overlap, which is what the anchor shows. */
__global__ void k_cg_block_split(bench_args_t a)
{
    cg::thread_block b = cg::this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        auto t = b.barrier_arrive();
        b.barrier_wait(std::move(t));
    }
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
    block_barrier_t *bar = block_barrier_setup(storage);
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        block_barrier_t::arrival_token t = bar->arrive();
        bar->wait(std::move(t));
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cuda_barrier_split, k_cuda_barrier_split)

/* The floor: one mbarrier in shared memory, every thread arrives
 * (mbarrier.arrive.release.cta) and spins on mbarrier.try_wait.acquire.cta
 * with the state the arrive returned. Nothing a library can add on top of
 * this is free; cgc's split barrier should sit within 5% of it. */
__global__ void k_mbarrier_raw(bench_args_t a)
{
    __shared__ alignas(8) unsigned long long mbar;
    unsigned addr = (unsigned)__cvta_generic_to_shared(&mbar);
    if (threadIdx.x == 0)
        asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(addr), "r"(blockDim.x) : "memory");
    __syncthreads();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        unsigned long long state;
        asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];"
                     : "=l"(state)
                     : "r"(addr)
                     : "memory");
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
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_mbarrier_raw, k_mbarrier_raw)

// --- rotating slow warp ----------------------------------------------------------

/* Every warp arrives, does a.work cycles of independent work (the slow warp
 * of this iteration a.slow more), then waits. CG's wait is a __syncthreads,
 * so each iteration costs the slow warp's whole time. */
__global__ void k_cg_block_rotating(bench_args_t a)
{
    cg::thread_block b = cg::this_thread_block();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        auto t = b.barrier_arrive();
        acc = bench_rotating_work(&a, i, acc);
        b.barrier_wait(std::move(t));
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_block_rotating, k_cg_block_rotating)

/* The same with libcu++'s real split barrier (for orientation: shows what a
 * real split barrier gains on this workload, whoever implements it). */
__global__ void k_cuda_barrier_rotating(bench_args_t a)
{
    __shared__ alignas(block_barrier_t) unsigned char storage[sizeof(block_barrier_t)];
    block_barrier_t *bar = block_barrier_setup(storage);
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        block_barrier_t::arrival_token t = bar->arrive();
        acc = bench_rotating_work(&a, i, acc);
        bar->wait(std::move(t));
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cuda_barrier_rotating, k_cuda_barrier_rotating)

// --- barrier with a completion function: light (the barrier's own cost) ----------

/* The completion function does almost nothing: one thread adds 1 to a shared
 * counter, which every thread reads after its wait (so the function's write
 * must be visible: the barrier's whole contract, at its smallest). What the
 * row measures is the barrier: arrivals, electing the completer, running F,
 * waking the waiters. TARGETS.md's anchor (254/284/592 ns) is this. */
struct compl_count {
    unsigned *count;
    __device__ void operator()() noexcept { *count += 1u; }
};
using light_barrier_t = cuda::barrier<cuda::thread_scope_block, compl_count>;

__global__ void k_cuda_barrier_compl_light(bench_args_t a)
{
    __shared__ unsigned count;
    __shared__ alignas(light_barrier_t) unsigned char storage[sizeof(light_barrier_t)];
    light_barrier_t *bar = reinterpret_cast<light_barrier_t *>(storage);
    if (threadIdx.x == 0) {
        count = 0;
        new (bar) light_barrier_t((ptrdiff_t)blockDim.x, compl_count{&count});
    }
    __syncthreads();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        light_barrier_t::arrival_token t = bar->arrive();
        bar->wait(std::move(t));
        acc += count;
    }
    bench_sink(&a, acc);
    if (threadIdx.x == 0)
        a.acc[blockIdx.x] = count;
}
BENCH_EXPORT(a_cuda_barrier_compl_light, k_cuda_barrier_compl_light)

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
    if (threadIdx.x == 0)
        a.acc[blockIdx.x] = acc;
}
BENCH_EXPORT(a_cuda_barrier_compl, k_cuda_barrier_compl)

// --- cluster ------------------------------------------------------------------

__global__ void k_cg_cluster_sync(bench_args_t a)
{
    cg::cluster_group cl = cg::this_cluster();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        cl.sync();
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_cluster_sync, k_cg_cluster_sync)

__global__ void k_cg_cluster_split(bench_args_t a)
{
    cg::cluster_group cl = cg::this_cluster();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        auto t = cl.barrier_arrive();
        cl.barrier_wait(std::move(t));
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_cluster_split, k_cg_cluster_split)

/* The floor of the control-only form: aligned relaxed arrive + aligned wait
 * (barrier.cluster.wait is .acquire by default; spelled out). */
__global__ void k_ptx_cluster_relaxed(bench_args_t a)
{
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        asm volatile("barrier.cluster.arrive.relaxed.aligned;" ::: "memory");
        asm volatile("barrier.cluster.wait.acquire.aligned;" ::: "memory");
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_ptx_cluster_relaxed, k_ptx_cluster_relaxed)

// --- grid ---------------------------------------------------------------------

__global__ void k_cg_grid_sync(bench_args_t a)
{
    cg::grid_group g = cg::this_grid();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        acc += (unsigned)i;
        g.sync();
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_cg_grid_sync, k_cg_grid_sync)

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

/* Dynamic shared memory: send[xfer] then recv[xfer]. Each iteration every CTA
 * copies the peer's (rank + 1) send buffer into its own recv buffer with int4
 * loads through map_shared_rank, then cluster.sync() closes the exchange
 * (the peer may refill its send buffer only after everyone has read it). The
 * final cluster.sync keeps every CTA's shared memory alive until its readers
 * are done. */
__global__ void k_dsmem_pull(bench_args_t a)
{
    extern __shared__ int4 dyn[];
    cg::cluster_group cl = cg::this_cluster();
    unsigned n = a.xfer_bytes / sizeof(int4);
    int4 *send = dyn;
    int4 *recv = dyn + n;
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
        send[k] = make_int4((int)k, (int)blockIdx.x, 1, 2);
    unsigned peer = (cl.block_rank() + 1) % cl.num_blocks();
    const int4 *__restrict__ remote = cl.map_shared_rank(send, peer);
    cl.sync();
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        /* Four remote loads in flight per thread before the local stores
         * (the runner makes n a multiple of 4 * blockDim). */
        for (unsigned k = threadIdx.x; k < n; k += 4 * blockDim.x) {
            int4 r[4];
#pragma unroll
            for (unsigned u = 0; u < 4; ++u)
                r[u] = remote[k + u * blockDim.x];
#pragma unroll
            for (unsigned u = 0; u < 4; ++u)
                recv[k + u * blockDim.x] = r[u];
        }
        cl.sync();
    }
    for (unsigned k = threadIdx.x; k < n; k += blockDim.x)
        acc ^= (unsigned)recv[k].x;
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
        acc = bench_consume_tile(tile, a.tile_bytes, acc);
        __syncthreads();
    }
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
    unsigned acc = threadIdx.x;
    for (long long i = 0; i < a.iters; ++i) {
        cuda::memcpy_async(b, tile, bench_tile_src(&a, i), cuda::aligned_size_t<16>(a.tile_bytes), *bar);
        bar->arrive_and_wait();
        acc = bench_consume_tile(tile, a.tile_bytes, acc);
        b.sync();
    }
    bench_sink(&a, acc);
}
BENCH_EXPORT(a_copy_memcpy_async, k_copy_memcpy_async)
