/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/thread_block.h — the thread block group.
 *
 *   cg_thread_block_t b = cg_this_thread_block();   // cheap, non-collective
 *   cg_thread_block_sync(&b);                        // exactly __syncthreads
 *   cg_token_t t = cg_thread_block_barrier_arrive(&b);
 *   ... independent work: this thread keeps running ...
 *   cg_thread_block_barrier_wait(&b, t);
 *
 * The split barrier is real (C++ CG's thread_block::barrier_arrive is a no-op
 * and its wait a __syncthreads): it is an mbarrier in shared memory, so a
 * thread's wait returns as soon as every thread of the block has ARRIVED,
 * whether or not the others have reached their wait; threads between arrive
 * and wait make progress. Arrive is a release and wait an acquire, both at
 * CTA scope: writes before any thread's arrive are visible to every thread
 * after its wait.
 *
 * Initialization (C++ CG: "automatically initializes the group barrier").
 * cg_this_thread_block() must stay cheap and callable under divergence, so it
 * touches no memory. The barrier is set up by the first barrier_arrive made
 * through each cg_thread_block_t value, which is collective by contract:
 *   thread 0 loads the barrier's owner tag (this launch's %gridid and this
 *   block's linear index) with a predicated load; if another CTA (or nobody)
 *   left it there, thread 0 runs mbarrier.init with the block's thread count
 *   and writes the tag; then a CTA barrier (barrier.sync 0) publishes it to
 *   the block.
 * Cost of that first arrive: one CTA barrier plus a shared load (and the init the
 * very first time in the block), on top of the arrive itself. A second value
 * made later in the same block finds the tag and does not re-initialize (PTX:
 * mbarrier.init on a live mbarrier is undefined), it only pays the CTA
 * barrier. Its phases continue the same barrier.
 *
 * The per-phase path. Every arrive after the first through a value is one
 * test of the value's `_ready` register (a predicated branch, not taken) and
 * then exactly the raw sequence: mbarrier.arrive.release.cta.shared::cta.b64
 * + the mbarrier.try_wait loop, the barrier's shared address a
 * loop-invariant register. The setup is written with no thread-divergent
 * branch (thread 0's tag load is a predicated ld.shared, its init and tag
 * stores a short if-converted region), because a branch there made ptxas
 * recompute the barrier address in front of every arrive.
 * cg_thread_block_barrier_prepare(&b) before a loop does the setup there: the
 * compiler then knows `_ready` in the loop and the loop is the raw one,
 * instruction for instruction (tests/cg/ptx_test.c). Keep one
 * cg_thread_block_t per kernel and pass &b down to pay the setup once.
 * What each shape measured: docs/design/block_split_barrier.md.
 *
 * Contract (as C++ CG): every thread of the block arrives once per phase and
 * waits once with the token its arrive returned, before arriving again.
 * One barrier per block: the block group's barrier is a single shared object,
 * so split phases of two cg_thread_block_t values must not interleave.
 * The block's thread count must be below 2^20 (the mbarrier count limit; CUDA
 * blocks have at most 1024 threads).
 */
#ifndef CG_CG_THREAD_BLOCK_H
#define CG_CG_THREAD_BLOCK_H

#include "../barrier/mbarrier.h"
#include "../barrier/block_sync.h"
#include "../base/config.h"
#include "../base/dim3.h"
#include "../base/smem.h"
#include "group_header.h"
#include "../base/sreg.h"
#include "../base/warp.h"

/* The thread block group. Build it with cg_this_thread_block(); pass it by
 * pointer. `_ready` is per thread: 1 once this value's barrier is set up.
 * `_bar` is the block barrier's shared::cta address, taken once by the
 * constructor (see "The per-phase path" above). */
typedef struct cg_thread_block {
    cg_group_header_t _hdr;
    uint32_t _ready;
    uint32_t _bar;
} cg_thread_block_t;

#if CG_DEVICE_CODE_VISIBLE

/* The block group's barrier and its owner tag; one per CTA (function-scope
 * __shared__ has static storage: every value of every call shares it). */
