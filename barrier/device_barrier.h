/*
 * barrier/device_barrier.h — cg_device_barrier_t, the C form of
 * cuda::barrier<thread_scope_device>: a split arrive/wait barrier in global
 * memory for threads of different blocks of one grid.
 *
 * Every participating block must be resident at the same time (launch with
 * cudaLaunchCooperativeKernel or the cooperative attribute, or stay within
 * the occupancy limit): a block that waits for a block that cannot start
 * deadlocks.
 *
 *     // host, once, before the kernel:
 *     cg_device_barrier_init_host(d_bar, threads_in_grid);
 *     // device:
 *     cg_token_t t = cg_device_barrier_arrive(bar);   // release.gpu
 *     ... independent work ...
 *     cg_device_barrier_wait(bar, t);                 // acquire.gpu
 *
 * Contract (std::barrier's, per thread): the barrier counts ARRIVALS, not
 * threads. Any thread may arrive on any barrier object from any branch,
 * whatever the other lanes of its warp do (other branches, other barriers,
 * other phases, exited); each wait compares the calling thread's own token. A
 * phase completes when `expected` arrivals have happened; more arrivals in one
 * phase than it still expects is undefined (a debug build reports it). A
 * thread that arrives again must first have seen the phase of its previous
 * arrival complete (its wait returned), as std::barrier requires.
 * arrive_and_drop arrives in the current phase and lowers the count of every
 * later phase by one.
 *
 * Memory order: arrive is a release at .gpu scope, wait an acquire at .gpu
 * scope: every write before any arrive of a phase is visible to every thread
 * after its wait for that phase.
 *
 * How: one 64-bit state word, the phase number in the high half and the
 * arrivals still pending in the low half, plus the expected count of later
 * phases. Lanes of one warp that arrive together on the SAME barrier
 * (__match_any_sync on its address) are counted by one atom.release.add of
 * their number; lanes naming other barriers form their own groups. The
 * arrival that takes the pending count to zero acquires (fence.acq_rel.gpu
 * after its RMW, which reads the end of every earlier arrival's release
 * sequence) and re-arms the word with the next phase number and the
 * expected count (st.release.gpu). A token is the phase number of its
 * arrival; every thread polls the state itself with ld.acquire.gpu until the
 * phase number has moved past its token's (a warp's converged poll is one
 * memory request, so sharing it would save nothing). A token of an older,
 * completed phase is complete at once.
 *
 * Limits: expected count 1 .. 2^20-1 (more than any device can hold
 * resident); phase numbers wrap after 2^32 phases (a token more than 2^31
 * phases old reads as not yet complete).
 * docs/design/divergence.md: what divergence each barrier allows and why.
 */
#ifndef CG_BARRIER_DEVICE_BARRIER_H
#define CG_BARRIER_DEVICE_BARRIER_H

#include "cg/config.h"
#include "cg/status.h"

/* In global memory, 8-byte aligned; initialize before the kernel uses it. */
typedef struct cg_device_barrier {
    uint64_t _state;    /* phase number << 32 | arrivals pending in this phase */
    uint32_t _expected; /* arrivals per phase from the next phase on */
    uint32_t _unused;
} cg_device_barrier_t;

/* Largest expected count of a device barrier. */
#define CG_DEVICE_BARRIER_MAX ((1u << 20) - 1u)

CG_EXTERN_C_BEGIN

/* Host: initialize the device-memory barrier `dev_bar` (a device pointer) for
 * `expected` arrivals per phase, synchronously (cudaMemcpy). Returns
 * CG_SUCCESS, CG_ERROR_INVALID_ARGUMENT (null), CG_ERROR_COUNT_RANGE
 * (expected outside 1 .. 2^20-1) or CG_ERROR_CUDA (the copy failed). */
cg_status_t cg_device_barrier_init_host(cg_device_barrier_t *dev_bar, uint32_t expected);

CG_EXTERN_C_END

#if CG_DEVICE_CODE_VISIBLE

#include "barrier/gpu_scope.h" /* the .gpu-scope loads, stores and atomics */
#include "barrier/mbarrier.h"   /* the debug checks */
#include "cg/sreg.h"           /* %laneid, %globaltimer */

/* Device-side init by one thread, for a barrier the grid starts using only
 * after a grid-wide synchronization or in a later kernel (plain stores). */
CG_DEVICE void cg_device_barrier_init(cg_device_barrier_t *b, uint32_t expected)
{
#if CG_DEBUG
    if (expected < 1u || expected > CG_DEVICE_BARRIER_MAX) {
        printf("cgc: cg_device_barrier_init(%p): count %u is outside 1..%u\n", (void *)b, expected,
               CG_DEVICE_BARRIER_MAX);
        __trap();
    }
#endif
    b->_state = expected; /* phase 0, every arrival pending */
    b->_expected = expected;
    b->_unused = 0;
}

/* The arrivals of the lanes that call this together on the same barrier
 * (release.gpu, one RMW for the group); the arrival that ends the phase
 * acquires and re-arms. `drop`: this lane also leaves the barrier. Returns
 * the phase number of the arrival. */
