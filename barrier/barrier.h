/*
 * barrier/barrier.h — barrier objects built on the mbarrier core.
 *
 *   cg_barrier_t     C form of cuda::barrier<thread_scope_block> (in __shared__):
 *                    arrive -> token, wait(token), arrive_and_wait,
 *                    arrive_and_drop, wait_parity, timed try_wait, tx-count
 *                    variants, native handle. Exactly one mbarrier: each call
 *                    is the mbarrier instruction it names, nothing more.
 *   cg_barrier_fn_t  the same with a completion function (cuda::barrier<block, F>):
 *                    a function run once per phase, after the last arrival and
 *                    before any waiter returns.
 *   cg_device_barrier_t   C form of cuda::barrier<thread_scope_device>, in global
 *                    memory, across co-resident blocks (barrier/device_barrier.h).
 *
 * Why two block types instead of one with an optional function: the arrive of
 * a barrier with a function is a different algorithm (see cg_barrier_fn_t).
 * Choosing it at run time would put a dependent shared-memory load and a
 * branch in front of every plain arrive — about as long as the arrive itself
 * on the critical path, against a target of 5% over the bare mbarrier. In C++
 * the function is part of the type (barrier<Scope, F>); here too.
 *
 * Usage (seed 004, split arrive/wait):
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
#ifndef CG_BARRIER_BARRIER_H
#define CG_BARRIER_BARRIER_H

#include "barrier/device_barrier.h"
#include "barrier/mbarrier.h"
#include "cg/config.h"

/* Largest expected count of a block barrier (cuda::barrier<block>::max()). */
#define CG_BARRIER_MAX CG_MBARRIER_MAX_COUNT

/* C form of cuda::barrier<thread_scope_block>: one mbarrier, in __shared__. */
typedef struct cg_barrier {
    cg_mbarrier_t _mbar;
} cg_barrier_t;

/* A completion function: a __device__ function whose address was taken in
 * device code, called with the argument given at init. */
typedef void (*cg_barrier_completion_fn_t)(void *arg);

/* C form of cuda::barrier<thread_scope_block, F>, in __shared__ (40 bytes). */
typedef struct cg_barrier_fn {
    cg_mbarrier_t _arrivals;         /* `expected` arrivals per phase */
    cg_mbarrier_t _done;             /* count 1: the completer's arrive ends a phase */
    cg_barrier_completion_fn_t _fn;  /* NULL: no function (arrive_elect users) */
    void *_arg;
    uint32_t _elect;                 /* parity of the next phase to elect a completer for */
} cg_barrier_fn_t;

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
CG_DEVICE uint32_t cg__barrier_hint(uint64_t left_ns)
{
    return left_ns > 0xFFFFFFFFull ? 0xFFFFFFFFu : (uint32_t)left_ns;
}

/* Wait at most about `timeout_ns` (%globaltimer) for the phase of `tok`: true
 * when it completed (acquire at CTA scope), false when the time ran out — never
 * hangs. 0 means one non-blocking look. Each try lets the hardware suspend the
 * thread for at most the time left. */
CG_DEVICE bool cg_barrier_try_wait_for(cg_barrier_t *b, cg_token_t tok, uint64_t timeout_ns)
{
    if (timeout_ns == 0)
        return cg_mbarrier_test_wait(&b->_mbar, tok);
    uint64_t t0 = cg_sreg_globaltimer_ns(), spent = 0;
    do {
        if (cg_mbarrier_try_wait_hint(&b->_mbar, tok, cg__barrier_hint(timeout_ns - spent)))
            return true;
        spent = cg_sreg_globaltimer_ns() - t0;
    } while (spent < timeout_ns);
    return false;
}

