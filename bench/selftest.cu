/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/selftest.cu — the self-test's broken variants (bench --self-test).
 * Each is its row's OWN kernel built with a defect switch on (a constant
 * argument or macro that is 0 in the row's kernel), never a copy of it, and
 * each is checked by the row's own check (bench_device.h). The switches
 * leave the rows' kernels as they were: their PTX is the same as before
 * (but for the DSMEM rows' new poison value). A broken row
 * counts as caught only when that check says wrong — the kernel's wrong
 * count, the host's replay of its chains, or the stream rows' checksum —
 * not when it only reported no checks or too few phases (bench.cu); and
 * `bench --self-test` exits 0 only when every one was caught. Most defects
 * sit where the checks before issue 27 did not look, so those checks passed
 * them:
 *
 *   d_cluster_broken          cluster sync, even phases read before the
 *                             barrier (cgc_rows.cu,
 *                             BENCH_CLUSTER_SYNC_KERNEL_D; the old check
 *                             sampled odd phases only)
 *   d_cluster_relaxed_broken  the relaxed row's kernel with its checks
 *                             between the arrive and the wait, as a wait
 *                             that does not wait (here: BENCH_RELAXED_EARLY,
 *                             cgc_kernels.h; the old relaxed rows counted
 *                             every mismatch as a stale read: never WRONG)
 *   d_grid_broken             grid sync, even phases read before the barrier
 *                             (here: BENCH_GRID_SYNC_KERNEL_D, cgc_kernels.h)
 *   d_copy_broken             one-thread TMA copy whose tile is read before
 *                             the mbarrier wait (cgc_rows.cu, copy_tma_kernel)
 *   d_dsmem_push_broken       single-buffer st.async push, each round's
 *                             message read before the wait (cgc_rows.cu,
 *                             dsmem_push_kernel; the old rows sent the same
 *                             data every round and checked it once)
 *   d_dsmem_push_db_broken    the double-buffered push (1 message, the
 *                             phase-A loop), each round read before its
 *                             wait on full[s] (cgc_rows.cu,
 *                             BENCH_DSMEM_PUSH_DB_KERNEL(.., 0, 1))
 *   d_memcpy_stages_broken    group memcpy_async, 2 stages, each stage read
 *                             before cg_wait_prior (cgc_rows.cu,
 *                             BENCH_MEMCPY_STAGES_KERNEL_D)
 *   d_reduce32_broken         tile-32 reduce whose result is off by one in
 *                             every warp but warp 0 (cgc_rows.cu,
 *                             BENCH_COLL_KERNEL_D; the old replay checked
 *                             warp 0 of the first and last blocks only)
 *   d_stream_pipeline_broken  cg_pipeline_t, 2 stages, stages read before
 *                             the wait (stream.cu, bs_stream_pipeline)
 *   d_project_sliced_broken   the sliced multicast kernel, stages read before
 *                             the wait (selftest_project.cu:
 *                             examples/pipeline_project.cuh with
 *                             PJ_READ_BEFORE_WAIT)
 * and, in their own files, the device barrier whose waits are skipped
 * (designs/dbar_broken.cu) and the block barrier released a phase early
 * (designs/block_broken.cu).
 *
 * None of the defects can hang: every barrier is still called as its
 * protocol needs, only the reads move or the result changes.
 */
#define BENCH_RELAXED_EARLY 1
#include "bench/cgc_kernels.h"

// --- relaxed cluster barrier: its checks before the wait (BENCH_RELAXED_EARLY) -------

BENCH_CLUSTER_RELAXED_KERNEL(kd_cluster_relaxed_broken)
BENCH_EXPORT(d_cluster_relaxed_broken, kd_cluster_relaxed_broken)

// --- grid sync: even phases read before the barrier ---------------------------------

BENCH_GRID_SYNC_KERNEL_D(kd_grid_broken, 1)
BENCH_EXPORT(d_grid_broken, kd_grid_broken)
