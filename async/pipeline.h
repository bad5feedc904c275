/*
 * async/pipeline.h — multi-stage producer/consumer rings over mbarriers.
 *
 * A pipeline is a ring of S stages in shared memory. Each stage has a buffer
 * and two mbarriers:
 *
 *   FULL   expects the producers' arrivals (and the stage's transaction bytes):
 *          its phase k completes when the k-th fill of the stage has landed;
 *   EMPTY  expects the consumers' arrivals: its phase k completes when every
 *          consumer has released the k-th fill, so the stage may be refilled.
 *
 * Producers walk the ring with acquire (wait until the stage is empty), copies
 * and commit (arrive on FULL); consumers walk it with wait (until the stage is
 * full) and release (arrive on EMPTY). The barriers and the buffers are the
 * user's __shared__ storage; which stage comes next and which phase of its
 * barriers to wait for is per-thread state in cg_pipeline_t, a value each
 * thread keeps in registers, so no user code ever names a parity.
 *
 * Two shapes.
 *
 * Warp-specialized (CUTLASS's PipelineTmaAsync): one producer thread (say an
 * elected lane of a producer warp) and consumer warps.
 *
 *     #define S 4
 *     #define STAGE 32768u
 *     __shared__ cg_pipeline_stage_t ring[S];
 *     extern __shared__ __align__(128) unsigned char buf[];       // S * STAGE bytes
 *     if (threadIdx.x == 0)
 *         cg_pipeline_init(ring, S, 1, CONSUMER_WARPS);            // 1 producer, one arrival per consumer warp
 *     __syncthreads();
 *     cg_pipeline_t p = cg_pipeline_make(ring, S, buf, STAGE);
 *     if (warp == 0) {                                             // producer warp
 *         if (lane == 0)
 *             for (t = 0; t < tiles; ++t) {
 *                 void *stage = cg_pipeline_acquire(&p);           // stage empty
 *                 cg_pipeline_copy(&p, stage, src + t * STAGE, STAGE);
 *                 cg_pipeline_commit(&p, STAGE);                   // arrive with the stage's bytes
 *             }
 *     } else {                                                     // consumer warps
 *         for (t = 0; t < tiles; ++t) {
 *             const uint4 *stage = cg_pipeline_wait(&p);           // stage full
 *             ... read the stage ...
 *             cg_pipeline_release_warp(&p);                        // one arrival for the warp
 *         }
 *     }
 *
 * Block (cuda::pipeline<thread_scope_block>): every thread produces and
 * consumes, with S - 1 stages in flight ahead of the one being read.
 *
 *     if (threadIdx.x == 0) cg_pipeline_init(ring, S, blockDim.x, blockDim.x);
 *     __syncthreads();
 *     cg_pipeline_t p = cg_pipeline_make(ring, S, buf, STAGE);
 *     for (f = 0, t = 0; t < tiles; ++t) {
 *         for (; f < tiles && f < t + S; ++f) {                    // keep the ring full
 *             void *stage = cg_pipeline_producer_acquire(&p);
 *             if (threadIdx.x == 0)
 *                 cg_pipeline_producer_copy(&p, stage, src + f * STAGE, STAGE);
 *             cg_pipeline_producer_commit(&p);
 *         }
 *         const uint4 *stage = cg_pipeline_consumer_wait(&p);
 *         ... read the stage ...
 *         cg_pipeline_consumer_release(&p);
 *     }
 *
 * (With a group copy instead: cg_memcpy_async_pipeline(&block, stage, src,
 * bytes, &p) from cg/pipeline.h, every alignment, between producer_acquire
 * and producer_commit.)
 *
 * Memory order and scope (all CTA scope; the pipeline lives in one CTA).
 *   FULL: the bulk copies write the stage through the async proxy and perform
 *     complete_tx on FULL; producers arrive with mbarrier.arrive(.expect_tx)
 *     .release.cta (publishing any generic writes they made to the stage);
 *     consumers wait with mbarrier.try_wait.parity.acquire.cta. A consumer
 *     whose wait returned sees the copied bytes and the producers' writes.
 *   EMPTY: consumers arrive with mbarrier.arrive.release.cta after reading the
 *     stage; producers wait with try_wait.parity.acquire.cta. The consumers'
 *     reads are generic-proxy accesses and the next fill is an async-proxy
 *     write, so the thread that issues the next bulk copy into the stage runs
 *     fence.proxy.async.shared::cta after its acquire and before the copy:
 *     cg_pipeline_acquire does (its caller is that thread), and so do
 *     cg_pipeline_producer_copy and cg_memcpy_async. Code that issues its
 *     own copies after cg_pipeline_producer_acquire calls
 *     cg_fence_proxy_async_smem() first.
 *   The ring's barriers are initialized by one thread (cg_pipeline_init,
 *   which also fences the inits into the async proxy); every thread uses the
 *   pipeline only after a __syncthreads that follows the init.
 *
 * Per-thread state. The producer position (head: stage index and fill
 * number) and the consumer position (tail) advance by one stage per commit /
 * release, and the fill number by one each time the index wraps to 0. The
 * producer waits for EMPTY phase (fill - 1), i.e. parity (fill & 1) ^ 1 —
 * true at once for fill 0 on a fresh barrier; the consumer waits for FULL
 * phase fill, parity fill & 1. A parity names one of only two phases, which
 * is enough: a producer at fill k has already seen EMPTY phase k - 2
 * complete and EMPTY phase k cannot complete before it fills, so EMPTY is in
 * phase k - 1 or k; likewise a consumer at fill k has seen FULL phase k - 1
 * and FULL phase k + 1 needs its own release of fill k first. Each thread
 * must therefore walk the ring in order: every producer thread commits every
 * stage (the arrivals counted at init), every consumer releases every stage.
 *
 * Limits (written next to the code that depends on them):
 *   - stages: 1 and up; only shared memory bounds it (each stage has a
 *     24-byte cg_pipeline_stage_t plus its buffer);
 *   - producer and consumer arrivals per stage: 1 .. 2^20 - 1 (mbarrier
 *     count, CG_MBARRIER_MAX_COUNT);
 *   - bytes per fill of a stage (the sum of its copies): below 2^20
 *     (CG_PIPELINE_MAX_TX, the mbarrier's tx-count);
 *   - bulk copies: 16-byte aligned addresses, sizes a multiple of 16;
 *   - a thread that both produces and consumes (block shape) may be at most S
 *     fills ahead of its own releases: acquiring fill k of a stage waits for
 *     every consumer's release of fill k - 1, its own included.
 *
 * Debug builds (CG_DEBUG=1): every wait is bounded by
 * CG_DEBUG_WAIT_TIMEOUT_NS; a consumer waiting on a stage that never fills,
 * or a producer waiting for a release that never comes, prints the
 * pipeline's shared address, the stage, the fill (phase) waited for and what
 * the producers had committed for it, then traps. cg_pipeline_commit checks
 * its byte count against the bytes cg_pipeline_copy issued into the stage
 * (when any were) and traps on a mismatch, naming the pipeline, stage and
 * phase; bytes delivered by copies issued some other way cannot be counted,
 * and a shortfall among them shows up as the consumers' bounded wait. Bulk
 * copy arguments (alignment, size, the destination inside the head stage)
 * are checked too.
 *
 * Needs sm_90 (the .release/.acquire mbarrier forms and bulk copies).
 */
