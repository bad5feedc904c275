/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/barrier_fn.h — the C forms of cuda::barrier<thread_scope_block, F>:
 * a block barrier in __shared__ whose completion function runs exactly once
 * per phase, after the last arrival and before any waiter is released, and
 * sees every arriving thread's writes. Included by
 * barrier/barrier.h. Two forms:
 *
 * 1. The function fixed at compile time (C++'s F is part of the barrier's
 *    type; this is its counterpart, and the one to port to):
 *
 *        static __device__ void psum(void *arg) { ... }
 *        CG_BARRIER_FN_DEFINE(psum_bar, psum)     (file scope, after psum)
 *
 *        __shared__ psum_bar_t bar;
 *        if (threadIdx.x == 0) psum_bar_init(&bar, blockDim.x, &ctx);
 *        __syncthreads();
 *        cg_token_t t = psum_bar_arrive(&bar);    ... psum_bar_wait(&bar, t);
 *
 *    defines the type psum_bar_t and psum_bar_init / _arrive / _wait /
 *    _arrive_and_wait / _arrive_and_drop / _wait_parity / _try_wait_for.
 *    The completer calls psum directly, so the compiler inlines it, as C++
 *    inlines F: no call, no lookup.
 * 2. The function stored at init (cg_barrier_fn_t: cg_barrier_fn_init(&bar,
 *    n, fn, arg), cg_barrier_fn_arrive, ...): one type for any function, the
 *    type-erased form. It costs an indirect call per phase in the completer,
 *    on the phase's critical path: 50-60 ns more than a direct call, about
 *    100 ns more than the inlined form (1.15-1.20x C++'s time at 128/256
 *    threads on an H100/H200; docs/design/completion_barrier.md). Use it
 *    where the function is chosen at run time.
 * Both share one algorithm and memory-model argument (below), and the
 * inline completion (cg_barrier_fn_arrive_elect / _complete) for a step
 * written in place.
 */
#ifndef CG_BARRIER_BARRIER_FN_H
#define CG_BARRIER_BARRIER_FN_H

#include "../base/config.h"
#include "../base/fence.h"
/* The device barrier too (before cg_barrier_t, as barrier/barrier.h has
 * them): an include of this file alone declares every barrier object, as it
 * did when it came through barrier/barrier.h. */
#include "device_barrier.h"
#include "block_barrier.h"
#include "mbarrier.h"

/* ... and of one with a completion function (its mbarrier expects up to two
 * more: see CG_BARRIER_FN_SPARE_). */
#define CG_BARRIER_FN_MAX (CG_BARRIER_MAX - 2u)

/* A completion function: a __device__ function whose address was taken in
 * device code, called with the argument given at init. */
typedef void (*cg_barrier_completion_fn_t)(void *arg);

/* C form of cuda::barrier<thread_scope_block, F> with F stored at init (the
 * type-erased form; CG_BARRIER_FN_DEFINE below fixes F at compile time), in
 * __shared__ (32 bytes). */
typedef struct cg_barrier_fn {
    cg_mbarrier_t _mbar;             /* expects the arrivals + 1 (the completer's own) */
    uint32_t _expected;              /* arrivals per phase as initialized (debug reports) */
    uint32_t _reserved;
    cg_barrier_completion_fn_t _fn;  /* NULL: no function (arrive_elect users) */
    void *_arg;
} cg_barrier_fn_t;

#if CG_DEVICE_CODE_VISIBLE

