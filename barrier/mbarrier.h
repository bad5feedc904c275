/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * barrier/mbarrier.h — the mbarrier core: one small C wrapper per PTX form.
 *
 * Layout: the PTX forms are one table, CG_MBARRIER_FORMS (base/ptx_form.h
 * stamps a raw wrapper cg_mbarrier_ptx_*_ per row, on a shared address); the
 * public calls that share a body shape (the debug count check, the barrier's
 * address, the token) are rows of two more tables, CG_MBARRIER_CALLS (this
 * CTA's barrier) and CG_MBARRIER_REMOTE_CALLS (another CTA's), each naming
 * the form it wraps. Forms a table cannot say (the warp-aggregated arrive)
 * and the blocking waits are written out below them.
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
#include "../base/ptx_form.h"

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
/* The PTX forms (base/ptx_form.h reads the columns)                        */
/* ------------------------------------------------------------------------ */
/*
 * One row per form. `addr` is the barrier's shared::cta address
 * (cg_smem_addr), `raddr` a shared::cluster address of another CTA's barrier
 * (cg_mbarrier_remote_addr_ below), `state` a token's 64 bits. An arrive on
 * this CTA's barrier returns its state (the token); one on a shared::cluster
 * address returns none (PTX requires the sink `_`). A test returns 1 when the
 * phase has completed: its row names the instruction, which sets predicate
 * p; CG_MBARRIER_PRED_ wraps it in the block that declares p and turns it
 * into %0 (selp).
 *
 * Flavors: every release, acquire, init and inval form is MEM (its order
 * needs the "memory" clobber); a .relaxed arrive, expect_tx and complete_tx
 * orders no memory and has none (VOLATILE: the compiler may move ordinary
 * accesses across it, as the hardware may). The relaxed try_wait keeps the
 * clobber so the compiler hoists no later access above the poll.
 * The sm_80 rows (PTX 7.0, no .release/.cta qualifiers: release and acquire
 * at CTA scope are their meaning) serve the sm_80 paths of the public calls.
 */
/* A test's asm: { .reg .pred p; <instr> selp.b32 %0, 1, 0, p; } */
#define CG_MBARRIER_PRED_(instr) "{\n\t.reg .pred p;\n\t" instr "\n\tselp.b32 %0, 1, 0, p;\n\t}"

/* The forms: mbarrier_forms.h, written by tools/ptx/gen.py from mbarrier_forms.tbl. */
#include "mbarrier_forms.h"

/* ------------------------------------------------------------------------ */
/* Initialization                                                           */
/* ------------------------------------------------------------------------ */

/* mbarrier.init.shared::cta.b64 [addr], count;   PTX ISA 7.8 (.shared 7.0), sm_80.
 * Phase 0, `count` pending arrivals (1 .. 2^20-1), tx-count 0. One thread
 * initializes; the others may use the barrier after a block barrier
 * (__syncthreads) or, for other CTAs of the cluster, after
 * cg_mbarrier_init_fence_cluster() and a cluster barrier. (The cluster init
 * fence and mbarrier.inval are rows of CG_MBARRIER_FORMS.) */
CG_DEVICE void cg_mbarrier_init(cg_mbarrier_t *mb, uint32_t count)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_init", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    cg_mbarrier_ptx_init_(cg_smem_addr(mb), count);
}

/* ------------------------------------------------------------------------ */
/* The sm_80 paths (internal)                                                */
/* ------------------------------------------------------------------------ */

#if CG_ARCH_HAS_SM80 && !CG_ARCH_HAS_SM90
/* sm_80 (PTX 7.0 forms, no .release/.cta qualifiers: release at CTA scope is
 * their meaning). One arrival, or with `drop` an arrive_drop. */
CG_DEVICE uint64_t cg_mbarrier_arrive_sm80_(cg_mbarrier_t *mb, bool drop)
{
    if (drop)
        return cg_mbarrier_ptx_arrive_drop_sm80_(cg_smem_addr(mb));
    return cg_mbarrier_ptx_arrive_sm80_(cg_smem_addr(mb));
}

