/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * async/pipeline.h — multi-stage producer/consumer rings in shared memory,
 * each stage guarded by a "full" and an "empty" mbarrier.
 *
 *   stage k:  [ stage_bytes of data ]  full[k]  empty[k]
 *
 * Producers wait until stage k is empty (acquire), start copies that complete
 * their bytes on full[k] (any copy: cg_pipeline_producer_copy, a tensor TMA
 * copy, st.async...), then commit: one mbarrier.arrive.expect_tx on full[k]
 * with the bytes those copies deliver. Consumers wait until full[k] completes,
 * read the stage, and release it: an arrive on empty[k]. Stage k is used again
 * `stages` uses later; the per-thread state (cg_pipeline_t) holds the stage
 * index and the parity of the pass for each side, so a wait names its phase
 * by parity and the ring can run for any number of uses.
 *
 * The common loop (warp-specialized: warp 0 produces, warps 1..W consume):
 *
 *   extern __shared__ __align__(CG_PIPELINE_ALIGN) unsigned char smem[];
 *   cg_pipeline_t p = cg_pipeline_attach(smem, STAGES, STAGE_BYTES);
 *   if (threadIdx.x == 0) cg_pipeline_init_barriers(&p, 1, W);  // 1 commit, W releases per use
 *   __syncthreads();
 *   if (warp == 0) {
 *       if (cg_elect_sync(0xffffffffu))
 *           for (t = 0; t < ntiles; ++t) {
 *               cg_pipeline_producer_acquire(&p);
 *               cg_pipeline_producer_copy(&p, 0, src + t * STAGE_BYTES, STAGE_BYTES);
 *               cg_pipeline_producer_commit(&p, STAGE_BYTES);
 *           }
 *   } else {
 *       for (t = 0; t < ntiles; ++t) {
 *           const float *x = (const float *)cg_pipeline_consumer_wait(&p);
 *           ... read x ...
 *           cg_pipeline_consumer_release_warp(&p);
 *       }
 *   }
 *
 * Counts (arguments of cg_pipeline_init_barriers). full[k] expects
 * `producer_arrivals` commits per use (1 when one elected thread produces);
 * empty[k] expects `consumer_arrivals` releases per use: the number of
 * cg_pipeline_consumer_release calls (threads) or, with
 * cg_pipeline_consumer_release_warp, of consumer warps. The plain-block form
 * (libcu++ cuda::pipeline<thread_scope_block> shape: every thread produces and
 * consumes) passes the block's thread count for both, lets rank 0 start the
 * copies with cg_pipeline_memcpy_async, and every thread calls
 * producer_acquire / producer_commit(0) / consumer_wait / consumer_release.
 *
 * Phases. Every barrier starts in phase 0. A consumer waits for full[k]'s
 * phase of parity 0 on the first pass, 1 on the second, ... A producer waits
 * for empty[k]'s phase of parity 1 on the first pass: the phase "before"
 * phase 0, which an mbarrier reports complete, so every stage starts empty
 * and the first `stages` acquires return at once; then parity 0, 1, ...
 *
 * Memory order. commit is a release at CTA scope and consumer_wait an acquire
 * (the copies' bytes are visible once the phase completes); release is a
 * release, producer_acquire an acquire, followed by fence.proxy.async so that
 * consumers' generic accesses of the stage (reads, and writes if they made
 * any) are ordered before the copy engine overwrites it. The cluster forms
 * (below) acquire at cluster scope, and a consumer's release to another
 * CTA's empty barrier is the shared-memory-restricted proxy release
 * (fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster +
 * a relaxed remote arrive): it orders the consumer's reads and writes of its
 * own CTA's copy of the stage before the multicast that refills it, at
 * cluster scope, without the GPU-wide fence of mbarrier.arrive.release.cluster
 * (docs/design/cross_cta_release.md). It does not cover a consumer's DSMEM
 * accesses to another CTA's stage or its global writes: a consumer that makes
 * such accesses and needs them ordered releases with cg_mbarrier_arrive_remote.
 *
 * Storage. CG_PIPELINE_SMEM_BYTES(stages, stage_bytes) bytes, aligned to
 * CG_PIPELINE_ALIGN, in the user's __shared__ memory: the stage buffers first
 * (stage k at smem + k * stage_bytes), then the full and empty barriers.
 * stage_bytes is a multiple of 16 (bulk copies; a tensor copy with a swizzle
 * wants a stage_bytes multiple of 1024 and a 1024-aligned smem) and at most
 * CG_MBARRIER_MAX_TX (one phase's tx-count). stages: 1 ..
 * CG_PIPELINE_MAX_STAGES.
 *
 * Init: cg_pipeline_attach in every thread (no memory access), then
 * cg_pipeline_init_barriers in ONE thread, then a block barrier
 * (__syncthreads, cg_sync(&block)) before any thread uses the pipeline. The
 * cluster form: cg_pipeline_attach_cluster everywhere, one thread per CTA
 * cg_pipeline_init_barriers_cluster, then a cluster barrier (cg_cluster_sync).
 *
 * Cluster form (sm_90a): one producer CTA (`root`) loads each stage once and
 * multicasts it into the same stage of every CTA named in a mask; each
 * receiving CTA's consumers release the stage with a remote arrive on the
 * root's empty[k]. full[k] in every receiving CTA expects 1 arrival per use:
 * the root's commit is a remote arrive.expect_tx on each receiver's full[k]
 * with the bytes multicast to it. empty[k] in the root expects the releases
 * of all receivers (receiving CTAs x consumer warps or threads per CTA).
 * Before the root's CTA exits every release aimed at it must have landed:
 * its producer calls cg_pipeline_producer_tail (waits for the last `stages`
 * releases), then the cluster synchronizes (cg_cluster_exit_sync) before any
 * CTA exits. Why these counts and phases: docs/design/pipeline.md.
 *
 * Sliced cluster form (sm_90a): the root's single copy stream is the
 * bottleneck of the form above (time grows with the cluster size), so here
 * every CTA of the mask is a producer of a 1/n slice of each stage and
 * multicasts it into every CTA of the mask; each CTA commits the whole stage
 * on its own full[k] and consumers release to every CTA's empty[k]
 * (cg_pipeline_cluster_producer_copy_slice / _commit_local,
 * cg_pipeline_cluster_consumer_release_all[_warp], and
 * cg_pipeline_cluster_consumer_release_all_whole_warp for a caller whose
 * warps are whole; the section below).
 *
 * Debug build (CG_DEBUG=1): every wait is bounded by
 * CG_DEBUG_WAIT_TIMEOUT_NS; on expiry it prints the pipeline's shared
 * address, the side (producer or consumer), the stage, the parity waited for
 * and the barrier, then traps (a commit of more bytes than the copies
 * deliver, a stage nobody fills, a missing release). attach and init check
 * their arguments.
 */
#ifndef CG_ASYNC_PIPELINE_H
#define CG_ASYNC_PIPELINE_H

#include "bulk.h"
#include "../barrier/mbarrier.h"
#include "../base/address.h"
#include "../base/config.h"
#include "../base/fence.h"
#include "../base/sreg.h"

/* Feature test: this tree has async/pipeline.h. */
#define CG_HAS_PIPELINE 1

/* Alignment of the pipeline's shared storage (128: bulk copies need 16, the
 * tensor copies without swizzle 128). */
#define CG_PIPELINE_ALIGN 128u

/* Most stages a pipeline may have (a bound for the debug checks; the real
 * bound is shared memory). */
#define CG_PIPELINE_MAX_STAGES 64u

/* Bytes of shared storage for `stages` stages of `stage_bytes` each: the
 * buffers, then 2 mbarriers (8 bytes each) per stage. A constant expression
 * when its arguments are: usable for a static __shared__ array or for the
 * dynamic shared memory size on the host. */
#define CG_PIPELINE_SMEM_BYTES(stages, stage_bytes) \
    ((size_t)(stages) * (size_t)(stage_bytes) + (size_t)(stages) * 16u)

/* The per-thread pipeline state: where the ring lives, and for each side the
 * stage it is at and the parity of its pass over the ring. Each thread keeps
 * its own copy (a local variable); the calls update it. A thread that only
 * produces uses the head fields, one that only consumes the tail fields. */
typedef struct cg_pipeline {
    unsigned char *buf;   /* stage 0 (generic address of shared memory) */
    uint32_t stages;      /* stages in the ring */
    uint32_t stage_bytes; /* bytes per stage */
    uint32_t head;        /* producer: stage of the next acquire */
    uint32_t head_phase;  /* producer: parity of the pass (0 on the first) */
    uint32_t tail;        /* consumer: stage of the next wait */
    uint32_t tail_phase;  /* consumer: parity of the pass */
    uint32_t root;        /* cluster form: rank of the producer CTA (0 otherwise) */
} cg_pipeline_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------ */
/* Layout                                                                     */
/* ------------------------------------------------------------------------ */

/* The data of stage k (0 .. stages-1). */
CG_DEVICE void *cg_pipeline_stage(const cg_pipeline_t *p, uint32_t k)
{
    return p->buf + (size_t)k * p->stage_bytes;
}

/* full[k]: completes when stage k holds data (commits + copy bytes). */
CG_DEVICE cg_mbarrier_t *cg_pipeline_full_barrier(const cg_pipeline_t *p, uint32_t k)
{
    return (cg_mbarrier_t *)(p->buf + (size_t)p->stages * p->stage_bytes) + k;
}

/* empty[k]: completes when every consumer has released stage k. */
CG_DEVICE cg_mbarrier_t *cg_pipeline_empty_barrier(const cg_pipeline_t *p, uint32_t k)
{
    return (cg_mbarrier_t *)(p->buf + (size_t)p->stages * p->stage_bytes) + p->stages + k;
}

/* The stage the producer side is at (acquired, not yet committed). */
CG_DEVICE uint32_t cg_pipeline_producer_index(const cg_pipeline_t *p) { return p->head; }

/* The stage the consumer side is at (waited for, not yet released). */
CG_DEVICE uint32_t cg_pipeline_consumer_index(const cg_pipeline_t *p) { return p->tail; }

/* The barrier the producer's copies into the current stage complete on:
 * full[head]. Hand it to any copy that completes tx bytes (a tensor copy). */
CG_DEVICE cg_mbarrier_t *cg_pipeline_producer_barrier(const cg_pipeline_t *p)
{
    return cg_pipeline_full_barrier(p, p->head);
}

/* ------------------------------------------------------------------------ */
/* Debug checks and bounded waits                                             */
/* ------------------------------------------------------------------------ */

#if CG_DEBUG
CG_REPORT_ void cg_pipeline_report_args_(const char *what, const void *smem, uint32_t stages, uint32_t stage_bytes)
{
    printf("cgc: %s(smem %p, %u stages, %u bytes a stage): needs storage in shared memory, %u-byte aligned "
           "(CG_PIPELINE_ALIGN), 1..%u stages and a stage size that is a nonzero multiple of 16 below 2^20%s "
           "(block %d,%d,%d thread %d,%d,%d)\n",
           what, smem, stages, stage_bytes, CG_PIPELINE_ALIGN, CG_PIPELINE_MAX_STAGES,
           __isShared(smem) ? "" : ": this pointer is not shared memory", blockIdx.x, blockIdx.y, blockIdx.z,
           threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}

CG_DEVICE void cg_pipeline_check_(const char *what, const void *smem, uint32_t stages, uint32_t stage_bytes)
{
    if (CG_UNLIKELY_(!__isShared(smem) || ((uintptr_t)smem & (CG_PIPELINE_ALIGN - 1u)) != 0 || stages == 0 ||
                     stages > CG_PIPELINE_MAX_STAGES || stage_bytes == 0 || (stage_bytes & 15u) != 0 ||
                     stage_bytes > CG_MBARRIER_MAX_TX))
        cg_pipeline_report_args_(what, smem, stages, stage_bytes);
}

/* A pipeline wait that outlived CG_DEBUG_WAIT_TIMEOUT_NS: name the pipeline,
 * the side, the stage and the parity, then trap. Out of line (CG_REPORT_). */
CG_REPORT_ void cg_pipeline_report_deadlock_(const char *what, uint32_t buf_addr, uint32_t stages,
                                             uint32_t stage_bytes, const char *barrier_name, uint32_t stage,
                                             uint32_t parity, uint32_t mb_addr)
{
    printf("cgc: %s: deadlock: pipeline at shared 0x%x (%u stages of %u bytes), stage %u: waited %llu ns for "
           "the phase of parity %u of its %s barrier (mbarrier at shared 0x%x, now in a phase of parity %u) "
           "(block %d,%d,%d thread %d,%d,%d)\n",
           what, buf_addr, stages, stage_bytes, stage, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS,
           parity, barrier_name, mb_addr, cg_mbarrier_current_parity((cg_mbarrier_t *)cg_smem_generic(mb_addr)),
           blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
/* A producer copy outside its stage or misaligned. */
CG_REPORT_ void cg_pipeline_report_copy_(const char *what, uint32_t offset, const void *src, uint32_t bytes,
                                         uint32_t stage_bytes)
{
    printf("cgc: %s(offset %u, src %p, %u bytes): needs 16-byte alignment and offset + bytes <= the stage size %u "
           "(block %d thread %d)\n",
           what, offset, src, bytes, stage_bytes, blockIdx.x, threadIdx.x);
    __trap();
}
#define CG_PIPELINE_CHECK_(what, smem, stages, bytes) cg_pipeline_check_((what), (smem), (stages), (bytes))
/* Spin on `try_expr`; past the bound, report the pipeline and trap. The
 * report's arguments are computed only on that path. */
#define CG_PIPELINE_SPIN_(try_expr, what, p, name, stage, parity, mb)                                  \
    do {                                                                                               \
        const uint32_t cg_t0_ = cg_debug_timer_start_();                                               \
        while (!(try_expr)) {                                                                          \
            if (CG_UNLIKELY_(cg_debug_timer_expired_(cg_t0_)))                                         \
                cg_pipeline_report_deadlock_((what), cg_smem_addr((p)->buf), (p)->stages,              \
                                             (p)->stage_bytes, (name), (stage), (parity),              \
                                             cg_smem_addr(mb));                                        \
        }                                                                                              \
    } while (0)
#else
#define CG_PIPELINE_CHECK_(what, smem, stages, bytes) ((void)0)
/* Release build: the bare try_wait loop. */
#define CG_PIPELINE_SPIN_(try_expr, what, p, name, stage, parity, mb)                                  \
    do {                                                                                               \
        while (!(try_expr)) {                                                                          \
        }                                                                                              \
    } while (0)
#endif

/* Step one side of the ring: next stage, and the parity flips on wrap. */
CG_DEVICE void cg_pipeline_advance_(uint32_t *index, uint32_t *phase, uint32_t stages)
{
    if (++*index == stages) {
        *index = 0;
        *phase ^= 1u;
    }
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                      */
/* ------------------------------------------------------------------------ */

/* Every thread that uses the pipeline: the state for `stages` stages of
 * `stage_bytes` at `smem` (CG_PIPELINE_SMEM_BYTES bytes of __shared__
 * memory, CG_PIPELINE_ALIGN aligned). Touches no memory. A debug build traps
 * on storage that is not shared memory or not 128-byte aligned, and on
 * stages or a stage size out of range. */
CG_DEVICE cg_pipeline_t cg_pipeline_attach(void *smem, uint32_t stages, uint32_t stage_bytes)
{
    CG_PIPELINE_CHECK_("cg_pipeline_attach", smem, stages, stage_bytes);
    cg_pipeline_t p;
    p.buf = (unsigned char *)smem;
    p.stages = stages;
    p.stage_bytes = stage_bytes;
    p.head = 0;
    p.head_phase = 0;
    p.tail = 0;
    p.tail_phase = 0;
    p.root = 0;
    return p;
}

/* ONE thread of the block: initialize the 2 x stages barriers: full[k]
 * expects `producer_arrivals` commits per use, empty[k] `consumer_arrivals`
 * releases per use (each 1 .. 2^20-1). Then a block barrier before use. */
CG_DEVICE void cg_pipeline_init_barriers(const cg_pipeline_t *p, uint32_t producer_arrivals,
                                         uint32_t consumer_arrivals)
{
    for (uint32_t k = 0; k < p->stages; ++k) {
        cg_mbarrier_init(cg_pipeline_full_barrier(p, k), producer_arrivals);
        cg_mbarrier_init(cg_pipeline_empty_barrier(p, k), consumer_arrivals);
    }
}

/* ------------------------------------------------------------------------ */
/* Producer side (this CTA)                                                   */
/* ------------------------------------------------------------------------ */

/* Wait until stage `head` is empty (every consumer released its last use;
 * returns at once on the first pass), then order the consumers' accesses
 * before the copy engine's writes. Returns the stage's data.
 * Loop of mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 on empty[head],
 * then fence.proxy.async.shared::cta. */
CG_DEVICE_SM90 void *cg_pipeline_producer_acquire(cg_pipeline_t *p)
{
    cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->head);
    const uint32_t parity = p->head_phase ^ 1u;
    CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity(mb, parity), "cg_pipeline_producer_acquire", p, "empty",
                      p->head, parity, mb);
    cg_fence_proxy_async_smem();
    return cg_pipeline_stage(p, p->head);
}

/* One thread: bulk-copy `bytes` from global `src` into the current stage at
 * byte `offset`, completing `bytes` on full[head]. The commit must count
 * them. 16-byte aligned src and offset, bytes a multiple of 16, offset +
 * bytes <= stage_bytes. sm_90.
 * cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes. */
CG_DEVICE_SM90 void cg_pipeline_producer_copy(cg_pipeline_t *p, uint32_t offset, const void *src, uint32_t bytes)
{
#if CG_DEBUG
    if (CG_UNLIKELY_(((offset | bytes | (uint32_t)(uintptr_t)src) & 15u) != 0 || offset + bytes > p->stage_bytes))
        cg_pipeline_report_copy_("cg_pipeline_producer_copy", offset, src, bytes, p->stage_bytes);
#endif
    cg_bulk_copy_g2s(cg_smem_addr(p->buf) + p->head * p->stage_bytes + offset, src, bytes,
                     cg_smem_addr(cg_pipeline_full_barrier(p, p->head)));
}

/* The plain-block form's group copy (libcu++ cuda::memcpy_async(group, dst,
 * src, n, pipe)): every thread of the group calls it with the same
 * arguments; `rank` 0 raises full[head]'s expected bytes by `bytes` and
 * starts one bulk copy into the current stage at `offset`; the others do
 * nothing. Then every thread commits with 0 bytes. Same alignment as
 * cg_pipeline_producer_copy. Emits (rank 0) mbarrier.expect_tx.relaxed.cta
 * then the bulk copy; the expect comes first so the tx-count never drops
 * below zero, and rank 0's own commit still holds the phase open. */
CG_DEVICE_SM90 void cg_pipeline_memcpy_async(cg_pipeline_t *p, uint32_t rank, uint32_t offset, const void *src,
                                        uint32_t bytes)
{
    if (rank == 0) {
        cg_mbarrier_expect_tx(cg_pipeline_full_barrier(p, p->head), bytes);
        cg_pipeline_producer_copy(p, offset, src, bytes);
    }
}

/* Commit the current stage: one arrival on full[head] that also expects
 * `tx_bytes` more bytes (the bytes this thread's copies into the stage
 * deliver and nobody else counted; 0 .. 2^20-1), then step to the next stage.
 * Start the stage's copies BEFORE its commit: the commit moves the head on,
 * so after it cg_pipeline_producer_copy and cg_pipeline_producer_barrier
 * name the NEXT stage. (A copy issued by another thread, which keeps its own
 * head, may still land after this commit: the phase completes only when
 * every commit has arrived and every counted byte has landed.)
 * mbarrier.arrive.expect_tx.release.cta.shared::cta.b64. */
CG_DEVICE_SM90 void cg_pipeline_producer_commit(cg_pipeline_t *p, uint32_t tx_bytes)
{
    (void)cg_mbarrier_arrive_tx(cg_pipeline_full_barrier(p, p->head), tx_bytes);
    cg_pipeline_advance_(&p->head, &p->head_phase, p->stages);
}

/* Producer, after its last commit: wait until consumers have released every
 * stage (the last `stages` uses), so no release can still be on its way to
 * this CTA's barriers. Leaves the state `stages` uses further on. */
CG_DEVICE void cg_pipeline_producer_tail(cg_pipeline_t *p)
{
    for (uint32_t i = 0; i < p->stages; ++i) {
        cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->head);
        const uint32_t parity = p->head_phase ^ 1u;
        CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity(mb, parity), "cg_pipeline_producer_tail", p, "empty",
                          p->head, parity, mb);
        cg_pipeline_advance_(&p->head, &p->head_phase, p->stages);
    }
}

/* ------------------------------------------------------------------------ */
/* Consumer side (this CTA)                                                   */
/* ------------------------------------------------------------------------ */

/* Wait until stage `tail` is full (its commits and its bytes have arrived);
 * acquire at CTA scope: the copies' data is visible. Returns the data.
 * Loop of mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 on full[tail]. */
CG_DEVICE const void *cg_pipeline_consumer_wait(cg_pipeline_t *p)
{
    cg_mbarrier_t *mb = cg_pipeline_full_barrier(p, p->tail);
    CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity(mb, p->tail_phase), "cg_pipeline_consumer_wait", p, "full",
                      p->tail, p->tail_phase, mb);
    return cg_pipeline_stage(p, p->tail);
}