/* ======================================================================== */
/* cg_barrier_fn_t — a block barrier with a completion function             */
/* ======================================================================== */
/*
 * Algorithm: one mbarrier, initialized to expect every arrival plus one (two
 * in debug builds: CG_BARRIER_FN_SPARE_).
 *   - Each thread arrives with mbarrier.arrive.noComplete.release.cta, which
 *     cannot end the phase (the +1 is still pending) and returns the state
 *     the mbarrier had before that arrival. mbarrier.pending_count of it is
 *     2 (3 in debug builds) for exactly one thread per phase: the last
 *     arrival. That thread is the completer; the others touch nothing but
 *     the mbarrier (and, in cg_barrier_fn_arrive, read the stored function
 *     and argument before arriving: CG_BARRIER_FN_READ).
 *   - The completer acquires the phase's arrivals (see the memory model),
 *     runs fn(arg), and makes the one arrival still pending with
 *     mbarrier.arrive.release.cta: the phase ends and the hardware wakes the
 *     waiters, which sleep in mbarrier.try_wait (acquire) on their token.
 *   - arrive_and_drop uses arrive_drop.noComplete: one fewer expected from
 *     the next phase on, the completer's +1 untouched.
 * Cost on the critical path over the bare mbarrier: the last arrival's state
 * coming back to its thread, the completer's acquire, fn, one more arrive.
 * No shared counter, no polling, no back-off (libcu++ gives up the mbarrier
 * for completion functions and polls a counter with back-off).
 *
 * Memory model (PTX ISA memory consistency model), for a phase k:
 *  1. Each arrival is mbarrier.arrive.noComplete.release.cta: a release on
 *     the mbarrier object, which it updates as one atomic read-modify-write
 *     (its result is the state it read: pending_count counts down by one
 *     per arrival, each arrival seeing the one before it).
 *  2. The phase's arrivals are RMWs of one location, so every earlier
 *     arrival precedes the completer's in that location's coherence order,
 *     and what the completer's arrive reads lies in the release sequence of
 *     each of them.
 *  3. The completer follows its arrive with fence.acq_rel.cta: a strong read
 *     followed by an acquire fence is an acquire pattern, which
 *     synchronizes with each arrival's release. fn sees every arriving
 *     thread's writes.
 *     PTX states the mbarrier's own synchronization as arrive (release) to
 *     test_wait/try_wait (acquire) on phase completion; 1.-3. rest on the
 *     arrive also being the RMW of the object that its returned state shows
 *     it is. compute-sanitizer racecheck models only the arrive -> wait
 *     edge, so it reports fn's reads of the arrivers' data: the tests of
 *     this barrier say so when they skip racecheck.
 *  4. fn's writes precede the completer's mbarrier.arrive.release.cta, which
 *     completes the phase; a waiter's try_wait.acquire.cta that observes the
 *     completion synchronizes with it, so after its wait a thread sees fn's
 *     writes and, transitively, every arriving thread's writes.
 *  5. Reuse: fn's reads of the arriving threads' data come before the
 *     completer's release; a thread writes for phase k+1 only after its
 *     wait (acquire) of phase k: the data may be overwritten right after the
 *     wait.
 *
 * The designs measured before this one, and where its time goes (the SASS
 * of the election and of the call through the stored pointer):
 * docs/design/completion_barrier.md.
 */

/* Counts the mbarrier expects beyond the arrivals, all made by the completer
 * at once: 1; 2 in debug builds, so that an arrival past the last one of a
 * phase (a thread arriving twice) finds 2 pending, still leaves 1, and is
 * reported instead of taking the count to zero with a noComplete arrival.
 * The hardware folds a converged warp's arrivals into one operation, so an
 * over-arrival inside a single warp instruction goes past zero before any
 * lane can look: on an H200 the kernel faults (unspecified launch failure),
 * with no report, and the process exits with status 1 although the error
 * reaches the host like a trap's. */
#if CG_DEBUG
#define CG_BARRIER_FN_SPARE_ 2u
#else
#define CG_BARRIER_FN_SPARE_ 1u
#endif

/* Initialize: `expected` arrivals per phase (1 .. CG_BARRIER_FN_MAX); `fn(arg)`
 * runs once per phase in the last arriving thread (fn may be NULL; without
 * a completion step cg_barrier_t is the cheaper barrier). One thread calls it; the block
 * synchronizes (__syncthreads) before anyone arrives. */
CG_DEVICE void cg_barrier_fn_init(cg_barrier_fn_t *b, uint32_t expected, cg_barrier_completion_fn_t fn,
                                  void *arg)
{
    CG_MBARRIER_CHECK_("cg_barrier_fn_init", b, expected, 1u, CG_BARRIER_FN_MAX);
    cg_mbarrier_init(&b->_mbar, expected + CG_BARRIER_FN_SPARE_);
    b->_expected = expected;
    b->_reserved = 0;
    b->_fn = fn;
    b->_arg = arg;
}

#if CG_DEBUG
/* A noComplete arrival that found CG_BARRIER_FN_SPARE_ or fewer pending came
 * after the last arrival of its phase: more arrivals than expected. With two
 * spare counts (debug builds) it still left one pending, so it did not take
 * the count to zero, which a noComplete arrival must never do (undefined
 * behaviour: on an H200 the kernel faults before any report). */