/* sm_80: `count` arrivals (or drops) that must not complete the phase. */
CG_DEVICE uint64_t cg_mbarrier_no_complete_sm80_(cg_mbarrier_t *mb, uint32_t count, bool drop)
{
    if (drop)
        return cg_mbarrier_ptx_arrive_drop_no_complete_sm80_(cg_smem_addr(mb), count);
    return cg_mbarrier_ptx_arrive_no_complete_sm80_(cg_smem_addr(mb), count);
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

/* ------------------------------------------------------------------------ */
/* The public calls on one form each: how a row becomes a function           */
/* ------------------------------------------------------------------------ */
/*
 * A row of CG_MBARRIER_CALLS:
 *   X(shape, name, sm, check, params, form, operands, sm80)
 *   shape     TOKEN: an arrive on this CTA's barrier, returns its token;
 *             TEST:  a test of a phase, returns true when it has completed;
 *             LOCAL: on this CTA's barrier, no result;
 *             REMOTE: on CTA `rank`'s barrier, no result (the debug build
 *             checks `rank` against the cluster's size first)
 *   sm        90: the form only (CG_DEVICE_SM90); 80: the form on sm_90, the
 *             row's sm80 expression on sm_80 (CG_DEVICE)
 *   check     the debug build's range check of an argument, before the form:
 *             COUNT (`count` in 1 .. 2^20-1), TX (`tx` in 0 .. 2^20-1) or NONE;
 *             its message names the call
 *   form      the CG_MBARRIER_FORMS row it runs, on the barrier's address
 *             (cg_smem_addr, or for REMOTE cg_mbarrier_remote_addr_)
 *   operands  the form's operands after the address: (, count) or ()
 *   sm80      what an sm_80 build computes (the state or the test result);
 *             NONE where sm is 90
 */

/* The gate of a call by its sm column (base/config.h). */
#define CG_MBARRIER_AT_90_(sm90, sm80) CG_AT_SM90_(sm90)
#define CG_MBARRIER_AT_80_(sm90, sm80) CG_AT_SM90_ELSE_SM80_(sm90, sm80)

/* The check column. */
#define CG_MBARRIER_CHECK_NONE_(name)
#define CG_MBARRIER_CHECK_COUNT_(name) CG_MBARRIER_CHECK_(#name, mb, count, 1u, CG_MBARRIER_MAX_COUNT);
#define CG_MBARRIER_CHECK_TX_(name) CG_MBARRIER_CHECK_(#name, mb, tx, 0u, CG_MBARRIER_MAX_TX);

/* clang-format off */
#define CG_MBARRIER_CALL_RESULT_(rtype, vtype, ret, name, sm, check, params, form, operands, sm80)                 \
    CG_PTX_DEVICE_##sm##_ rtype name params                                                                            \
    {                                                                                                                  \
        vtype v_ = 0;                                                                                                  \
        CG_MBARRIER_CHECK_##check##_(name)                                                                             \
        CG_MBARRIER_AT_##sm##_(v_ = form(cg_smem_addr(mb) CG_PTX_LIST_ operands);, v_ = sm80;)                         \
        return ret(v_);                                                                                                \
    }
#define CG_MBARRIER_NONZERO_(v) ((v) != 0)
#define CG_MBARRIER_CALL_TOKEN_(...) CG_MBARRIER_CALL_RESULT_(cg_token_t, uint64_t, cg_mbarrier_token_, __VA_ARGS__)
#define CG_MBARRIER_CALL_TEST_(...) CG_MBARRIER_CALL_RESULT_(bool, uint32_t, CG_MBARRIER_NONZERO_, __VA_ARGS__)
#define CG_MBARRIER_CALL_LOCAL_(name, sm, check, params, form, operands, sm80)                                         \
    CG_PTX_DEVICE_##sm##_ void name params                                                                             \
    {                                                                                                                  \
        CG_MBARRIER_CHECK_##check##_(name)                                                                             \
        CG_MBARRIER_AT_##sm##_(form(cg_smem_addr(mb) CG_PTX_LIST_ operands);, sm80;)                                   \
    }
#define CG_MBARRIER_CALL_REMOTE_(name, sm, check, params, form, operands, sm80)                                        \
    CG_PTX_DEVICE_##sm##_ void name params                                                                             \
    {                                                                                                                  \
        CG_MBARRIER_CHECK_RANK_(#name, mb, rank);                                                                      \
        CG_MBARRIER_CHECK_##check##_(name)                                                                             \
        CG_MBARRIER_AT_##sm##_(form(cg_mbarrier_remote_addr_(mb, rank) CG_PTX_LIST_ operands);, sm80;)                 \
    }
/* clang-format on */

/* Stamp one row of CG_MBARRIER_CALLS. */
#define CG_MBARRIER_CALL(shape, ...) CG_MBARRIER_CALL_##shape##_(__VA_ARGS__)

/* ------------------------------------------------------------------------ */
/* The public calls on this CTA's barrier, one form each                   */
/* ------------------------------------------------------------------------ */
/*
 * Each row's comment says what the call does; the PTX line, its ISA version
 * and lowest SM are the row of its form in CG_MBARRIER_FORMS. Counts and tx
 * counts: 1 .. 2^20-1 and 0 .. 2^20-1 (checked in a debug build).
 */
/* ---- generated by tools/ptx/gen.py from mbarrier_calls.tbl [local]; do not edit ---- */

/* cg_mbarrier_inval(mb): ends the barrier's life so its 8 bytes may be reused as ordinary shared memory (or
 * re-initialized). No thread may be using it.
 * mbarrier.inval.shared::cta.b64 [%0];   PTX ISA 7.8, sm_80 (cg_mbarrier_ptx_inval_) */
CG_DEVICE void cg_mbarrier_inval(cg_mbarrier_t *mb)
{
    cg_mbarrier_ptx_inval_(cg_smem_addr(mb));
}

/* ---- Arrive on this CTA's barrier (returns the token of the phase arrived in) ---- */

/* One arrival; release at CTA scope.
 * mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_release_cta_)
 * sm_80: cg_mbarrier_arrive_sm80_(mb, false) */
CG_DEVICE cg_token_t cg_mbarrier_arrive(cg_mbarrier_t *mb)
{
    uint64_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_release_cta_(cg_smem_addr(mb));, v_ = cg_mbarrier_arrive_sm80_(mb, false);)
    return cg_mbarrier_token_(v_);
}

/* `count` arrivals at once; release at CTA scope.
 * mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_n_release_cta_)
 * sm_80: cg_mbarrier_arrive_n_sm80_(mb, count, false) */
CG_DEVICE cg_token_t cg_mbarrier_arrive_n(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_n_release_cta_(cg_smem_addr(mb), count);, v_ = cg_mbarrier_arrive_n_sm80_(mb, count, false);)
    return cg_mbarrier_token_(v_);
}

