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
#include "../base/warp.h" /* cg_elect_sync: the thread that issues a bulk copy */

/* Multicast bulk copies exist only on the arch-specific targets (sm_90a,
 * sm_100a), not on plain sm_90: nvcc defines __CUDA_ARCH_FEAT_SM90_ALL for
 * -arch=sm_90a. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || defined(__CUDA_ARCH_FEAT_SM100_ALL)
#define CG_ARCH_HAS_MULTICAST 1
#else
#define CG_ARCH_HAS_MULTICAST 0
#endif

#if CG_DEVICE_CODE_VISIBLE

/* Build-time failure for multicast on a target without it (see CG_REQUIRE_SM90). */
extern "C" __device__ void cg_error_bulk_multicast_needs_an_arch_specific_target_compile_for_sm_90a_(void);

/* ------------------------------------------------------------------------ */
/* Bulk copy engine, global -> shared, completes on an mbarrier              */
/* ------------------------------------------------------------------------ */

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar];
 * PTX ISA 8.0, sm_90. One thread issues; the copy completes `bytes` of
 * transaction count on the mbarrier at mbar_saddr (same CTA as dst). */
CG_DEVICE_SM90 void cg_bulk_copy_g2s(uint32_t dst_saddr, const void *src, uint32_t bytes, uint32_t mbar_saddr)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];" ::"r"(
                     dst_saddr),
                 "l"(src), "r"(bytes), "r"(mbar_saddr)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)dst_saddr;
    (void)src;
    (void)bytes;
    (void)mbar_saddr;
#endif
}

/* cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [dst], [src], size, [mbar], ctaMask;
 * PTX ISA 8.0, sm_90a. One thread issues; the same bytes land at offset
 * dst_saddr in every CTA whose bit is set in cta_mask (bit i = cluster rank i),
 * and each of those CTAs gets complete_tx of `bytes` on its mbarrier at
 * offset mbar_saddr. */
CG_DEVICE void cg_bulk_copy_g2s_multicast(uint32_t dst_saddr, const void *src, uint32_t bytes, uint32_t mbar_saddr,
                                          uint16_t cta_mask)
{
#if CG_ARCH_HAS_MULTICAST
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%0], [%1], %2, "
                 "[%3], %4;" ::"r"(dst_saddr),
                 "l"(src), "r"(bytes), "r"(mbar_saddr), "h"(cta_mask)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    cg_error_bulk_multicast_needs_an_arch_specific_target_compile_for_sm_90a_();
#else
    (void)dst_saddr;
    (void)src;
    (void)bytes;
    (void)mbar_saddr;
    (void)cta_mask;
#endif
}

/* ------------------------------------------------------------------------ */
/* Bulk copy engine, shared -> global, completes through bulk async-groups   */
/* ------------------------------------------------------------------------ */

/* cp.async.bulk.global.shared::cta.bulk_group [dst], [src], size;
 * PTX ISA 8.0, sm_90. One thread issues; the engine reads src through the
 * async proxy, so generic writes to it need cg_fence_proxy_async_smem() by
 * their writers, then a barrier, first. Completion: cg_bulk_commit_group()
 * then cg_bulk_wait_group_read(N) (source may be overwritten) or
 * cg_bulk_wait_group(N) (writes done), by the same thread. */
CG_DEVICE_SM90 void cg_bulk_copy_s2g(void *dst, uint32_t src_saddr, uint32_t bytes)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(dst), "r"(src_saddr), "r"(bytes)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#else
    (void)dst;
    (void)src_saddr;
    (void)bytes;
#endif
}

/* cp.async.bulk.commit_group;   PTX ISA 8.0, sm_90.
 * Closes the executing thread's bulk async-group of the copies issued since
 * the previous commit. */