typedef struct cg_thread_block_barrier_s_ {
    cg_mbarrier_t bar;
    uint64_t owner_grid; /* %gridid of the launch that initialized it */
    uint32_t owner_block; /* linear block index of the CTA that did */
} cg_thread_block_barrier_t_;

CG_DEVICE cg_thread_block_barrier_t_ *cg_thread_block_barrier_(void)
{
    __shared__ cg_thread_block_barrier_t_ s;
    return &s;
}

/* The block barrier's shared::cta address, through a move the compiler
 * cannot look into (base/smem.h). Without it ptxas rematerializes the
 * address (S2UR %cgactaid + ULEA, a long-latency special register read) in
 * front of every arrive of a loop that also holds the one-time setup's
 * barrier.sync; with it the address is an ordinary loop-invariant register,
 * set before the loop. Not volatile: a value whose barrier is never used
 * loses it (cg_this_thread_block stays free). */
CG_DEVICE uint32_t cg_thread_block_barrier_addr_(void)
{
    return cg_smem_addr_opaque_(cg_smem_addr(&cg_thread_block_barrier_()->bar));
}

/* The block barrier as the mbarrier wrappers take it (cvta back to generic;
 * the wrappers' cvta.to.shared folds with it, no instruction is left). */
CG_DEVICE cg_mbarrier_t *cg_thread_block_mbarrier_(const cg_thread_block_t *b)
{
    return (cg_mbarrier_t *)__cvta_shared_to_generic(b->_bar);
}

/* ------------------------------------------------------------------------- */
/* Queries                                                                   */
/* ------------------------------------------------------------------------- */

/* The calling thread's block. Touches no memory; not collective. */
CG_DEVICE cg_thread_block_t cg_this_thread_block(void)
{
    cg_thread_block_t b;
    b._hdr.kind = CG_GROUP_THREAD_BLOCK;
    b._ready = 0;
    b._bar = cg_thread_block_barrier_addr_();
    return b;
}

/* Threads in the block (blockDim.x * y * z). */
CG_DEVICE uint32_t cg_thread_block_num_threads(const cg_thread_block_t *b)
{
    (void)b;
    return blockDim.x * blockDim.y * blockDim.z;
}

/* The calling thread's linear rank in the block, x fastest. */
CG_DEVICE uint32_t cg_thread_block_thread_rank(const cg_thread_block_t *b)
{
    (void)b;
    return CG_BLOCK_LINEAR_RANK_();
}

/* The block's index in the grid (blockIdx). */
CG_GROUP_DIM3_CALL_(cg_thread_block_t, cg_thread_block_group_index, blockIdx)

/* The calling thread's index in the block (threadIdx). */
CG_GROUP_DIM3_CALL_(cg_thread_block_t, cg_thread_block_thread_index, threadIdx)

/* The block's shape in threads (blockDim). */
CG_GROUP_DIM3_CALL_(cg_thread_block_t, cg_thread_block_dim_threads, blockDim)

/* C++ CG's size(): cg_thread_block_num_threads under its older name. */
CG_DEVICE uint32_t cg_thread_block_size(const cg_thread_block_t *b) { return cg_thread_block_num_threads(b); }

/* C++ CG's group_dim(): the block's shape in threads (blockDim), as
 * cg_thread_block_dim_threads. */
CG_DEVICE cg_dim3_t cg_thread_block_group_dim(const cg_thread_block_t *b) { return cg_thread_block_dim_threads(b); }

/* ------------------------------------------------------------------------- */
/* Full barrier                                                              */
/* ------------------------------------------------------------------------- */

/* __syncthreads(): barrier.sync 0 (bar.sync 0), nothing else. Like
 * __syncthreads it must be reached by every thread of the block, from
 * warp-converged code. */
CG_DEVICE void cg_thread_block_sync(const cg_thread_block_t *b)
{
    (void)b;
    __syncthreads();
}

/* ------------------------------------------------------------------------- */
/* Split barrier                                                             */
/* ------------------------------------------------------------------------- */

/* Thread 0's read of the owner tag, as predicated loads (base/smem.h): the
 * other threads keep the values they pass in (their own tag, so they never
 * see a mismatch) and touch no memory (no race with thread 0's tag store
 * below). Predicated rather than branched on purpose: see "The per-phase
 * path". */