/* One arrival on this CTA's barrier, release at cluster scope: for a barrier that threads of other CTAs wait
 * on or whose phase also carries remote data.
 * mbarrier.arrive.release.cluster.shared::cta.b64 %0, [%1];   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_release_cluster_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_cluster(cg_mbarrier_t *mb)
{
    uint64_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_release_cluster_(cg_smem_addr(mb));)
    return cg_mbarrier_token_(v_);
}

/* `count` arrivals at once; release at cluster scope.
 * mbarrier.arrive.release.cluster.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_n_release_cluster_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_n_cluster(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n_cluster", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_n_release_cluster_(cg_smem_addr(mb), count);)
    return cg_mbarrier_token_(v_);
}

/* One arrival that orders no memory (no "memory" clobber on purpose: the compiler may move ordinary accesses
 * across it, as the hardware may). sm_80 has no .relaxed: its release orders more, never less.
 * mbarrier.arrive.relaxed.cta.shared::cta.b64 %0, [%1];   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_relaxed_cta_)
 * sm_80: cg_mbarrier_arrive_sm80_(mb, false) */
CG_DEVICE cg_token_t cg_mbarrier_arrive_relaxed(cg_mbarrier_t *mb)
{
    uint64_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_relaxed_cta_(cg_smem_addr(mb));, v_ = cg_mbarrier_arrive_sm80_(mb, false);)
    return cg_mbarrier_token_(v_);
}

/* `count` arrivals that order no memory.
 * mbarrier.arrive.relaxed.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_n_relaxed_cta_)
 * sm_80: cg_mbarrier_arrive_n_sm80_(mb, count, false) */
CG_DEVICE cg_token_t cg_mbarrier_arrive_n_relaxed(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n_relaxed", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_n_relaxed_cta_(cg_smem_addr(mb), count);, v_ = cg_mbarrier_arrive_n_sm80_(mb, count, false);)
    return cg_mbarrier_token_(v_);
}

/* One arrival that orders no memory, at cluster scope.
 * mbarrier.arrive.relaxed.cluster.shared::cta.b64 %0, [%1];   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_relaxed_cluster_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_relaxed_cluster(cg_mbarrier_t *mb)
{
    uint64_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_relaxed_cluster_(cg_smem_addr(mb));)
    return cg_mbarrier_token_(v_);
}

/* `count` arrivals that order no memory, at cluster scope.
 * mbarrier.arrive.relaxed.cluster.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_n_relaxed_cluster_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_n_relaxed_cluster(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_n_relaxed_cluster", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_n_relaxed_cluster_(cg_smem_addr(mb), count);)
    return cg_mbarrier_token_(v_);
}

/* `count` arrivals that must NOT complete the phase (undefined behaviour if they would); release at CTA scope.
 * Its token is the only kind cg_mbarrier_pending_count accepts.
 * mbarrier.arrive.noComplete.release.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_no_complete_release_cta_)
 * sm_80: cg_mbarrier_no_complete_sm80_(mb, count, false) */