CG_DEVICE_SM90 void cg_bulk_commit_group(void)
{
#if CG_ARCH_HAS_SM90
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* cp.async.bulk.wait_group N;   PTX ISA 8.0, sm_90.
 * Waits until at most N of this thread's most recent bulk async-groups are
 * pending (all older ones complete: writes performed). N must be an integer
 * constant expression (the instruction takes an immediate), hence a macro. */
#if CG_ARCH_HAS_SM90
#define cg_bulk_wait_group(N) asm volatile("cp.async.bulk.wait_group %0;" ::"n"(N) : "memory")
#elif defined(__CUDA_ARCH__)
#define cg_bulk_wait_group(N) CG_REQUIRE_SM90()
#else
#define cg_bulk_wait_group(N) ((void)0)
#endif

/* cp.async.bulk.wait_group.read N;   PTX ISA 8.0, sm_90.
 * As cg_bulk_wait_group, but only until the sources have been read: the
 * shared memory they read may then be overwritten. */
#if CG_ARCH_HAS_SM90
#define cg_bulk_wait_group_read(N) asm volatile("cp.async.bulk.wait_group.read %0;" ::"n"(N) : "memory")
#elif defined(__CUDA_ARCH__)
#define cg_bulk_wait_group_read(N) CG_REQUIRE_SM90()
#else
#define cg_bulk_wait_group_read(N) ((void)0)
#endif

/* ------------------------------------------------------------------------ */
/* Per-thread cp.async (sm_80): the fallback for unaligned bulk sizes        */
/* ------------------------------------------------------------------------ */

/* cp.async.ca.shared::cta.global [dst], [src], 4;   PTX ISA 7.8, sm_80. dst/src 4-aligned. */
CG_DEVICE void cg_cp_async_4(uint32_t dst_saddr, const void *src)
{
#if CG_ARCH_HAS_SM80
    asm volatile("cp.async.ca.shared::cta.global [%0], [%1], 4;" ::"r"(dst_saddr), "l"(src) : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#else
    (void)dst_saddr;
    (void)src;
#endif
}

/* cp.async.ca.shared::cta.global [dst], [src], 8;   PTX ISA 7.8, sm_80. dst/src 8-aligned. */
CG_DEVICE void cg_cp_async_8(uint32_t dst_saddr, const void *src)
{
#if CG_ARCH_HAS_SM80
    asm volatile("cp.async.ca.shared::cta.global [%0], [%1], 8;" ::"r"(dst_saddr), "l"(src) : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#else
    (void)dst_saddr;
    (void)src;
#endif
}

/* cp.async.cg.shared::cta.global [dst], [src], 16;   PTX ISA 7.8, sm_80. dst/src 16-aligned.
 * .cg: cached in L2 only (streaming data bound for shared memory). */
CG_DEVICE void cg_cp_async_16(uint32_t dst_saddr, const void *src)
{
#if CG_ARCH_HAS_SM80
    asm volatile("cp.async.cg.shared::cta.global [%0], [%1], 16;" ::"r"(dst_saddr), "l"(src) : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#else
    (void)dst_saddr;
    (void)src;
#endif
}

/* cp.async.wait_all;   PTX ISA 7.0, sm_80.
 * Commits this thread's pending cp.async copies and waits until all of them
 * have completed: their writes are then performed and visible to this thread
 * (a later release — an mbarrier arrive, a block barrier — publishes them). */
CG_DEVICE void cg_cp_async_wait_all(void)
{
#if CG_ARCH_HAS_SM80
    asm volatile("cp.async.wait_all;" ::: "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#endif
}

/* cp.async.commit_group;   PTX ISA 7.0, sm_80.
 * Closes this thread's cp.async copies issued since the last commit into one
 * cp.async-group (a "stage"), which cp.async.wait_group counts. */
CG_DEVICE void cg_cp_async_commit_group(void)
{
#if CG_ARCH_HAS_SM80
    asm volatile("cp.async.commit_group;" ::: "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#endif
}

/* cp.async.wait_group N;   PTX ISA 7.0, sm_80.
 * Waits until at most N of this thread's committed cp.async-groups are still
 * pending (the newest N); the copies of the older ones are then performed
 * and visible to this thread. N must be a compile-time constant (the PTX
 * operand is an immediate): cg_cp_async_wait_prior takes a run-time one. */
#if CG_ARCH_HAS_SM80
#define cg_cp_async_wait_group(N) asm volatile("cp.async.wait_group %0;" ::"n"(N) : "memory")
#elif defined(__CUDA_ARCH__)
#define cg_cp_async_wait_group(N) CG_REQUIRE_SM80()
#else
#define cg_cp_async_wait_group(N) ((void)0)
#endif

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

/* cp.async.mbarrier.arrive.b64 [mbar];   PTX ISA 7.0, sm_80.
 * Makes the mbarrier track this thread's earlier cp.async copies: its pending
 * arrival count is raised by one now and lowered by one (an arrive-on) when
 * they have all completed, so the current phase cannot complete before they
 * have, and the thread's own arrivals are unchanged ("as if by another thread
 * bound to the barrier"). Contrast the .noinc form, which counts as one of the
 * expected arrivals.
 * compute-sanitizer synccheck (CUDA 13.0) books this as an arrival OF THE
 * CALLING THREAD in the current phase, so that thread's own arrive later in
 * the same phase is reported "Barrier error detected. Missing wait." and the
 * kernel is aborted; cg_memcpy_async therefore does not use it (it finishes
 * its cp.async copies with cg_cp_async_wait_all before returning). */
CG_DEVICE void cg_cp_async_mbarrier_arrive(uint32_t mbar_saddr)
{
#if CG_ARCH_HAS_SM80
    asm volatile("cp.async.mbarrier.arrive.b64 [%0];" ::"r"(mbar_saddr) : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#else
    (void)mbar_saddr;
#endif
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_ASYNC_BULK_H */