#ifndef CG_ASYNC_PIPELINE_H
#define CG_ASYNC_PIPELINE_H

#include "async/bulk.h"
#include "async/fence.h"
#include "barrier/barrier.h"
#include "barrier/mbarrier.h"
#include "cg/config.h"
#include "cg/sreg.h"
#include "dsmem/address.h"

/* Largest number of bytes one fill of a stage may deliver (the sum of its
 * copies): an mbarrier phase's tx-count stays below 2^20. */
#define CG_PIPELINE_MAX_TX CG_MBARRIER_MAX_TX

/* The barriers of one stage, in __shared__ (24 bytes; declare an array of S).
 * Opaque: touch it only through the calls below. */
typedef struct cg_pipeline_stage {
    cg_barrier_t full_;  /* producers' arrivals + the fill's transaction bytes */
    cg_mbarrier_t empty_; /* consumers' arrivals */
    uint32_t dbg_bytes_; /* debug builds: bytes committed for fill dbg_fill_ */
    uint32_t dbg_fill_;  /* debug builds: the fill they were committed for (~0: none yet) */
} cg_pipeline_stage_t;

/* One thread's view of a pipeline (registers; each thread makes its own with
 * cg_pipeline_make). Opaque. */
typedef struct cg_pipeline {
    cg_pipeline_stage_t *ring_; /* the S stages' barriers (shared) */
    unsigned char *buf_;        /* stage 0's buffer (shared), or NULL */
    uint32_t stages_;           /* S */
    uint32_t stage_bytes_;      /* buffer bytes per stage (0 with a NULL buffer) */
    uint32_t head_;             /* producer: the stage it acquires next, 0 .. S-1 */
    uint32_t head_fill_;        /* ... and which fill of that stage (0, 1, 2, ...) */
    uint32_t tail_;             /* consumer: the stage it waits on next */
    uint32_t tail_fill_;        /* ... and which fill of that stage */
    uint32_t issued_;           /* debug builds: bytes cg_pipeline_copy issued into the head stage */
} cg_pipeline_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------ */
/* Internal: positions, bounded waits and debug reports                      */
/* ------------------------------------------------------------------------ */

