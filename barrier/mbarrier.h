/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/mbarrier.h — the mbarrier core: one small C wrapper per PTX form.
 *
 * An mbarrier is a 64-bit object in shared memory that counts arrivals (and,
 * on sm_90, transaction bytes) through a sequence of phases:
 *
 *   init(count)            phase 0 starts with `count` pending arrivals, tx 0
 *   arrive[_n]             pending arrivals -= n (release: publishes the
 *                          arriving thread's earlier writes)
 *   expect_tx(b)           tx-count += b;  complete_tx(b): tx-count -= b
 *   arrive_tx(b)           expect_tx(b) then arrive, in one instruction
 *   arrive_drop            arrive, and the expected count of later phases -1
 *
 * A phase completes when BOTH its pending arrivals and its tx-count are zero;
 * the next phase then starts with the expected count. A waiter names the phase
 * it waits for either by the token its own arrive returned (the opaque 64-bit
 * state, cg_token_t) or by the parity (0/1) of that phase; a successful wait
 * is an acquire. A token or parity may name only the current phase or the one
 * just before it: the object remembers no more.
 *
 * Scopes. `.cta` forms order memory among the threads of this CTA; `.cluster`
 * forms are what a barrier that other CTAs of the cluster arrive on (remote
 * arrives, DSMEM writes, multicast copies) needs on both sides. Relaxed forms
 * order nothing (the phase still counts them): pair them with a fence, or use
 * them where only the count matters.
 *
 * Hardware limits (PTX ISA, mbarrier): arrival counts 1 .. 2^20-1, tx counts
 * 0 .. 2^20-1 per operation and the tx-count of a phase within
 * [-(2^20-1), 2^20-1]. CG_MBARRIER_MAX_COUNT / CG_MBARRIER_MAX_TX; a debug build
 * (CG_DEBUG=1) checks every count argument and traps with a message.
 *
 * Blocking waits are a try_wait loop: try_wait lets the hardware suspend the
 * thread until the phase completes (or a system time limit passes), so the
 * loop wakes with the phase instead of polling shared memory as a test_wait
 * spin does (measured: the arrive + try_wait loop is the fastest wait, a
 * test_wait spin is slower). In a debug build the loop is bounded by
 * CG_DEBUG_WAIT_TIMEOUT_NS of %globaltimer; on expiry it prints the barrier's
 * shared address and the phase (token or parity) waited for, then traps.
 *
 * Forms that exist on sm_80 (init, inval, pending_count) build there; every
 * form that names its memory order and scope (PTX ISA 8.0+) needs sm_90 and
 * stops the build on older targets with a message naming the feature.
 *
 * Not wrapped: the .relaxed waits (test_wait/try_wait .relaxed); add them
 * here, one wrapper each, if a user appears.
 */
#ifndef CG_BARRIER_MBARRIER_H
#define CG_BARRIER_MBARRIER_H

#include "../base/config.h"
#include "../base/sreg.h"
#include "../base/address.h"
#include "../base/fence.h"

/* The mbarrier object: 8 bytes, 8-byte aligned, in __shared__ memory. Opaque:
 * touch it only through the calls below. */
typedef struct cg_mbarrier {
    uint64_t _opaque;
} cg_mbarrier_t;

/* Largest arrival count of init/arrive_n (PTX ISA: count in 1 .. 2^20-1). */
#define CG_MBARRIER_MAX_COUNT CG_HW_COUNT_MAX
/* Largest tx count of one expect_tx/complete_tx/arrive_tx (0 .. 2^20-1). */
#define CG_MBARRIER_MAX_TX CG_HW_COUNT_MAX

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------ */
/* Internal helpers (not API)                                                */
/* ------------------------------------------------------------------------ */

CG_DEVICE cg_token_t cg_mbarrier_token_(uint64_t state)
{
    cg_token_t t;
    t._opaque = state;
    return t;
}

#if CG_DEBUG
/* Debug build: a count outside [lo, max] is misuse that the hardware would
 * turn into a silent hang or a corrupted barrier; report it and trap (out of
 * line: base/config.h, CG_REPORT_). */
CG_REPORT_ void cg_mbarrier_report_range_(const char *what, uint32_t addr, uint32_t v, uint32_t lo, uint32_t hi)
{
    printf("cgc: %s(mbarrier at shared 0x%x): count %u is outside %u..%u (block %d,%d,%d thread "
           "%d,%d,%d)\n",
           what, addr, v, lo, hi, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
CG_DEVICE void cg_mbarrier_check_range_(const char *what, const void *mb, uint32_t v, uint32_t lo,
                                        uint32_t hi)
{
    if (CG_UNLIKELY_(v < lo || v > hi))
        cg_mbarrier_report_range_(what, cg_smem_addr(mb), v, lo, hi);
}
#define CG_MBARRIER_CHECK_(what, mb, v, lo, hi) cg_mbarrier_check_range_((what), (mb), (v), (lo), (hi))
#else
/* Release build: the checks compile to nothing. */
#define CG_MBARRIER_CHECK_(what, mb, v, lo, hi) ((void)0)
#endif

/* ------------------------------------------------------------------------ */
/* Initialization, the cluster init fence, invalidation                     */
/* ------------------------------------------------------------------------ */

/* mbarrier.init.shared::cta.b64 [addr], count;   PTX ISA 7.8 (.shared 7.0), sm_80.
 * Phase 0, `count` pending arrivals (1 .. 2^20-1), tx-count 0. One thread
 * initializes; the others may use the barrier after a block barrier
 * (__syncthreads) or, for other CTAs of the cluster, after
 * cg_mbarrier_init_fence_cluster() and a cluster barrier. */
CG_DEVICE void cg_mbarrier_init(cg_mbarrier_t *mb, uint32_t count)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_init", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM80
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(cg_smem_addr(mb)), "r"(count)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#endif
}

/* fence.mbarrier_init.release.cluster;   PTX ISA 8.0, sm_90.
 * Release at cluster scope of this thread's earlier mbarrier.init: makes the
 * initialized barriers visible to the other CTAs of the cluster, which may
 * arrive on them (remotely) after a following cluster barrier (acquire). A
 * lightweight fence that orders only mbarrier.init. */
CG_DEVICE_SM90 void cg_mbarrier_init_fence_cluster(void)
{
#if CG_ARCH_HAS_SM90
    asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.inval.shared::cta.b64 [addr];   PTX ISA 7.8 (.shared 7.0), sm_80.
 * Ends the barrier's life so its 8 bytes may be reused as ordinary shared
 * memory (or re-initialized). No thread may be using it. */
CG_DEVICE void cg_mbarrier_inval(cg_mbarrier_t *mb)
{
#if CG_ARCH_HAS_SM80
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(cg_smem_addr(mb)) : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#endif
}

/* ------------------------------------------------------------------------ */
/* Arrive on this CTA's barrier (returns the token of the phase arrived in)  */
/* ------------------------------------------------------------------------ */

#if CG_ARCH_HAS_SM80 && !CG_ARCH_HAS_SM90
/* sm_80 (PTX 7.0 forms, no .release/.cta qualifiers: release at CTA scope is
 * their meaning). One arrival, or with `drop` an arrive_drop. */
CG_DEVICE uint64_t cg_mbarrier_arrive_sm80_(cg_mbarrier_t *mb, bool drop)
{
    uint64_t state = 0;
    if (drop)
        asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(state) : "r"(cg_smem_addr(mb)) : "memory");
    else
        asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(state) : "r"(cg_smem_addr(mb)) : "memory");
    return state;
}

/* sm_80: `count` arrivals (or drops) that must not complete the phase. */
CG_DEVICE uint64_t cg_mbarrier_no_complete_sm80_(cg_mbarrier_t *mb, uint32_t count, bool drop)
{
    uint64_t state = 0;
    if (drop)
        asm volatile("mbarrier.arrive_drop.noComplete.shared.b64 %0, [%1], %2;"
                     : "=l"(state)
                     : "r"(cg_smem_addr(mb)), "r"(count)
                     : "memory");
    else
        asm volatile("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;"
                     : "=l"(state)
                     : "r"(cg_smem_addr(mb)), "r"(count)
                     : "memory");
    return state;
}

/* sm_80 has no arrival count without noComplete: `count - 1` arrivals (or
 * drops) that cannot complete the phase, since the caller's last one is
 * still pending, then that one. Returns its state. */
CG_DEVICE uint64_t cg_mbarrier_arrive_n_sm80_(cg_mbarrier_t *mb, uint32_t count, bool drop)
{
    if (count > 1u)
        (void)cg_mbarrier_no_complete_sm80_(mb, count - 1u, drop);
    return cg_mbarrier_arrive_sm80_(mb, drop);
}
#endif

/* mbarrier.arrive.release.cta.shared::cta.b64 state, [addr];   PTX ISA 8.0, sm_90.
 * One arrival; release at CTA scope. */
CG_DEVICE cg_token_t cg_mbarrier_arrive(cg_mbarrier_t *mb)
{
    uint64_t state = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb))
                 : "memory");
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_arrive_sm80_(mb, false);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.release.cta.shared::cta.b64 state, [addr], count;   PTX ISA 8.0, sm_90.
 * `count` arrivals (1 .. 2^20-1) at once; release at CTA scope. */
