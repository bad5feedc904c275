/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/block_barrier.h — cg_barrier_t, the C form of
 * cuda::barrier<thread_scope_block> (in __shared__): arrive -> token,
 * wait(token), arrive_and_wait, arrive_and_drop, wait_parity, timed
 * try_wait, tx-count variants, native handle. Exactly one mbarrier: each call
 * is the mbarrier instruction it names, nothing more. barrier/barrier.h
 * includes it with the other barrier objects.
 *
 * Why two block types instead of one with an optional function: the arrive of
 * a barrier with a function is a different algorithm (see cg_barrier_fn_t).
 * Choosing it at run time would put a dependent shared-memory load and a
 * branch in front of every plain arrive — about as long as the arrive itself
 * on the critical path, against a target of 5% over the bare mbarrier. In C++
 * the function is part of the type (barrier<Scope, F>); here too.
 *
 * Usage (split arrive/wait):
 *
 *     __shared__ cg_barrier_t bar;
 *     if (threadIdx.x == 0) cg_barrier_init(&bar, blockDim.x);
 *     __syncthreads();
 *     for (...) {
 *         cg_token_t t = cg_barrier_arrive_one(&bar);   // release.cta, returns at once
 *         independent_work();
 *         cg_barrier_wait_token(&bar, t);               // acquire.cta
 *     }
 *
 * Names: cg_barrier_arrive(&g) and cg_barrier_wait(&g, tok) are the generic
 * group calls of the API (cg/generic.h, macros over any group), so the barrier
 * object's pair is cg_barrier_arrive_one / cg_barrier_wait_token (next to
 * cg_barrier_arrive_n and cg_barrier_wait_parity).
 *
 * Limits: expected counts 1 .. 2^20-1 (CG_BARRIER_MAX); tx 0 .. 2^20-1. A
 * thread arrives at most once per phase and arrives in the next phase only
 * after it has seen the current one complete (its wait returned), as
 * std::barrier requires. Debug builds (CG_DEBUG=1) bound every blocking wait
 * and check counts (barrier/mbarrier.h).
 */
#ifndef CG_BARRIER_BLOCK_BARRIER_H
#define CG_BARRIER_BLOCK_BARRIER_H

#include "../base/config.h"
#include "../base/sreg.h"
#include "mbarrier.h"

/* Largest expected count of a block barrier (cuda::barrier<block>::max()). */
#define CG_BARRIER_MAX CG_MBARRIER_MAX_COUNT
/* C form of cuda::barrier<thread_scope_block>: one mbarrier, in __shared__. */
typedef struct cg_barrier {
    cg_mbarrier_t _mbar;
} cg_barrier_t;

#if CG_DEVICE_CODE_VISIBLE

/* ======================================================================== */
/* cg_barrier_t                                                              */
/* ======================================================================== */

/* Initialize with the number of arrivals per phase (1 .. 2^20-1). One thread
 * calls it; the block synchronizes (__syncthreads) before anyone arrives. */
CG_DEVICE void cg_barrier_init(cg_barrier_t *b, uint32_t expected)
{
    cg_mbarrier_init(&b->_mbar, expected);
}

/* The underlying mbarrier, for calls that complete on it (cg_memcpy_async_tx,
 * bulk copies, st.async) — cuda::device::barrier_native_handle. */
CG_DEVICE cg_mbarrier_t *cg_barrier_native_handle(cg_barrier_t *b)
{
    return &b->_mbar;
}

/* One arrival; release at CTA scope; returns the token of this phase.
 * mbarrier.arrive.release.cta.shared::cta.b64 */
CG_DEVICE cg_token_t cg_barrier_arrive_one(cg_barrier_t *b)
{
    return cg_mbarrier_arrive(&b->_mbar);
}

/* `n` arrivals at once (cuda::barrier::arrive(update)). */
CG_DEVICE cg_token_t cg_barrier_arrive_n(cg_barrier_t *b, uint32_t n)
{
    return cg_mbarrier_arrive_n(&b->_mbar, n);
}

/* Block until the phase of `tok` completes; acquire at CTA scope. */
CG_DEVICE void cg_barrier_wait_token(cg_barrier_t *b, cg_token_t tok)
{
    cg_mbarrier_wait(&b->_mbar, tok);
}

