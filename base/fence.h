/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/fence.h — fences: the CTA-scope acquire-release fence, the proxy fences between ordinary (generic-proxy)
 * accesses and the bulk copy engine (the async proxy), and the
 * shared-memory-restricted cluster fences of cross-CTA handoffs (below).
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
#include "ptx_form.h"

#if CG_DEVICE_CODE_VISIBLE

/*
 * Shared-memory-restricted fences (PTX ISA 8.6, sm_90): the cheap half of a
 * handoff of SHARED memory between CTAs of a cluster.
 *
 * A release at cluster scope (mbarrier.arrive.release.cluster,
 * barrier.cluster.arrive.release, fence.acq_rel.cluster) must order every
 * earlier access of the thread, global memory included, so on sm_90 it waits
 * for the memory system GPU-wide (MEMBAR.ALL.GPU in SASS). When the only
 * thing handed over is this CTA's shared memory, a release fence restricted
 * to shared::cta orders exactly that, at cluster scope, and costs a CTA-level
 * barrier (MEMBAR.ALL.CTA). The pattern (PTX ISA, "membar/fence", and the
 * mbarrier examples):
 *
 *   releasing thread:  accesses to its OWN CTA's shared memory;
 *                      cg_fence_release_smem_cluster();     (or the proxy form)
 *                      a relaxed cluster-scope arrive (mbarrier or barrier.cluster)
 *   acquiring thread:  a wait that observes that arrive (relaxed, or acquire);
 *                      cg_fence_acquire_smem_cluster() when the wait was relaxed;
 *                      then its shared::cluster accesses (local or DSMEM).
 *
 * What they do NOT order: global memory; the releasing thread's DSMEM
 * accesses to OTHER CTAs' shared memory (a consumer that pulled a peer's
 * buffer through DSMEM must release at cluster scope: cg_mbarrier_arrive_remote).
 * A thread's accesses that it observed from other threads of its CTA through
 * a CTA barrier (__syncwarp, bar.sync, an mbarrier) are included by
 * cumulativity, as for any release.
 *
 * Proxy forms: when the side after the handoff accesses the memory through
 * the async proxy (a TMA / bulk copy / multicast writes the released buffer),
 * the generic-to-async ordering must be part of the release: use the
 * fence.proxy.async::generic form instead of the plain one.
 */

/* The fences (fence_forms.h, written by tools/ptx/gen.py from fence_forms.tbl): all MEM, a "memory"
 * clobber, so the compiler moves no access across them. In order of
 * scope: the CTA fence, the shared-memory-restricted cluster fences above,
 * then the proxy fences. */
#include "fence_forms.h"

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_FENCE_H */