CG_DEVICE cg_token_t cg_mbarrier_arrive_no_complete(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_no_complete", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_no_complete_release_cta_(cg_smem_addr(mb), count);, v_ = cg_mbarrier_no_complete_sm80_(mb, count, false);)
    return cg_mbarrier_token_(v_);
}

/* arrive_drop of `count` that must NOT complete the phase (undefined behaviour if it would): `count` fewer
 * expected from the next phase on. Its token is one cg_mbarrier_pending_count accepts.
 * mbarrier.arrive_drop.noComplete.release.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_drop_no_complete_release_cta_)
 * sm_80: cg_mbarrier_no_complete_sm80_(mb, count, true) */
CG_DEVICE cg_token_t cg_mbarrier_arrive_drop_no_complete(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_drop_no_complete", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_drop_no_complete_release_cta_(cg_smem_addr(mb), count);, v_ = cg_mbarrier_no_complete_sm80_(mb, count, true);)
    return cg_mbarrier_token_(v_);
}

/* ---- Transaction counts (sm_90): arrive with expect, expect, complete ---- */

/* expect_tx(tx) then one arrival, atomically; release at CTA scope. The phase then also waits for `tx` bytes
 * to be completed (by bulk copies, st.async, or complete_tx).
 * mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_tx_release_cta_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_tx_release_cta_(cg_smem_addr(mb), tx);)
    return cg_mbarrier_token_(v_);
}

/* As cg_mbarrier_arrive_tx, release at cluster scope (bytes that come from other CTAs: multicast copies,
 * remote st.async / bulk pushes).
 * mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_tx_release_cluster_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_tx_release_cluster_(cg_smem_addr(mb), tx);)
    return cg_mbarrier_token_(v_);
}

/* As cg_mbarrier_arrive_tx; orders no memory (no "memory" clobber).
 * mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_tx_relaxed_cta_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx_relaxed(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_relaxed", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_tx_relaxed_cta_(cg_smem_addr(mb), tx);)
    return cg_mbarrier_token_(v_);
}

/* As cg_mbarrier_arrive_tx_cluster; orders no memory.
 * mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_tx_relaxed_cluster_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_tx_relaxed_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_relaxed_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_tx_relaxed_cluster_(cg_smem_addr(mb), tx);)
    return cg_mbarrier_token_(v_);
}

/* tx-count += tx for the current phase, no arrival. PTX has only the relaxed form: the arrive that follows (or
 * precedes) carries the order.
 * mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_expect_tx_relaxed_cta_) */
CG_DEVICE_SM90 void cg_mbarrier_expect_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_expect_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_expect_tx_relaxed_cta_(cg_smem_addr(mb), tx);)
}

/* As cg_mbarrier_expect_tx, at cluster scope.
 * mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_expect_tx_relaxed_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_expect_tx_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_expect_tx_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_expect_tx_relaxed_cluster_(cg_smem_addr(mb), tx);)
}

/* tx-count -= tx, as if `tx` bytes of an async transaction had landed. Relaxed (PTX has no other form): it
 * publishes no data; writes it stands for must be ordered by the arrivals of the phase.
 * mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_complete_tx_relaxed_cta_) */
CG_DEVICE_SM90 void cg_mbarrier_complete_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_complete_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_complete_tx_relaxed_cta_(cg_smem_addr(mb), tx);)
}

/* As cg_mbarrier_complete_tx, at cluster scope.
 * mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_complete_tx_relaxed_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_complete_tx_cluster(cg_mbarrier_t *mb, uint32_t tx)
{
    CG_MBARRIER_CHECK_("cg_mbarrier_complete_tx_cluster", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_complete_tx_relaxed_cluster_(cg_smem_addr(mb), tx);)
}

/* ---- Arrive and drop out (the expected count of later phases shrinks) ---- */

/* One arrival in the current phase, and one fewer expected from the next phase on; the thread takes no
 * further part. Release at CTA scope.
 * mbarrier.arrive_drop.release.cta.shared::cta.b64 %0, [%1];   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_drop_release_cta_)
 * sm_80: cg_mbarrier_arrive_sm80_(mb, true) */
CG_DEVICE cg_token_t cg_mbarrier_arrive_drop(cg_mbarrier_t *mb)
{
    uint64_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_drop_release_cta_(cg_smem_addr(mb));, v_ = cg_mbarrier_arrive_sm80_(mb, true);)
    return cg_mbarrier_token_(v_);
}

