/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * async/bulk.h — one wrapper per PTX form of the asynchronous copy
 * instructions cgc uses: the sm_90 bulk copy engine (TMA, non-tensor) and the
 * sm_80 per-thread cp.async. async/copy.h builds the public copy calls on
 * these; use these directly when you manage addresses and mbarriers yourself.
 *
 * Addresses: `saddr` is a 32-bit shared::cta address (cg_smem_addr), `caddr`
 * a shared::cluster address (cg_dsmem_addr, or this CTA's own saddr), global
 * operands are plain pointers to global memory (a generic address of global
 * memory is its global address on every sm_90 part; CCCL relies on the same).
 *
 * Bulk copy rules (PTX ISA, cp.async.bulk): addresses 16-byte aligned, size a
 * multiple of 16; the mbarrier lives in the CTA that receives the data; each
 * copy performs complete_tx of `size` bytes on it. The phase's tx-count must
 * stay below 2^20 (1 MiB - 1 pending bytes).
 */
#ifndef CG_ASYNC_BULK_H
#define CG_ASYNC_BULK_H

#include "../base/fence.h"
#include "../base/config.h"
#include "../base/address.h"
#include "../base/ptx_form.h"
#include "../base/warp.h" /* cg_elect_sync: the thread that issues a bulk copy */

#if CG_DEVICE_CODE_VISIBLE

/* The forms (base/ptx_form.h reads the columns), one row each; every one is
 * asm volatile with a "memory" clobber. */
/* clang-format off */
#define CG_BULK_FORMS(X) \
    /* ---- Bulk copy engine, global -> shared, completes on an mbarrier ---- */ \
    /* One thread issues; the copy completes `bytes` of transaction count on the mbarrier at mbar_saddr (same CTA \
     * as dst). */ \
    X(VOID, cg_bulk_copy_g2s, 80, 90, MEM, (uint32_t dst_saddr, const void *src, uint32_t bytes, uint32_t mbar_saddr), "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];", ("r"(dst_saddr), "l"(src), "r"(bytes), "r"(mbar_saddr))) \
    /* Multicast (arch-specific targets only, CG_ARCH_HAS_MULTICAST): one thread issues; the same bytes land at \
     * offset dst_saddr in every CTA whose bit is set in cta_mask (bit i = cluster rank i), and each of those CTAs \
     * gets complete_tx of `bytes` on its mbarrier at offset mbar_saddr. */ \
    X(VOID, cg_bulk_copy_g2s_multicast, 80, 90a, MEM, (uint32_t dst_saddr, const void *src, uint32_t bytes, uint32_t mbar_saddr, uint16_t cta_mask), "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, " "[%3], %4;", ("r"(dst_saddr), "l"(src), "r"(bytes), "r"(mbar_saddr), "h"(cta_mask))) \
    /* ---- Bulk copy engine, shared -> global, completes through bulk async-groups ---- */ \
    /* One thread issues; the engine reads src through the async proxy, so generic writes to it need \
     * cg_fence_proxy_async_smem() by their writers, then a barrier, first. Completion: cg_bulk_commit_group() then \
     * cg_bulk_wait_group_read(N) (source may be overwritten) or cg_bulk_wait_group(N) (writes done), by the same \
     * thread. */ \
    X(VOID, cg_bulk_copy_s2g, 80, 90, MEM, (void *dst, uint32_t src_saddr, uint32_t bytes), "cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;", ("l"(dst), "r"(src_saddr), "r"(bytes))) \
    /* Closes the executing thread's bulk async-group of the copies issued since the previous commit. */ \
    X(VOID, cg_bulk_commit_group, 80, 90, MEM, (void), "cp.async.bulk.commit_group;", ()) \
    /* ---- Per-thread cp.async (sm_80): the fallback for unaligned bulk sizes ---- */ \
    /* dst/src 4-aligned. */ \
    X(VOID, cg_cp_async_4, 78, 80, MEM, (uint32_t dst_saddr, const void *src), "cp.async.ca.shared::cta.global [%0], [%1], 4;", ("r"(dst_saddr), "l"(src))) \
    /* dst/src 8-aligned. */ \
    X(VOID, cg_cp_async_8, 78, 80, MEM, (uint32_t dst_saddr, const void *src), "cp.async.ca.shared::cta.global [%0], [%1], 8;", ("r"(dst_saddr), "l"(src))) \
    /* dst/src 16-aligned. .cg: cached in L2 only (streaming data bound for shared memory). */ \
    X(VOID, cg_cp_async_16, 78, 80, MEM, (uint32_t dst_saddr, const void *src), "cp.async.cg.shared::cta.global [%0], [%1], 16;", ("r"(dst_saddr), "l"(src))) \
    /* Commits this thread's pending cp.async copies and waits until all of them have completed: their writes are \
     * then performed and visible to this thread (a later release — an mbarrier arrive, a block barrier — \
     * publishes them). */ \
    X(VOID, cg_cp_async_wait_all, 70, 80, MEM, (void), "cp.async.wait_all;", ()) \
    /* Closes this thread's cp.async copies issued since the last commit into one cp.async-group (a "stage"), which \
     * cp.async.wait_group counts. */ \
    X(VOID, cg_cp_async_commit_group, 70, 80, MEM, (void), "cp.async.commit_group;", ()) \
    /* Makes the mbarrier track this thread's earlier cp.async copies: its pending arrival count is raised by one \
     * now and lowered by one (an arrive-on) when they have all completed, so the current phase cannot complete \
     * before they have, and the thread's own arrivals are unchanged ("as if by another thread bound to the \
     * barrier"). Contrast the .noinc form, which counts as one of the expected arrivals. \
     * compute-sanitizer synccheck (CUDA 13.0) books this as an arrival OF THE CALLING THREAD in the current phase, \
     * so that thread's own arrive later in the same phase is reported "Barrier error detected. Missing wait." and \
     * the kernel is aborted; cg_memcpy_async therefore does not use it (it finishes its cp.async copies with \
     * cg_cp_async_wait_all before returning). */ \
    X(VOID, cg_cp_async_mbarrier_arrive, 70, 80, MEM, (uint32_t mbar_saddr), "cp.async.mbarrier.arrive.b64 [%0];", ("r"(mbar_saddr)))
/* clang-format on */

CG_BULK_FORMS(CG_PTX_FORM)

/* The wait_group forms take their N as an immediate ("n"): N must be an
 * integer constant expression, which no function parameter is, hence
 * macros, written out with the table's gate. */

/* cp.async.bulk.wait_group N;   PTX ISA 8.0, sm_90.
 * Waits until at most N of this thread's most recent bulk async-groups are
 * pending (all older ones complete: writes performed). */
#define cg_bulk_wait_group(N)                                                                                          \
    do {                                                                                                               \
        CG_AT_SM90_(asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory");)                                 \
    } while (0)

/* cp.async.bulk.wait_group.read N;   PTX ISA 8.0, sm_90.
 * As cg_bulk_wait_group, but only until the sources have been read: the
 * shared memory they read may then be overwritten. */
#define cg_bulk_wait_group_read(N)                                                                                     \
    do {                                                                                                               \
        CG_AT_SM90_(asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory");)                            \
    } while (0)

/* ---- A bulk store without its commit: several stores, one commit, one wait ---- */

#if CG_DEBUG
/* The store's alignment rule broken (debug build; out of line: base/config.h,
 * CG_REPORT_). */
CG_REPORT_ void cg_bulk_report_store_(const void *dst, const void *src, uint32_t bytes)
{
    printf("cgc: cg_bulk_store_issue(dst %p, src %p, %u bytes): a bulk store needs 16-byte aligned addresses and a "
           "size that is a multiple of 16 (block %d,%d,%d thread %d)\n",
           dst, src, bytes, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x);
    __trap();
}
#endif

/* One thread: issue a bulk store of `bytes` from this CTA's shared `src` to
 * global `dst` and return; it does NOT commit. The stores this thread issues
 * up to its next cg_bulk_commit_group() form one bulk async-group, so "two
 * stores, one commit, one wait" is
 *   cg_bulk_store_issue(d0, s0, n0); cg_bulk_store_issue(d1, s1, n1);
 *   cg_bulk_commit_group(); cg_bulk_wait_group_read(0);
 * (cuda::ptx::cp_async_bulk(space_global, space_shared, ...) twice, then
 * cp_async_bulk_commit_group() and cp_async_bulk_wait_group_read(0)). The
 * one-call cg_bulk_store (async/copy.h) is this and the commit. Ordering as
 * cg_bulk_copy_s2g: the writers of src fence (cg_fence_proxy_async_smem) and
 * synchronize with this thread first; src is reused after the group's
 * wait_group_read, the global data relied on after its wait_group, by this
 * thread. 16-byte aligned dst and src, bytes a multiple of 16 (a debug build
 * traps otherwise). cp.async.bulk.global.shared::cta.bulk_group; sm_90. */
CG_DEVICE_SM90 void cg_bulk_store_issue(void *dst, const void *src, uint32_t bytes)
{
#if CG_DEBUG
    if (CG_UNLIKELY_((((uintptr_t)dst | (uintptr_t)src | (uintptr_t)bytes) & 15u) != 0))
        cg_bulk_report_store_(dst, src, bytes);
#endif
    cg_bulk_copy_s2g(dst, cg_smem_addr(src), bytes);
}

/* cp.async.wait_group N;   PTX ISA 7.0, sm_80.
 * Waits until at most N of this thread's committed cp.async-groups are still
 * pending (the newest N); the copies of the older ones are then performed
 * and visible to this thread. cg_cp_async_wait_prior takes a run-time N. */
#define cg_cp_async_wait_group(N)                                                                                      \
    do {                                                                                                               \
        CG_AT_SM80_(asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory");)                                      \
    } while (0)

/* cp.async.wait_group with a run-time n: a switch over the immediates 0..7
 * (a constant n, after inlining, folds to its one instruction). n above 7
 * waits as for 7: at most 7 pending is within "at most n". */
CG_DEVICE void cg_cp_async_wait_prior(uint32_t n)
{
    switch (n) {
    case 0: cg_cp_async_wait_group(0); break;
    case 1: cg_cp_async_wait_group(1); break;
    case 2: cg_cp_async_wait_group(2); break;
    case 3: cg_cp_async_wait_group(3); break;
    case 4: cg_cp_async_wait_group(4); break;
    case 5: cg_cp_async_wait_group(5); break;
    case 6: cg_cp_async_wait_group(6); break;
    default: cg_cp_async_wait_group(7); break;
    }
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_ASYNC_BULK_H */