/* This thread is done with stage `tail`: one arrival on empty[tail] (release
 * at CTA scope), then step to the next stage. empty counts threads.
 * mbarrier.arrive.release.cta.shared::cta.b64. */
CG_DEVICE void cg_pipeline_consumer_release(cg_pipeline_t *p)
{
    (void)cg_mbarrier_arrive(cg_pipeline_empty_barrier(p, p->tail));
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

/* The lanes of the calling thread's warp that EXIST: all 32, or the lanes
 * of the partial last warp of a block whose size is not a multiple of 32
 * (warps are formed from the linear thread index). From the block's shape,
 * not from __activemask(): that names the lanes executing together at this
 * instant, and after divergence (a data-dependent branch, a sleep) a warp
 * reaches the call in several groups; each would elect a leader and the
 * warp would arrive more than once (seen on an H200: the pipeline test's
 * randomly delayed consumers ended in a launch failure). */
CG_DEVICE uint32_t cg_pipeline_warp_lanes_(void)
{
    const uint32_t n = blockDim.x * blockDim.y * blockDim.z;
    const uint32_t tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const uint32_t left = n - (tid & ~31u);
    return left >= 32u ? 0xffffffffu : (1u << left) - 1u;
}

/* Whether every warp of the block is whole: its size is a multiple of 32.
 * From blockDim alone, so the compiler knows the answer is the same in every
 * lane: a branch on it is uniform, has no reconvergence point, and lets a
 * whole warp's release run without the lane test of cg_pipeline_warp_lanes_
 * (measured: that test in the consumer loop cost the sliced multicast kernel
 * 5-8%, docs/design/cross_cta_release.md). */
CG_DEVICE bool cg_pipeline_block_warps_whole_(void)
{
    return ((blockDim.x * blockDim.y * blockDim.z) & 31u) == 0u;
}

/* __syncwarp over the lanes of the calling thread's warp that exist. */
CG_DEVICE void cg_pipeline_syncwarp_lanes_(void)
{
    if (cg_pipeline_block_warps_whole_())
        __syncwarp();
    else
        __syncwarp(cg_pipeline_warp_lanes_());
}

/* The warp is done with stage `tail`. Called by every lane of the warp that
 * exists (a whole warp, or the partial last warp of a block whose size is
 * not a multiple of 32), in any order and after any divergence; they count
 * as one warp. A subset of a warp (the lanes of a branch) uses the
 * per-thread cg_pipeline_consumer_release instead. __syncwarp over those
 * lanes orders every lane's reads before lane 0's one arrival on
 * empty[tail]; every lane steps on. empty counts warps. bar.warp.sync, then
 * (lane 0) mbarrier.arrive.release.cta.shared::cta.b64. */
CG_DEVICE void cg_pipeline_consumer_release_warp(cg_pipeline_t *p)
{
    cg_pipeline_syncwarp_lanes_();
    if (cg_sreg_laneid() == 0)
        (void)cg_mbarrier_arrive(cg_pipeline_empty_barrier(p, p->tail));
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

/* ------------------------------------------------------------------------ */
/* Cluster form: one producer CTA multicasts each stage (sm_90a)             */
/* ------------------------------------------------------------------------ */

/* As cg_pipeline_attach, for a pipeline that spans the cluster: the same
 * layout at the same offset in every CTA, produced by CTA `root`. */
CG_DEVICE cg_pipeline_t cg_pipeline_attach_cluster(void *smem, uint32_t stages, uint32_t stage_bytes,
                                                   uint32_t root)
{
    cg_pipeline_t p = cg_pipeline_attach(smem, stages, stage_bytes);
    p.root = root;
    return p;
}

/* ONE thread of EVERY CTA of the cluster: full[k] expects 1 arrival per use
 * (the root's remote commit), empty[k] `consumer_arrivals` (meaningful in the
 * root: the releases of all receiving CTAs per use). Then makes the
 * initialization visible to the cluster (fence.mbarrier_init.release.cluster);
 * a cluster barrier (cg_cluster_sync) must follow before any use. */
CG_DEVICE_SM90 void cg_pipeline_init_barriers_cluster(const cg_pipeline_t *p, uint32_t consumer_arrivals)
{
    cg_pipeline_init_barriers(p, 1u, consumer_arrivals);
    cg_mbarrier_init_fence_cluster();
}

/* Root's producer: wait until every receiving CTA released stage `head`;
 * acquire at cluster scope, then the proxy fence. Returns this CTA's copy of
 * the stage. Loop of mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64
 * on empty[head], then fence.proxy.async.shared::cta. */
CG_DEVICE_SM90 void *cg_pipeline_cluster_producer_acquire(cg_pipeline_t *p)
{
    cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->head);
    const uint32_t parity = p->head_phase ^ 1u;
    CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity_cluster(mb, parity), "cg_pipeline_cluster_producer_acquire", p,
                      "empty", p->head, parity, mb);
    cg_fence_proxy_async_smem();
    return cg_pipeline_stage(p, p->head);
}