/* `count` arrive_drops at once; release at CTA scope.
 * mbarrier.arrive_drop.release.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_drop_n_release_cta_)
 * sm_80: cg_mbarrier_arrive_n_sm80_(mb, count, true) */
CG_DEVICE cg_token_t cg_mbarrier_arrive_drop_n(cg_mbarrier_t *mb, uint32_t count)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_drop_n", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_arrive_drop_n_release_cta_(cg_smem_addr(mb), count);, v_ = cg_mbarrier_arrive_n_sm80_(mb, count, true);)
    return cg_mbarrier_token_(v_);
}

/* One arrive_drop; release at cluster scope.
 * mbarrier.arrive_drop.release.cluster.shared::cta.b64 %0, [%1];   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_drop_release_cluster_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_drop_cluster(cg_mbarrier_t *mb)
{
    uint64_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_drop_release_cluster_(cg_smem_addr(mb));)
    return cg_mbarrier_token_(v_);
}

/* One arrive_drop that orders no memory (no "memory" clobber).
 * mbarrier.arrive_drop.relaxed.cta.shared::cta.b64 %0, [%1];   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_drop_relaxed_cta_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_drop_relaxed(cg_mbarrier_t *mb)
{
    uint64_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_drop_relaxed_cta_(cg_smem_addr(mb));)
    return cg_mbarrier_token_(v_);
}

/* expect_tx(tx) and one arrive_drop, atomically; release at CTA scope.
 * mbarrier.arrive_drop.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_drop_tx_release_cta_) */
CG_DEVICE_SM90 cg_token_t cg_mbarrier_arrive_drop_tx(cg_mbarrier_t *mb, uint32_t tx)
{
    uint64_t v_ = 0;
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_drop_tx", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_arrive_drop_tx_release_cta_(cg_smem_addr(mb), tx);)
    return cg_mbarrier_token_(v_);
}

/* ---- Non-blocking tests (one look, no suspension) ---- */

/* True when the phase of `tok` has completed; then acquire at CTA scope.
 * { .reg .pred p; mbarrier.test_wait.acquire.cta.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_test_wait_acquire_cta_)
 * sm_80: cg_mbarrier_ptx_test_wait_sm80_(cg_smem_addr(mb), tok._opaque) */
CG_DEVICE bool cg_mbarrier_test_wait(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_test_wait_acquire_cta_(cg_smem_addr(mb), tok._opaque);, v_ = cg_mbarrier_ptx_test_wait_sm80_(cg_smem_addr(mb), tok._opaque);)
    return v_ != 0;
}

/* As cg_mbarrier_test_wait; acquire at cluster scope.
 * { .reg .pred p; mbarrier.test_wait.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_test_wait_acquire_cluster_) */
CG_DEVICE_SM90 bool cg_mbarrier_test_wait_cluster(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_test_wait_acquire_cluster_(cg_smem_addr(mb), tok._opaque);)
    return v_ != 0;
}

/* True when the phase of parity `parity` (0 or 1; the current or the previous phase) has completed; then
 * acquire at CTA scope.
 * { .reg .pred p; mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_test_wait_parity_acquire_cta_)
 * sm_80: cg_mbarrier_ptx_test_wait_parity_sm80_(cg_smem_addr(mb), parity) */
CG_DEVICE bool cg_mbarrier_test_wait_parity(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_test_wait_parity_acquire_cta_(cg_smem_addr(mb), parity);, v_ = cg_mbarrier_ptx_test_wait_parity_sm80_(cg_smem_addr(mb), parity);)
    return v_ != 0;
}

/* As cg_mbarrier_test_wait_parity; acquire at cluster scope.
 * { .reg .pred p; mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_test_wait_parity_acquire_cluster_) */
CG_DEVICE_SM90 bool cg_mbarrier_test_wait_parity_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_test_wait_parity_acquire_cluster_(cg_smem_addr(mb), parity);)
    return v_ != 0;
}

/* ---- Potentially blocking tests: the hardware may suspend the thread until the phase completes or a time limit
 * passes (system-defined, or the hint in ns). sm_80 has no try_wait: one look (a try that timed out at once). ---- */

/* True when the phase of `tok` has completed; then acquire at CTA scope.
 * { .reg .pred p; mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_acquire_cta_)
 * sm_80: cg_mbarrier_test_wait(mb, tok) */
CG_DEVICE bool cg_mbarrier_try_wait(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_try_wait_acquire_cta_(cg_smem_addr(mb), tok._opaque);, v_ = cg_mbarrier_test_wait(mb, tok);)
    return v_ != 0;
}