/* The stage `i`'s buffer (NULL + 0 when made without a buffer). */
CG_DEVICE void *cg_pipeline_buffer_(const cg_pipeline_t *p, uint32_t i)
{
    return p->buf_ + (size_t)i * p->stage_bytes_;
}

/* One step along the ring: the next stage, and the next fill on a wrap. */
CG_DEVICE void cg_pipeline_step_(uint32_t *index, uint32_t *fill, uint32_t stages)
{
    if (++*index == stages) {
        *index = 0;
        ++*fill;
    }
}

#if CG_DEBUG
/* What the debug reports print for where the block and thread are. */
#define CG_PIPELINE_WHERE_FMT_ "(block %d,%d,%d thread %d,%d,%d)"
#define CG_PIPELINE_WHERE_ARGS_ blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z

/* A consumer's wait on FULL outlived the debug bound: say which pipeline,
 * stage and fill, and what the producers had committed for it, then trap. */
CG_DEVICE void cg_pipeline_full_deadlock_(const char *what, const cg_pipeline_t *p)
{
    const cg_pipeline_stage_t *st = &p->ring_[p->tail_];
    const uint32_t fill = p->tail_fill_;
    const uint32_t got_fill = *(const volatile uint32_t *)&st->dbg_fill_;
    const uint32_t got_bytes = *(const volatile uint32_t *)&st->dbg_bytes_;
    if (got_fill == fill)
        printf("cgc: %s: deadlock: pipeline at shared 0x%x (%u stages), stage %u, phase %u (parity %u) "
               "not full after %llu ns: the producers committed %u bytes for it and the phase is still open, so "
               "fewer bytes were delivered than committed (or a producer arrival is missing) " CG_PIPELINE_WHERE_FMT_
               "\n",
               what, (unsigned)cg_smem_addr(p->ring_), p->stages_, p->tail_, fill, fill & 1u,
               (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, got_bytes, CG_PIPELINE_WHERE_ARGS_);
    else if (got_fill == 0xFFFFFFFFu)
        printf("cgc: %s: deadlock: pipeline at shared 0x%x (%u stages), stage %u, phase %u (parity %u) "
               "not full after %llu ns: no producer committed it (no commit recorded on this stage yet) "
               CG_PIPELINE_WHERE_FMT_ "\n",
               what, (unsigned)cg_smem_addr(p->ring_), p->stages_, p->tail_, fill, fill & 1u,
               (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, CG_PIPELINE_WHERE_ARGS_);
    else
        printf("cgc: %s: deadlock: pipeline at shared 0x%x (%u stages), stage %u, phase %u (parity %u) "
               "not full after %llu ns: no producer committed it (the last commit recorded was for fill %u) "
               CG_PIPELINE_WHERE_FMT_ "\n",
               what, (unsigned)cg_smem_addr(p->ring_), p->stages_, p->tail_, fill, fill & 1u,
               (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, got_fill, CG_PIPELINE_WHERE_ARGS_);
    __trap();
}

/* A producer's wait on EMPTY outlived the debug bound. */
CG_DEVICE void cg_pipeline_empty_deadlock_(const char *what, const cg_pipeline_t *p)
{
    printf("cgc: %s: deadlock: pipeline at shared 0x%x (%u stages), stage %u, phase %u: waited %llu ns for the "
           "consumers to release fill %u so that fill %u can start (every consumer arrival counted at init must "
           "release every fill) " CG_PIPELINE_WHERE_FMT_ "\n",
           what, (unsigned)cg_smem_addr(p->ring_), p->stages_, p->head_, p->head_fill_ - 1u,
           (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, p->head_fill_ - 1u, p->head_fill_,
           CG_PIPELINE_WHERE_ARGS_);
    __trap();
}

/* Spin on try_expr; after CG_DEBUG_WAIT_TIMEOUT_NS run report_stmt (traps). */
#define CG_PIPELINE_SPIN_(try_expr, report_stmt)                                                   \
    do {                                                                                           \
        const uint64_t t0_ = cg_sreg_globaltimer_ns();                                             \
        while (!(try_expr)) {                                                                      \
            if (cg_sreg_globaltimer_ns() - t0_ > (uint64_t)CG_DEBUG_WAIT_TIMEOUT_NS)               \
                report_stmt;                                                                       \
        }                                                                                          \
    } while (0)

/* Bulk-copy preconditions, and the destination inside the head stage when
 * the pipeline has a buffer. */
CG_DEVICE void cg_pipeline_check_copy_(const char *what, const cg_pipeline_t *p, const void *dst, const void *src,
                                       uint32_t bytes)
{
    const char *why = NULL;
    if ((((uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes) & 15u) != 0)
        why = "bulk copies need 16-byte aligned addresses and a size that is a multiple of 16";
    else if (bytes > CG_PIPELINE_MAX_TX)
        why = "one fill of a stage carries fewer than 2^20 bytes";
    else if (p->buf_ != NULL) {
        const unsigned char *lo = (const unsigned char *)cg_pipeline_buffer_(p, p->head_);
        const unsigned char *d = (const unsigned char *)dst;
        if (d < lo || d + bytes > lo + p->stage_bytes_)
            why = "the destination is not inside the stage being filled";
    }
    if (why != NULL) {
        printf("cgc: %s(dst %p, src %p, %u bytes): pipeline at shared 0x%x, stage %u, phase %u: %s "
               CG_PIPELINE_WHERE_FMT_ "\n",
               what, dst, src, bytes, (unsigned)cg_smem_addr(p->ring_), p->head_, p->head_fill_, why,
               CG_PIPELINE_WHERE_ARGS_);
        __trap();
    }
}

/* Record what the producers committed for the head stage's current fill (for
 * the consumers' deadlock report). Diagnostic only: several producer threads
 * may add to it without ordering. */
CG_DEVICE void cg_pipeline_note_commit_(const cg_pipeline_t *p, uint32_t bytes)
{
    cg_pipeline_stage_t *st = &p->ring_[p->head_];
    volatile uint32_t *vfill = &st->dbg_fill_, *vbytes = &st->dbg_bytes_;
    if (*vfill == p->head_fill_) {
        *vbytes = *vbytes + bytes;
    } else {
        *vbytes = bytes;
        *vfill = p->head_fill_;
    }
}
#else
#define CG_PIPELINE_SPIN_(try_expr, report_stmt)                                                   \
    do {                                                                                           \
        while (!(try_expr)) {                                                                      \
        }                                                                                          \
    } while (0)
#endif

/* Wait until the head stage is empty: EMPTY phase (fill - 1) complete, parity
 * (fill & 1) ^ 1. mbarrier.try_wait.parity.acquire.cta loop. */
CG_DEVICE void cg_pipeline_wait_empty_(const cg_pipeline_t *p, const char *what)
{
    cg_mbarrier_t *mb = &p->ring_[p->head_].empty_;
    const uint32_t parity = (p->head_fill_ & 1u) ^ 1u;
    (void)what;
    CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity(mb, parity), cg_pipeline_empty_deadlock_(what, p));
}

/* Wait until the tail stage is full: FULL phase fill complete, parity fill & 1.
 * mbarrier.try_wait.parity.acquire.cta loop. */
CG_DEVICE void cg_pipeline_wait_full_(const cg_pipeline_t *p, const char *what)
{
    cg_mbarrier_t *mb = cg_barrier_native_handle(&p->ring_[p->tail_].full_);
    const uint32_t parity = p->tail_fill_ & 1u;
    (void)what;
    CG_PIPELINE_SPIN_(cg_mbarrier_try_wait_parity(mb, parity), cg_pipeline_full_deadlock_(what, p));
}

/* ------------------------------------------------------------------------ */
/* Setup                                                                     */
/* ------------------------------------------------------------------------ */

/* One thread: initialize the ring's barriers. FULL expects `producers`
 * arrivals per fill (1 for a single producer thread; every thread of the
 * block in the block shape), EMPTY `consumers` arrivals (consumer threads
 * with cg_pipeline_release, consumer warps with cg_pipeline_release_warp).
 * Both 1 .. 2^20 - 1 (checked in debug builds), stages >= 1. Ends with
 * fence.proxy.async.shared::cta so the bulk engine sees the initialized
 * barriers it completes bytes on. The block synchronizes (__syncthreads)
 * before any thread uses the pipeline. */
CG_DEVICE void cg_pipeline_init(cg_pipeline_stage_t *ring, uint32_t stages, uint32_t producers, uint32_t consumers)
{
#if CG_DEBUG
    if (stages == 0) {
        printf("cgc: cg_pipeline_init(pipeline at shared 0x%x): a pipeline needs at least 1 stage "
               CG_PIPELINE_WHERE_FMT_ "\n",
               (unsigned)cg_smem_addr(ring), CG_PIPELINE_WHERE_ARGS_);
        __trap();
    }
#endif
    for (uint32_t s = 0; s < stages; ++s) {
        cg_barrier_init(&ring[s].full_, producers);
        cg_mbarrier_init(&ring[s].empty_, consumers);
#if CG_DEBUG
        ring[s].dbg_bytes_ = 0;
        ring[s].dbg_fill_ = 0xFFFFFFFFu;
#endif
    }
    cg_fence_proxy_async_smem();
}

/* Every thread that uses the pipeline: its own view, at stage 0, fill 0, for
 * producing and consuming alike. `buf` is stage 0's buffer (16-byte aligned
 * for bulk copies), stage i's is buf + i * stage_bytes; or buf = NULL and
 * stage_bytes = 0 for a ring whose buffers the caller lays out itself (the
 * calls that return a stage's buffer then return NULL; the stage index
 * queries below say which stage is meant). */
CG_DEVICE cg_pipeline_t cg_pipeline_make(cg_pipeline_stage_t *ring, uint32_t stages, void *buf, uint32_t stage_bytes)
{
    cg_pipeline_t p;
    p.ring_ = ring;
    p.buf_ = (unsigned char *)buf;
    p.stages_ = stages;
    p.stage_bytes_ = stage_bytes;
    p.head_ = 0;
    p.head_fill_ = 0;
    p.tail_ = 0;
    p.tail_fill_ = 0;
    p.issued_ = 0;
    return p;
}

/* One thread, when no thread will use the pipeline again and no copy is in
 * flight: end the barriers' life so their shared memory may be reused
 * (mbarrier.inval). */
CG_DEVICE void cg_pipeline_inval(cg_pipeline_stage_t *ring, uint32_t stages)
{
    for (uint32_t s = 0; s < stages; ++s) {
        cg_mbarrier_inval(cg_barrier_native_handle(&ring[s].full_));
        cg_mbarrier_inval(&ring[s].empty_);
    }
}

/* ------------------------------------------------------------------------ */
/* Queries (registers only)                                                  */
/* ------------------------------------------------------------------------ */

/* Stage i's buffer (NULL for a pipeline made without one). */
CG_DEVICE void *cg_pipeline_stage_buffer(const cg_pipeline_t *p, uint32_t i)
{
    return cg_pipeline_buffer_(p, i);
}

/* The stage this thread acquires / fills next, 0 .. S-1, and which fill of it
 * (0 for the first pass over the ring, 1 for the second, ...). */
CG_DEVICE uint32_t cg_pipeline_producer_stage(const cg_pipeline_t *p)
{
    return p->head_;
}
CG_DEVICE uint32_t cg_pipeline_producer_fill(const cg_pipeline_t *p)
{
    return p->head_fill_;
}

/* The stage this thread waits on / reads next, and which fill of it. */
CG_DEVICE uint32_t cg_pipeline_consumer_stage(const cg_pipeline_t *p)
{
    return p->tail_;
}
CG_DEVICE uint32_t cg_pipeline_consumer_fill(const cg_pipeline_t *p)
{
    return p->tail_fill_;
}

/* The FULL barrier of the stage being filled, for copies issued outside the
 * pipeline's calls: cg_memcpy_async_tx / cg_bulk_copy_g2s and friends
 * complete their bytes on this mbarrier (account for them in
 * cg_pipeline_commit, or with cg_mbarrier_expect_tx before the producer's
 * commit); cg_memcpy_async(&group, ..., bar) takes it as a barrier
 * (cg_pipeline_producer_barrier). Valid between acquire and commit. */
CG_DEVICE cg_mbarrier_t *cg_pipeline_producer_mbarrier(const cg_pipeline_t *p)
{
    return cg_barrier_native_handle(&p->ring_[p->head_].full_);
}
CG_DEVICE cg_barrier_t *cg_pipeline_producer_barrier(const cg_pipeline_t *p)
{
    return &p->ring_[p->head_].full_;
}

/* ------------------------------------------------------------------------ */
/* Warp-specialized producer (one thread per producer arrival)               */
/* ------------------------------------------------------------------------ */

/* Wait until the next stage is empty (its consumers released the previous
 * fill: EMPTY, mbarrier.try_wait.parity.acquire.cta), then
 * fence.proxy.async.shared::cta so the consumers' generic reads of the stage
 * are ordered before this thread's bulk copies overwrite it. Returns the
 * stage's buffer. Meant for the thread that issues the copies. */
CG_DEVICE void *cg_pipeline_acquire(cg_pipeline_t *p)
{
    cg_pipeline_wait_empty_(p, "cg_pipeline_acquire");
    cg_fence_proxy_async_smem();
    return cg_pipeline_buffer_(p, p->head_);
}

/* Bulk-copy `bytes` from global `src` to shared `dst` (inside the acquired
 * stage), completing the bytes on the stage's FULL barrier
 * (cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes). The
 * bytes are not yet expected: cg_pipeline_commit's `tx` must count them.
 * 16-byte aligned addresses, bytes a multiple of 16. */
CG_DEVICE void cg_pipeline_copy(cg_pipeline_t *p, void *dst, const void *src, uint32_t bytes)
{
#if CG_DEBUG
    cg_pipeline_check_copy_("cg_pipeline_copy", p, dst, src, bytes);
    p->issued_ += bytes;
#endif
    cg_bulk_copy_g2s(cg_smem_addr(dst), src, bytes, cg_smem_addr(cg_pipeline_producer_mbarrier(p)));
}

/* Commit the stage: one arrival on its FULL barrier together with `tx`
 * expected bytes (the sum of this thread's copies into the fill;
 * mbarrier.arrive.expect_tx.release.cta: the fill completes when every
 * producer arrival and every byte is in, and the release publishes this
 * thread's own writes to the stage). Then move to the next stage.
 * 0 <= tx < 2^20. Debug builds: when cg_pipeline_copy issued bytes into this
 * fill, `tx` must equal them (else report and trap). */
CG_DEVICE void cg_pipeline_commit(cg_pipeline_t *p, uint32_t tx)
{
#if CG_DEBUG
    if (p->issued_ != 0 && p->issued_ != tx) {
        printf("cgc: cg_pipeline_commit: pipeline at shared 0x%x (%u stages), stage %u, phase %u: committed %u "
               "bytes but cg_pipeline_copy issued %u into this fill; the fill would %s " CG_PIPELINE_WHERE_FMT_ "\n",
               (unsigned)cg_smem_addr(p->ring_), p->stages_, p->head_, p->head_fill_, tx, p->issued_,
               tx > p->issued_ ? "never complete (consumers hang)"
                               : "complete before its data landed (consumers read stale bytes)",
               CG_PIPELINE_WHERE_ARGS_);
        __trap();
    }
    p->issued_ = 0;
    cg_pipeline_note_commit_(p, tx);
#endif
    (void)cg_mbarrier_arrive_tx(cg_pipeline_producer_mbarrier(p), tx);
    cg_pipeline_step_(&p->head_, &p->head_fill_, p->stages_);
}

/* ------------------------------------------------------------------------ */
/* Consumers (both shapes)                                                   */
/* ------------------------------------------------------------------------ */

/* Wait until the next stage is full (FULL, mbarrier.try_wait.parity
 * .acquire.cta: the copies' bytes and the producers' writes are visible).
 * Returns the stage's buffer. */
CG_DEVICE void *cg_pipeline_wait(cg_pipeline_t *p)
{
    cg_pipeline_wait_full_(p, "cg_pipeline_wait");
    return cg_pipeline_buffer_(p, p->tail_);
}

/* Release the stage this thread has read: one arrival on its EMPTY barrier
 * (mbarrier.arrive.release.cta: this thread's reads of the stage happen
 * before the producer's acquire returns), then move to the next stage. */
CG_DEVICE void cg_pipeline_release(cg_pipeline_t *p)
{
    (void)cg_mbarrier_arrive(&p->ring_[p->tail_].empty_);
    cg_pipeline_step_(&p->tail_, &p->tail_fill_, p->stages_);
}

/* The whole warp (all 32 lanes, converged, as for __syncwarp()) releases the
 * stage with ONE arrival (init's `consumers` counts warps): __syncwarp orders
 * every lane's reads before lane 0's mbarrier.arrive.release.cta. Every lane
 * moves to the next stage. */
CG_DEVICE void cg_pipeline_release_warp(cg_pipeline_t *p)
{
    __syncwarp(0xFFFFFFFFu);
    if (cg_sreg_laneid() == 0)
        (void)cg_mbarrier_arrive(&p->ring_[p->tail_].empty_);
    cg_pipeline_step_(&p->tail_, &p->tail_fill_, p->stages_);
}

/* ------------------------------------------------------------------------ */
/* Block shape: cuda::pipeline<thread_scope_block> (every thread calls)      */
/* ------------------------------------------------------------------------ */

/* producer_acquire: wait until the next stage is empty (EMPTY,
 * try_wait.parity.acquire.cta). Returns the stage's buffer. No proxy fence:
 * cg_pipeline_producer_copy and cg_memcpy_async fence in the thread that
 * issues the bulk copy. */
CG_DEVICE void *cg_pipeline_producer_acquire(cg_pipeline_t *p)
{
    cg_pipeline_wait_empty_(p, "cg_pipeline_producer_acquire");
    return cg_pipeline_buffer_(p, p->head_);
}

/* ONE thread, between its producer_acquire and producer_commit: bulk-copy
 * `bytes` from global `src` into shared `dst` (inside the acquired stage)
 * with the bytes accounted here: fence.proxy.async.shared::cta (the stage's
 * earlier generic reads before the engine's writes), expect_tx(bytes) on
 * the stage's FULL barrier (the fill cannot complete without this thread's
 * commit, so expecting before the copy never lets it complete early), then
 * the copy. Several calls per fill add up (the fill's total < 2^20).
 * 16-byte aligned addresses, bytes a multiple of 16. */
CG_DEVICE void cg_pipeline_producer_copy(cg_pipeline_t *p, void *dst, const void *src, uint32_t bytes)
{
#if CG_DEBUG
    cg_pipeline_check_copy_("cg_pipeline_producer_copy", p, dst, src, bytes);
    cg_pipeline_note_commit_(p, bytes);
#endif
    cg_mbarrier_t *full = cg_pipeline_producer_mbarrier(p);
    cg_fence_proxy_async_smem();
    cg_mbarrier_expect_tx(full, bytes);
    cg_bulk_copy_g2s(cg_smem_addr(dst), src, bytes, cg_smem_addr(full));
}

/* producer_commit: one arrival on the stage's FULL barrier
 * (mbarrier.arrive.release.cta, publishing this thread's writes to the
 * stage), then move to the next stage. The fill completes when every
 * producer has committed and every expected byte has landed. */
CG_DEVICE void cg_pipeline_producer_commit(cg_pipeline_t *p)
{
    (void)cg_mbarrier_arrive(cg_pipeline_producer_mbarrier(p));
    cg_pipeline_step_(&p->head_, &p->head_fill_, p->stages_);
}

/* consumer_wait: cg_pipeline_wait (the stage is full; acquire.cta). */
CG_DEVICE void *cg_pipeline_consumer_wait(cg_pipeline_t *p)
{
    cg_pipeline_wait_full_(p, "cg_pipeline_consumer_wait");
    return cg_pipeline_buffer_(p, p->tail_);
}

/* consumer_release: cg_pipeline_release (one arrival, release.cta). */
CG_DEVICE void cg_pipeline_consumer_release(cg_pipeline_t *p)
{
    cg_pipeline_release(p);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_ASYNC_PIPELINE_H */