CG_DEVICE cg_token_t cg_mbarrier_arrive_n(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(count)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_arrive_n_sm80_(mb, count, false);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.release.cluster.shared::cta.b64 state, [addr];   PTX ISA 8.0, sm_90.
 * One arrival on this CTA's barrier, release at cluster scope: for a barrier
 * that threads of other CTAs wait on or whose phase also carries remote data. */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_cluster(cg_mbarrier_t *mb)
{
    uint64_t state = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.release.cluster.shared::cta.b64 %0, [%1];"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb))
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.release.cluster.shared::cta.b64 state, [addr], count;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_n_cluster(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n_cluster", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.release.cluster.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(count)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.relaxed.cta.shared::cta.b64 state, [addr];   PTX ISA 8.6, sm_90.
 * One arrival that orders no memory (no "memory" clobber on purpose: the
 * compiler may move ordinary accesses across it, as the hardware may). */
CG_DEVICE cg_token_t cg_mbarrier_arrive_relaxed(cg_mbarrier_t *mb)
{
    uint64_t state = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.relaxed.cta.shared::cta.b64 %0, [%1];"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)));
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_arrive_sm80_(mb, false); /* no .relaxed on sm_80: release orders more, never less */
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.relaxed.cta.shared::cta.b64 state, [addr], count;   PTX ISA 8.6, sm_90. */
CG_DEVICE cg_token_t cg_mbarrier_arrive_n_relaxed(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n_relaxed", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.relaxed.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(count));
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_arrive_n_sm80_(mb, count, false);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.relaxed.cluster.shared::cta.b64 state, [addr];   PTX ISA 8.6, sm_90. */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_relaxed_cluster(cg_mbarrier_t *mb)
{
    uint64_t state = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cta.b64 %0, [%1];"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.relaxed.cluster.shared::cta.b64 state, [addr], count;   PTX ISA 8.6, sm_90. */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_n_relaxed_cluster(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n_relaxed_cluster", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(count));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.noComplete.release.cta.shared::cta.b64 state, [addr], count;   PTX ISA 8.0, sm_90.
 * `count` arrivals that must NOT complete the phase (undefined behaviour if
 * they would). Its token is the only kind cg_mbarrier_pending_count accepts. */
CG_DEVICE cg_token_t cg_mbarrier_arrive_no_complete(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_no_complete", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.noComplete.release.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(count)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_no_complete_sm80_(mb, count, false);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive_drop.noComplete.release.cta.shared::cta.b64 state, [addr], count;   PTX ISA 8.0, sm_90.
 * arrive_drop of `count` that must NOT complete the phase (undefined behaviour
 * if it would): `count` fewer expected from the next phase on. Its token is
 * one cg_mbarrier_pending_count accepts. */
CG_DEVICE cg_token_t cg_mbarrier_arrive_drop_no_complete(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_drop_no_complete", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive_drop.noComplete.release.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(count)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_no_complete_sm80_(mb, count, true);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.pending_count.b64 count, state;   PTX ISA 7.0, sm_80.
 * The pending arrival count recorded in a token: the count BEFORE that
 * arrival (an arrival of 1 on a phase with 2 pending reads 2; seen on an
 * H200). PTX defines it only for a token of arrive.noComplete or
 * arrive_drop.noComplete; any other token gives an undefined value. Pure
 * register operation. */
CG_DEVICE uint32_t cg_mbarrier_pending_count(cg_token_t tok)
{
    uint32_t n = 0;
#if CG_ARCH_HAS_SM80
    asm("mbarrier.pending_count.b64 %0, %1;" : "=r"(n) : "l"(tok._opaque));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM80();
#endif
    return n;
}

/*
 * Warp-aggregated arrive: the lanes of the warp that call this together AND
 * name the same mbarrier (__match_any_sync on its address) arrive as one: the
 * lowest of them arrives with their number as count, and each gets that
 * arrive's token. Lanes that name other mbarriers form their own groups, so
 * any lane may call it from any branch. The barrier still counts threads (a
 * converged warp of 32 is 32 arrivals).
 *
 * Memory order: __syncwarp(peers) (bar.warp.sync orders memory among the
 * threads it synchronizes) puts every peer's earlier writes before the
 * leader's release.cta arrive, so a waiter's acquire sees all of them.
 * The leader's arrive is predicated on its lane, not branched to: a branch
 * lets the peers run ahead to the token shuffle while the leader's path is
 * parked (independent thread scheduling), and under heavy divergence the
 * shuffle then met the wrong lanes (docs/design/device_barrier.md, "the
 * hang"). Emits: match.any.sync.b64, bar.warp.sync, one predicated
 * mbarrier.arrive.release.cta.shared::cta.b64 with a count, two shfl.sync
 * for the token. Measured no faster than one arrive per thread for block
 * barriers; use it when fewer arrive operations matter (e.g. arrivals on a
 * hot barrier shared with other work).
 */
CG_DEVICE cg_token_t cg_mbarrier_arrive_warp(cg_mbarrier_t *mb)
{
    const uint32_t peers = __match_any_sync(__activemask(), (unsigned long long)(uintptr_t)mb);
    const uint32_t leader = (uint32_t)__ffs(peers) - 1u;
    uint64_t state = 0;
    __syncwarp(peers);
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.eq.u32 p, %1, %2;\n\t"
                 "@p mbarrier.arrive.release.cta.shared::cta.b64 %0, [%3], %4;\n\t}"
                 : "+l"(state)
                 : "r"(cg_sreg_laneid()), "r"(leader), "r"(cg_smem_addr(mb)), "r"((uint32_t)__popc(peers))
                 : "memory");
#elif CG_ARCH_HAS_SM80
    /* sm_80: the leader's count - 1 arrivals that cannot complete, then one. */
    asm volatile("{\n\t.reg .pred p, q;\n\t"
                 "setp.eq.u32 p, %1, %2;\n\t"
                 "setp.gt.and.u32 q, %4, 1, p;\n\t"
                 "@q mbarrier.arrive.noComplete.shared.b64 %0, [%3], %5;\n\t"
                 "@p mbarrier.arrive.shared.b64 %0, [%3];\n\t}"
                 : "+l"(state)
                 : "r"(cg_sreg_laneid()), "r"(leader), "r"(cg_smem_addr(mb)), "r"((uint32_t)__popc(peers)),
                   "r"((uint32_t)__popc(peers) - 1u)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    state = __shfl_sync(peers, state, (int)leader);
    return cg_mbarrier_token_(state);
}

/* ------------------------------------------------------------------------ */
/* Transaction counts (sm_90): expect, complete, arrive with expect          */
/* ------------------------------------------------------------------------ */

/* mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 state, [addr], txCount;   PTX ISA 8.0, sm_90.
 * expect_tx(tx) then one arrival, atomically; release at CTA scope. The phase
 * then also waits for `tx` bytes (0 .. 2^20-1) to be completed (by bulk copies,
 * st.async, or complete_tx). */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(tx)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 state, [addr], txCount;   PTX ISA 8.0, sm_90.
 * As cg_mbarrier_arrive_tx, release at cluster scope (bytes that come from
 * other CTAs: multicast copies, remote st.async / bulk pushes). */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(tx)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 state, [addr], txCount;   PTX ISA 8.6, sm_90.
 * Orders no memory (no "memory" clobber). */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx_relaxed(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_relaxed", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 state, [addr], txCount;   PTX ISA 8.6, sm_90. */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx_relaxed_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_relaxed_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [addr], txCount;   PTX ISA 8.0, sm_90.
 * tx-count += tx (0 .. 2^20-1) for the current phase, no arrival. PTX has only
 * the relaxed form: the arrive that follows (or precedes) carries the order. */
CG_DEVICE_SM90 void cg_mbarrier_expect_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_expect_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(cg_smem_addr(mb)),
                 "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [addr], txCount;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 void cg_mbarrier_expect_tx_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_expect_tx_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [%0], %1;" ::"r"(
                     cg_smem_addr(mb)),
                 "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [addr], txCount;   PTX ISA 8.0, sm_90.
 * tx-count -= tx, as if `tx` bytes of an async transaction had landed. Relaxed
 * (PTX has no other form): it publishes no data; writes it stands for must be
 * ordered by the arrivals of the phase. */
CG_DEVICE_SM90 void cg_mbarrier_complete_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_complete_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(
                     cg_smem_addr(mb)),
                 "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [addr], txCount;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 void cg_mbarrier_complete_tx_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_complete_tx_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [%0], %1;" ::"r"(
                     cg_smem_addr(mb)),
                 "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* ------------------------------------------------------------------------ */
/* Arrive and drop out (expected count of later phases shrinks)              */
/* ------------------------------------------------------------------------ */

/* mbarrier.arrive_drop.release.cta.shared::cta.b64 state, [addr];   PTX ISA 8.0, sm_90.
 * One arrival in the current phase, and one fewer expected from the next
 * phase on; the thread takes no further part. Release at CTA scope. */
CG_DEVICE cg_token_t cg_mbarrier_arrive_drop(cg_mbarrier_t *mb)
{
    uint64_t state = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive_drop.release.cta.shared::cta.b64 %0, [%1];"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb))
                 : "memory");
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_arrive_sm80_(mb, true);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive_drop.release.cta.shared::cta.b64 state, [addr], count;   PTX ISA 8.0, sm_90. */
CG_DEVICE cg_token_t cg_mbarrier_arrive_drop_n(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_drop_n", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive_drop.release.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(count)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    state = cg_mbarrier_arrive_n_sm80_(mb, count, true);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive_drop.release.cluster.shared::cta.b64 state, [addr];   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_drop_cluster(cg_mbarrier_t *mb)
{
    uint64_t state = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive_drop.release.cluster.shared::cta.b64 %0, [%1];"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb))
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive_drop.relaxed.cta.shared::cta.b64 state, [addr];   PTX ISA 8.6, sm_90.
 * Orders no memory (no "memory" clobber). */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_drop_relaxed(cg_mbarrier_t *mb)
{
    uint64_t state = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive_drop.relaxed.cta.shared::cta.b64 %0, [%1];"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* mbarrier.arrive_drop.expect_tx.release.cta.shared::cta.b64 state, [addr], txCount;   PTX ISA 8.0, sm_90.
 * expect_tx(tx) and one arrive_drop, atomically. */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_drop_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t state = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_drop_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive_drop.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;"
                 : "=l"(state)
                 : "r"(cg_smem_addr(mb)), "r"(tx)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return cg_mbarrier_token_(state);
}

/* ------------------------------------------------------------------------ */
/* Arrive on the same-offset barrier of another CTA of the cluster (by rank) */
/* ------------------------------------------------------------------------ */
/*
 * `mb` is this CTA's barrier; the arrival lands on the barrier at the same
 * shared-memory offset in CTA `rank` of the cluster (which may be this CTA).
 * The address comes from cg_smem_map_rank_addr (mapa, base/address.h). A
 * shared::cluster arrive returns no token (PTX requires the sink `_`): the
 * remote CTA's threads wait on their own barrier, with .cluster acquire.
 * The remote barrier must have been initialized and made visible
 * (cg_mbarrier_init_fence_cluster + a cluster barrier) before the first remote
 * arrive, and its CTA must not exit while remote arrivals may still come.
 */

#if CG_DEBUG
/* Debug build: a rank outside the cluster maps to no CTA; report and trap. */
CG_REPORT_ void cg_mbarrier_report_rank_(const char *what, uint32_t addr, uint32_t rank, uint32_t n)
{
    printf("cgc: %s(mbarrier at shared 0x%x, rank %u): the cluster has %u blocks (block %d,%d,%d "
           "thread %d,%d,%d)\n",
           what, addr, rank, n, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
CG_DEVICE_SM90 void cg_mbarrier_check_rank_(const char *what, const void *mb, uint32_t rank)
{
    uint32_t n = cg_hw_cluster_nctarank();
    if (CG_UNLIKELY_(rank >= n))
        cg_mbarrier_report_rank_(what, cg_smem_addr(mb), rank, n);
}
#define CG_MBARRIER_CHECK_RANK_(what, mb, rank) cg_mbarrier_check_rank_((what), (mb), (rank))
#else
#define CG_MBARRIER_CHECK_RANK_(what, mb, rank) ((void)0)
#endif

/* The shared::cluster address of the same-offset barrier in CTA `rank`. */
CG_DEVICE_SM90 uint32_t cg_mbarrier_remote_addr_(cg_mbarrier_t *mb, uint32_t rank)
{
    return cg_smem_map_rank_addr(cg_smem_addr(mb), rank);
}

/* mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remAddr];   PTX ISA 8.0, sm_90.
 * One arrival on CTA `rank`'s barrier; release at cluster scope (publishes
 * this thread's earlier writes, DSMEM writes into that CTA included). */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote(cg_mbarrier_t *mb, uint32_t rank)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote", mb, rank);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank))
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remAddr], count;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_n(cg_mbarrier_t *mb, uint32_t rank, uint32_t count)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_n", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_remote_n", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank)),
                 "r"(count)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr];   PTX ISA 8.6, sm_90.
 * Counts only; orders no memory (no "memory" clobber). */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_relaxed(cg_mbarrier_t *mb, uint32_t rank)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_relaxed", mb, rank);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];" ::"r"(
        cg_mbarrier_remote_addr_(mb, rank)));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* @p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr];   PTX ISA 8.6, sm_90.
 * As cg_mbarrier_arrive_remote_relaxed when `pred` is nonzero, nothing
 * otherwise (the predicate is on the instruction: no branch). */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_relaxed_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t pred)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_relaxed_if", mb, rank);
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %1, 0;\n\t"
                 "@p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];\n\t}" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank)),
                 "r"(pred));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* @p mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remAddr];   PTX ISA 8.0, sm_90.
 * As cg_mbarrier_arrive_remote when `pred` is nonzero, nothing otherwise; the
 * predicate is applied to the instruction itself (no branch), so a warp can
 * call it uniformly and let only some lanes arrive. */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t pred)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_if", mb, rank);
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %1, 0;\n\t"
                 "@p mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];\n\t}" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank)),
                 "r"(pred)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [remAddr], txCount;   PTX ISA 8.0, sm_90.
 * expect_tx(tx) and one arrival on CTA `rank`'s barrier, atomically. */
