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
 * Layout: one 32-bit state word, bit 31 the parity of the phase being
 * collected and bits 0..30 the arrivals it still waits for, plus the expected
 * count of later phases (arrive_and_drop lowers it). Arrivals are aggregated
 * per converged warp (one atomic per warp). The arrival that takes the count
 * to zero acquires (fence.acq_rel.gpu after its RMW: every earlier arrival's
 * release RMW precedes it in observation order), then re-arms the word for
 * the next phase with st.release.gpu, which flips the parity bit. Waiters poll
 * the word (one lane per converged warp) with ld.acquire.gpu until the parity
 * differs from their token's, then __syncwarp hands the acquire to the other
 * lanes. So every write before any arrive of a phase is visible to every
 * thread after its wait for that phase. As std::barrier requires, a thread
 * arrives in the next phase only after it has seen the current one complete.
 *
 * Limits: expected count 1 .. 2^20-1 (more than any device can hold resident).
 */
#ifndef CG_BARRIER_DEVICE_BARRIER_H
#define CG_BARRIER_DEVICE_BARRIER_H

#include "cg/config.h"
#include "cg/status.h"

/* In global memory, 4-byte aligned; initialize before the kernel uses it. */
typedef struct cg_device_barrier {
    uint32_t _state;    /* bit 31: phase parity; bits 0..30: arrivals pending */
    uint32_t _expected; /* arrivals per phase from the next phase on */
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
    b->_state = expected;
    b->_expected = expected;
}

/* Count the converged warp set's arrivals (release.gpu); the arrival that
 * ends the phase acquires and re-arms. Returns the phase parity. */
CG_DEVICE uint32_t cg__dbar_arrive(cg_device_barrier_t *b, bool drop)
{
    uint32_t mask = __activemask();
    uint32_t leader = (uint32_t)__ffs(mask) - 1u;
    uint32_t n = (uint32_t)__popc(mask);
    uint32_t old = 0;
    __syncwarp(mask); /* every lane's writes before the leader's release */
    if (cg_sreg_laneid() == leader) {
        if (drop)
            cg_gpu_red_add_relaxed_u32(&b->_expected, 0u - n);
        old = cg_gpu_atom_add_release_u32(&b->_state, 0u - n);
#if CG_DEBUG
        if ((old & 0x7FFFFFFFu) < n) {
            printf("cgc: cg_device_barrier arrive: barrier at %p got %u arrivals in the phase of parity "
                   "%u with only %u pending (block %d,%d,%d thread %d,%d,%d)\n",
                   (void *)b, n, old >> 31, old & 0x7FFFFFFFu, blockIdx.x, blockIdx.y, blockIdx.z,
                   threadIdx.x, threadIdx.y, threadIdx.z);
            __trap();
        }
#endif
        if ((old & 0x7FFFFFFFu) == n) {
            cg_gpu_fence_acq_rel(); /* acquire every arrival of the phase */
            uint32_t next = cg_gpu_ld_relaxed_u32(&b->_expected);
            cg_gpu_st_release_u32(&b->_state, ((~old) & 0x80000000u) | next);
        }
    }
    old = __shfl_sync(mask, old, (int)leader);
    return old >> 31;
}

/* One arrival; release at GPU scope; returns the phase's token. */
CG_DEVICE cg_token_t cg_device_barrier_arrive(cg_device_barrier_t *b)
{
    cg_token_t t;
    t._opaque = cg__dbar_arrive(b, false);
    return t;
}

/* Arrive in this phase and leave: later phases expect one arrival fewer. */
CG_DEVICE void cg_device_barrier_arrive_and_drop(cg_device_barrier_t *b)
{
    (void)cg__dbar_arrive(b, true);
}

/* One look: true when the phase of `tok` has completed (then acquire.gpu). */
CG_DEVICE bool cg_device_barrier_test_wait(cg_device_barrier_t *b, cg_token_t tok)
{
    return (cg_gpu_ld_acquire_u32(&b->_state) >> 31) != (uint32_t)tok._opaque;
}

#if CG_DEBUG
CG_DEVICE void cg__dbar_deadlock(cg_device_barrier_t *b, uint32_t parity)
{
    printf("cgc: cg_device_barrier_wait: deadlock: device barrier at %p, waiting for the phase of "
           "parity %u for %llu ns (are all blocks resident? did every participant arrive?) (block "
           "%d,%d,%d thread %d,%d,%d)\n",
           (void *)b, parity, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, blockIdx.x, blockIdx.y,
           blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
#endif

/* Block until the phase of `tok` completes; acquire at GPU scope. One lane
 * of the converged set polls; __syncwarp passes its acquire to the others. */
CG_DEVICE void cg_device_barrier_wait(cg_device_barrier_t *b, cg_token_t tok)
{
    uint32_t mask = __activemask();
    uint32_t parity = (uint32_t)tok._opaque;
    if (cg_sreg_laneid() == (uint32_t)__ffs(mask) - 1u) {
#if CG_DEBUG
        uint64_t t0 = cg_sreg_globaltimer_ns();
        while ((cg_gpu_ld_acquire_u32(&b->_state) >> 31) == parity)
            if (cg_sreg_globaltimer_ns() - t0 > (uint64_t)CG_DEBUG_WAIT_TIMEOUT_NS)
                cg__dbar_deadlock(b, parity);
#else
        while ((cg_gpu_ld_acquire_u32(&b->_state) >> 31) == parity) {
        }
#endif
    }
    __syncwarp(mask);
}

/* arrive, then wait for that phase. */
CG_DEVICE void cg_device_barrier_arrive_and_wait(cg_device_barrier_t *b)
{
    cg_device_barrier_wait(b, cg_device_barrier_arrive(b));
}

/* Wait at most about `timeout_ns`: true when the phase of `tok` completed
 * (acquire.gpu), false when the time ran out. Each thread polls by itself. */
CG_DEVICE bool cg_device_barrier_try_wait_for(cg_device_barrier_t *b, cg_token_t tok,
                                              uint64_t timeout_ns)
{
    uint64_t t0 = cg_sreg_globaltimer_ns();
    for (;;) {
        if (cg_device_barrier_test_wait(b, tok))
            return true;
        if (cg_sreg_globaltimer_ns() - t0 >= timeout_ns)
            return false;
    }
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_DEVICE_BARRIER_H */
