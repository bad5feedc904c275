/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/bench.h — what the benchmark's translation units share.
 *
 *   bench.cu    the runner: device checks, timing, the row table, output
 *   anchors.cu  NVIDIA's C++ (Cooperative Groups, libcu++): the anchors
 *   cgc_rows.cu the same operations written with cgc, C style
 *
 * Every benchmark kernel has the signature `__global__ void k(bench_args_t)`
 * and loops its operation a.iters times, so one generic launcher
 * (cudaLaunchKernelEx with cluster / cooperative attributes) starts all of
 * them the same way and the timing cannot differ by how a kernel is launched.
 * A translation unit exports each kernel as a getter, `const void *name(void)`
 * (BENCH_EXPORT), so the row table in bench.cu names kernels of either file
 * and a missing one is a link error, not a run-time surprise.
 */
#ifndef CGC_BENCH_H
#define CGC_BENCH_H

#include <cuda_runtime.h>
#include <stdint.h>

/* The one kernel parameter. Fields a kernel does not use are ignored. */
typedef struct bench_args {
    long long iters;            /* loop trips: operations per thread (0 = setup only) */
    unsigned work;              /* rotating-slow-warp: cycles of independent work, every warp */
    unsigned slow;              /* rotating-slow-warp: extra cycles for the one slow warp */
    unsigned long long *sink;   /* one slot per thread of the grid: defeats dead-code elimination */
    unsigned long long *acc;    /* one slot per block: accumulators a kernel must keep */
    const int4 *src;            /* copy rows: the source buffer */
    unsigned long long ntiles;  /* copy rows: tiles in src */
    unsigned tile_bytes;        /* copy rows: bytes per tile (= dynamic shared memory) */
    unsigned xfer_bytes;        /* DSMEM rows: bytes each CTA moves to/from a peer per iteration */
    unsigned char *dbar_lines;  /* device-barrier rows: two 128-byte lines, one barrier on each */
    unsigned dbar_swap;         /* device-barrier rows: cgc's barrier on line dbar_swap, the anchor's on the other */
    unsigned long long *chk;    /* this kernel's check words (BENCH_CHK_*), zeroed before each row; the runner gives each kernel its own */
    unsigned nonce;             /* a number new in every launch: values a check writes in one launch never match in another */
    unsigned *slots;            /* grid rows: 2 x (largest grid) words for the per-phase check */
    unsigned xfers;             /* double-buffered DSMEM rows: messages per synchronization; split grid
                                   rows: dependent FMAs per thread between arrive and wait */
    unsigned group;             /* multicast tile-sharing rows: the twin launched WITHOUT clusters
                                   shares tiles among blockIdx.x / group (0: its cluster) */
} bench_args_t;

/*
 * What a checked kernel leaves in a.chk (bench_device.h writes it; the runner
 * reads it back after the row and compares):
 *   [BENCH_CHK_WRONG]  wrong values a thread saw (must stay 0)
 *   [BENCH_CHK_PHASES] thread 0 of every block adds a.iters at the end of
 *                      every launch with iterations: launches x iters x blocks
 *   [BENCH_CHK_SUM]    row-specific sum the host recomputes (completion sum)
 *   [BENCH_CHK_STALE]  stale data reads where the operation orders no memory
 *                      (relaxed cluster arrive): reported, not WRONG (its
 *                      arrival counts are checked: a short one is WRONG)
 *   [BENCH_CHK_STATE + 32 s + l] collectives: final state of lane l of
 *                      sampled warp s (bench_coll_sample: BENCH_COLL_SAMPLES
 *                      warps of different blocks and warp indices)
 */
#define BENCH_CHK_WRONG 0
#define BENCH_CHK_PHASES 1
#define BENCH_CHK_SUM 2
#define BENCH_CHK_STALE 3
#define BENCH_CHK_STATE 8
#define BENCH_COLL_SAMPLES 4
#define BENCH_CHK_WORDS (BENCH_CHK_STATE + 32 * BENCH_COLL_SAMPLES)

/* The line of a.dbar_lines that a device-barrier kernel's barrier lives on:
 * the runner times every row twice, the sides swapping lines, so neither
 * gains from where its word sits in L2 (measured: up to 4% on an H100). */
#define BENCH_DBAR_LINE(a, is_cgc) ((void *)((a).dbar_lines + 128u * ((is_cgc) ? (a).dbar_swap : 1u - (a).dbar_swap)))