CG_DEVICE_SM90 void cg_mbarrier_arrive_tx_remote(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_tx_remote", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_remote", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank)),
                 "r"(tx)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* @p mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [remAddr], txCount;   PTX ISA 8.0, sm_90.
 * As cg_mbarrier_arrive_tx_remote when `pred` is nonzero, nothing otherwise. */
CG_DEVICE_SM90 void cg_mbarrier_arrive_tx_remote_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx,
                                               uint32_t pred)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_tx_remote_if", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_remote_if", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "setp.ne.b32 p, %2, 0;\n\t"
                 "@p mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;\n\t}" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank)),
                 "r"(tx), "r"(pred)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [remAddr];   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 void cg_mbarrier_arrive_drop_remote(cg_mbarrier_t *mb, uint32_t rank)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_drop_remote", mb, rank);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [%0];" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank))
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [remAddr], txCount;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 void cg_mbarrier_expect_tx_remote(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_expect_tx_remote", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_expect_tx_remote", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank)),
                 "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [remAddr], txCount;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 void cg_mbarrier_complete_tx_remote(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_complete_tx_remote", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_complete_tx_remote", mb, tx, 0u, CG_MBARRIER_MAX_TX);
#if CG_ARCH_HAS_SM90
    asm volatile("mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;" ::"r"(
                     cg_mbarrier_remote_addr_(mb, rank)),
                 "r"(tx));
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
}