CG_REPORT_ void cg_barrier_fn_report_over_(const cg_barrier_fn_t *b, uint32_t pending)
{
    printf("cgc: cg_barrier_fn arrive: barrier at shared 0x%x (initialized for %u arrival(s)) got an arrival "
           "with %u pending (more arrivals in one phase than expected: a thread arrived twice?) "
           "(block %d,%d,%d thread %d,%d,%d)\n",
           (unsigned)cg_smem_addr(b), b->_expected,
           pending > CG_BARRIER_FN_SPARE_ ? pending - CG_BARRIER_FN_SPARE_ : 0u, blockIdx.x, blockIdx.y,
           blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
CG_DEVICE void cg_barrier_fn_check_(const cg_barrier_fn_t *b, uint32_t pending)
{
    if (CG_UNLIKELY_(pending <= CG_BARRIER_FN_SPARE_))
        cg_barrier_fn_report_over_(b, pending);
}
#endif

/* When the stored function and argument are read (tuning; the benchmark's
 * probe rows build each choice, docs/design/completion_barrier.md):
 *   CG_BARRIER_FN_READ_BEFORE_ARRIVE (1, default): every thread reads them
 *     before its arrive. The completer's call then waits for nothing but its
 *     fence: the two shared loads (and the code-address lookup the call makes
 *     from the function pointer) complete while the arrive's state travels.
 *     Every thread pays two broadcast shared loads per phase, off the
 *     critical path.
 *   CG_BARRIER_FN_READ_BEFORE_FENCE (2): only the completer reads them,
 *     between its arrive's result and its fence (the loads overlap the fence).
 *   CG_BARRIER_FN_READ_AFTER_FENCE (0): the completer reads them after its
 *     fence (the first design: fence, load, test, load, call in a row).
 * Reading them early is safe: only cg_barrier_fn_init writes them, and every
 * thread's first arrive comes after the block synchronization that follows
 * init (the rule every use of the barrier already obeys); re-initializing a
 * barrier some thread still arrives on is a misuse in every mode. */
#define CG_BARRIER_FN_READ_AFTER_FENCE 0
#define CG_BARRIER_FN_READ_BEFORE_ARRIVE 1
#define CG_BARRIER_FN_READ_BEFORE_FENCE 2
#if !defined(CG_BARRIER_FN_READ)
#define CG_BARRIER_FN_READ CG_BARRIER_FN_READ_BEFORE_ARRIVE
#endif
/* 0 (default): the completer branches past the call when the function is
 * NULL. 1: with CG_BARRIER_FN_READ_BEFORE_ARRIVE, a barrier initialized
 * without a function calls cg_barrier_fn_none_ instead, so that no branch
 * sits between the election and the call (ptxas then issues the call's
 * code-address lookup beside the fence). Measured the same within the
 * benchmark's placement noise on an H100 (docs/design/completion_barrier.md),
 * so the default keeps the branch and calls nothing for NULL. */
#if !defined(CG_BARRIER_FN_NO_NULL_TEST)
#define CG_BARRIER_FN_NO_NULL_TEST 0
#endif

/* One arrival (dropping out of later phases if `drop`). Returns true in
 * exactly one thread per phase, the completer, which has not yet acquired
 * the phase's arrivals (cg_barrier_fn_acquire_ does). *tok gets the phase's
 * token in every thread. */
CG_DEVICE bool cg_barrier_fn_last_(cg_barrier_fn_t *b, bool drop, cg_token_t *tok)
{
    cg_token_t t = drop ? cg_mbarrier_arrive_drop_no_complete(&b->_mbar, 1u)
                        : cg_mbarrier_arrive_no_complete(&b->_mbar, 1u);
    uint32_t pending = cg_mbarrier_pending_count(t);
#if CG_DEBUG
    cg_barrier_fn_check_(b, pending);
#endif
    *tok = t;
    return pending == CG_BARRIER_FN_SPARE_ + 1u;
}

/* The completer's acquire of every arrival of the phase (3. above). */
CG_DEVICE void cg_barrier_fn_acquire_(void)
{
    cg_fence_acq_rel_cta();
}

/* One arrival; true in the completer, which has then acquired every arrival
 * of the phase. *tok gets the phase's token in every thread. */
CG_DEVICE bool cg_barrier_fn_count_(cg_barrier_fn_t *b, bool drop, cg_token_t *tok)
{
    if (!cg_barrier_fn_last_(b, drop, tok))
        return false;
    cg_barrier_fn_acquire_();
    return true;
}

/* The completer's second half: end the phase. */
CG_DEVICE void cg_barrier_fn_release_(cg_barrier_fn_t *b)
{
#if CG_DEBUG
    (void)cg_mbarrier_arrive_n(&b->_mbar, CG_BARRIER_FN_SPARE_);
#else
    (void)cg_mbarrier_arrive(&b->_mbar);
#endif
}

/* The completer's whole step: fn(arg) when there is a function, then the
 * phase ends. */
CG_DEVICE void cg_barrier_fn_complete_phase_(cg_barrier_fn_t *b, cg_barrier_completion_fn_t fn, void *arg)
{
    if (fn)
        fn(arg);
    cg_barrier_fn_release_(b);
}

/* The function the completer calls for a barrier initialized without one,
 * on the read-before-arrive path: calling it costs less than a branch on
 * NULL there, which ptxas would not hoist the call's code-address lookup
 * over (docs/design/completion_barrier.md). */
CG_DEVICE void cg_barrier_fn_none_(void *arg)
{
    (void)arg;
}

/* One arrival that, in the completer, calls the stored function; the read
 * of _fn/_arg placed as CG_BARRIER_FN_READ says. */
CG_DEVICE void cg_barrier_fn_arrive_stored_(cg_barrier_fn_t *b, bool drop, cg_token_t *tok)
{
    cg_barrier_completion_fn_t fn;
    void *arg;
#if CG_BARRIER_FN_READ == CG_BARRIER_FN_READ_BEFORE_ARRIVE
    fn = b->_fn;
    arg = b->_arg;
#if CG_BARRIER_FN_NO_NULL_TEST
    fn = fn ? fn : cg_barrier_fn_none_;
#endif
#endif
    if (!cg_barrier_fn_last_(b, drop, tok))
        return;
#if CG_BARRIER_FN_READ == CG_BARRIER_FN_READ_BEFORE_FENCE
    fn = b->_fn;
    arg = b->_arg;
#endif
    cg_barrier_fn_acquire_();
#if CG_BARRIER_FN_READ == CG_BARRIER_FN_READ_AFTER_FENCE
    fn = b->_fn;
    arg = b->_arg;
#endif
    cg_barrier_fn_complete_phase_(b, fn, arg);
}

/* One arrival (release.cta); the last arrival of the phase runs the
 * completion function before the phase ends. Returns the phase's token. */
CG_DEVICE cg_token_t cg_barrier_fn_arrive(cg_barrier_fn_t *b)
{
    cg_token_t t;
    cg_barrier_fn_arrive_stored_(b, false, &t);
    return t;
}

/* As cg_barrier_fn_arrive, running fn(arg) instead of the stored function.
 * With fn a function name (a constant at the call site) the compiler calls it
 * directly and can inline it, as C++ does with cuda::barrier<block, F>'s F;
 * through the stored pointer every phase pays an indirect call. */
CG_DEVICE cg_token_t cg_barrier_fn_arrive_with(cg_barrier_fn_t *b, cg_barrier_completion_fn_t fn, void *arg)
{
    cg_token_t t;
    if (cg_barrier_fn_count_(b, false, &t))
        cg_barrier_fn_complete_phase_(b, fn, arg);
    return t;
}

/* Arrive in this phase and leave: later phases expect one arrival fewer. */
CG_DEVICE void cg_barrier_fn_arrive_and_drop(cg_barrier_fn_t *b)
{
    cg_token_t t;
    cg_barrier_fn_arrive_stored_(b, true, &t);
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
    return cg_barrier_fn_count_(b, false, tok);
}

/* Ends the phase that cg_barrier_fn_arrive_elect elected this thread for. */
CG_DEVICE void cg_barrier_fn_complete(cg_barrier_fn_t *b, cg_token_t tok)
{
    (void)tok;
    cg_barrier_fn_release_(b);
}

/* Block until the phase of `tok` completed (its function has run); acquire at
 * CTA scope. Loop of mbarrier.try_wait.acquire.cta on the token. */
CG_DEVICE void cg_barrier_fn_wait(cg_barrier_fn_t *b, cg_token_t tok)
{
    cg_mbarrier_wait(&b->_mbar, tok);
}

/* Block until the phase of parity `parity` completed. */
CG_DEVICE void cg_barrier_fn_wait_parity(cg_barrier_fn_t *b, uint32_t parity)
{
    cg_mbarrier_wait_parity(&b->_mbar, parity);
}

/* Wait at most about `timeout_ns`: true when the phase of `tok` completed,
 * false when the time ran out (never hangs). */
CG_DEVICE bool cg_barrier_fn_try_wait_for(cg_barrier_fn_t *b, cg_token_t tok, uint64_t timeout_ns)
{
    return cg_barrier_try_wait_for_(&b->_mbar, tok, timeout_ns);
}

/* arrive, then wait for that phase. */
CG_DEVICE void cg_barrier_fn_arrive_and_wait(cg_barrier_fn_t *b)
{
    cg_barrier_fn_wait(b, cg_barrier_fn_arrive(b));
}

/* ======================================================================== */
/* The completion function fixed at compile time                            */
/* ======================================================================== */

/* The completer's step with `fn` named (a constant): inlined where fn's body
 * is in sight. `arg` was read before the arrive, so the chain after the
 * fence is fn's own work and the release. */
CG_DEVICE cg_token_t cg_barrier_fn_arrive_named_(cg_barrier_fn_t *b, bool drop, cg_barrier_completion_fn_t fn)
{
    cg_token_t t;
    void *arg = b->_arg; /* before the arrive: off the completer's chain */
    if (cg_barrier_fn_count_(b, drop, &t)) {
        fn(arg);
        cg_barrier_fn_release_(b);
    }
    return t;
}

/* CG_BARRIER_FN_DEFINE(name, fn): at file scope, after the definition (or a
 * declaration) of `void fn(void *arg)`, a __device__ function. Defines
 *   name##_t                       a block barrier whose completion function
 *                                  is fn (in __shared__; 32 bytes);
 *   name##_init(&b, expected, arg) one thread, then the block synchronizes
 *                                  before anyone arrives; expected 1 ..
 *                                  CG_BARRIER_FN_MAX; fn gets `arg` (C++'s
 *                                  F's captures: a context struct);
 *   name##_arrive(&b)              arrival (release.cta), the token; the last
 *                                  arrival of the phase runs fn(arg) before
 *                                  the phase ends;
 *   name##_wait(&b, t)             block until t's phase completed (acquire);
 *   name##_arrive_and_wait(&b), name##_arrive_and_drop(&b),
 *   name##_wait_parity(&b, parity), name##_try_wait_for(&b, t, timeout_ns).
 * Semantics, limits and memory order: cg_barrier_fn_t's (above); only the
 * call differs: fn is called directly, so the compiler inlines it. Why a
 * macro: C has no type parameters, and a function pointer that must stay
 * constant to be inlined cannot live in the object; the macro gives each
 * function its own type and calls, as C++'s barrier<block, F> does. */
/* The generated calls: inlined like every cgc call, and not reported when a
 * program uses only some of them (they are defined in the program's file). */
#define CG_BARRIER_FN_DEVICE_ static __device__ __forceinline__ __attribute__((unused))
#define CG_BARRIER_FN_DEFINE(name, fn)                                                             \
    typedef struct name {                                                                          \
        cg_barrier_fn_t _b;                                                                        \
    } name##_t;                                                                                    \
    CG_BARRIER_FN_DEVICE_ void name##_init(name##_t *b, uint32_t expected, void *arg)                          \
    {                                                                                              \
        /* fn is not stored: its address is never taken, so the compiler  \
         * keeps no callable copy of it (the calls below name it). */      \
        cg_barrier_fn_init(&b->_b, expected, NULL, arg);                                           \
    }                                                                                              \
    CG_BARRIER_FN_DEVICE_ cg_token_t name##_arrive(name##_t *b) { return cg_barrier_fn_arrive_named_(&b->_b, false, (fn)); } \
    CG_BARRIER_FN_DEVICE_ void name##_arrive_and_drop(name##_t *b) { (void)cg_barrier_fn_arrive_named_(&b->_b, true, (fn)); } \
    CG_BARRIER_FN_DEVICE_ void name##_wait(name##_t *b, cg_token_t t) { cg_barrier_fn_wait(&b->_b, t); }       \
    CG_BARRIER_FN_DEVICE_ void name##_wait_parity(name##_t *b, uint32_t parity) { cg_barrier_fn_wait_parity(&b->_b, parity); } \
    CG_BARRIER_FN_DEVICE_ bool name##_try_wait_for(name##_t *b, cg_token_t t, uint64_t timeout_ns)             \
    {                                                                                              \
        return cg_barrier_fn_try_wait_for(&b->_b, t, timeout_ns);                                  \
    }                                                                                              \
    CG_BARRIER_FN_DEVICE_ void name##_arrive_and_wait(name##_t *b) { cg_barrier_fn_wait(&b->_b, name##_arrive(b)); } \
    typedef int name##_defined_at_file_scope_

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BARRIER_BARRIER_FN_H */