/* A kernel, seen from the host: the address cudaLaunchKernelEx takes. */
typedef const void *(*bench_kernel_fn)(void);

/* Exports `kernel` (a __global__ function or template instance) as `name()`. */
#define BENCH_EXPORT(name, kernel) \
    extern "C" const void *name(void) { return (const void *)(kernel); }
#define BENCH_DECLARE(name) extern "C" const void *name(void);

/*
 * Every kernel of the benchmark. X(name): the getter bench.cu calls.
 * Anchors are a_*, cgc kernels c_*.
 */
#define BENCH_ANCHOR_KERNELS(X)                                                    \
    X(a_syncthreads)          /* __syncthreads()                               */  \
    X(a_cg_block_split)       /* CG thread_block barrier_arrive/barrier_wait   */  \
    X(a_cuda_barrier_split)   /* cuda::barrier<block> arrive + wait            */  \
    X(a_mbarrier_raw)         /* mbarrier.arrive + try_wait loop (the floor)   */  \
    X(a_cg_block_rotating)    /* rotating slow warp, CG arrive/wait            */  \
    X(a_cuda_barrier_rotating)/* rotating slow warp, cuda::barrier<block>      */  \
    X(a_cuda_barrier_compl)   /* cuda::barrier<block, F>, F sums smem (seed 0) */  \
    X(a_cuda_barrier_compl_light) /* cuda::barrier<block, F>, F: counter += 1  */  \
    X(a_cuda_barrier_compl_light_ptr) /* the same, F calls through a fn pointer */ \
    X(a_mbarrier_raw_rotating) /* rotating slow warp on the raw mbarrier (floor) */ \
    X(a_barrier_sync64)       /* barrier.sync id, 64 (non-aligned floor)       */  \
    X(a_cg_cluster_sync)      /* CG cluster.sync()                             */  \
    X(a_cg_cluster_split)     /* CG cluster barrier_arrive/barrier_wait        */  \
    X(a_ptx_cluster_relaxed)  /* barrier.cluster.arrive.relaxed.aligned + wait */  \
    X(a_ptx_cluster_smem)     /* fence.release.sync_restrict + relaxed arrive + wait */ \
    X(a_cg_grid_sync)         /* CG grid.sync(), cooperative launch            */  \
    X(a_cg_grid_split)        /* CG grid barrier_arrive, a.xfers FMAs, barrier_wait */ \
    X(a_cg_grid_split_probe)  /* the same, clock64 around arrive and wait      */  \
    X(a_grid_split_floor)     /* the same loop with no barrier (the floor)     */  \
    X(a_dsmem_pull)           /* map_shared_rank int4 remote reads + cluster.sync */ \
    X(a_copy_plain)           /* global->shared, plain int4 loads              */  \
    X(a_copy_memcpy_async)    /* global->shared, cuda::memcpy_async + barrier  */  \
    X(a_cuda_device_barrier)  /* cuda::barrier<device> arrive + wait, checked  */  \
    X(a_dsmem_pull_db1)       /* double-buffered map_shared_rank pull, 1 msg/sync */ \
    X(a_dsmem_pull_db8)       /* the same, 8 messages per cluster.sync         */  \
    X(a_dsmem_pull_db_ahead1) /* the same, round i + 1 written while round i is read */ \
    X(a_dsmem_pull_db_ahead8) /* the same, 8 messages per cluster.sync         */  \
    X(a_reduce32_i32)         /* cg::reduce, tile 32, int                      */  \
    X(a_reduce32_f32)         /* cg::reduce, tile 32, float                    */  \
    X(a_reduce32_f64)         /* cg::reduce, tile 32, double                   */  \
    X(a_reduce16_i32)         /* cg::reduce, tile 16, int                      */  \
    X(a_reduce16_f32)         /* cg::reduce, tile 16, float                    */  \
    X(a_reduce16_f64)         /* cg::reduce, tile 16, double                   */  \
    X(a_reduce8_i32)          /* cg::reduce, tile 8, int                       */  \
    X(a_reduce8_f32)          /* cg::reduce, tile 8, float                     */  \
    X(a_reduce8_f64)          /* cg::reduce, tile 8, double                    */  \
    X(a_scan32_i32)           /* cg::inclusive_scan, tile 32, int              */  \
    X(a_scan32_f32)           /* cg::inclusive_scan, tile 32, float            */  \
    X(a_scan32_f64)           /* cg::inclusive_scan, tile 32, double           */  \
    X(a_scan16_i32)           /* cg::inclusive_scan, tile 16, int              */  \
    X(a_scan16_f32)           /* cg::inclusive_scan, tile 16, float            */  \
    X(a_scan16_f64)           /* cg::inclusive_scan, tile 16, double           */  \
    X(a_coalesced_reduce)     /* cg::reduce over coalesced_threads() in a branch */ \
    X(a_tile64_sync)          /* thread_block_tile<64>::sync, checked          */  \
    X(a_memcpy_stages2)       /* cg::memcpy_async(block) + wait_prior<1>, 2 stages */ \
    X(a_memcpy_stages3)       /* the same, 3 stages                            */  \
    X(a_memcpy_stages4)       /* the same, 4 stages                            */  \
    X(a_memcpy_stages2_a8)    /* cg::memcpy_async aligned_size_t<8>, 2 stages */  \
    X(a_memcpy_stages3_a8)    /* cg::memcpy_async aligned_size_t<8>, 3 stages */  \
    X(a_memcpy_stages4_a8)    /* cg::memcpy_async aligned_size_t<8>, 4 stages */  \
    X(a_memcpy_stages2_a4)    /* cg::memcpy_async aligned_size_t<4>, 2 stages */  \
    X(a_memcpy_stages3_a4)    /* cg::memcpy_async aligned_size_t<4>, 3 stages */  \
    X(a_memcpy_stages4_a4)    /* cg::memcpy_async aligned_size_t<4>, 4 stages */  \
    X(a_syncthreads_nochk)    /* __syncthreads, no check (the check-cost rows) */  \
    X(a_cg_cluster_sync_nochk)/* CG cluster.sync(), no check (check-cost rows) */  \
    X(a_cg_grid_sync_nochk)   /* CG grid.sync(), no check (check-cost rows)    */  \
    X(a_bar_sync64)           /* bar.sync id, 64: the tile-64 sync's PTX floor */