/* ------------------------------------------------------------------------ */
/* Handing this CTA's shared memory to a writer in another CTA              */
/* ------------------------------------------------------------------------ */
/*
 * A consumer that has finished with a buffer in ITS OWN CTA's shared memory
 * tells the CTA whose writer will overwrite it (a pipeline producer, a DSMEM
 * sender) by arriving on that CTA's "empty" mbarrier. The arrive must release
 * the consumer's reads (and writes) of the buffer at cluster scope, so they
 * are done before the overwrite. These calls do it without a GPU-wide fence:
 *
 *   fence{.proxy.async::generic}.release.sync_restrict::shared::cta.cluster;
 *   mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr];
 *
 * (the PTX ISA's own pattern for this handoff; base/fence.h). The writer's
 * side waits on its barrier with a cluster-scope acquire
 * (cg_mbarrier_try_wait_parity_cluster / cg_mbarrier_wait_parity_cluster),
 * which a release fence followed by a relaxed arrive synchronizes with.
 *
 * Use the plain form when the writer stores with the generic proxy (st.async,
 * red.async, DSMEM or ordinary stores), the _async form when it is the async
 * proxy (bulk/tensor copies, multicast).
 *
 * Limits, from the PTX memory model: the fence orders only this thread's
 * accesses to its own CTA's shared memory (and those it observed through a
 * CTA barrier such as __syncwarp). A consumer that READ another CTA's shared
 * memory through DSMEM, or whose accesses to global memory must be ordered,
 * releases with cg_mbarrier_arrive_remote (release.cluster) instead.
 * Why each library site qualifies: docs/design/cross_cta_release.md.
 */