/* As cg_mbarrier_try_wait; acquire at cluster scope.
 * { .reg .pred p; mbarrier.try_wait.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_acquire_cluster_) */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_cluster(cg_mbarrier_t *mb, cg_token_t tok)
{
    uint32_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_try_wait_acquire_cluster_(cg_smem_addr(mb), tok._opaque);)
    return v_ != 0;
}

/* As cg_mbarrier_try_wait; the thread is suspended at most about `hint_ns`.
 * { .reg .pred p; mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%1], %2, %3; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_acquire_cta_hint_)
 * sm_80: ((void)hint_ns, cg_mbarrier_test_wait(mb, tok)) */
CG_DEVICE bool cg_mbarrier_try_wait_hint(cg_mbarrier_t *mb, cg_token_t tok, uint32_t hint_ns)
{
    uint32_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_try_wait_acquire_cta_hint_(cg_smem_addr(mb), tok._opaque, hint_ns);, v_ = ((void)hint_ns, cg_mbarrier_test_wait(mb, tok));)
    return v_ != 0;
}

/* As cg_mbarrier_try_wait_hint; acquire at cluster scope.
 * { .reg .pred p; mbarrier.try_wait.acquire.cluster.shared::cta.b64 p, [%1], %2, %3; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_acquire_cluster_hint_) */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_hint_cluster(cg_mbarrier_t *mb, cg_token_t tok, uint32_t hint_ns)
{
    uint32_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_try_wait_acquire_cluster_hint_(cg_smem_addr(mb), tok._opaque, hint_ns);)
    return v_ != 0;
}

/* True when the phase of parity `parity` has completed; then acquire at CTA scope.
 * { .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_parity_acquire_cta_)
 * sm_80: cg_mbarrier_test_wait_parity(mb, parity) */
CG_DEVICE bool cg_mbarrier_try_wait_parity(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_try_wait_parity_acquire_cta_(cg_smem_addr(mb), parity);, v_ = cg_mbarrier_test_wait_parity(mb, parity);)
    return v_ != 0;
}

/* As cg_mbarrier_try_wait_parity; acquire at cluster scope.
 * { .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_parity_acquire_cluster_) */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_parity_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_try_wait_parity_acquire_cluster_(cg_smem_addr(mb), parity);)
    return v_ != 0;
}

/* Observes the phase without acquiring: follow a true result with cg_fence_acquire_smem_cluster() (or its
 * proxy form) before touching the shared memory the phase hands over. The "memory" clobber keeps the compiler
 * from hoisting later accesses above the poll.
 * { .reg .pred p; mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 p, [%1], %2; selp.b32 %0, 1, 0, p; }   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_try_wait_parity_relaxed_cluster_) */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_parity_relaxed_cluster(cg_mbarrier_t *mb, uint32_t parity)
{
    uint32_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_try_wait_parity_relaxed_cluster_(cg_smem_addr(mb), parity);)
    return v_ != 0;
}

/* As cg_mbarrier_try_wait_parity; the thread is suspended at most about `hint_ns`.
 * { .reg .pred p; mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 p, [%1], %2, %3; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_parity_acquire_cta_hint_)
 * sm_80: ((void)hint_ns, cg_mbarrier_test_wait_parity(mb, parity)) */
CG_DEVICE bool cg_mbarrier_try_wait_parity_hint(cg_mbarrier_t *mb, uint32_t parity, uint32_t hint_ns)
{
    uint32_t v_ = 0;
    CG_AT_SM90_ELSE_SM80_(v_ = cg_mbarrier_ptx_try_wait_parity_acquire_cta_hint_(cg_smem_addr(mb), parity, hint_ns);, v_ = ((void)hint_ns, cg_mbarrier_test_wait_parity(mb, parity));)
    return v_ != 0;
}

/* As cg_mbarrier_try_wait_parity_hint; acquire at cluster scope.
 * { .reg .pred p; mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%1], %2, %3; selp.b32 %0, 1, 0, p; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_try_wait_parity_acquire_cluster_hint_) */
CG_DEVICE_SM90 bool cg_mbarrier_try_wait_parity_hint_cluster(cg_mbarrier_t *mb, uint32_t parity, uint32_t hint_ns)
{
    uint32_t v_ = 0;
    CG_AT_SM90_(v_ = cg_mbarrier_ptx_try_wait_parity_acquire_cluster_hint_(cg_smem_addr(mb), parity, hint_ns);)
    return v_ != 0;
}

/* ---- end of generated part ---- */