BENCH_ANCHOR_KERNELS(BENCH_DECLARE)

/* The cgc kernels (cgc_rows.cu). A getter returns NULL when the cgc API the
 * row needs was not in the tree when the benchmark was built; bench_cgc_missing
 * then names what is missing. */
#define BENCH_CGC_KERNELS(X)                                                       \
    X(c_block_sync)           /* cg_thread_block_sync                          */  \
    X(c_block_split)          /* cg_thread_block_barrier_arrive/wait           */  \
    X(c_block_split_prepared) /* the same after cg_thread_block_barrier_prepare */ \
    X(c_barrier_split)        /* cg_barrier_t arrive/wait (C cuda::barrier)    */  \
    X(c_block_rotating)       /* rotating slow warp, cg_thread_block arrive/wait */\
    X(c_barrier_compl)        /* cg_barrier_fn_t, completion fn pointer        */  \
    X(c_barrier_compl_light)  /* cg_barrier_fn_t, fn pointer: counter += 1     */  \
    X(c_barrier_compl_light_with) /* cg_barrier_fn_arrive_with, fn named: inlined */ \
    X(c_barrier_compl_light_elect) /* cg_barrier_fn_t, inline counter += 1     */  \
    X(c_barrier_compl_light_defined) /* CG_BARRIER_FN_DEFINE type + light fn (inlined) */ \
    X(c_fn_elect_probe)       /* cg_barrier_fn_t's election alone (timing)     */  \
    X(c_fn_elect_fence_probe) /* the same with the completer's fence           */  \
    X(c_fn_fixed_completer_probe) /* thread 0 completes on 2 mbarriers (timing) */ \
    X(c_fn_direct_call_probe) /* arrive_with a __noinline__ fn: a direct call */ \
    X(c_cluster_sync)         /* cg_cluster_sync                               */  \
    X(c_cluster_split)        /* cg_cluster_barrier_arrive/wait                */  \
    X(c_cluster_relaxed)      /* cg_cluster_barrier_arrive_relaxed + wait      */  \
    X(c_cluster_smem)         /* cg_cluster_barrier_arrive_smem + wait         */  \
    X(c_grid_sync)            /* cg_grid_sync                                  */  \
    X(c_grid_split)           /* cg_grid_barrier_arrive, a.xfers FMAs, wait     */  \
    X(c_grid_split_probe)     /* the same, clock64 around arrive and wait      */  \
    X(c_dsmem_push)           /* cg_dsmem_push (st.async, whole block)         */  \
    X(c_dsmem_push_bulk)      /* cg_dsmem_push_bulk (one thread, bulk engine)  */  \
    X(c_copy_tma)             /* cg_memcpy_async_tx (one-thread bulk copy)     */  \
    X(c_copy_memcpy_async)    /* cg_memcpy_async(&block, ..., &barrier)        */  \
    X(c_copy_memcpy_async_aligned) /* cg_memcpy_async_aligned(&block, .., 16, &bar) */ \
    X(c_device_barrier)       /* cg_device_barrier_t arrive + wait, checked    */  \
    X(c_dsmem_push_db1)       /* double-buffered st.async push, 1 msg/sync     */  \
    X(c_dsmem_push_db8)       /* the same, 8 messages per synchronization      */  \
    X(p_dsmem_push_after1)    /* info: the phase-A loop, push after reading    */  \
    X(p_dsmem_push_after8)    /* the same, 8 messages per synchronization      */  \
    X(c_reduce32_i32)         /* cg_tile_reduce_i32, tile 32                   */  \
    X(c_reduce32_f32)         /* cg_tile_reduce_f32, tile 32                   */  \
    X(c_reduce32_f64)         /* cg_tile_reduce_f64, tile 32                   */  \
    X(c_reduce16_i32)         /* cg_tile_reduce_i32, tile 16                   */  \
    X(c_reduce16_f32)         /* cg_tile_reduce_f32, tile 16                   */  \
    X(c_reduce16_f64)         /* cg_tile_reduce_f64, tile 16                   */  \
    X(c_reduce8_i32)          /* cg_tile_reduce_i32, tile 8                    */  \
    X(c_reduce8_f32)          /* cg_tile_reduce_f32, tile 8                    */  \
    X(c_reduce8_f64)          /* cg_tile_reduce_f64, tile 8                    */  \
    X(c_scan32_i32)           /* cg_tile_inclusive_scan_i32, tile 32           */  \
    X(c_scan32_f32)           /* cg_tile_inclusive_scan_f32, tile 32           */  \
    X(c_scan32_f64)           /* cg_tile_inclusive_scan_f64, tile 32           */  \
    X(c_scan16_i32)           /* cg_tile_inclusive_scan_i32, tile 16           */  \
    X(c_scan16_f32)           /* cg_tile_inclusive_scan_f32, tile 16           */  \
    X(c_scan16_f64)           /* cg_tile_inclusive_scan_f64, tile 16           */  \
    X(c_coalesced_reduce)     /* cg_coalesced_reduce_i32 in a branch           */  \
    X(c_tile64_sync)          /* cg_wide_tile_sync (CG_HAS_WIDE_TILE)          */  \
    X(c_memcpy_stages2)       /* cg_memcpy_async_aligned(.., 16) + cg_wait_prior, 2 stages */ \
    X(c_memcpy_stages3)       /* the same, 3 stages                            */  \
    X(c_memcpy_stages4)       /* the same, 4 stages                            */  \
    X(c_memcpy_stages2_a8)    /* cg_memcpy_async_aligned(.., 8), 2 stages */  \
    X(c_memcpy_stages3_a8)    /* cg_memcpy_async_aligned(.., 8), 3 stages */  \
    X(c_memcpy_stages4_a8)    /* cg_memcpy_async_aligned(.., 8), 4 stages */  \
    X(c_memcpy_stages2_a4)    /* cg_memcpy_async_aligned(.., 4), 2 stages */  \
    X(c_memcpy_stages3_a4)    /* cg_memcpy_async_aligned(.., 4), 3 stages */  \
    X(c_memcpy_stages4_a4)    /* cg_memcpy_async_aligned(.., 4), 4 stages */  \
    X(c_memcpy_stages3_plain) /* cg_memcpy_async(4 args) + cg_wait_prior, 3 stages */

