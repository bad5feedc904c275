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

/* C form of cuda::barrier<thread_scope_block, F>, in __shared__ (32 bytes). */
typedef struct cg_barrier_fn {
    cg_mbarrier_t _done;             /* count 1: the completer's arrive ends a phase */
    uint32_t _state;                 /* bit 31: parity of the phase being collected;
                                        bits 0..30: arrivals it still waits for */
    uint32_t _expected;              /* arrivals per phase from the next phase on */
    cg_barrier_completion_fn_t _fn;  /* NULL: no function (arrive_elect users) */
    void *_arg;
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
 * Algorithm. Arrivals are counted in a shared word, not in the mbarrier:
 * _state holds the parity of the phase being collected (bit 31) and the
 * arrivals it still waits for (bits 0..30). The converged threads of a warp
 * arrive as one (warp-aggregated: one atomic per warp, not per thread); the
 * thread whose atomic takes the count to zero is the completer: it runs the
 * function, re-arms _state for the next phase, and arrives on _done (an
 * mbarrier of count 1). Everyone else waits on _done by parity (try_wait: the
 * hardware wakes them with the phase). Cost on the critical path: one shared
 * atomic per warp, the function, one mbarrier arrive — no polling with
 * back-off, which is where libcu++'s 254 ns/phase goes.
 *
 * Memory model (PTX ISA, memory consistency model), for a phase k:
 *  1. A thread T's writes before its arrive are ordered before its warp
 *     leader's atom.release.cta on _state by __syncwarp (bar.warp.sync
 *     orders memory among the threads it synchronizes).
 *  2. The arrival atomics of phase k are RMWs on one word; each reads the
 *     value of the one before it, so every leader's release RMW precedes the
 *     completer's RMW in observation order. The completer's RMW followed by
 *     fence.acq_rel.cta is an acquire pattern: it synchronizes with every
 *     arrival's release, so the function sees every arriving thread's writes.
 *  3. The function's writes, and the re-arm of _state, precede the completer's
 *     mbarrier.arrive.release.cta on _done; a waiter's successful
 *     try_wait.parity.acquire.cta observes that phase completion, so it
 *     synchronizes with it: after its wait a thread sees the function's writes
 *     (and, by transitivity, every arriving thread's writes).
 *  4. Reuse: the function's reads come before the completer's release, and
 *     phase k+1 writes by any thread come after its acquire of phase k: the
 *     data the function read may be overwritten right after the wait (seed
 *     000's "shared memory is safe to re-use in the next iteration").
 *  5. _state is re-armed (relaxed store) before the release and read by the
 *     next phase's arrivals only after their acquire, so no arrival of phase
 *     k+1 can meet the count of phase k. Every access to _state is an atomic
 *     or a relaxed (morally strong) access at CTA scope: no data race.
 * The token is the phase parity (bit 31 of the value the leader's atomic
 * returned, broadcast to the warp), which is also _done's phase parity.
 *
 * Why atomics and not a second mbarrier, and what tools see. A design every
 * tool can follow exists: every thread arrives on an mbarrier A and asks it
 * (test_wait) whether its own arrival completed the phase; the candidates
 * elect one completer with a CAS, which runs the function and arrives on a
 * count-1 mbarrier B that everyone waits on. It was built and measured on an
 * H200 (2026-11-22, light completion function, called through the pointer):
 * 426 / 429 / 1044 ns per phase at 128 / 256 / 1024 threads, against 410 /
 * 414 / 530 for the counter below (three mbarrier operations per thread on
 * one object cost most at 1024 threads). The counter puts one shared atomic
 * per warp and one mbarrier round trip on the critical path, so it stays the
 * algorithm. The cost: compute-sanitizer racecheck models bar.sync,
 * bar.warp.sync and mbarrier arrive/wait, not atomics + fences as
 * synchronization, so it reports the arrivers' writes (before the arrive)
 * against the completion function's reads, and waiters' reads against the
 * next phase's function writes. These are not races under the PTX memory
 * model (1.-4. above); tests and examples of cg_barrier_fn_t skip under
 * racecheck saying so, and run under memcheck, synccheck and plain. The
 * waiters' side (_done: the completer's own mbarrier arrive, the waiters'
 * try_wait.parity) is a construct racecheck follows: what the function
 * writes, every waiter reads without a report.
 */

/* atom.release.cta.shared::cta.add.u32 d, [a], v;   PTX ISA 7.8, sm_70. */
CG_DEVICE uint32_t cg__barrier_atom_add_release(uint32_t *p, uint32_t v)
{
    uint32_t old;
    asm volatile("atom.release.cta.shared::cta.add.u32 %0, [%1], %2;"
                 : "=r"(old)
                 : "r"(cg_smem_addr(p)), "r"(v)
                 : "memory");
    return old;
}

/* red.relaxed.cta.shared::cta.add.u32 [a], v;   PTX ISA 7.8, sm_70. */
CG_DEVICE void cg__barrier_red_add_relaxed(uint32_t *p, uint32_t v)
{
    asm volatile("red.relaxed.cta.shared::cta.add.u32 [%0], %1;" ::"r"(cg_smem_addr(p)), "r"(v)
                 : "memory");
}

/* fence.acq_rel.cta;   PTX ISA 6.0, sm_70. */
CG_DEVICE void cg__barrier_fence_acq_rel_cta(void)
{
    asm volatile("fence.acq_rel.cta;" ::: "memory");
}

/* ld.relaxed.cta.shared::cta.u32 d, [a];   PTX ISA 7.8, sm_70. */
CG_DEVICE uint32_t cg__barrier_ld_relaxed(uint32_t *p)
{
    uint32_t v;
    asm volatile("ld.relaxed.cta.shared::cta.u32 %0, [%1];" : "=r"(v) : "r"(cg_smem_addr(p)) : "memory");
    return v;
}

/* st.relaxed.cta.shared::cta.u32 [a], v;   PTX ISA 7.8, sm_70. */
CG_DEVICE void cg__barrier_st_relaxed(uint32_t *p, uint32_t v)
{
    asm volatile("st.relaxed.cta.shared::cta.u32 [%0], %1;" ::"r"(cg_smem_addr(p)), "r"(v) : "memory");
}

#define CG__BARRIER_FN_PARITY_BIT 0x80000000u
#define CG__BARRIER_FN_COUNT_MASK 0x7FFFFFFFu

/* Initialize: `expected` arrivals per phase (1 .. 2^20-1); `fn(arg)` runs once
 * per phase in the last arriving thread (fn may be NULL). One thread calls
 * it; the block synchronizes (__syncthreads) before anyone arrives. */
CG_DEVICE void cg_barrier_fn_init(cg_barrier_fn_t *b, uint32_t expected, cg_barrier_completion_fn_t fn,
                                  void *arg)
{
    CG__MBARRIER_CHECK("cg_barrier_fn_init", b, expected, 1u, CG_BARRIER_MAX);
    cg_mbarrier_init(&b->_done, 1u);
    b->_state = expected; /* parity 0, all arrivals pending */
    b->_expected = expected;
    b->_fn = fn;
    b->_arg = arg;
}

/* Count the calling converged warp set's arrivals (dropping them from later
 * phases if `drop`). Returns true in exactly one thread per phase, the
 * completer, which has then acquired every arrival of the phase (2. above).
 * *parity gets the phase's parity in every thread. */
CG_DEVICE bool cg__barrier_fn_count(cg_barrier_fn_t *b, bool drop, uint32_t *parity)
{
    uint32_t mask = __activemask();
    uint32_t leader = (uint32_t)__ffs(mask) - 1u;
    uint32_t n = (uint32_t)__popc(mask);
    uint32_t old = 0;
    bool last = false;
    __syncwarp(mask); /* 1. every lane's writes before the leader's release */
    if (cg_sreg_laneid() == leader) {
        if (drop)
            cg__barrier_red_add_relaxed(&b->_expected, 0u - n);
        old = cg__barrier_atom_add_release(&b->_state, 0u - n);
#if CG_DEBUG
        if ((old & CG__BARRIER_FN_COUNT_MASK) < n) {
            printf("cgc: cg_barrier_fn arrive: barrier at shared 0x%x got %u arrivals in the phase of "
                   "parity %u with only %u pending (a thread arrived twice in one phase?) (block "
                   "%d,%d,%d thread %d,%d,%d)\n",
                   (unsigned)cg_smem_addr(b), n, old >> 31, old & CG__BARRIER_FN_COUNT_MASK,
                   blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
            __trap();
        }
#endif
        last = (old & CG__BARRIER_FN_COUNT_MASK) == n;
        if (last)
            cg__barrier_fence_acq_rel_cta(); /* 2. acquire every arrival of the phase */
    }
    old = __shfl_sync(mask, old, (int)leader);
    *parity = old >> 31;
    return last;
}

/* The completer's second half: re-arm the count for the next phase, then end
 * the phase (release.cta on _done wakes the waiters). */
CG_DEVICE void cg__barrier_fn_release(cg_barrier_fn_t *b, uint32_t parity)
{
    uint32_t next = cg__barrier_ld_relaxed(&b->_expected);
    cg__barrier_st_relaxed(&b->_state, ((parity ^ 1u) << 31) | next);
    (void)cg_mbarrier_arrive(&b->_done);
}

CG_DEVICE cg_token_t cg__barrier_fn_token(uint32_t parity)
{
    cg_token_t t;
    t._opaque = parity;
    return t;
}

/* One arrival (release.cta); the last arrival of the phase runs the
 * completion function before the phase ends. Returns the phase's token. */
CG_DEVICE cg_token_t cg_barrier_fn_arrive(cg_barrier_fn_t *b)
{
    uint32_t parity;
    if (cg__barrier_fn_count(b, false, &parity)) {
        cg_barrier_completion_fn_t fn = b->_fn;
        if (fn)
            fn(b->_arg);
        cg__barrier_fn_release(b, parity);
    }
    return cg__barrier_fn_token(parity);
}

/* Arrive in this phase and leave: later phases expect one arrival fewer. */
CG_DEVICE void cg_barrier_fn_arrive_and_drop(cg_barrier_fn_t *b)
{
    uint32_t parity;
    if (cg__barrier_fn_count(b, true, &parity)) {
        cg_barrier_completion_fn_t fn = b->_fn;
        if (fn)
            fn(b->_arg);
        cg__barrier_fn_release(b, parity);
    }
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
 * arrive_elect returns true in exactly one thread per phase (the last
 * arrival); that thread must call cg_barrier_fn_complete, or the phase never
 * ends. The stored function is not called on this path.
 */
CG_DEVICE bool cg_barrier_fn_arrive_elect(cg_barrier_fn_t *b, cg_token_t *tok)
{
    uint32_t parity;
    bool last = cg__barrier_fn_count(b, false, &parity);
    *tok = cg__barrier_fn_token(parity);
    return last;
}

/* Ends the phase that cg_barrier_fn_arrive_elect elected this thread for. */
CG_DEVICE void cg_barrier_fn_complete(cg_barrier_fn_t *b, cg_token_t tok)
{
    cg__barrier_fn_release(b, (uint32_t)tok._opaque);
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
