/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * dsmem/dsmem.h — distributed shared memory: reaching the shared memory of
 * the other CTAs of a thread-block cluster (sm_90).
 *
 * Addresses. Every wrapper here takes 32-bit shared::cluster addresses, the
 * form the hardware uses; get one with cg_dsmem_addr(local_ptr, rank) (the
 * same-offset variable in CTA `rank`). A CTA's own shared::cta address is also
 * a valid shared::cluster address of itself.
 *
 * Three ways to move data, fastest last (remote loads run at a fraction of
 * local speed, remote stores near it: push, don't pull):
 *
 *   1. Pull / poke: weak loads and stores (cg_dsmem_ld_* / cg_dsmem_st_*),
 *      flags with explicit order (cg_dsmem_ld_acquire_u32 ...), atomics and
 *      reductions at cluster scope (cg_dsmem_atom_* / cg_dsmem_red_*). Their
 *      results are published with a cluster barrier or release/acquire flags.
 *
 *   2. Push from registers: st.async / red.async. The store (or reduction)
 *      lands in the receiver's shared memory and then performs complete_tx of
 *      its size in bytes on the receiver's mbarrier (same CTA as the data):
 *      the receiver needs no flag and no cluster barrier, it waits on its own
 *      mbarrier whose phase expected those bytes.
 *
 *   3. Push from shared memory: cg_dsmem_bulk_copy, the bulk copy engine
 *      moving a 16-byte-aligned block shared::cta -> shared::cluster, again
 *      completing its bytes on the receiver's mbarrier.
 *
 * The receiver's side of a push (2, 3), one phase of its mbarrier `bar`:
 *
 *   init:  one thread cg_mbarrier_init(&bar, 1); cg_mbarrier_init_fence_cluster();
 *          then a cluster barrier before any CTA pushes to it;
 *   round: one receiver thread  cg_mbarrier_arrive_tx(&bar, bytes)  (its
 *          arrival plus the bytes of every push of the round; pushes may land
 *          before or after it, the phase needs both);
 *          every reader  cg_mbarrier_wait_parity_cluster(&bar, parity)  (an
 *          acquire at CLUSTER scope: the bytes were released by another CTA's
 *          st.async/red.async, whose complete_tx is release.cluster), then
 *          parity ^= 1;
 *   reuse: a sender may push the next round into the same buffer only after
 *          the receiver has finished reading it (a cluster barrier, or the
 *          receiver's cg_dsmem_release(&empty, sender) on an "empty"
 *          mbarrier of the sender that the sender waits on with a cluster
 *          acquire: a release at CLUSTER scope restricted to the receiver's
 *          own shared memory; one at CTA scope let a sender overwrite data
 *          still being read on an H200, docs/design/dsmem_exchange.md); a
 *          bulk push into a released buffer is issued after
 *          cg_dsmem_fence_proxy_async() by the issuing thread (the engine
 *          writes through the async proxy);
 *   exit:  no CTA may exit while another may still push to it, or while its
 *          own bulk push may still be reading its shared memory: end with a
 *          cluster barrier (cg_cluster_sync) after the last wait.
 *
 * Recommended loop for a steady exchange (every CTA sends to one neighbour
 * and receives from another, round after round): TWO receive buffers, each
 * with a "full" mbarrier in the receiver (count 1) and an "empty" mbarrier
 * in the sender (count 1), and the next round PUSHED BEFORE this one is read:
 *
 *   push(0);
 *   for i in rounds:
 *     if i + 1 < rounds: push(i + 1)       -- into the neighbour's buffer
 *                                             (i+1)&1, after waiting on this
 *                                             CTA's empty[(i+1)&1] (not in
 *                                             rounds 0 and 1); in the same
 *                                             step one thread arrive_tx's the
 *                                             bytes it will RECEIVE on its own
 *                                             full[(i+1)&1]
 *     wait full[i&1] (parity (i>>1)&1); load this round into registers;
 *     block barrier; one thread cg_dsmem_release(&empty[i&1], sender);
 *     use the values.
 *
 * The link carries round i + 1 while round i is read and used. Two buffers
 * suffice: the push of round i + 1 reuses the buffer of round i - 1 and
 * waits for its release, which the receiver gave at the end of its
 * iteration i - 1; so iteration i of any CTA waits only on iterations
 * <= i - 1 of its neighbours (no deadlock in any ring or graph of
 * neighbours), and no round lands in a buffer still being read. The full
 * barrier of round i + 1 may receive bytes before the receiver's own
 * arrive_tx (the tx-count goes negative; the phase waits for both). Loading
 * before the release and using after it keeps the release off the critical
 * path. Measured, H200: 0.64-0.74x the time of a C++ CG map_shared_rank pull
 * with one 8 KiB message a round, 0.78-0.88x with eight
 * (docs/design/dsmem_exchange.md; tests/dsmem double_buffer_pushed_ahead_*).
 *
 * Sender side: cg_dsmem_push(&group, dst, src, bytes, &bar, rank) (every
 * thread of the group stores a share with st.async) or one thread's
 * cg_dsmem_push_bulk(dst, src, bytes, &bar, rank) (the bulk copy engine;
 * rank is another CTA, never the caller's own).
 *
 * Hardware limits: mbarrier tx-count below 2^20 per phase (so at most
 * 1 MiB - 1 pending bytes per phase; shared memory is smaller anyway);
 * bulk copies need 16-byte aligned addresses and a size multiple of 16;
 * st.async addresses are aligned to the access size (16 for v4).
 */
#ifndef CG_DSMEM_DSMEM_H
#define CG_DSMEM_DSMEM_H

#include "../barrier/mbarrier.h"
#include "../base/config.h"
#include "../base/ptx_form.h"
#include "../base/address.h"

#if CG_DEVICE_CODE_VISIBLE


/* ------------------------------------------------------------------------ */
/* Addresses                                                                 */
/* ------------------------------------------------------------------------ */

/* The shared::cluster address of the variable at `local_ptr`'s offset in CTA
 * `rank` of this cluster (mapa via base/address.h). local_ptr points into
 * the calling CTA's shared memory. */
CG_DEVICE_SM90 uint32_t cg_dsmem_addr(const void *local_ptr, uint32_t rank)
{
    return cg_smem_map_rank_addr(cg_smem_addr(local_ptr), rank);
}

/* ------------------------------------------------------------------------ */
/* The forms                                                                 */
/* ------------------------------------------------------------------------ */

/* One generated function per PTX form (dsmem_forms.h); every one MEM,
 * asm volatile with a "memory" clobber. caddr is a shared::cluster address.
 *
 * Weak loads and stores: data; order them with a barrier or a flag. v4
 *   forms: caddr 16-byte aligned (the v4 load, four results, is written out
 *   below by hand).
 * Flags: loads and stores with explicit order at cluster scope.
 * Atomics (return the old value) and reductions (no result), cluster scope.
 * st.async: push from registers; caddr and mbar_caddr are shared::cluster
 *   addresses in the same CTA. The store is weak; its complete_tx (of the
 *   stored size) on the mbarrier is release at cluster scope.
 * red.async: remote reduction; it completes the operand size (4 bytes, 8
 *   for .u64) on the mbarrier, which lives in the same CTA as caddr.
 * Bulk push: shared::cta -> shared::cluster through the bulk copy engine.
 *
 * The accesses are named cg_dsmem_<op>[_<order>]_<type>: the PTX's
 * operation, its memory order where it names one, its operand type
 * (b32/b64/u32/f32/v4 ...). Written by tools/ptx/gen.py from
 * dsmem_forms.tbl. */
#include "dsmem_forms.h"

/* ld.weak.shared::cluster.v4.b32 {d0,d1,d2,d3}, [a];   PTX ISA 7.8, sm_90.
 * caddr 16-byte aligned. Hand-written: four results. */
CG_DEVICE_SM90 uint4 cg_dsmem_ld_v4(uint32_t caddr)
{
    uint4 v = make_uint4(0, 0, 0, 0);
    CG_AT_SM90_(asm volatile("ld.weak.shared::cluster.v4.b32 {%0, %1, %2, %3}, [%4];"
                             : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
                             : "r"(caddr)
                             : "memory");)
    return v;
}

/* ------------------------------------------------------------------------ */
/* Exchange helpers: push a buffer into another CTA's shared memory          */
/* ------------------------------------------------------------------------ */

#if CG_DEBUG
/* The pushes' debug reports, out of line (base/config.h, CG_REPORT_). */
CG_REPORT_ void cg_dsmem_report_align_(const char *what, const void *dst, const void *src, uint32_t bytes,
                                       const char *rule)
{
    printf("cgc: %s(dst %p, src %p, %u bytes): %s\n", what, dst, src, bytes, rule);
    __trap();
}

/* A rank outside the cluster, named by the call the caller wrote (not by
 * the mbarrier call underneath it). */
CG_REPORT_ void cg_dsmem_report_rank_(const char *what, const void *bar, uint32_t rank, uint32_t n)
{
    printf("cgc: %s(mbarrier %p, rank %u): the cluster has %u blocks (block %d,%d,%d thread %d,%d,%d)\n", what, bar,
           rank, n, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}

CG_REPORT_ void cg_dsmem_report_self_(const void *dst, uint32_t to_rank)
{
    printf("cgc: cg_dsmem_push_bulk(dst %p, to rank %u): a bulk push goes to another CTA, not to the caller's "
           "own rank (block %d thread %d)\n",
           dst, to_rank, blockIdx.x, threadIdx.x);
    __trap();
}
#endif

/* One thread: push `bytes` from this CTA's shared `src` into CTA `to_rank`'s
 * copy of `dst` (the same-offset buffer there) with the bulk copy engine; it
 * completes `bytes` on CTA to_rank's copy of `bar`. 16-byte aligned src/dst,
 * bytes a multiple of 16. Writers of src must have fenced
 * (cg_fence_proxy_async_smem) and synchronized with this thread first. The
 * fastest way to move a large buffer: no thread of either CTA moves data.
 *
 * to_rank is ANOTHER CTA of the cluster, never the caller's own rank: the
 * shared::cta -> shared::cluster engine is a copy between CTAs, and aimed at
 * the issuing CTA itself compute-sanitizer memcheck reports every such copy
 * ("Invalid __shared__ write ... not located in remote CTA") and aborts the
 * kernel. Data that stays in this CTA needs no copy: read it in place, or
 * copy it with ordinary loads and stores (CG_DEBUG traps on a push to self). */
CG_DEVICE_SM90 void cg_dsmem_push_bulk(void *dst, const void *src, uint32_t bytes, cg_mbarrier_t *bar, uint32_t to_rank)
{
#if CG_DEBUG
    if (CG_UNLIKELY_((((uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes) & 15u) != 0))
        cg_dsmem_report_align_("cg_dsmem_push_bulk", dst, src, bytes, "needs 16-byte alignment and size");
    if (CG_UNLIKELY_(to_rank == cg_smem_rank_of_ptr(dst)))
        cg_dsmem_report_self_(dst, to_rank);
#endif
    cg_dsmem_bulk_copy(cg_dsmem_addr(dst, to_rank), cg_smem_addr(src), bytes, cg_dsmem_addr(bar, to_rank));
}

/* The receiver's release in the push protocol (the header's "reuse" step):
 * the calling thread is done with a receive buffer in ITS OWN CTA's shared
 * memory (it, and every thread it synchronized with through a CTA barrier
 * first, e.g. cg_thread_block_sync, read it); one arrival on the sender's
 * `empty` barrier (the same-offset mbarrier in CTA `sender_rank`) that
 * releases those accesses at cluster scope, so the sender's next pushes
 * land after them. No GPU-wide fence: the release is restricted to this
 * CTA's shared memory (cg_mbarrier_release_smem_remote; why it is enough:
 * docs/design/cross_cta_release.md). The sender acquires with
 * cg_mbarrier_wait_parity_cluster on its empty barrier; a sender that
 * refills with a bulk push (async proxy) also issues
 * cg_dsmem_fence_proxy_async() between that wait and the push.
 * Not for a buffer this thread read in ANOTHER CTA (a DSMEM pull): that
 * release needs cg_mbarrier_arrive_remote.
 * fence.release.sync_restrict::shared::cta.cluster;
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr]. */
CG_DEVICE_SM90 void cg_dsmem_release(cg_mbarrier_t *empty, uint32_t sender_rank)
{
#if CG_DEBUG /* reported as this call (the arrive's own check then folds away: the report does not return) */
    {
        uint32_t n = cg_hw_cluster_nctarank();
        if (CG_UNLIKELY_(sender_rank >= n))
            cg_dsmem_report_rank_("cg_dsmem_release", empty, sender_rank, n);
    }
#endif
    cg_mbarrier_release_smem_remote(empty, sender_rank);
}

/* The engine behind cg_dsmem_push(&group, ...) (cg/group_copy.h): the
 * calling thread is `rank` of the `count` threads that EXIST in the pushing
 * group (a partial tile has fewer than its size); they split the buffer and
 * each pushes its share with st.async (16, 8 or 4 bytes per store, the widest
 * the alignment allows). No proxy fence and no sync are needed on the sender:
 * each thread reads src with ordinary loads. bytes a multiple of 4. */
CG_DEVICE_SM90 void cg_dsmem_push_share(uint32_t rank, uint32_t count, void *dst, const void *src, uint32_t bytes,
                                   cg_mbarrier_t *bar, uint32_t to_rank)
{
    const uint32_t nthreads = count;
    const uintptr_t align = (uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes;
#if CG_DEBUG
    if (CG_UNLIKELY_((align & 3u) != 0))
        cg_dsmem_report_align_("cg_dsmem_push", dst, src, bytes, "st.async moves whole 4-byte words");
#endif
    const uint32_t d = cg_dsmem_addr(dst, to_rank);
    const uint32_t m = cg_dsmem_addr(bar, to_rank);
    const char *s = (const char *)src;
    if ((align & 15u) == 0) {
#pragma unroll 4
        for (uint32_t i = rank * 16u; i < bytes; i += nthreads * 16u)
            cg_dsmem_st_async_v4_b32(d + i, *(const uint4 *)(s + i), m);
    } else if ((align & 7u) == 0) {
#pragma unroll 4
        for (uint32_t i = rank * 8u; i < bytes; i += nthreads * 8u)
            cg_dsmem_st_async_v2_b32(d + i, *(const uint2 *)(s + i), m);
    } else {
#pragma unroll 4
        for (uint32_t i = rank * 4u; i < bytes; i += nthreads * 4u)
            cg_dsmem_st_async_b32(d + i, *(const uint32_t *)(s + i), m);
    }
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_DSMEM_DSMEM_H */
