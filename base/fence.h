/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/fence.h — the proxy fence between ordinary (generic-proxy) shared
 * memory accesses and the bulk copy engine (the async proxy).
 *
 * The bulk copy engine (cp.async.bulk, multicast, bulk stores, DSMEM bulk
 * pushes) reads and writes shared memory through the async proxy. Writes made
 * by threads with ordinary stores or atomics are in the generic proxy and are
 * not guaranteed to be seen by the async proxy without a proxy fence:
 *
 *   every writing thread:   write smem; cg_fence_proxy_async_smem();
 *   then a barrier:         __syncthreads() / cg_sync(&block) / mbarrier;
 *   then one thread:        issue the bulk copy that reads that smem.
 *
 * The same fence, issued by the thread that starts a bulk copy into shared
 * memory after a barrier, orders earlier generic reads of that memory (by any
 * thread that took part in the barrier) before the engine overwrites it. The
 * other direction needs nothing: data the engine wrote is visible to the
 * generic proxy once the mbarrier phase it completed on is observed complete.
 */
#ifndef CG_BASE_FENCE_H
#define CG_BASE_FENCE_H

#include "config.h"

#if CG_DEVICE_CODE_VISIBLE

/* fence.proxy.async.shared::cta;   PTX ISA 8.0, sm_90.
 * Orders this thread's generic-proxy shared memory accesses (and those it has
 * synchronized with) against its later async-proxy accesses. */
CG_DEVICE_SM90 void cg_fence_proxy_async_smem(void)
{
#if CG_ARCH_HAS_SM90
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* fence.proxy.async.global;   PTX ISA 8.0, sm_90.
 * The same for global memory: after a bulk store (cg_bulk_store) has completed
 * (cg_bulk_wait_group(0)), this orders its async-proxy writes before this
 * thread's later generic reads of that global memory. */
CG_DEVICE_SM90 void cg_fence_proxy_async_global(void)
{
#if CG_ARCH_HAS_SM90
    asm volatile("fence.proxy.async.global;" ::: "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_FENCE_H */