/* fence.release.sync_restrict::shared::cta.cluster;
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr];   PTX ISA 8.6, sm_90.
 * One arrival on CTA `rank`'s barrier that releases this thread's accesses to
 * its own CTA's shared memory to a generic-proxy writer. */
CG_DEVICE_SM90 void cg_mbarrier_release_smem_remote(cg_mbarrier_t *mb, uint32_t rank)
{
    cg_fence_release_smem_cluster();
    cg_mbarrier_arrive_remote_relaxed(mb, rank);
}

/* The same, arriving only when `pred` is nonzero (the fence runs in every
 * calling thread; the arrive is predicated, no branch). */
CG_DEVICE_SM90 void cg_mbarrier_release_smem_remote_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t pred)
{
    cg_fence_release_smem_cluster();
    cg_mbarrier_arrive_remote_relaxed_if(mb, rank, pred);
}

/* fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr];   PTX ISA 8.6, sm_90.
 * As cg_mbarrier_release_smem_remote, for an async-proxy writer (TMA, bulk
 * copy, multicast) that will overwrite the buffer. */
CG_DEVICE_SM90 void cg_mbarrier_release_smem_remote_async(cg_mbarrier_t *mb, uint32_t rank)
{
    cg_fence_proxy_async_release_smem_cluster();
    cg_mbarrier_arrive_remote_relaxed(mb, rank);
}