CG_DEVICE uint32_t cg_dbar_arrive_(cg_device_barrier_t *b, bool drop)
{
    /* Only lanes that name this very barrier are counted together. */
    const uint32_t peers = __match_any_sync(__activemask(), (unsigned long long)(uintptr_t)b);
    const uint32_t leader = (uint32_t)__ffs(peers) - 1u;
    const uint32_t n = (uint32_t)__popc(peers);
    const uint32_t ndrop = (uint32_t)__popc(__ballot_sync(peers, drop));
    uint64_t old = 0;
    __syncwarp(peers); /* every peer's writes before the leader's release */
    if (cg_sreg_laneid() == leader) {
        if (ndrop != 0u)
            cg_gpu_red_add_relaxed_u32(&b->_expected, 0u - ndrop);
        old = cg_gpu_atom_add_release_u64(&b->_state, (uint64_t)0 - n);
#if CG_DEBUG
        if ((uint32_t)old < n) {
            printf("cgc: cg_device_barrier arrive: device barrier at %p, phase %u: %u arrivals with only %u "
                   "pending (more arrivals than the phase expects) (block %d,%d,%d thread %d,%d,%d)\n",
                   (void *)b, (uint32_t)(old >> 32), n, (uint32_t)old, blockIdx.x, blockIdx.y, blockIdx.z,
                   threadIdx.x, threadIdx.y, threadIdx.z);
            __trap();
        }
#endif
        if ((uint32_t)old == n) {
            cg_gpu_fence_acq_rel(); /* acquire every arrival of the phase */
            const uint64_t next = cg_gpu_ld_relaxed_u32(&b->_expected);
            cg_gpu_st_release_u64(&b->_state, (((old >> 32) + 1u) << 32) | next);
        }
    }
    return __shfl_sync(peers, (uint32_t)(old >> 32), (int)leader);
}

/* One arrival; release at GPU scope; returns the phase's token. */
CG_DEVICE cg_token_t cg_device_barrier_arrive(cg_device_barrier_t *b)
{
    cg_token_t t;
    t._opaque = cg_dbar_arrive_(b, false);
    return t;
}

/* Arrive in this phase and leave: later phases expect one arrival fewer. */
CG_DEVICE void cg_device_barrier_arrive_and_drop(cg_device_barrier_t *b)
{
    (void)cg_dbar_arrive_(b, true);
}

/* True when the phase number in `state` is past the token's phase. */
CG_DEVICE bool cg_dbar_passed_(uint64_t state, cg_token_t tok)
{
    return (int32_t)((uint32_t)(state >> 32) - (uint32_t)tok._opaque) > 0;
}

#if CG_DEBUG
CG_DEVICE void cg_dbar_report_(cg_device_barrier_t *b, cg_token_t tok, uint64_t state, const char *why)
{
    printf("cgc: cg_device_barrier_wait: %s: device barrier at %p, token of phase %u, barrier in phase %u with "
           "%u arrivals pending (block %d,%d,%d thread %d,%d,%d)\n",
           why, (void *)b, (uint32_t)tok._opaque, (uint32_t)(state >> 32), (uint32_t)state, blockIdx.x,
           blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
#endif

/* One look: true when the phase of `tok` has completed (then acquire.gpu). */
CG_DEVICE bool cg_device_barrier_test_wait(cg_device_barrier_t *b, cg_token_t tok)
{
    return cg_dbar_passed_(cg_gpu_ld_acquire_u64(&b->_state), tok);
}

/* Block until the phase of `tok` completes; acquire at GPU scope. Each
 * thread polls for its own token. A debug build reports a token of a phase
 * that has not started (not from an arrive on this barrier) at once, and a
 * wait longer than CG_DEBUG_WAIT_TIMEOUT_NS, then traps. */
CG_DEVICE void cg_device_barrier_wait(cg_device_barrier_t *b, cg_token_t tok)
{
#if CG_DEBUG
    uint64_t state = cg_gpu_ld_acquire_u64(&b->_state);
    if ((int32_t)((uint32_t)tok._opaque - (uint32_t)(state >> 32)) > 0)
        cg_dbar_report_(b, tok, state, "token of a phase that has not started");
    const uint64_t t0 = cg_sreg_globaltimer_ns();
    while (!cg_dbar_passed_(state, tok)) {
        if (cg_sreg_globaltimer_ns() - t0 > (uint64_t)CG_DEBUG_WAIT_TIMEOUT_NS)
            cg_dbar_report_(b, tok, state, "deadlock (are all blocks resident? did every participant arrive?)");
        state = cg_gpu_ld_acquire_u64(&b->_state);
    }
#else
    while (!cg_device_barrier_test_wait(b, tok)) {
    }
#endif
}

/* arrive, then wait for that phase. */
CG_DEVICE void cg_device_barrier_arrive_and_wait(cg_device_barrier_t *b)
{
    cg_device_barrier_wait(b, cg_device_barrier_arrive(b));
}

/* Wait at most about `timeout_ns`: true when the phase of `tok` completed
 * (acquire.gpu), false when the time ran out. */
CG_DEVICE bool cg_device_barrier_try_wait_for(cg_device_barrier_t *b, cg_token_t tok,
                                              uint64_t timeout_ns)
{
    const uint64_t t0 = cg_sreg_globaltimer_ns();
    for (;;) {
        if (cg_device_barrier_test_wait(b, tok))
            return true;
        if (cg_sreg_globaltimer_ns() - t0 >= timeout_ns)
            return false;
    }
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_DEVICE_BARRIER_H */
