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

/* The forms (bulk_forms.h, written by tools/ptx/gen.py from bulk_forms.tbl), one function each; every one is
 * asm volatile with a "memory" clobber. */
#include "bulk_forms.h"

/* The wait_group forms take their N as an immediate ("n"): N must be an
 * integer constant expression, which no function parameter is, hence
 * macros, written out with the generated forms' gate. */

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