/* ------------------------------------------------------------------------ */
/* Arrive on the same-offset barrier of another CTA of the cluster (by rank) */
/* ------------------------------------------------------------------------ */
/*
 * A remote call's `mb` is this CTA's barrier; the arrival lands on the
 * barrier at the same shared-memory offset in CTA `rank` of the cluster
 * (which may be this CTA). The address comes from cg_smem_map_rank_addr
 * (mapa, base/address.h). A shared::cluster arrive returns no token (PTX
 * requires the sink `_`): the remote CTA's threads wait on their own
 * barrier, with .cluster acquire. The remote barrier must have been
 * initialized and made visible (cg_mbarrier_init_fence_cluster + a cluster
 * barrier) before the first remote arrive, and its CTA must not exit while
 * remote arrivals may still come.
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

/* The calls (rows as in CG_MBARRIER_CALLS, shape REMOTE). */
/* ---- generated by tools/ptx/gen.py from mbarrier_calls.tbl [remote]; do not edit ---- */

/* One arrival on CTA `rank`'s barrier; release at cluster scope (publishes this thread's earlier writes, DSMEM
 * writes into that CTA included).
 * mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_remote_release_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote(cg_mbarrier_t *mb, uint32_t rank)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote", mb, rank);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_remote_release_cluster_(cg_mbarrier_remote_addr_(mb, rank));)
}

/* `count` arrivals on CTA `rank`'s barrier; release at cluster scope.
 * mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_n_remote_release_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_n(cg_mbarrier_t *mb, uint32_t rank, uint32_t count)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_n", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_remote_n", mb, count, 1u, CG_MBARRIER_MAX_COUNT);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_n_remote_release_cluster_(cg_mbarrier_remote_addr_(mb, rank), count);)
}

/* One arrival on CTA `rank`'s barrier that counts only; orders no memory (no "memory" clobber).
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0];   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_remote_relaxed_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_relaxed(cg_mbarrier_t *mb, uint32_t rank)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_relaxed", mb, rank);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_remote_relaxed_cluster_(cg_mbarrier_remote_addr_(mb, rank));)
}

/* As cg_mbarrier_arrive_remote_relaxed when `pred` is nonzero, nothing otherwise (the predicate is on the
 * instruction: no branch).
 * { .reg .pred p; setp.ne.b32 p, %1, 0; @p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [%0]; }   PTX ISA 8.6, sm_90 (cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_relaxed_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t pred)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_relaxed_if", mb, rank);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_(cg_mbarrier_remote_addr_(mb, rank), pred);)
}

/* As cg_mbarrier_arrive_remote when `pred` is nonzero, nothing otherwise; the predicate is applied to the
 * instruction itself (no branch), so a warp can call it uniformly and let only some lanes arrive.
 * { .reg .pred p; setp.ne.b32 p, %1, 0; @p mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0]; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_remote_release_cluster_if_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_remote_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t pred)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_remote_if", mb, rank);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_remote_release_cluster_if_(cg_mbarrier_remote_addr_(mb, rank), pred);)
}

/* expect_tx(tx) and one arrival on CTA `rank`'s barrier, atomically; release at cluster scope.
 * mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_tx_remote_release_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_tx_remote(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_tx_remote", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_remote", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_tx_remote_release_cluster_(cg_mbarrier_remote_addr_(mb, rank), tx);)
}

/* As cg_mbarrier_arrive_tx_remote when `pred` is nonzero, nothing otherwise.
 * { .reg .pred p; setp.ne.b32 p, %2, 0; @p mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, [%0], %1; }   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_tx_remote_release_cluster_if_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_tx_remote_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx, uint32_t pred)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_tx_remote_if", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_arrive_tx_remote_if", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_tx_remote_release_cluster_if_(cg_mbarrier_remote_addr_(mb, rank), tx, pred);)
}

/* One arrive_drop on CTA `rank`'s barrier; release at cluster scope.
 * mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, [%0];   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_arrive_drop_remote_release_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_arrive_drop_remote(cg_mbarrier_t *mb, uint32_t rank)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_arrive_drop_remote", mb, rank);
    CG_AT_SM90_(cg_mbarrier_ptx_arrive_drop_remote_release_cluster_(cg_mbarrier_remote_addr_(mb, rank));)
}

/* tx-count += tx on CTA `rank`'s barrier, no arrival (relaxed, as cg_mbarrier_expect_tx).
 * mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_expect_tx_remote_relaxed_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_expect_tx_remote(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_expect_tx_remote", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_expect_tx_remote", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_expect_tx_remote_relaxed_cluster_(cg_mbarrier_remote_addr_(mb, rank), tx);)
}

/* tx-count -= tx on CTA `rank`'s barrier (relaxed, as cg_mbarrier_complete_tx).
 * mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 [%0], %1;   PTX ISA 8.0, sm_90 (cg_mbarrier_ptx_complete_tx_remote_relaxed_cluster_) */