/* Root's producer, one thread: multicast `bytes` of global `src` into the
 * current stage at `offset` of every CTA whose bit is set in `cta_mask`
 * (bit i = cluster rank i); each completes `bytes` on its own full[head].
 * Alignment as cg_pipeline_producer_copy. sm_90a.
 * cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster. */
CG_DEVICE void cg_pipeline_cluster_producer_copy(cg_pipeline_t *p, uint32_t offset, const void *src,
                                                 uint32_t bytes, uint16_t cta_mask)
{
#if CG_DEBUG
    if (CG_UNLIKELY_(((offset | bytes | (uint32_t)(uintptr_t)src) & 15u) != 0 || offset + bytes > p->stage_bytes))
        cg_pipeline_report_copy_("cg_pipeline_cluster_producer_copy", offset, src, bytes, p->stage_bytes);
#endif
    cg_bulk_copy_g2s_multicast(cg_smem_addr(p->buf) + p->head * p->stage_bytes + offset, src, bytes,
                               cg_smem_addr(cg_pipeline_full_barrier(p, p->head)), cta_mask);
}

/* Root's producer: commit the current stage in every CTA of `cta_mask`: one
 * remote arrive.expect_tx of `tx_bytes` (the bytes multicast to EACH CTA) on
 * each one's full[head], then step on. Safe to aim at a receiver's barrier
 * now: the acquire saw its consumers' releases, which they made after its
 * full[head] had completed the previous use, so the arrival lands in the
 * phase of this use.
 * mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, per CTA. */