/* Block until the phase of parity `parity` (0/1) completes (wait_parity). */
CG_DEVICE void cg_barrier_wait_parity(cg_barrier_t *b, uint32_t parity)
{
    cg_mbarrier_wait_parity(&b->_mbar, parity);
}

/* arrive, then wait for that phase. */
CG_DEVICE void cg_barrier_arrive_and_wait(cg_barrier_t *b)
{
    cg_mbarrier_wait(&b->_mbar, cg_mbarrier_arrive(&b->_mbar));
}

/* Arrive in this phase and leave: later phases expect one arrival fewer. */
CG_DEVICE void cg_barrier_arrive_and_drop(cg_barrier_t *b)
{
    (void)cg_mbarrier_arrive_drop(&b->_mbar);
}

/* One look, possibly suspended briefly by the hardware: true when the phase
 * of `tok` has completed (then acquire at CTA scope). */
CG_DEVICE bool cg_barrier_try_wait(cg_barrier_t *b, cg_token_t tok)
{
    return cg_mbarrier_try_wait(&b->_mbar, tok);
}

/* Clamp a remaining time to try_wait's 32-bit suspend-time hint. */
CG_DEVICE uint32_t cg_barrier_hint_(uint64_t left_ns)
{
    return left_ns > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)left_ns;
}

/* The bounded wait behind both barrier types' try_wait_for. */
CG_DEVICE bool cg_barrier_try_wait_for_(cg_mbarrier_t *mb, cg_token_t tok, uint64_t timeout_ns)
{
    if (timeout_ns == 0)
        return cg_mbarrier_test_wait(mb, tok);
    uint64_t t0 = cg_sreg_globaltimer_ns(), spent = 0;
    do {
        if (cg_mbarrier_try_wait_hint(mb, tok, cg_barrier_hint_(timeout_ns - spent)))
            return true;
        spent = cg_sreg_globaltimer_ns() - t0;
    } while (spent < timeout_ns);
    return false;
}

/* Wait at most about `timeout_ns` (%globaltimer) for the phase of `tok`: true
 * when it completed (acquire at CTA scope), false when the time ran out — never
 * hangs. 0 means one non-blocking look. Each try lets the hardware suspend the
 * thread for at most the time left. */
CG_DEVICE bool cg_barrier_try_wait_for(cg_barrier_t *b, cg_token_t tok, uint64_t timeout_ns)
{
    return cg_barrier_try_wait_for_(&b->_mbar, tok, timeout_ns);
}

/* As cg_barrier_try_wait_for, naming the phase by its parity. */
CG_DEVICE bool cg_barrier_try_wait_parity_for(cg_barrier_t *b, uint32_t parity, uint64_t timeout_ns)
{
    if (timeout_ns == 0)
        return cg_mbarrier_test_wait_parity(&b->_mbar, parity);
    uint64_t t0 = cg_sreg_globaltimer_ns(), spent = 0;
    do {
        if (cg_mbarrier_try_wait_parity_hint(&b->_mbar, parity, cg_barrier_hint_(timeout_ns - spent)))
            return true;
        spent = cg_sreg_globaltimer_ns() - t0;
    } while (spent < timeout_ns);
    return false;
}

/* Transactions (sm_90, cuda::device::barrier_arrive_tx): `count` arrivals
 * (>= 1) and `tx` more bytes (0 .. 2^20-1) this phase waits for. count == 1 is
 * the single instruction mbarrier.arrive.expect_tx.release.cta; otherwise
 * expect_tx then arrive with the count (the phase cannot complete between
 * them: this thread's arrivals are still pending). */
CG_DEVICE_SM90 cg_token_t cg_barrier_arrive_tx(cg_barrier_t *b, uint32_t count, uint32_t tx)
{
    if (count == 1u)
        return cg_mbarrier_arrive_tx(&b->_mbar, tx);
    cg_mbarrier_expect_tx(&b->_mbar, tx);
    return cg_mbarrier_arrive_n(&b->_mbar, count);
}

/* `tx` more bytes for the current phase, no arrival (barrier_expect_tx). */
CG_DEVICE_SM90 void cg_barrier_expect_tx(cg_barrier_t *b, uint32_t tx)
{
    cg_mbarrier_expect_tx(&b->_mbar, tx);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_BLOCK_BARRIER_H */