CG_DEVICE_SM90 void cg_mbarrier_complete_tx_remote(cg_mbarrier_t *mb, uint32_t rank, uint32_t tx)
{
    CG_MBARRIER_CHECK_RANK_("cg_mbarrier_complete_tx_remote", mb, rank);
    CG_MBARRIER_CHECK_("cg_mbarrier_complete_tx_remote", mb, tx, 0u, CG_MBARRIER_MAX_TX);
    CG_AT_SM90_(cg_mbarrier_ptx_complete_tx_remote_relaxed_cluster_(cg_mbarrier_remote_addr_(mb, rank), tx);)
}

/* ---- end of generated part ---- */

/* ------------------------------------------------------------------------ */
/* Warp-aggregated arrive (hand-written: a predicate built in the asm, and  */
/* the state as an in-out operand)                                          */
/* ------------------------------------------------------------------------ */

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
    /* @p mbarrier.arrive.release.cta.shared::cta.b64 state, [addr], count;   PTX ISA 8.0, sm_90.
     * sm_80 (PTX ISA 7.0): the leader's count - 1 arrivals that cannot
     * complete (@q mbarrier.arrive.noComplete.shared.b64), then one. */
    CG_AT_SM90_ELSE_SM80_(
        asm volatile("{\n\t.reg .pred p;\n\t"
                     "setp.eq.u32 p, %1, %2;\n\t"
                     "@p mbarrier.arrive.release.cta.shared::cta.b64 %0, [%3], %4;\n\t}"
                     : "+l"(state)
                     : "r"(cg_sreg_laneid()), "r"(leader), "r"(cg_smem_addr(mb)), "r"((uint32_t)__popc(peers))
                     : "memory");
        , asm volatile("{\n\t.reg .pred p, q;\n\t"
                       "setp.eq.u32 p, %1, %2;\n\t"
                       "setp.gt.and.u32 q, %4, 1, p;\n\t"
                       "@q mbarrier.arrive.noComplete.shared.b64 %0, [%3], %5;\n\t"
                       "@p mbarrier.arrive.shared.b64 %0, [%3];\n\t}"
                       : "+l"(state)
                       : "r"(cg_sreg_laneid()), "r"(leader), "r"(cg_smem_addr(mb)), "r"((uint32_t)__popc(peers)),
                         "r"((uint32_t)__popc(peers) - 1u)
                       : "memory");)
    state = __shfl_sync(peers, state, (int)leader);
    return cg_mbarrier_token_(state);
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

/* A release to another CTA's writer: a shared-memory-restricted release fence
 * at cluster scope, then one relaxed arrival on CTA `rank`'s barrier; the _if
 * form arrives only when `pred` is nonzero (the fence runs in every calling
 * thread; the arrive is predicated, no branch). PTX ISA 8.6, sm_90. */
#define CG_MBARRIER_RELEASE_SMEM_(name, name_if, fence)                                                             \
    CG_DEVICE_SM90 void name(cg_mbarrier_t *mb, uint32_t rank)                                                       \
    {                                                                                                                \
        fence();                                                                                                     \
        cg_mbarrier_arrive_remote_relaxed(mb, rank);                                                                 \
    }                                                                                                                \
    CG_DEVICE_SM90 void name_if(cg_mbarrier_t *mb, uint32_t rank, uint32_t pred)                                     \
    {                                                                                                                \
        fence();                                                                                                     \
        cg_mbarrier_arrive_remote_relaxed_if(mb, rank, pred);                                                        \
    }

/* fence.release.sync_restrict::shared::cta.cluster;
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr];
 * Releases this thread's accesses to its own CTA's shared memory to a
 * generic-proxy writer: cg_mbarrier_release_smem_remote(mb, rank),
 * cg_mbarrier_release_smem_remote_if(mb, rank, pred). */
CG_MBARRIER_RELEASE_SMEM_(cg_mbarrier_release_smem_remote, cg_mbarrier_release_smem_remote_if,
                          cg_fence_release_smem_cluster)

/* fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;
 * mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, [remAddr];
 * The same for an async-proxy writer (TMA, bulk copy, multicast) that will
 * overwrite the buffer: cg_mbarrier_release_smem_remote_async(mb, rank),
 * cg_mbarrier_release_smem_remote_async_if(mb, rank, pred). */
CG_MBARRIER_RELEASE_SMEM_(cg_mbarrier_release_smem_remote_async, cg_mbarrier_release_smem_remote_async_if,
                          cg_fence_proxy_async_release_smem_cluster)

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