BENCH_CGC_KERNELS(BENCH_DECLARE)

/* Settings the library considered (designs/*.cu): the library built with one
 * tuning macro changed, in the kernel of the cgc row it competes with. */
#define BENCH_DESIGN_KERNELS(X)                                                    \
    X(d_grid_sync_spread)     /* cg_grid_sync, spread barrier at every size    */  \
    X(d_grid_sync_spread_spin)  /* cg_grid_sync, spread pollers spin (before)  */ \
    X(d_grid_split_spread_spin) /* split grid rows, the same                   */ \
    X(d_grid_split_arrive_eager) /* split grid rows, atom arrive tested at once (before) */ \
    X(d_grid_probe_arrive_eager) /* split grid probe, the same                 */ \
    X(d_dbar_no_done)         /* cg_device_barrier_t, paced, no done token     */ \
    X(d_dbar_spin16_paced)    /* cg_device_barrier_t, 16 polls, then paced      */ \
    X(d_dbar_broken)          /* self-test: waits skipped, must read WRONG     */ \
    X(d_block_broken)         /* self-test: block barrier released one phase early */ \
    X(d_fn_empty_call)        /* cg_barrier_fn_t, read early, empty fn for NULL */ \
    X(d_dbar_poll_all)        /* cg_device_barrier_t, no done token, unpaced  */ \
    X(d_copy_tx_nofence)      /* cg_memcpy_async_tx kernel, no proxy fence    */