CG_DEVICE void cg_thread_block_tag_load_(const cg_thread_block_barrier_t_ *s, uint32_t is_thread0,
                                         uint64_t *grid, uint32_t *block)
{
    cg_smem_ld_pred_u64_u32_(is_thread0, cg_smem_addr(&s->owner_grid), cg_smem_addr(&s->owner_block), grid, block);
}

/* The one-time setup of the first arrive through a value (see the top).
 * Branch-free for ptxas apart from the if-converted init: see "The
 * per-phase path". */
CG_DEVICE void cg_thread_block_barrier_setup_(const cg_thread_block_t *b)
{
    /* From b->_bar (the struct's first member), so that every address of the
     * loop stems from the one invariant register. */
    cg_thread_block_barrier_t_ *s = (cg_thread_block_barrier_t_ *)cg_thread_block_mbarrier_(b);
    uint32_t is_thread0 = (threadIdx.x | threadIdx.y | threadIdx.z) == 0;
    uint64_t grid = cg_sreg_gridid();
    uint32_t block = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    uint64_t owner_grid = grid;
    uint32_t owner_block = block;
    cg_thread_block_tag_load_(s, is_thread0, &owner_grid, &owner_block);
    if (owner_grid != grid || owner_block != block) { /* thread 0 only */
        cg_mbarrier_init(&s->bar, blockDim.x * blockDim.y * blockDim.z);
        s->owner_grid = grid;
        s->owner_block = block;
    }
    cg_block_sync_unaligned_(); /* publishes the init; thread 0 may come from its init */
}

/* Optional: set the block barrier up now, through `b` (collective: every
 * thread of the block calls it, as barrier_arrive). The arrives that follow
 * through the same value, where the compiler can see this call (the same
 * function after inlining), carry no first-use test: their loop is exactly
 * the raw mbarrier arrive + try_wait. Without it the first arrive does the
 * same setup. */
CG_DEVICE void cg_thread_block_barrier_prepare(cg_thread_block_t *b)
{
    if (!b->_ready) {
        cg_thread_block_barrier_setup_(b);
        b->_ready = 1;
    }
}

#if CG_DEBUG
/* The debug report of a second arrive before the wait (out of line:
 * base/config.h, CG_REPORT_). */
CG_REPORT_ void cg_thread_block_report_rearrive_(uint32_t bar)
{
    printf("cgc: cg_thread_block_barrier_arrive: thread %d,%d,%d of block %d,%d,%d arrives again before "
           "waiting for its previous arrival (block barrier at shared 0x%x, phase parity %u): every thread "
           "arrives once per phase and waits with that arrive's token before arriving again\n",
           threadIdx.x, threadIdx.y, threadIdx.z, blockIdx.x, blockIdx.y, blockIdx.z, (unsigned)bar,
           cg_mbarrier_current_parity((cg_mbarrier_t *)cg_smem_generic(bar)));
    __trap();
}
#endif

/* Arrive on the block's barrier (release, CTA scope) and return at once. The
 * first call through a value also sets the barrier up, which is a CTA barrier
 * (see the top). Collective: every thread of the block arrives once per phase. */
CG_DEVICE cg_token_t cg_thread_block_barrier_arrive(cg_thread_block_t *b)
{
    cg_thread_block_barrier_prepare(b);
#if CG_DEBUG
    /* Bit 1 of _ready: this value has an arrive whose wait has not come yet.
     * A second arrive then would count this thread twice in one phase and
     * complete it without another thread's arrival. */
    if (CG_UNLIKELY_(b->_ready & 2u))
        cg_thread_block_report_rearrive_(b->_bar);
    b->_ready |= 2u;
#endif
    return cg_mbarrier_arrive(cg_thread_block_mbarrier_(b));
}

/* Wait until every thread of the block has arrived in the phase of `tok`
 * (acquire, CTA scope). Consumes the token of this thread's own arrive. */
CG_DEVICE void cg_thread_block_barrier_wait(cg_thread_block_t *b, cg_token_t tok)
{
#if CG_DEBUG
    b->_ready &= ~2u;
#endif
    cg_mbarrier_wait(cg_thread_block_mbarrier_(b), tok);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_THREAD_BLOCK_H */