/* As cg_barrier_try_wait_for, naming the phase by its parity. */
CG_DEVICE bool cg_barrier_try_wait_parity_for(cg_barrier_t *b, uint32_t parity, uint64_t timeout_ns)
{
    if (timeout_ns == 0)
        return cg_mbarrier_test_wait_parity(&b->_mbar, parity);
    uint64_t t0 = cg_sreg_globaltimer_ns(), spent = 0;
    do {
        if (cg_mbarrier_try_wait_parity_hint(&b->_mbar, parity, cg__barrier_hint(timeout_ns - spent)))
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
CG_DEVICE cg_token_t cg_barrier_arrive_tx(cg_barrier_t *b, uint32_t count, uint32_t tx)
{
    if (count == 1u)
        return cg_mbarrier_arrive_tx(&b->_mbar, tx);
    cg_mbarrier_expect_tx(&b->_mbar, tx);
    return cg_mbarrier_arrive_n(&b->_mbar, count);
}

/* `tx` more bytes for the current phase, no arrival (barrier_expect_tx). */
CG_DEVICE void cg_barrier_expect_tx(cg_barrier_t *b, uint32_t tx)
{
    cg_mbarrier_expect_tx(&b->_mbar, tx);
}

/* ======================================================================== */
/* cg_barrier_fn_t — a block barrier with a completion function             */
/* ======================================================================== */
/*
 * Algorithm. Two mbarriers: every arrival goes to _arrivals (count =
 * `expected`, one mbarrier.arrive.release.cta per thread, so an arrive never
 * blocks); _done (count 1) ends the phase for the waiters. Right after its
 * arrive, a thread asks _arrivals whether the phase it arrived in is already
 * complete (mbarrier.test_wait, acquire.cta, non-blocking). The last arrival
 * completes the phase inside its own arrive, so at least that thread sees
 * true; any thread that sees true competes in one compare-and-swap on
 * _elect, and the single winner is the phase's completer: it runs the
 * function and arrives on _done. Waiters sleep on _done by parity (try_wait:
 * the hardware wakes them with the phase).
 *
 * Memory model (PTX ISA, memory consistency model), for a phase k of parity p:
 *  1. Every arriving thread's writes precede its mbarrier.arrive.release.cta on
 *     _arrivals; the completer's test_wait.acquire.cta observed phase k
 *     complete, so it synchronizes with every arrival of the phase: the
 *     function sees every arriving thread's writes.
 *  2. The function's writes precede the completer's mbarrier.arrive.release.cta
 *     on _done; a waiter's try_wait.parity.acquire.cta that returns true
 *     observed that completion: after its wait a thread sees the function's
 *     writes (and, by transitivity, every arriving thread's writes).
 *  3. Reuse: the function's reads precede the release on _done; phase k+1
 *     writes by any thread follow its acquire of phase k on _done, so the data
 *     the function read may be overwritten right after the wait (seed 000).
 *  4. Exactly one completer per phase: _elect holds the parity of the next
 *     phase to elect; candidates of phase k try CAS(_elect, p, p ^ 1), the
 *     first succeeds and every later one of phase k finds p ^ 1. A candidate
 *     of phase k runs its CAS before it can arrive in phase k+1 (it has not
 *     even waited yet), and phase k+1 completes only after every thread's
 *     arrival in it, so no CAS of phase k can meet the value phase k+1 elects
 *     on. The CAS is relaxed: ordering is carried by the mbarriers (1., 2.).
 *  5. _done advances once per phase of _arrivals, so its parity is the
 *     phase's parity: the token is p, read from _arrivals before the arrive
 *     (the phase cannot end before this thread's own arrival).
 * Every synchronization the data relies on is an mbarrier arrive/wait pair,
 * which compute-sanitizer racecheck follows; the critical path after the last
 * arrival is one test_wait, one CAS, the function, one mbarrier arrive and the
 * waiters' wake-up — no polling with back-off.
 */

/* atom.relaxed.cta.shared::cta.cas.b32 d, [a], b, c;   PTX ISA 7.8, sm_70. */
CG_DEVICE uint32_t cg__barrier_cas_relaxed(uint32_t *p, uint32_t expect, uint32_t desired)
{
    uint32_t old;
    asm volatile("atom.relaxed.cta.shared::cta.cas.b32 %0, [%1], %2, %3;"
                 : "=r"(old)
                 : "r"(cg_smem_addr(p)), "r"(expect), "r"(desired)
                 : "memory");
    return old;
}

/* Initialize: `expected` arrivals per phase (1 .. 2^20-1); `fn(arg)` runs once
 * per phase in the phase's completer (fn may be NULL). One thread calls it;
 * the block synchronizes (__syncthreads) before anyone arrives. */
CG_DEVICE void cg_barrier_fn_init(cg_barrier_fn_t *b, uint32_t expected, cg_barrier_completion_fn_t fn,
                                  void *arg)
{
    cg_mbarrier_init(&b->_arrivals, expected); /* range-checked in debug builds */
    cg_mbarrier_init(&b->_done, 1u);
    b->_fn = fn;
    b->_arg = arg;
    b->_elect = 0u; /* phase 0 has parity 0 */
}

/* One arrival (or, if `drop`, an arrival that also leaves later phases).
 * Returns true in exactly one thread per phase, the completer, which has then
 * acquired every arrival of the phase (1., 4. above). *parity gets the
 * phase's parity. */
CG_DEVICE bool cg__barrier_fn_arrive(cg_barrier_fn_t *b, bool drop, uint32_t *parity)
{
    uint32_t p = cg_mbarrier_current_parity(&b->_arrivals);
    cg_token_t t = drop ? cg_mbarrier_arrive_drop(&b->_arrivals) : cg_mbarrier_arrive(&b->_arrivals);
    *parity = p;
    return cg_mbarrier_test_wait(&b->_arrivals, t) && cg__barrier_cas_relaxed(&b->_elect, p, p ^ 1u) == p;
}
/* The completer's second half: end the phase (release.cta on _done wakes the
 * waiters). */
CG_DEVICE void cg__barrier_fn_release(cg_barrier_fn_t *b)
{
    (void)cg_mbarrier_arrive(&b->_done);
}

CG_DEVICE cg_token_t cg__barrier_fn_token(uint32_t parity)
{
    cg_token_t t;
    t._opaque = parity;
    return t;
}

/* Runs the stored function (if any) and ends the phase. */
CG_DEVICE void cg__barrier_fn_complete_stored(cg_barrier_fn_t *b)
{
    cg_barrier_completion_fn_t fn = b->_fn;
    if (fn)
        fn(b->_arg);
    cg__barrier_fn_release(b);
}

/* One arrival (release.cta, never blocks); the phase's completer runs the
 * completion function before the phase ends. Returns the phase's token. */
CG_DEVICE cg_token_t cg_barrier_fn_arrive(cg_barrier_fn_t *b)
{
    uint32_t parity;
    if (cg__barrier_fn_arrive(b, false, &parity))
        cg__barrier_fn_complete_stored(b);
    return cg__barrier_fn_token(parity);
}

/* Arrive in this phase and leave: later phases expect one arrival fewer. */
CG_DEVICE void cg_barrier_fn_arrive_and_drop(cg_barrier_fn_t *b)
{
    uint32_t parity;
    if (cg__barrier_fn_arrive(b, true, &parity))
        cg__barrier_fn_complete_stored(b);
}

/*
 * Inline completion, for a completion step the compiler should inline instead
 * of calling through a pointer:
 *
 *     cg_token_t t;
 *     if (cg_barrier_fn_arrive_elect(&bar, &t)) {
 *         ... completion step, sees every arrival's writes ...
 *         cg_barrier_fn_complete(&bar, t);
 *     }
 *     cg_barrier_fn_wait(&bar, t);
 *
 * arrive_elect returns true in exactly one thread per phase (its completer);
 * that thread must call cg_barrier_fn_complete, or the phase never ends. The
 * stored function is not called on this path.
 */
CG_DEVICE bool cg_barrier_fn_arrive_elect(cg_barrier_fn_t *b, cg_token_t *tok)
{
    uint32_t parity;
    bool completer = cg__barrier_fn_arrive(b, false, &parity);
    *tok = cg__barrier_fn_token(parity);
    return completer;
}

/* Ends the phase that cg_barrier_fn_arrive_elect elected this thread for. */
CG_DEVICE void cg_barrier_fn_complete(cg_barrier_fn_t *b, cg_token_t tok)
{
    (void)tok;
    cg__barrier_fn_release(b);
}

/* Block until the phase of `tok` completed (its function has run); acquire at
 * CTA scope. Loop of mbarrier.try_wait.parity.acquire.cta. */
CG_DEVICE void cg_barrier_fn_wait(cg_barrier_fn_t *b, cg_token_t tok)
{
    cg_mbarrier_wait_parity(&b->_done, (uint32_t)tok._opaque);
}

/* Block until the phase of parity `parity` completed. */
CG_DEVICE void cg_barrier_fn_wait_parity(cg_barrier_fn_t *b, uint32_t parity)
{
    cg_mbarrier_wait_parity(&b->_done, parity);
}

/* arrive, then wait for that phase. */
CG_DEVICE void cg_barrier_fn_arrive_and_wait(cg_barrier_fn_t *b)
{
    cg_barrier_fn_wait(b, cg_barrier_fn_arrive(b));
}

/* Wait at most about `timeout_ns`: true when the phase of `tok` completed,
 * false when the time ran out (never hangs). */
CG_DEVICE bool cg_barrier_fn_try_wait_for(cg_barrier_fn_t *b, cg_token_t tok, uint64_t timeout_ns)
{
    uint32_t parity = (uint32_t)tok._opaque;
    if (timeout_ns == 0)
        return cg_mbarrier_test_wait_parity(&b->_done, parity);
    uint64_t t0 = cg_sreg_globaltimer_ns(), spent = 0;
    do {
        if (cg_mbarrier_try_wait_parity_hint(&b->_done, parity, cg__barrier_hint(timeout_ns - spent)))
            return true;
        spent = cg_sreg_globaltimer_ns() - t0;
    } while (spent < timeout_ns);
    return false;
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_BARRIER_H */