BENCH_DESIGN_KERNELS(BENCH_DECLARE)

/* The tensor-TMA row (tensor.cu): the cgc kernel and the same kernel with
 * plain loads; the row's prepare/verify hooks set up the matrix and its map
 * and check both kernels' results (bench.cu's row_t). */
#define BENCH_TENSOR_KERNELS(X)                                                    \
    X(c_tensor_tile_tma)      /* cg_tensor_load_2d, 64x64 u32 tiles, reduced   */  \
    X(a_tensor_tile_plain)    /* the same kernel, plain int4 loads             */

BENCH_TENSOR_KERNELS(BENCH_DECLARE)
extern "C" int bench_tensor_prepare(bench_args_t *a, char *note, size_t n);
extern "C" int bench_tensor_verify(const bench_args_t *a, unsigned grid, char *note, size_t n);

/* The streaming rows (bench/stream.cu): each launch streams >= 1 GiB once;
 * cgc's pipeline at 2/3/4 stages against plain int4 loads and a
 * cuda::pipeline ring of the same depth, and the multicast example's kernel
 * against its twin that loads every tile in every CTA. */
#define BENCH_STREAM_KERNELS(X)                                                    \
    X(c_stream_pipeline2)     /* cg_pipeline_t, 2 stages, TMA producer + 4 consumer warps */ \
    X(c_stream_pipeline3)     /* the same, 3 stages                            */  \
    X(c_stream_pipeline4)     /* the same, 4 stages                            */  \
    X(a_stream_plain)         /* plain int4 loads, 4 in flight per thread      */  \
    X(a_stream_cuda_pipeline2) /* cuda::pipeline<block> ring, 2 stages         */  \
    X(a_stream_cuda_pipeline3) /* the same, 3 stages                           */  \
    X(a_stream_cuda_pipeline4) /* the same, 4 stages                           */  \
    X(c_project_sliced)       /* examples/pipeline_project.cuh, sliced multicast */ \
    X(c_project_multicast)    /* examples/pipeline_project.cuh, one root multicasts */ \
    X(c_project_local)        /* the same kernel, every CTA loads each tile    */  \
    X(c_project_sliced_l2)    /* sliced multicast, L2-resident input (8 MiB read again and again) */ \
    X(c_project_local_l2)     /* its twin: every CTA loads each tile           */  \
    X(d_project_sliced_every_sm) /* design: the sliced kernel, grid of every SM (r1's sizing) */ \
    X(d_project_sliced_every_sm_l2) /* the same, L2-resident input             */  \
    X(d_project_local_every_sm) /* its twin, grid of every SM in clusters too  */  \
    X(d_project_local_every_sm_l2) /* the same, L2-resident input              */  \
    X(d_project_sliced_w8)    /* design: sliced, 8 consumer warps              */  \
    X(d_project_local_w8)     /* its twin, 8 consumer warps                    */  \
    X(d_project_sliced_w8_l2) /* the same, L2-resident input                   */  \
    X(d_project_local_w8_l2)  /* its twin, L2-resident input                   */  \
    X(p_project_timed_sliced) /* probe: sliced, 8 consumer warps, clock64 per step of a stage use */ \
    X(p_project_timed_local)  /* probe: the twin, the same clocks              */  \
    X(p_project_timed_sliced_l2) /* probe: sliced, L2-resident input, clocks   */  \
    X(p_project_timed_local_l2) /* probe: the twin, L2-resident input, clocks  */

