/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * async/copy.h — asynchronous copies into and out of shared memory.
 *
 *   cg_memcpy_async(&group, dst, src, bytes, &bar)
 *       The group copies global -> shared; the copy completes on the barrier
 *       (cg_barrier_t) as if performed by another thread bound to it: the
 *       barrier's current phase completes only when every expected arrival has
 *       happened AND the copy has landed (as cuda::memcpy_async).
 *   cg_memcpy_async(&group, dst, src, bytes) + cg_wait(&group) / cg_wait_prior(&group, n)
 *       The group copies global -> shared as one stage of cp.async copies
 *       (any size and alignment), no barrier; the waits land the stages and
 *       sync the group (C++ CG's memcpy_async / wait / wait_prior). Engine:
 *       cg_memcpy_async_stage at the end of this file.
 *   cg_memcpy_async_aligned(&group, dst, src, bytes, align) + the same waits
 *       The same stage when the caller states that dst, src and bytes are
 *       multiples of align (4, 8 or 16, a constant): one loop of cp.async of
 *       align bytes, nothing tested at run time (C++'s memcpy_async with
 *       cuda::aligned_size_t<align>). Engine: cg_memcpy_async_stage_aligned.
 *   cg_memcpy_async_aligned(&group, dst, src, bytes, align, &bar)
 *       The barrier form when the caller states the alignment (C++'s
 *       cuda::memcpy_async with cuda::aligned_size_t<align>): nothing tested
 *       at run time, the PTX of libcu++'s, no proxy fence (see
 *       cg_memcpy_async_share_aligned for when to add one).
 *   cg_memcpy_async_thread(dst, src, bytes, align, &bar)
 *       The same for one thread copying for itself, no group (C++'s
 *       cuda::memcpy_async(dst, src, aligned_size_t<align>(bytes), bar)).
 *   cg_memcpy_async_tx(dst, src, bytes, &mbar)
 *       One thread starts a bulk (TMA) copy global -> shared that completes
 *       `bytes` of transaction count on an mbarrier; the caller accounts for
 *       them with cg_mbarrier_arrive_tx / cg_mbarrier_expect_tx (as
 *       cuda::device::memcpy_async_tx).
 *   cg_memcpy_async_multicast_tx(dst, src, bytes, &mbar, cta_mask)
 *       The same, landing at the same offset in every CTA of the cluster named
 *       in cta_mask, each completing on its own mbarrier (sm_90a).
 *   cg_bulk_store(dst, src, bytes) + cg_bulk_wait_group_read(0) / cg_bulk_wait_group(0)
 *       One thread stores shared -> global with the bulk engine.
 *
 * Which path cg_memcpy_async takes (decided per call, on the pointers and size):
 *   - dst, src and bytes all multiples of 16, sm_90: the bulk copy engine.
 *     The group's rank-0 thread raises the barrier's expected transaction
 *     count by `bytes` and starts one bulk copy; the others do nothing. The
 *     phase cannot complete early: rank 0 has not arrived yet (a caller
 *     precondition, below), so the phase still waits for it, and by then the
 *     expected bytes are on the barrier.
 *   - multiples of 4 (sm_80+): every thread of the group copies a share with
 *     cp.async (16, 8 or 4 bytes per instruction, all in flight at once), then
 *     waits for its own copies (cp.async.wait_all) before returning; its later
 *     arrive (release) publishes them, so the phase cannot complete before
 *     they have landed. Not cp.async.mbarrier.arrive: that would let the
 *     thread return before its copies land, but compute-sanitizer synccheck
 *     counts it as the thread's own arrival, reports the thread's real arrive
 *     in the same phase as "Missing wait" and aborts the kernel. The bulk
 *     path above is unchanged (fully asynchronous).
 *   - otherwise: every thread copies its share with ordinary loads and stores
 *     before returning; its later arrive (release) publishes them.
 *
 * Caller contract (the same as cuda::memcpy_async with a barrier):
 *   - every thread of the group calls it with the same arguments;
 *   - the barrier is a block-scope barrier in this CTA's shared memory and
 *     every calling thread takes part in its current phase and has NOT yet
 *     arrived in that phase (arrive after the copy call, then wait);
 *   - dst is in this CTA's shared memory, src in global memory, bytes < 2^20;
 *   - bar is a cg_barrier_t (one mbarrier). cg_barrier_fn_t is not accepted:
 *     it counts arrivals outside its mbarrier, so a copy bound to that
 *     mbarrier could not hold its phase open (a compile error, by type).
 * Groups: a thread block or a tile copies as one group. With a cluster or a
 * grid group each thread block is its own group: it copies into its own
 * shared memory and completes on its own barrier (a block-scope barrier
 * cannot be shared between blocks).
 *
 * The async proxy. The bulk engine writes shared memory through the async
 * proxy. cg_memcpy_async issues fence.proxy.async.shared::cta before each
 * bulk copy so that generic accesses to dst ordered before the call (say, the
 * previous batch's reads, followed by a block sync) are ordered before the
 * engine overwrites them. Before cg_bulk_store or a DSMEM bulk push reads
 * shared memory that threads wrote, each writer must call
 * cg_fence_proxy_async_smem() and then synchronize with the issuing thread.
 */
#ifndef CG_ASYNC_COPY_H
#define CG_ASYNC_COPY_H

#include "bulk.h"
#include "../base/fence.h"
#include "../barrier/barrier.h"
#include "../barrier/mbarrier.h"
#include "../base/config.h"
#include "../base/address.h"

/* The group copies have wait / wait_prior forms (cg/group_copy.h's
 * cg_memcpy_async with four arguments, cg_wait, cg_wait_prior). Defined for
 * host code too, so a program can key on it anywhere. */
#define CG_HAS_GROUP_WAIT_PRIOR 1

#if CG_DEVICE_CODE_VISIBLE

/* Largest transaction count one mbarrier phase can hold (PTX: tx-count in
 * [-(2^20 - 1), 2^20 - 1]). */
#define CG_MBARRIER_TX_MAX CG_MBARRIER_MAX_TX /* older spelling, kept for compatibility */

/* ------------------------------------------------------------------------ */
/* Debug checks                                                              */
/* ------------------------------------------------------------------------ */

#if CG_DEBUG
/* Traps with a message unless the bulk-copy preconditions hold. */
CG_REPORT_ void cg_async_report_bulk_(const char *what, const void *dst, const void *src, uint32_t bytes)
{
    printf("cgc: %s(dst %p, src %p, %u bytes): bulk copies need 16-byte aligned addresses, a size that is a "
           "multiple of 16 and below 2^20 (block %d,%d,%d thread %d)\n",
           what, dst, src, bytes, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x);
    __trap();
}
CG_REPORT_ void cg_async_report_size_(unsigned long long bytes)
{
    printf("cgc: cg_memcpy_async(%llu bytes): larger than an mbarrier phase can track (2^20 - 1)\n", bytes);
    __trap();
}
CG_DEVICE void cg_async_check_bulk_(const char *what, const void *dst, const void *src, uint32_t bytes)
{
    if (CG_UNLIKELY_((((uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes) & 15u) != 0 || bytes > CG_MBARRIER_TX_MAX))
        cg_async_report_bulk_(what, dst, src, bytes);
}
/* The alignment-stated copies' promise broken: dst, src or bytes not a
 * multiple of align. */
CG_REPORT_ void cg_async_report_aligned_(const void *dst, const void *src, unsigned long long bytes, uint32_t align)
{
    printf("cgc: cg_memcpy_async_aligned(dst %p, src %p, %llu bytes, align %u): dst, src and bytes must be "
           "multiples of align (block %d,%d,%d thread %d,%d,%d)\n",
           dst, src, bytes, align, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
CG_DEVICE void cg_async_check_aligned_(const void *dst, const void *src, size_t bytes, uint32_t align)
{
    if (CG_UNLIKELY_((((uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes) & (uintptr_t)(align - 1u)) != 0))
        cg_async_report_aligned_(dst, src, (unsigned long long)bytes, align);
}
#define CG_ASYNC_CHECK_BULK_(what, dst, src, bytes) cg_async_check_bulk_((what), (dst), (src), (bytes))
#define CG_ASYNC_CHECK_ALIGNED_(dst, src, bytes, align) cg_async_check_aligned_((dst), (src), (bytes), (align))
#else
#define CG_ASYNC_CHECK_BULK_(what, dst, src, bytes) ((void)0)
#define CG_ASYNC_CHECK_ALIGNED_(dst, src, bytes, align) ((void)0)
#endif

/* ------------------------------------------------------------------------ */
/* One-thread bulk copies completing on an mbarrier                          */
/* ------------------------------------------------------------------------ */

/* One thread: bulk-copy `bytes` from global `src` to this CTA's shared `dst`;
 * completes `bytes` of transaction count on `mbar` (this CTA). The caller
 * accounts for the bytes (cg_mbarrier_arrive_tx / cg_mbarrier_expect_tx) in
 * the same phase. 16-byte aligned dst/src, bytes a multiple of 16. sm_90. */
CG_DEVICE_SM90 void cg_memcpy_async_tx(void *dst, const void *src, uint32_t bytes, cg_mbarrier_t *mbar)
{
    CG_ASYNC_CHECK_BULK_("cg_memcpy_async_tx", dst, src, bytes);
    cg_bulk_copy_g2s(cg_smem_addr(dst), src, bytes, cg_smem_addr(mbar));
}

/* One thread: the same bytes land at dst's offset in every CTA of the cluster
 * whose bit is set in cta_mask (bit i = cluster rank i, this CTA included only
 * if its bit is set); each such CTA's mbarrier at mbar's offset gets
 * complete_tx of `bytes`, so each receiver must expect `bytes` per multicast
 * aimed at it. sm_90a. */
CG_DEVICE void cg_memcpy_async_multicast_tx(void *dst, const void *src, uint32_t bytes, cg_mbarrier_t *mbar,
                                            uint16_t cta_mask)
{
    CG_ASYNC_CHECK_BULK_("cg_memcpy_async_multicast_tx", dst, src, bytes);
    cg_bulk_copy_g2s_multicast(cg_smem_addr(dst), src, bytes, cg_smem_addr(mbar), cta_mask);
}

/* One thread: bulk-store `bytes` from this CTA's shared `src` to global `dst`
 * and commit them as one bulk async-group of this thread. Before reuse of src:
 * cg_bulk_wait_group_read(0); before the kernel relies on the global data or
 * exits: cg_bulk_wait_group(0) (same thread). Writers of src must have called
 * cg_fence_proxy_async_smem() and synchronized with this thread. sm_90. */
CG_DEVICE_SM90 void cg_bulk_store(void *dst, const void *src, uint32_t bytes)
{
    CG_ASYNC_CHECK_BULK_("cg_bulk_store", dst, src, bytes);
    cg_bulk_copy_s2g(dst, cg_smem_addr(src), bytes);
    cg_bulk_commit_group();
}

/* ------------------------------------------------------------------------ */
/* Group copy completing on a barrier                                        */
/* ------------------------------------------------------------------------ */


/* The engine behind cg_memcpy_async(&group, ...) (cg/group_copy.h): the
 * calling thread is `rank` of the `count` threads that share the copy, every
 * one of which calls it with the same arguments. `count` is the number of
 * threads that EXIST in the group (a partial tile has fewer than its size):
 * each byte belongs to exactly one of ranks 0 .. count-1, so a rank that
 * does not exist would leave its share uncopied. */
CG_DEVICE void cg_memcpy_async_share(uint32_t rank, uint32_t count, void *dst, const void *src, size_t bytes,
                                     cg_barrier_t *bar)
{
    const uint32_t nthreads = count;
    cg_mbarrier_t *mbar = cg_barrier_native_handle(bar);
    (void)mbar; /* only the bulk path (sm_90) names it */
    if (bytes == 0)
        return;
    const uintptr_t align = (uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes;

#if CG_DEBUG
    if (CG_UNLIKELY_(bytes > CG_MBARRIER_TX_MAX))
        cg_async_report_size_((unsigned long long)bytes);
#endif

#if CG_ARCH_HAS_SM90
    if ((align & 15u) == 0) {
        if (rank == 0) {
            /* Earlier generic accesses to dst (ordered before this call by the
             * caller's sync) happen before the engine writes it. */
            cg_fence_proxy_async_smem();
            /* Copy first, then expect (as the aligned form and libcu++): the
             * engine starts one mbarrier operation sooner; a complete_tx that
             * lands before the expect takes the tx-count below zero for a
             * moment, which the mbarrier allows (PTX: tx-count range
             * -(2^20-1) .. 2^20-1), and the phase still waits for this
             * thread's own arrival, which comes after the expect. */
            cg_bulk_copy_g2s(cg_smem_addr(dst), src, (uint32_t)bytes, cg_smem_addr(mbar));
            cg_mbarrier_expect_tx(mbar, (uint32_t)bytes);
        }
        return;
    }
#endif
#if CG_ARCH_HAS_SM80
    if ((align & 3u) == 0) {
        const uint32_t d = cg_smem_addr(dst);
        const char *s = (const char *)src;
        if ((align & 15u) == 0) {
            for (size_t i = (size_t)rank * 16u; i < bytes; i += (size_t)nthreads * 16u)
                cg_cp_async_16(d + (uint32_t)i, s + i);
        } else if ((align & 7u) == 0) {
            for (size_t i = (size_t)rank * 8u; i < bytes; i += (size_t)nthreads * 8u)
                cg_cp_async_8(d + (uint32_t)i, s + i);
        } else {
            for (size_t i = (size_t)rank * 4u; i < bytes; i += (size_t)nthreads * 4u)
                cg_cp_async_4(d + (uint32_t)i, s + i);
        }
        /* This thread's copies have landed before it can arrive: the phase
         * cannot complete without them (see the top of this file for why not
         * cp.async.mbarrier.arrive). */
        cg_cp_async_wait_all();
        return;
    }
#endif
    /* Odd sizes or alignments: a plain copy, finished before this returns and
     * published by the caller's arrive (release) / wait (acquire). */
    {
        char *d = (char *)dst;
        const char *s = (const char *)src;
        for (size_t i = rank; i < bytes; i += nthreads)
            d[i] = s[i];
    }
}

/* ------------------------------------------------------------------------ */
/* Group copy in stages, waited for with wait / wait_prior (no barrier)     */
/* ------------------------------------------------------------------------ */

/* Bytes [lo, hi) of src to dst, split among `count` threads by `rank`, with
 * ordinary loads and stores (internal: what no cp.async can copy). */
CG_DEVICE void cg_memcpy_stage_plain_(uint32_t rank, uint32_t count, unsigned char *dst, const unsigned char *src,
                                      size_t lo, size_t hi)
{
    for (size_t i = lo + rank; i < hi; i += count)
        dst[i] = src[i];
}

/* Bytes [lo, hi) of src to shared address sd, in pieces of `a` bytes
 * (16, 8 or 4; lo, hi, sd + lo and src + lo multiples of a), piece k by rank
 * k mod count, all with cp.async (internal). A constant `a` folds to one
 * loop: cp.async.cg of 16 bytes, cp.async.ca of 8 or 4 (16 is the only size
 * .cg allows; the L1 bypass is what C++'s 16-byte copies use too). */
CG_DEVICE void cg_memcpy_stage_pieces_(uint32_t rank, uint32_t count, uint32_t sd, const unsigned char *src,
                                       size_t lo, size_t hi, uint32_t a)
{
#if CG_ARCH_HAS_SM80
    const size_t step = (size_t)count * a;
    if (a == 16u) {
        for (size_t i = lo + (size_t)rank * 16u; i < hi; i += step)
            cg_cp_async_16(sd + (uint32_t)i, src + i);
    } else if (a == 8u) {
        for (size_t i = lo + (size_t)rank * 8u; i < hi; i += step)
            cg_cp_async_8(sd + (uint32_t)i, src + i);
    } else {
        for (size_t i = lo + (size_t)rank * 4u; i < hi; i += step)
            cg_cp_async_4(sd + (uint32_t)i, src + i);
    }
#else
    (void)rank, (void)count, (void)sd, (void)src, (void)lo, (void)hi, (void)a;
#endif
}

/* The first `whole` bytes of src to dst (both `align`-aligned, whole a
 * multiple of align), split among `count` threads by `rank` (internal: the
 * aligned forms' copy). sm_80 on: cp.async pieces of `align` bytes, then
 * this thread's copies committed as one group or, with `wait` (a constant
 * at every call), waited for; before sm_80, ordinary loads and stores. */
CG_DEVICE void cg_memcpy_stage_whole_(uint32_t rank, uint32_t count, void *dst, const void *src, size_t whole,
                                      uint32_t align, bool wait)
{
#if CG_ARCH_HAS_SM80
    cg_memcpy_stage_pieces_(rank, count, cg_smem_addr(dst), (const unsigned char *)src, 0, whole, align);
    if (wait)
        cg_cp_async_wait_all();
    else
        cg_cp_async_commit_group();
#else
    (void)align, (void)wait;
    cg_memcpy_stage_plain_(rank, count, (unsigned char *)dst, (const unsigned char *)src, 0, whole);
#endif
}

/* The staged copy of dst/src pairs that are not both 4-byte aligned, or of a
 * size that is not a multiple of 4 (internal; out of line: rare, and it keeps
 * the byte code out of every caller). When dst and src agree modulo 4 (their
 * difference is a multiple of 4): the largest w of 16, 8, 4 that divides the
 * difference; the w-aligned middle of dst in w-byte cp.async pieces, the
 * 4-aligned bytes beside it (at most 3 pieces a side) in 4-byte cp.async,
 * only the at most 3 bytes at each end with ordinary copies. Otherwise no
 * cp.async can pair the two addresses: every byte is an ordinary copy. No
 * commit (the caller's). */
static __device__ __noinline__ void cg_memcpy_stage_unaligned_(uint32_t rank, uint32_t count, unsigned char *d,
                                                               const unsigned char *s, size_t bytes)
{
#if CG_ARCH_HAS_SM80
    const uint32_t sd = cg_smem_addr(d);
    const uint32_t skew = (sd ^ (uint32_t)(uintptr_t)s) & 15u;
    if ((skew & 3u) == 0u) {
        const uint32_t w = skew == 0u ? 16u : (skew & 7u) == 0u ? 8u : 4u;
        /* Offsets from dst; the shared window is aligned far beyond 16, so
         * sd and d agree modulo 16. */
        size_t lo4 = (size_t)((0u - sd) & 3u), hi4, low, hiw;
        lo4 = lo4 < bytes ? lo4 : bytes;
        hi4 = lo4 + ((bytes - lo4) & ~(size_t)3u);
        low = (size_t)((0u - sd) & (w - 1u));
        low = low < hi4 ? low : hi4;
        hiw = low + ((hi4 - low) & ~(size_t)(w - 1u));
        cg_memcpy_stage_plain_(rank, count, d, s, 0, lo4);
        cg_memcpy_stage_pieces_(rank, count, sd, s, lo4, low, 4u);
        cg_memcpy_stage_pieces_(rank, count, sd, s, low, hiw, w);
        cg_memcpy_stage_pieces_(rank, count, sd, s, hiw, hi4, 4u);
        cg_memcpy_stage_plain_(rank, count, d, s, hi4, bytes);
        return;
    }
#endif
    cg_memcpy_stage_plain_(rank, count, d, s, 0, bytes);
}

/* The engine behind the four-argument cg_memcpy_async(&group, dst, src,
 * bytes) (cg/group_copy.h): the calling thread is `rank` of the `count`
 * threads that share the copy (the threads that EXIST, as
 * cg_memcpy_async_share), every one of which calls it with the same
 * arguments. dst in this CTA's shared memory, src in global memory; any size
 * and alignment.
 *
 * What a thread does. dst, src and bytes all multiples of 16 (one test):
 * cp.async.cg of 16 bytes at rank*16, (rank+count)*16, ... and nothing else.
 * Else dst and src 4-byte aligned and bytes a multiple of 4 (with a
 * constant size these tests fold): cp.async only, the pieces as wide as both addresses allow (16 when both are
 * 16-aligned, then 8, then 4), piece k by rank k mod count; the at most 3
 * trailing 4-byte pieces that a 16- or 8-byte width leaves, 4-byte cp.async
 * by ranks 0..2. So a 4-byte copy with aligned pointers is one cp.async of 4
 * (not four byte copies). Anything else: cg_memcpy_stage_unaligned_
 * (out of line; above). Then cp.async.commit_group, ONE per call, even when
 * this thread had no share: each call is one stage, so
 * cg_cp_async_wait_prior(n) (and the group's cg_wait_prior) leaves exactly
 * this thread's n newest calls pending.
 * When the caller knows the alignment, cg_memcpy_async_stage_aligned (below;
 * the group form cg_memcpy_async_aligned) compiles to the one loop alone, as
 * C++'s memcpy_async with cuda::aligned_size_t<N> does.
 * The bytes are in shared memory for the whole group only after every
 * thread's wait and then a sync of the group (cg_wait / cg_wait_prior do
 * both, as C++ CG's wait / wait_prior). sm_80 for cp.async; older targets
 * copy every byte before returning. */
CG_DEVICE void cg_memcpy_async_stage(uint32_t rank, uint32_t count, void *dst, const void *src, size_t bytes)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
#if CG_ARCH_HAS_SM80
    const uint32_t sd = cg_smem_addr(d);
    /* The low 32 bits of src and bytes are all the tests need. */
    const uint32_t ptrs = sd | (uint32_t)(uintptr_t)s;
    if (((ptrs | (uint32_t)bytes) & 15u) == 0u) {
        /* The common case first, with one test: 16-byte pieces only, no
         * width choice on its path (docs/design/group_api.md). */
        cg_memcpy_stage_pieces_(rank, count, sd, s, 0, bytes, 16u);
    } else if (((ptrs | (uint32_t)bytes) & 3u) == 0u) {
        const uint32_t w = (ptrs & 15u) == 0u ? 16u : (ptrs & 7u) == 0u ? 8u : 4u;
        const size_t body = bytes & ~(size_t)(w - 1u);
        cg_memcpy_stage_pieces_(rank, count, sd, s, 0, body, w);
        /* What a wide body leaves: at most 3 pieces of 4 bytes. */
        cg_memcpy_stage_pieces_(rank, count, sd, s, body, bytes, 4u);
    } else {
        cg_memcpy_stage_unaligned_(rank, count, d, s, bytes);
    }
    cg_cp_async_commit_group();
#else
    cg_memcpy_stage_plain_(rank, count, d, s, 0, bytes);
#endif
}

/* The staged copy when the caller states the alignment (C++'s
 * cuda::aligned_size_t<N>): `align` is 4, 8 or 16, and dst, src and bytes are
 * all multiples of it (the caller's promise: a debug build traps with the
 * values when it does not hold, from an out-of-line report; a release build
 * copies wrong bytes from misaligned addresses). With
 * `align` a constant, one loop of cp.async of `align` bytes, piece k by rank
 * k mod count, and the commit: no test, no other path. A run-time `align`
 * costs a test of it. Any other align: as cg_memcpy_async_stage. A size
 * that is not a multiple of align (outside the contract) copies its whole
 * pieces only: nothing past dst + bytes is written. */
CG_DEVICE void cg_memcpy_async_stage_aligned(uint32_t rank, uint32_t count, void *dst, const void *src, size_t bytes,
                                             uint32_t align)
{
    if (align != 4u && align != 8u && align != 16u) {
        cg_memcpy_async_stage(rank, count, dst, src, bytes);
        return;
    }
    CG_ASYNC_CHECK_ALIGNED_(dst, src, bytes, align);
    /* Whole pieces only: a size outside the contract (not a multiple of
     * align) never has a piece written past dst + bytes (C++'s
     * aligned_size_t<N> copies the same whole pieces). */
    const size_t whole = bytes & ~(size_t)(align - 1u);
    cg_memcpy_stage_whole_(rank, count, dst, src, whole, align, false);
}

/* ------------------------------------------------------------------------ */
/* Group copy completing on a barrier, alignment stated                      */
/* ------------------------------------------------------------------------ */

/* The engine behind the six-argument cg_memcpy_async_aligned(&g, dst, src,
 * bytes, align, &bar) (cg/group_copy.h) and cg_memcpy_async_thread: C++'s
 * cuda::memcpy_async(group, dst, src, cuda::aligned_size_t<align>(bytes),
 * barrier). The caller states that dst, src and bytes are multiples of
 * `align` (4, 8 or 16, a constant; a debug build traps with the values when
 * they are not; a release build copies the whole pieces of `align` bytes
 * that fit in `bytes` and never writes past dst + bytes). Same caller
 * contract as cg_memcpy_async_share (above): every thread of the group calls
 * it with the same arguments, before its own arrive on `bar` in the phase.
 * Any other `align`: cg_memcpy_async_share (alignment tested at run time).
 *
 *   align 16, sm_90: rank 0 starts one bulk copy completing on the barrier's
 *     mbarrier, then raises the phase's expected transaction count by the
 *     bytes: the PTX of cuda::memcpy_async with aligned_size_t<16>
 *     (tests/cg/groupapi: the same memory instructions in the same order). The
 *     copy may complete its bytes before the expect_tx (the tx-count may go
 *     below zero for a moment); the phase still waits for rank 0's own
 *     arrival, which comes after both. Nothing tested at run time.
 *   align 4 or 8 (or 16 below sm_90): each thread cp.async's its pieces of
 *     `align` bytes and waits for them (cp.async.wait_all) before it returns,
 *     so its later arrive publishes them (libcu++ makes a
 *     cp.async.mbarrier.arrive instead, which compute-sanitizer synccheck
 *     books as the thread's own arrival: see the top of this file).
 *
 * The async proxy: unlike the five-argument cg_memcpy_async, and like
 * cuda::memcpy_async, no fence.proxy.async.shared::cta precedes the bulk
 * copy. Per the PTX memory model, the engine's writes (async proxy) are
 * ordered after earlier generic-proxy accesses of dst (the previous tile's
 * reads, or writes, made before a block sync) only through a proxy fence:
 * where such accesses exist and must come first, call
 * cg_fence_proxy_async_smem() after that sync and before this call (every
 * thread may call it; it costs one FENCE.VIEW.ASYNC.S). A destination that
 * no thread touched since the previous copy into it completed needs none. */
CG_DEVICE void cg_memcpy_async_share_aligned(uint32_t rank, uint32_t count, void *dst, const void *src, size_t bytes,
                                             uint32_t align, cg_barrier_t *bar)
{
    if (align != 4u && align != 8u && align != 16u) {
        cg_memcpy_async_share(rank, count, dst, src, bytes, bar);
        return;
    }
    CG_ASYNC_CHECK_ALIGNED_(dst, src, bytes, align);
#if CG_DEBUG
    if (CG_UNLIKELY_(bytes > CG_MBARRIER_TX_MAX))
        cg_async_report_size_((unsigned long long)bytes);
#endif
    const size_t whole = bytes & ~(size_t)(align - 1u); /* never past dst + bytes */
#if CG_ARCH_HAS_SM90
    if (align == 16u) {
        if (rank == 0) {
            cg_mbarrier_t *mbar = cg_barrier_native_handle(bar);
            cg_bulk_copy_g2s(cg_smem_addr(dst), src, (uint32_t)whole, cg_smem_addr(mbar));
            cg_mbarrier_expect_tx(mbar, (uint32_t)whole);
        }
        return;
    }
#endif
    (void)bar;
    /* Waited for: this thread's copies land before its arrive can publish
     * them. */
    cg_memcpy_stage_whole_(rank, count, dst, src, whole, align, true);
}

/* One thread copies for itself, completing on `bar`: C++'s
 * cuda::memcpy_async(dst, src, cuda::aligned_size_t<align>(bytes), barrier)
 * called by one thread (no group: the calling thread is rank 0 of 1). As
 * cg_memcpy_async_share_aligned (above): `align` 16 on sm_90 starts one bulk
 * copy and raises the phase's expected bytes; 4 or 8, cp.async pieces this
 * thread waits for; any other `align`, the alignment is tested at run time.
 * The calling thread must take part in the barrier's current phase and not
 * have arrived in it yet (it arrives after this call). No proxy fence: see
 * cg_memcpy_async_share_aligned. */
CG_DEVICE void cg_memcpy_async_thread(void *dst, const void *src, size_t bytes, uint32_t align, cg_barrier_t *bar)
{
    cg_memcpy_async_share_aligned(0u, 1u, dst, src, bytes, align, bar);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_ASYNC_COPY_H */