CG_DEVICE_SM90 void cg_pipeline_cluster_producer_commit(cg_pipeline_t *p, uint32_t tx_bytes, uint16_t cta_mask)
{
    cg_mbarrier_t *mb = cg_pipeline_full_barrier(p, p->head);
    for (uint32_t m = cta_mask; m != 0; m &= m - 1u)
        cg_mbarrier_arrive_tx_remote(mb, (uint32_t)__ffs((int)m) - 1u, tx_bytes);
    cg_pipeline_advance_(&p->head, &p->head_phase, p->stages);
}

/* Root's producer after its last commit: as cg_pipeline_producer_tail, with
 * cluster-scope acquires (the releases come from other CTAs). */
CG_DEVICE_SM90 void cg_pipeline_cluster_producer_tail(cg_pipeline_t *p)
{
    for (uint32_t i = 0; i < p->stages; ++i) {
        cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->head);
        const uint32_t parity = p->head_phase ^ 1u;
        CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity_cluster(mb, parity), "cg_pipeline_cluster_producer_tail", p,
                          "empty", p->head, parity, mb);
        cg_pipeline_advance_(&p->head, &p->head_phase, p->stages);
    }
}

/* A receiving CTA's consumer: wait until this CTA's stage `tail` is full;
 * acquire at cluster scope (the arrival and the bytes came from the root).
 * Loop of mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64. */