/* The same, arriving only when `pred` is nonzero. */
CG_DEVICE_SM90 void cg_mbarrier_release_smem_remote_async_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t pred)
{
    cg_fence_proxy_async_release_smem_cluster();
    cg_mbarrier_arrive_remote_relaxed_if(mb, rank, pred);
}

/* ------------------------------------------------------------------------ */
/* Non-blocking tests (one look, no suspension)                              */
/* ------------------------------------------------------------------------ */

/* mbarrier.test_wait.acquire.cta.shared::cta.b64 waitComplete, [addr], state;   PTX ISA 8.0, sm_90.
 * True when the phase of `tok` has completed; then acquire at CTA scope. */
CG_DEVICE bool cg_mbarrier_test_wait(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "l"(tok._opaque)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.shared.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "l"(tok._opaque)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.test_wait.acquire.cluster.shared::cta.b64 waitComplete, [addr], state;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 bool cg_mbarrier_test_wait_cluster(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "l"(tok._opaque)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 waitComplete, [addr], phaseParity;   PTX ISA 8.0, sm_90.
 * True when the phase of parity `parity` (0 or 1; the current or the previous
 * phase) has completed; then acquire at CTA scope. */
CG_DEVICE bool cg_mbarrier_test_wait_parity(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.shared.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 waitComplete, [addr], phaseParity;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 bool cg_mbarrier_test_wait_parity_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* ------------------------------------------------------------------------ */
/* Potentially blocking tests: the hardware may suspend the thread until the */
/* phase completes or a time limit passes (system-defined, or the hint in ns)*/
/* ------------------------------------------------------------------------ */

/* mbarrier.try_wait.acquire.cta.shared::cta.b64 waitComplete, [addr], state;   PTX ISA 8.0, sm_90. */
CG_DEVICE bool cg_mbarrier_try_wait(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "l"(tok._opaque)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    done = cg_mbarrier_test_wait(mb, tok); /* sm_80 has no try_wait: one look */
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.acquire.cluster.shared::cta.b64 waitComplete, [addr], state;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_cluster(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "l"(tok._opaque)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.acquire.cta.shared::cta.b64 waitComplete, [addr], state, suspendTimeHint;   PTX ISA 8.0, sm_90.
 * As cg_mbarrier_try_wait; the thread is suspended at most about `hint_ns`. */
CG_DEVICE bool cg_mbarrier_try_wait_hint(cg_mbarrier_t *mb, cg_token_t tok, uint32_t hint_ns)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2, %3;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "l"(tok._opaque), "r"(hint_ns)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    (void)hint_ns; /* sm_80 has no try_wait: one look (a try that timed out at once) */
    done = cg_mbarrier_test_wait(mb, tok);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.acquire.cluster.shared::cta.b64 waitComplete, [addr], state, suspendTimeHint;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_hint_cluster(cg_mbarrier_t *mb, cg_token_t tok, uint32_t hint_ns)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.acquire.cluster.shared::cta.b64 p, [%1], %2, %3;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "l"(tok._opaque), "r"(hint_ns)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 waitComplete, [addr], phaseParity;   PTX ISA 8.0, sm_90. */
CG_DEVICE bool cg_mbarrier_try_wait_parity(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    done = cg_mbarrier_test_wait_parity(mb, parity); /* sm_80 has no try_wait: one look */
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 waitComplete, [addr], phaseParity;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_parity_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 waitComplete, [addr], phaseParity;   PTX ISA 8.6, sm_90.
 * Observes the phase without acquiring: follow a true result with
 * cg_fence_acquire_smem_cluster() (or its proxy form) before touching the
 * shared memory the phase hands over. The "memory" clobber keeps the
 * compiler from hoisting later accesses above the poll. */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_parity_relaxed_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 p, [%1], %2;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 waitComplete, [addr], phaseParity, suspendTimeHint;   PTX ISA 8.0, sm_90. */
CG_DEVICE bool cg_mbarrier_try_wait_parity_hint(cg_mbarrier_t *mb, uint32_t parity, uint32_t hint_ns)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2, %3;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity), "r"(hint_ns)
                 : "memory");
#elif CG_ARCH_HAS_SM80
    (void)hint_ns; /* sm_80 has no try_wait: one look (a try that timed out at once) */
    done = cg_mbarrier_test_wait_parity(mb, parity);
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 waitComplete, [addr], phaseParity, suspendTimeHint;   PTX ISA 8.0, sm_90. */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_parity_hint_cluster(cg_mbarrier_t *mb, uint32_t parity,
                                                        uint32_t hint_ns)
{
    uint32_t done = 0;
#if CG_ARCH_HAS_SM90
    asm volatile("{\n\t.reg .pred p;\n\t"
                 "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2, %3;\n\t"
                 "selp.b32 %0, 1, 0, p;\n\t}"
                 : "=r"(done)
                 : "r"(cg_smem_addr(mb)), "r"(parity), "r"(hint_ns)
                 : "memory");
#elif defined(__CUDA_ARCH__)
    CG_REQUIRE_SM90();
#endif
    return done != 0;
}

/* ------------------------------------------------------------------------ */
/* Blocking waits: a try_wait loop (debug build: bounded, reports, traps)   */
/* ------------------------------------------------------------------------ */

/* The parity of the phase the barrier is in now (test_wait.parity of 0 is true
 * exactly when the current phase has parity 1). For debug reports and tests. */
CG_DEVICE uint32_t cg_mbarrier_current_parity(cg_mbarrier_t *mb)
{
    return cg_mbarrier_test_wait_parity(mb, 0u) ? 1u : 0u;
}

#if CG_DEBUG
/* Debug build: a wait that outlived CG_DEBUG_WAIT_TIMEOUT_NS is a deadlock
 * (misuse: a stale token, a phase nobody will complete, a missing arrival).
 * Name the barrier and the phase, then trap so the host sees an error. Out
 * of line (CG_REPORT_): the wait site keeps its try_wait loop, a timer read
 * and a compare. */
CG_REPORT_ void cg_mbarrier_report_deadlock_(const char *what, uint32_t addr, int by_token, uint64_t phase)
{
    unsigned now = cg_mbarrier_current_parity((cg_mbarrier_t *)cg_smem_generic(addr));
    if (by_token)
        printf("cgc: %s: deadlock: mbarrier at shared 0x%x, waiting for the phase of token 0x%llx "
               "for %llu ns; the barrier is in a phase of parity %u (block %d,%d,%d thread %d,%d,%d)\n",
               what, addr, (unsigned long long)phase, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS,
               now, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    else
        printf("cgc: %s: deadlock: mbarrier at shared 0x%x, waiting for the phase of parity %llu "
               "for %llu ns; the barrier is in a phase of parity %u (block %d,%d,%d thread %d,%d,%d)\n",
               what, addr, (unsigned long long)phase, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS,
               now, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
/* Spin on `try_expr` until true; after CG_DEBUG_WAIT_TIMEOUT_NS report and trap.
 * A macro so the four blocking waits share one loop without a function
 * pointer (which would cost a call per try). The timer check is the whole
 * cost over the release loop (CG_DEBUG_TIMER_* below). */
#define CG_MBARRIER_SPIN_(try_expr, what, mb, by_token, phase)                                     \
    do {                                                                                           \
        const uint32_t cg_t0_ = cg_debug_timer_start_();                                           \
        bool cg_late_ = false;                                                                     \
        while (!(try_expr)) {                                                                      \
            if (CG_UNLIKELY_(cg_debug_timer_expired_(cg_t0_))) {                                   \
                cg_late_ = true;                                                                   \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
        if (CG_UNLIKELY_(cg_late_))                                                                \
            cg_mbarrier_report_deadlock_((what), cg_smem_addr(mb), (by_token), (phase));           \
    } while (0)
#else
/* Release build: the bare try_wait loop, nothing else. */
#define CG_MBARRIER_SPIN_(try_expr, what, mb, by_token, phase)                                     \
    do {                                                                                           \
        while (!(try_expr)) {                                                                      \
        }                                                                                          \
    } while (0)
#endif

/* Wait until the phase of `tok` completes; acquire at CTA scope.
 * Loop of mbarrier.try_wait.acquire.cta.shared::cta.b64. */
CG_DEVICE void cg_mbarrier_wait(cg_mbarrier_t *mb, cg_token_t tok)
{
    CG_MBARRIER_SPIN_(cg_mbarrier_try_wait(mb, tok), "cg_mbarrier_wait", mb, 1, tok._opaque);
}

/* Wait until the phase of `tok` completes; acquire at cluster scope.
 * Loop of mbarrier.try_wait.acquire.cluster.shared::cta.b64. */
CG_DEVICE_SM90 void cg_mbarrier_wait_cluster(cg_mbarrier_t *mb, cg_token_t tok)
{
    CG_MBARRIER_SPIN_(cg_mbarrier_try_wait_cluster(mb, tok), "cg_mbarrier_wait_cluster", mb, 1,
                      tok._opaque);
}

/* Wait until the phase of parity `parity` completes; acquire at CTA scope.
 * Loop of mbarrier.try_wait.parity.acquire.cta.shared::cta.b64. */
CG_DEVICE void cg_mbarrier_wait_parity(cg_mbarrier_t *mb, uint32_t parity)
{
    CG_MBARRIER_SPIN_(cg_mbarrier_try_wait_parity(mb, parity), "cg_mbarrier_wait_parity", mb, 0,
                      parity);
}

/* Wait until the phase of parity `parity` completes; acquire at cluster scope.
 * Loop of mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64. */
CG_DEVICE_SM90 void cg_mbarrier_wait_parity_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    CG_MBARRIER_SPIN_(cg_mbarrier_try_wait_parity_cluster(mb, parity),
                      "cg_mbarrier_wait_parity_cluster", mb, 0, parity);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_MBARRIER_H */
