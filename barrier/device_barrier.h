/* SPDX-License-Identifier: BSD-3-Clause */
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
 *     cg_token_t t = cg_device_barrier_arrive(bar);   // acq_rel.gpu
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
 * Memory order: arrive is an acq_rel add at .gpu scope, wait an acquire at
 * .gpu scope: every write before any arrive of a phase is visible to every
 * thread after its wait for that phase.
 *
 * How: one 64-bit word holds the phase number (bits 41..63), an arrival
 * counter (bits 20..40) and the expected count of the next phases (bits
 * 0..19). The counter starts each phase at 2^21 - expected and every arrival
 * adds to it, so the arrival that completes the phase carries into the phase
 * number in the same atomic add: waiters are released by the last arrival's
 * own RMW, with no fence or store after it (libcu++'s device-scope barrier
 * keeps its word the same way). That arrival then re-arms the counter with a
 * second, relaxed add of 2^21 - expected, where expected is read from the
 * value its own add produced, so a drop made in the next phase is never
 * applied early; arrivals of the next phase that come between the two adds
 * simply add first (addition commutes). The re-arm is a red that nothing
 * waits for unless the completer drops out (see cg_dbar_arrive_).
 * arrive_and_drop subtracts one from the expected field in the same add.
 * Every thread makes its own atom.acq_rel.add: no warp intrinsic, no
 * leader, so no lane's arrival depends on where the other lanes of its warp
 * are (ptxas still merges the adds of a converged warp on one barrier into
 * one, without a branch). Waiters poll the word with ld.acquire.gpu, each
 * thread for its own token (a converged warp's poll is one memory request),
 * and compare phase numbers: a token of an older, completed phase is
 * complete at once. Every poll after a failed one also reads %globaltimer,
 * as libcu++'s wait loop does: it spaces one thread's polls of the
 * contended word by a few tens of cycles. The arrive that completes a phase
 * marks its token (CG_DBAR_TOK_DONE_), and that thread's wait returns
 * without a load: its own acq_rel add has already acquired every arrival of
 * the phase. (The two go together: without the spacing, the completer's
 * early next arrive queued behind the other waiters' polls and the done
 * token measured slower than none; docs/design/device_barrier.md.)
 *
 * Limits: expected count 1 .. 2^20-1 (more than any device can hold
 * resident); phase numbers wrap after 2^23 phases, so a token more than
 * 2^22 phases old reads as not yet complete.
 * docs/design/divergence.md: what divergence each barrier allows and why.
 */
#ifndef CG_BARRIER_DEVICE_BARRIER_H
#define CG_BARRIER_DEVICE_BARRIER_H

#include "../base/config.h"
#include "../base/status.h"

/* In global memory, 8-byte aligned; initialize before the kernel uses it. */
typedef struct cg_device_barrier {
    uint64_t _state;    /* phase (bits 41..63) | arrival counter (20..40) | expected (0..19) */
    uint64_t _reserved; /* zero */
} cg_device_barrier_t;

/* The fields of _state (see "How" above). */
#define CG_DBAR_EXPECTED_MASK_ 0xFFFFFull
#define CG_DBAR_COUNT_SHIFT_ 20
#define CG_DBAR_COUNT_SPAN_ (1ull << 21)
#define CG_DBAR_PHASE_SHIFT_ 41
#define CG_DBAR_PHASE_MASK_ 0x7FFFFFu

/* The state of a fresh barrier expecting `expected` arrivals per phase. */
#define CG_DBAR_INIT_STATE_(expected)                                                              \
    (((CG_DBAR_COUNT_SPAN_ - (uint64_t)(expected)) << CG_DBAR_COUNT_SHIFT_) | (uint64_t)(expected))

/* Polls a waiter makes back to back before it paces them (below). */
#if !defined(CG_DEVICE_BARRIER_POLL_SPINS)
#define CG_DEVICE_BARRIER_POLL_SPINS 0
#endif
/* 1 (default): every poll after the first CG_DEVICE_BARRIER_POLL_SPINS
 * also reads %globaltimer (paces the polls as libcu++'s wait loop does;
 * issue 33, H200: with the done token below, 0.99-1.02x libcu++ against
 * 1.00-1.16x unpaced). 0: polls back to back (the benchmark's
 * comparison). */
#if !defined(CG_DEVICE_BARRIER_POLL_PACE)
#define CG_DEVICE_BARRIER_POLL_PACE 1
#endif

/* 1 (default): the arrive that completes a phase marks its token, and that
 * thread's wait returns without loading the word (issue 33: the completer is
 * the last arrival, so its wait's L2 round trip was on every phase's critical
 * path: the next phase waits for its next arrive). Measured a gain only with
 * the paced polls above (alone it was 1.00-1.16x libcu++ on an H200).
 * 0: every wait polls (the benchmark's comparison, as libcu++'s wait does). */
#if !defined(CG_DEVICE_BARRIER_DONE_TOKEN)
#define CG_DEVICE_BARRIER_DONE_TOKEN 1
#endif
/* Largest expected count of a device barrier. */
#define CG_DEVICE_BARRIER_MAX CG_HW_COUNT_MAX

#if CG_HOST_API
CG_EXTERN_C_BEGIN

/* Host: initialize the device-memory barrier `dev_bar` (a device pointer) for
 * `expected` arrivals per phase, synchronously (cudaMemcpy). Returns
 * CG_SUCCESS, CG_ERROR_INVALID_ARGUMENT (null, not 8-byte aligned, or memory
 * the device cannot reach, such as a plain host pointer), CG_ERROR_COUNT_RANGE
 * (expected outside 1 .. 2^20-1) or CG_ERROR_CUDA (a runtime call failed);
 * cg_last_error_detail() names the value. Leaves no CUDA error pending. */
cg_status_t cg_device_barrier_init_host(cg_device_barrier_t *dev_bar, uint32_t expected);

CG_EXTERN_C_END
#endif /* CG_HOST_API */

#if CG_DEVICE_CODE_VISIBLE

#include "../base/gpu_scope.h" /* the .gpu-scope loads, stores and atomics */
#include "mbarrier.h"   /* the debug checks */
#include "../base/sreg.h"           /* %laneid, %globaltimer */

#if CG_DEBUG
/* The debug reports, out of line (base/config.h, CG_REPORT_). */
CG_REPORT_ void cg_dbar_report_init_(cg_device_barrier_t *b, uint32_t expected)
{
    printf("cgc: cg_device_barrier_init(%p): count %u is outside 1..%u\n", (void *)b, expected,
           CG_DEVICE_BARRIER_MAX);
    __trap();
}
#endif

/* Device-side init by one thread, for a barrier the grid starts using only
 * after a grid-wide synchronization or in a later kernel (plain stores). */
CG_DEVICE void cg_device_barrier_init(cg_device_barrier_t *b, uint32_t expected)
{
#if CG_DEBUG
    if (CG_UNLIKELY_(expected < 1u || expected > CG_DEVICE_BARRIER_MAX))
        cg_dbar_report_init_(b, expected);
#endif
    b->_state = CG_DBAR_INIT_STATE_(expected); /* phase 0, no arrival yet */
    b->_reserved = 0;
}

#if CG_DEBUG
/* Reports more arrivals than a phase expects (from `state`, the word as the
 * check read it; `expected`: that phase's count, 0 for a drop with nobody
 * left to drop), then traps. */
CG_REPORT_ void cg_dbar_over_arrival_(cg_device_barrier_t *b, uint64_t state, uint32_t expected)
{
    printf("cgc: cg_device_barrier arrive: device barrier at %p, phase %u: more arrivals than the phase expects "
           "(%u expected; %u counted before its re-arm) (block %d,%d,%d thread %d,%d,%d)\n",
           (void *)b, (uint32_t)(state >> CG_DBAR_PHASE_SHIFT_), expected,
           (uint32_t)((state >> CG_DBAR_COUNT_SHIFT_) & (CG_DBAR_COUNT_SPAN_ - 1u)), blockIdx.x, blockIdx.y,
           blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z);
    __trap();
}
#endif

/* Bit 32 of a token: the arrive that returned it completed its phase (its
 * add carried into the phase number). That thread's wait then has nothing to
 * poll for: its own acq_rel add read the value every other arrival of the
 * phase left (they are RMWs of one word, each a release: the add is an
 * acquire that synchronizes with each of them), so it already sees every
 * arriving thread's writes. The bits below hold the phase number. */
#define CG_DBAR_TOK_DONE_ (1ull << 32)

/* One arrival on `b` by the calling thread (acq_rel.gpu), and with `drop`
 * one expected arrival fewer from the next phase on, in one add. The add that
 * completes a phase re-arms the counter. Returns the phase number of the
 * arrival, with CG_DBAR_TOK_DONE_ when this add completed the phase. */
CG_DEVICE uint64_t cg_dbar_arrive_(cg_device_barrier_t *b, bool drop)
{
    uint64_t inc = (1ull << CG_DBAR_COUNT_SHIFT_) - (drop ? 1u : 0u);
    const uint64_t old = cg_gpu_atom_add_acq_rel_u64(&b->_state, inc);
#if CG_DEBUG
    if (CG_UNLIKELY_(drop && (old & CG_DBAR_EXPECTED_MASK_) == 0u))
        cg_dbar_over_arrival_(b, old, 0u);
#endif
    /* This add completed the phase (it carried into the phase number):
     * re-arm with the expected count as this add left it, so a drop made in
     * the next phase is not applied early. A thread that stays re-arms with
     * a red nothing waits for: the next phase needs this thread's own next
     * arrival, which comes after the red in program order, so the red cannot
     * be the add that completes it. A thread that drops out re-arms with an
     * atom and checks it: when every other arrival of the next phase came
     * first, its re-arm completes that phase too, and it re-arms again. */
    const bool completed = ((old ^ (old + inc)) >> CG_DBAR_PHASE_SHIFT_) != 0u;
    if (completed) {
        if (!drop) {
            const uint64_t expected = (old + inc) & CG_DBAR_EXPECTED_MASK_;
            const uint64_t rearm = (CG_DBAR_COUNT_SPAN_ - expected) << CG_DBAR_COUNT_SHIFT_;
#if CG_DEBUG
            /* A debug build checks the re-arm: if it completes the next
             * phase, that phase got all its arrivals without this thread's. */
            const uint64_t cur = cg_gpu_atom_add_relaxed_u64(&b->_state, rearm);
            if (CG_UNLIKELY_(((cur ^ (cur + rearm)) >> CG_DBAR_PHASE_SHIFT_) != 0u))
                cg_dbar_over_arrival_(b, cur, (uint32_t)expected);
#else
            cg_gpu_red_add_relaxed_u64(&b->_state, rearm);
#endif
        } else {
            uint64_t cur = old;
            while (((cur ^ (cur + inc)) >> CG_DBAR_PHASE_SHIFT_) != 0u) {
                const uint64_t expected = (cur + inc) & CG_DBAR_EXPECTED_MASK_;
                if (expected == 0u)
                    break; /* every participant dropped out */
                inc = (CG_DBAR_COUNT_SPAN_ - expected) << CG_DBAR_COUNT_SHIFT_;
                cur = cg_gpu_atom_add_relaxed_u64(&b->_state, inc);
            }
        }
    }
    return (old >> CG_DBAR_PHASE_SHIFT_) | (completed && CG_DEVICE_BARRIER_DONE_TOKEN ? CG_DBAR_TOK_DONE_ : 0u);
}

/* One arrival; release (acq_rel) at GPU scope; returns the phase's token. */
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

/* How far the phase number in `state` is past the token's phase, modulo
 * 2^23: 0 while the token's phase runs, 1..2^22-1 once it has completed,
 * 2^22 and up for a token of a phase that has not started. */
CG_DEVICE uint32_t cg_dbar_distance_(uint64_t state, cg_token_t tok)
{
    return ((uint32_t)(state >> CG_DBAR_PHASE_SHIFT_) - (uint32_t)tok._opaque) & CG_DBAR_PHASE_MASK_;
}

/* True when the token came from the arrive that completed its phase. */
CG_DEVICE bool cg_dbar_tok_done_(cg_token_t tok) { return (tok._opaque & CG_DBAR_TOK_DONE_) != 0u; }

/* True when the phase number in `state` is past the token's phase. */
CG_DEVICE bool cg_dbar_passed_(uint64_t state, cg_token_t tok)
{
    const uint32_t d = cg_dbar_distance_(state, tok);
    return d != 0u && d < (CG_DBAR_PHASE_MASK_ + 1u) / 2u;
}

#if CG_DEBUG
CG_REPORT_ void cg_dbar_report_(cg_device_barrier_t *b, cg_token_t tok, uint64_t state, const char *why)
{
    printf("cgc: cg_device_barrier_wait: %s: device barrier at %p, token of phase %u, barrier in phase %u with "
           "%u of %u arrivals (block %d,%d,%d thread %d,%d,%d)\n",
           why, (void *)b, (uint32_t)tok._opaque, (uint32_t)(state >> CG_DBAR_PHASE_SHIFT_),
           (uint32_t)(((state >> CG_DBAR_COUNT_SHIFT_) & (CG_DBAR_COUNT_SPAN_ - 1u)) + (state & CG_DBAR_EXPECTED_MASK_) -
                      CG_DBAR_COUNT_SPAN_),
           (uint32_t)(state & CG_DBAR_EXPECTED_MASK_), blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y,
           threadIdx.z);
    __trap();
}
#endif

/* One look: true when the phase of `tok` has completed (then acquire.gpu). */
CG_DEVICE bool cg_device_barrier_test_wait(cg_device_barrier_t *b, cg_token_t tok)
{
    return cg_dbar_tok_done_(tok) || cg_dbar_passed_(cg_gpu_ld_acquire_u64(&b->_state), tok);
}

/* Block until the phase of `tok` completes; acquire at GPU scope. Each
 * thread polls for its own token. A debug build reports a token of a phase
 * that has not started (not from an arrive on this barrier) at once, and a
 * wait longer than CG_DEBUG_WAIT_TIMEOUT_NS, then traps. */
CG_DEVICE void cg_device_barrier_wait(cg_device_barrier_t *b, cg_token_t tok)
{
    /* The thread whose arrive completed the phase: no load (see
     * CG_DBAR_TOK_DONE_). The others poll. */
    if (cg_dbar_tok_done_(tok))
        return;
#if CG_DEBUG
    uint64_t state = cg_gpu_ld_acquire_u64(&b->_state);
    if (CG_UNLIKELY_(cg_dbar_distance_(state, tok) >= (CG_DBAR_PHASE_MASK_ + 1u) / 2u))
        cg_dbar_report_(b, tok, state, "token of a phase that has not started");
    const uint32_t t0 = cg_debug_timer_start_();
    while (!cg_dbar_passed_(state, tok)) {
        if (CG_UNLIKELY_(cg_debug_timer_expired_(t0)))
            cg_dbar_report_(b, tok, state, "deadlock (are all blocks resident? did every participant arrive?)");
        state = cg_gpu_ld_acquire_u64(&b->_state);
    }
#else
    for (uint32_t polls = 1; !cg_device_barrier_test_wait(b, tok); ++polls)
        if (CG_DEVICE_BARRIER_POLL_PACE &&
            (CG_DEVICE_BARRIER_POLL_SPINS == 0 || polls > (uint32_t)CG_DEVICE_BARRIER_POLL_SPINS))
            (void)cg_sreg_globaltimer_ns(); /* paces the next poll (see the top) */
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