CG_DEVICE_SM90 const void *cg_pipeline_cluster_consumer_wait(cg_pipeline_t *p)
{
    cg_mbarrier_t *mb = cg_pipeline_full_barrier(p, p->tail);
    CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity_cluster(mb, p->tail_phase), "cg_pipeline_cluster_consumer_wait",
                      p, "full", p->tail, p->tail_phase, mb);
    return cg_pipeline_stage(p, p->tail);
}

/* A receiving CTA's consumer thread is done with stage `tail` (its accesses
 * to this CTA's copy of the stage): one remote arrival on the root's
 * empty[tail] that releases them at cluster scope to the root's multicast
 * (an async-proxy writer), then step on. No GPU-wide fence: the release is
 * restricted to this CTA's shared memory (barrier/mbarrier.h,
 * cg_mbarrier_release_smem_remote_async).
 * fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _. */
CG_DEVICE_SM90 void cg_pipeline_cluster_consumer_release(cg_pipeline_t *p)
{
    cg_mbarrier_release_smem_remote_async(cg_pipeline_empty_barrier(p, p->tail), p->root);
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

/* The warp is done with stage `tail`: every lane of the warp that exists
 * calls it (as cg_pipeline_consumer_release_warp: a whole warp or the
 * partial last warp of a block, after any divergence; a branch's subset
 * uses the per-thread form). __syncwarp over those lanes (so lane 0's
 * release covers every lane's reads, by cumulativity), then lane 0 arrives
 * remotely on the root's empty[tail] with the shared-memory-restricted
 * proxy release (predicated, no branch); every lane steps on. empty counts
 * warps.
 * bar.warp.sync; fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
 * @p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _. */
CG_DEVICE_SM90 void cg_pipeline_cluster_consumer_release_warp(cg_pipeline_t *p)
{
    cg_pipeline_syncwarp_lanes_();
    cg_mbarrier_release_smem_remote_async_if(cg_pipeline_empty_barrier(p, p->tail), p->root,
                                             cg_sreg_laneid() == 0);
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

/* ------------------------------------------------------------------------ */
/* Sliced cluster form: every CTA loads a slice of each stage (sm_90a)       */
/* ------------------------------------------------------------------------ */
/*
 * Every CTA of `cta_mask` produces 1/n of each stage (n = the CTAs in the
 * mask) and multicasts its slice into the same stage of every CTA of the
 * mask, so the load issue work and the global reads are spread over the
 * cluster instead of queued behind one root. Per CTA of the mask:
 *   full[k]:  1 arrival per use, its OWN producer's local commit
 *             (cg_pipeline_cluster_producer_commit_local(&p, stage_bytes):
 *             the whole stage's bytes, which all n slices complete);
 *   empty[k]: the releases of ALL the mask's consumers (n x consumer warps
 *             or threads per CTA), since this CTA's producer overwrites its
 *             slice in every CTA: cg_pipeline_init_barriers_cluster(&p,
 *             n * consumers per CTA).
 * Producer loop (one elected thread per CTA):
 *   cg_pipeline_cluster_producer_acquire(&p);          // own empty[k], .cluster
 *   cg_pipeline_cluster_producer_copy_slice(&p, src, mask);
 *   cg_pipeline_cluster_producer_commit_local(&p, stage_bytes);
 * then cg_pipeline_cluster_producer_tail after the last use. Consumers:
 * cg_pipeline_cluster_consumer_wait, then
 * cg_pipeline_cluster_consumer_release_all_warp(&p, mask) (or the per-thread
 * cg_pipeline_cluster_consumer_release_all; or, when every warp of the block
 * is whole, cg_pipeline_cluster_consumer_release_all_whole_warp, which skips
 * the general form's test of the block's shape: use it whenever the block's
 * size is a multiple of 32; the general form's test cost the sliced kernel
 * up to 18% on an H200, docs/design/pipeline.md). A peer's slice may land before
 * this CTA's own commit (the tx-count goes negative; the pending arrival keeps
 * the phase open), never in the wrong phase: docs/design/pipeline.md.
 */

/* Slice `i` of `n` of a stage of `stage_bytes`: slices of
 * ceil(stage_bytes / n) rounded up to 16 bytes, the last ones shorter or
 * empty. Sets *offset, returns the slice's bytes (0 for an empty one). */
CG_DEVICE uint32_t cg_pipeline_slice_(uint32_t stage_bytes, uint32_t i, uint32_t n, uint32_t *offset)
{
    const uint32_t per = ((stage_bytes + n - 1u) / n + 15u) & ~15u;
    const uint32_t lo = i * per < stage_bytes ? i * per : stage_bytes;
    const uint32_t hi = lo + per < stage_bytes ? lo + per : stage_bytes;
    *offset = lo;
    return hi - lo;
}

/* The slice of each stage that cluster rank `rank` loads in a sliced
 * pipeline over `cta_mask` (rank in the mask): the rank's position among the
 * mask's CTAs picks one of popcount(cta_mask) slices (see
 * cg_pipeline_slice_). Sets *offset (bytes into the stage), returns the
 * slice's bytes (a multiple of 16, 0 when the stage has fewer 16-byte
 * pieces than CTAs). */
CG_DEVICE uint32_t cg_pipeline_cluster_slice(const cg_pipeline_t *p, uint16_t cta_mask, uint32_t rank,
                                             uint32_t *offset)
{
    const uint32_t m = cta_mask;
    const uint32_t i = (uint32_t)__popc(m & ((1u << rank) - 1u));
    return cg_pipeline_slice_(p->stage_bytes, i, (uint32_t)__popc(m), offset);
}

/* This CTA's producer, one thread, after cg_pipeline_cluster_producer_acquire:
 * multicast this CTA's slice of the current stage (cg_pipeline_cluster_slice
 * of its cluster rank) from `src` + offset into the same place of every CTA
 * of `cta_mask` (this CTA included when its bit is set); each completes the
 * slice's bytes on its own full[head]. `src`: the global address of the
 * WHOLE stage's data, 16-byte aligned. Issues nothing for an empty slice.
 * cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster. */
CG_DEVICE_SM90 void cg_pipeline_cluster_producer_copy_slice(cg_pipeline_t *p, const void *src, uint16_t cta_mask)
{
    uint32_t offset = 0;
    const uint32_t bytes = cg_pipeline_cluster_slice(p, cta_mask, cg_hw_cluster_ctarank(), &offset);
    if (bytes != 0)
        cg_pipeline_cluster_producer_copy(p, offset, (const unsigned char *)src + offset, bytes, cta_mask);
}

/* This CTA's producer: commit the current stage in THIS CTA only: one local
 * arrive.expect_tx of `tx_bytes` on full[head] (the whole stage: every
 * producer's slice completes on it), then step on. Release at CTA scope: the
 * consumers it releases are this CTA's (the peers' bytes need no release:
 * complete_tx makes them visible to whoever observes the phase).
 * mbarrier.arrive.expect_tx.release.cta.shared::cta.b64. */
CG_DEVICE_SM90 void cg_pipeline_cluster_producer_commit_local(cg_pipeline_t *p, uint32_t tx_bytes)
{
    (void)cg_mbarrier_arrive_tx(cg_pipeline_full_barrier(p, p->head), tx_bytes);
    cg_pipeline_advance_(&p->head, &p->head_phase, p->stages);
}

/* A consumer thread is done with stage `tail`: one remote arrival on
 * empty[tail] of EVERY CTA of `cta_mask`, releasing this thread's accesses
 * to this CTA's copy of the stage at cluster scope to their multicasts, step
 * on. empty counts threads x CTAs. One fence, then one arrive per CTA.
 * fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, per CTA. */
CG_DEVICE_SM90 void cg_pipeline_cluster_consumer_release_all(cg_pipeline_t *p, uint16_t cta_mask)
{
    cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->tail);
    cg_fence_proxy_async_release_smem_cluster();
    for (uint32_t m = cta_mask; m != 0; m &= m - 1u)
        cg_mbarrier_arrive_remote_relaxed(mb, (uint32_t)__ffs((int)m) - 1u);
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

/* The two forms of cg_pipeline_cluster_consumer_release_all_warp's release
 * of empty barrier `mb`, by the caller's lane `me` (the benchmark's design
 * rows time them apart). */
/* A whole warp: one predicated arrive, lane i for CTA i, no loop. */
CG_DEVICE_SM90 void cg_pipeline_release_all_whole_warp_(cg_mbarrier_t *mb, uint16_t cta_mask, uint32_t me)
{
    const uint32_t mine = me < 16u ? ((uint32_t)cta_mask >> me) & 1u : 0u;
    __syncwarp();
    /* a lane that does not arrive still names a valid rank (the debug check) */
    cg_mbarrier_release_smem_remote_async_if(mb, mine ? me : 0u, mine);
}
/* The lanes of the warp that exist (any count): lane k of them arrives for
 * CTA ranks k, k + a, k + 2a, ... */
CG_DEVICE_SM90 void cg_pipeline_release_all_lanes_(cg_mbarrier_t *mb, uint16_t cta_mask, uint32_t me)
{
    const uint32_t lanes = cg_pipeline_warp_lanes_();
    const uint32_t nactive = (uint32_t)__popc((int)lanes);
    __syncwarp(lanes);
    cg_fence_proxy_async_release_smem_cluster();
    for (uint32_t rank = me; rank < 16u; rank += nactive) {
        const uint32_t mine = ((uint32_t)cta_mask >> rank) & 1u;
        cg_mbarrier_arrive_remote_relaxed_if(mb, mine ? rank : 0u, mine);
    }
}

/* The warp is done with stage `tail`: every lane of the warp that exists
 * calls it (a whole warp, or the partial last warp of a block whose size is
 * not a multiple of 32, after any divergence; a branch's subset uses
 * cg_pipeline_cluster_consumer_release_all); together they make ONE remote
 * arrival on empty[tail] of every CTA of `cta_mask`, and every lane steps
 * on. empty counts warps x CTAs. __syncwarp over those lanes orders
 * every lane's reads first; each lane then issues the shared::cta-restricted
 * proxy release fence (cumulativity carries the other lanes' reads through
 * the __syncwarp), and lane k of the a lanes that exist arrives, relaxed,
 * for CTA ranks k, k + a, k + 2a, ... below 16 whose
 * bit is set: a full warp makes ONE predicated instruction with a per-lane
 * target (lane i, CTA i), a warp of 4 lanes four. (A lane count below the
 * mask's highest rank left those CTAs without the warp's arrival before:
 * their producers waited forever.)
 * bar.warp.sync; fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
 * @p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _ (per rank). */
CG_DEVICE_SM90 void cg_pipeline_cluster_consumer_release_all_warp(cg_pipeline_t *p, uint16_t cta_mask)
{
    const uint32_t me = cg_sreg_laneid();
    cg_mbarrier_t *mb = cg_pipeline_empty_barrier(p, p->tail);
    /* Whole warps: a branch the compiler knows is uniform. A block with a
     * partial last warp: every warp takes the general form (a whole warp's
     * lanes 0..15 make one arrival each). */
    if (cg_pipeline_block_warps_whole_())
        cg_pipeline_release_all_whole_warp_(mb, cta_mask, me);
    else
        cg_pipeline_release_all_lanes_(mb, cta_mask, me);
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

#if CG_DEBUG
/* cg_pipeline_cluster_consumer_release_all_whole_warp in a block with a
 * partial warp: out of its contract (the missing lanes' CTAs would never get
 * the warp's arrival, and their producers would wait forever). */
CG_REPORT_ void cg_pipeline_report_partial_warp_(const char *what)
{
    printf("cgc: %s: misuse: the caller declares whole warps, but the block has %u threads, not a multiple of 32: "
           "its last warp is partial; use cg_pipeline_cluster_consumer_release_all_warp there "
           "(block %d,%d,%d thread %d,%d,%d)\n",
           what, (unsigned)(blockDim.x * blockDim.y * blockDim.z), blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x,
           threadIdx.y, threadIdx.z);
    __trap();
}
#endif

/* The caller declares that a WHOLE warp is done with stage `tail`: all 32
 * lanes exist and call it (in any order, after any divergence: it starts
 * with __syncwarp over all 32). Together they make ONE remote arrival on
 * empty[tail] of every CTA of `cta_mask`: lane i arrives for cluster rank i
 * (one predicated instruction, no loop, no branch); every lane steps on.
 * empty counts warps x CTAs, as for cg_pipeline_cluster_consumer_release_all_warp.
 * Memory order as that call: __syncwarp orders every lane's reads of this
 * CTA's copy of the stage before the fence; each lane's
 * fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster
 * releases them at cluster scope to the producers' multicasts (async proxy).
 * Why a separate call: the general form must find out at run time whether
 * the caller's warp is whole (the block's size), and that test cost the
 * sliced multicast kernel 5-20% in its consumer loop
 * (docs/design/cross_cta_release.md); a caller that knows its warps are
 * whole says so here and pays nothing for partial warps.
 * Limits: whole warps only: a block whose size is not a multiple of 32 is
 * out of contract (a debug build reports it and traps; in a release build
 * the __syncwarp over 32 lanes, some of which do not exist, is undefined,
 * and the CTAs whose rank is not below the partial warp's lane count would
 * never get its arrival).
 * bar.warp.sync 0xffffffff; fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
 * @p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _. */
CG_DEVICE_SM90 void cg_pipeline_cluster_consumer_release_all_whole_warp(cg_pipeline_t *p, uint16_t cta_mask)
{
#if CG_DEBUG
    if (CG_UNLIKELY_(!cg_pipeline_block_warps_whole_()))
        cg_pipeline_report_partial_warp_("cg_pipeline_cluster_consumer_release_all_whole_warp");
#endif
    cg_pipeline_release_all_whole_warp_(cg_pipeline_empty_barrier(p, p->tail), cta_mask, cg_sreg_laneid());
    cg_pipeline_advance_(&p->tail, &p->tail_phase, p->stages);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_ASYNC_PIPELINE_H */