BENCH_STREAM_KERNELS(BENCH_DECLARE)

/* What bench_stream_row measured: the median ns of one launch of each
 * kernel, whether any checksum was wrong, a note (TB/s, roofline, bytes per
 * cluster, checksums), or `skip` with the reason in `note`. */
typedef struct bench_stream_result {
    double cgc_ns, anc_ns;
    int wrong;
    const char *skip;
    int cgc_wrong; /* the cgc kernel's own checksum was wrong (the self-test counts only this) */
    char note[480];
} bench_stream_result_t;

/* Measure one streaming row (`cluster` 0 for the stream rows, the cluster
 * size for the multicast rows); returns a cudaError_t. */
extern "C" int bench_stream_row(bench_kernel_fn cgc, bench_kernel_fn anchor, unsigned cluster, int repeats,
                                bench_stream_result_t *out);

/* For a cgc getter that returned NULL: what was missing ("" if nothing). */
extern "C" const char *bench_cgc_missing(bench_kernel_fn getter);

/* 1 when cgc_rows.cu was compiled with CG_DEBUG=1 (not release figures). */
extern "C" int bench_cgc_debug_build(void);

/* Shared memory each DSMEM kernel needs beyond dynamic buffers: none; the
 * DSMEM kernels use 2 * xfer_bytes of dynamic shared memory (send + receive). */
#define BENCH_DSMEM_SMEM(xfer) (2u * (xfer))

/* Device-barrier rows: the largest grid they run (threads), and what their
 * kernels counted since the set-up launch: {wrong values read after a wait,
 * phases thread 0 completed}. Return a cudaError_t. */
#define BENCH_DBAR_MAX_THREADS (132u * 2048u)
extern "C" int bench_dbar_stats_cgc(unsigned long long out[2]);
extern "C" int bench_dbar_stats_anchor(unsigned long long out[2]);
extern "C" int bench_dbar_stats_no_done(unsigned long long out[2]);
extern "C" int bench_dbar_stats_spin16_paced(unsigned long long out[2]);
extern "C" int bench_dbar_stats_poll_all(unsigned long long out[2]);
extern "C" int bench_dbar_stats_broken(unsigned long long out[2]);

/* Split grid probe rows (grid_split.cu): zero the probe's sums in a.acc
 * before the row; after it, print where thread 0's and warp 1's cycles went
 * (arrive, work, wait) on each side into the row's note. */
extern "C" int bench_grid_probe_prepare(bench_args_t *a, char *note, size_t n);
extern "C" int bench_grid_probe_verify(const bench_args_t *a, unsigned grid, char *note, size_t n);

/* Copy rows: fill n int4 of src with bench_src_vec(index) (bench_device.h)
 * on `stream`; returns a cudaError_t. */
extern "C" int bench_fill_src(int4 *src, unsigned long long n, cudaStream_t stream);

/* The self-test's broken variants (bench --self-test; selftest.cu lists
 * them and where each is built): each is its row's own kernel with a defect
 * switch on, which the row's check must report as wrong. Several are broken
 * where the checks before issue 27 did not look (even phases, rounds before
 * the last, warps other than 0, a relaxed wait), so the old checks passed
 * them. */
#define BENCH_SELFTEST_KERNELS(X)                                                  \
    X(d_cluster_broken)       /* cluster sync: even phases read before the barrier */ \
    X(d_cluster_relaxed_broken) /* relaxed cluster barrier: counts read before the wait */ \
    X(d_grid_broken)          /* grid sync: even phases read before the barrier */ \
    X(d_copy_broken)          /* TMA bulk copy: the tile read before its wait  */  \
    X(d_dsmem_push_broken)    /* DSMEM push: each round read before its wait   */  \
    X(d_dsmem_push_db_broken) /* double-buffered DSMEM push: read before full[s] */ \
    X(d_memcpy_stages_broken) /* staged memcpy_async: read before wait_prior   */  \
    X(d_reduce32_broken)      /* tile-32 reduce, off by one outside warp 0     */  \
    X(d_stream_pipeline_broken) /* cg_pipeline_t: stages read before the wait  */  \
    X(d_project_sliced_broken)  /* sliced multicast: stages read before the wait */

BENCH_SELFTEST_KERNELS(BENCH_DECLARE)

#endif /* CGC_BENCH_H */
