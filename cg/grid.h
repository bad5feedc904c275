/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/grid.h — the grid group: every thread of a cooperative launch.
 *
 *   cg_grid_t g = cg_this_grid();
 *   cg_grid_sync(&g);                              // all blocks, all threads
 *   cg_token_t t = cg_grid_barrier_arrive(&g);     // split form
 *   ... independent work ...
 *   cg_grid_barrier_wait(&g, t);
 *
 * Requirements: a cooperative launch (cudaLaunchCooperativeKernel,
 * cudaLaunchKernelExC with cudaLaunchAttributeCooperative, or cg_launch with
 * .cooperative = 1); no extra kernel parameter and no -rdc.
 *
 * The barrier itself (its algorithms, memory model, settings and debug
 * checks) is barrier/grid_barrier.h, which needs no group; the calls here
 * pass it this group's state: the workspace's barrier word and the
 * algorithm's state word.
 */
#ifndef CG_CG_GRID_H
#define CG_CG_GRID_H

#include "../base/config.h"
#include "../base/dim3.h"
#include "../base/sreg.h"
#include "../barrier/grid_barrier.h"
#include "group_header.h"

/* The grid group. Build it with cg_this_grid(); pass it by pointer. */
typedef struct cg_grid {
    cg_group_header_t _hdr;
    uint32_t _spread;   /* CG_GRID_SPREAD_WANTED_, and in thread 0 once its block's first barrier is done,
                           CG_GRID_SPREAD_KNOWN_ | slot */
    uint32_t *_barrier; /* the workspace's barrier word; NULL without a cooperative launch */
} cg_grid_t;

#if CG_DEVICE_CODE_VISIBLE

/* The grid group of the calling thread. Cheap and non-collective: reads
 * special registers (the workspace, the SM count for the barrier's choice of
 * algorithm); touches no memory. */
CG_DEVICE cg_grid_t cg_this_grid(void)
{
    cg_grid_t g;
    g._hdr.kind = CG_GROUP_GRID;
    g._spread = cg_grid_spread_wanted_() ? CG_GRID_SPREAD_WANTED_ : 0u;
    g._barrier = cg_grid_workspace_barrier_();
    return g;
}

/* 1 when the launch provided a grid workspace (as C++ CG's is_valid()). The
 * driver may hand a workspace to a non-cooperative launch too, so 1 does not
 * prove the launch was cooperative; grid sync still needs one. */
CG_DEVICE int cg_grid_is_valid(const cg_grid_t *g) { return g->_barrier != (uint32_t *)0; }

/* Blocks in the grid. */
CG_DEVICE uint64_t cg_grid_num_blocks(const cg_grid_t *g)
{
    (void)g;
    return (uint64_t)gridDim.x * gridDim.y * gridDim.z;
}

/* This block's linear rank, x fastest. */
CG_DEVICE uint64_t cg_grid_block_rank(const cg_grid_t *g)
{
    (void)g;
    return ((uint64_t)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
}

/* The grid's shape in blocks (gridDim). */
CG_GROUP_DIM3_CALL_(cg_grid_t, cg_grid_dim_blocks, gridDim)

/* This block's 3-D index (blockIdx). */
CG_GROUP_DIM3_CALL_(cg_grid_t, cg_grid_block_index, blockIdx)

/* The grid's shape in clusters (%nclusterid; C++ CG's dim_clusters()). A
 * launch without a cluster shape runs in 1-block clusters: the grid's shape.
 * sm_90. */
CG_DEVICE_SM90 cg_dim3_t cg_grid_dim_clusters(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(cg_hw_nclusterid_x(), cg_hw_nclusterid_y(), cg_hw_nclusterid_z());
}

/* Clusters in the grid (num_clusters()). sm_90. */
CG_DEVICE_SM90 uint64_t cg_grid_num_clusters(const cg_grid_t *g)
{
    (void)g;
    return (uint64_t)cg_hw_nclusterid_x() * cg_hw_nclusterid_y() * cg_hw_nclusterid_z();
}

/* The calling block's cluster's 3-D index in the grid (%clusterid;
 * cluster_index()). sm_90. */
CG_DEVICE_SM90 cg_dim3_t cg_grid_cluster_index(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(cg_hw_clusterid_x(), cg_hw_clusterid_y(), cg_hw_clusterid_z());
}

/* The calling block's cluster's linear rank in the grid, x fastest
 * (cluster_rank()). sm_90. */
CG_DEVICE_SM90 uint64_t cg_grid_cluster_rank(const cg_grid_t *g)
{
    (void)g;
    return ((uint64_t)cg_hw_clusterid_z() * cg_hw_nclusterid_y() + cg_hw_clusterid_y()) * cg_hw_nclusterid_x() +
           cg_hw_clusterid_x();
}

/* Threads in the grid. */
CG_DEVICE uint64_t cg_grid_num_threads(const cg_grid_t *g)
{
    return cg_grid_num_blocks(g) * (blockDim.x * blockDim.y * blockDim.z);
}
/* The calling thread's linear rank in the grid: block rank * block size +
 * rank in the block. */
CG_DEVICE uint64_t cg_grid_thread_rank(const cg_grid_t *g)
{
    return cg_grid_block_rank(g) * (blockDim.x * blockDim.y * blockDim.z) + cg_grid_block_thread_rank_();
}

/* The grid's shape in threads (gridDim * blockDim, per dimension). */
CG_DEVICE cg_dim3_t cg_grid_dim_threads(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(gridDim.x * blockDim.x, gridDim.y * blockDim.y, gridDim.z * blockDim.z);
}

/* The calling thread's 3-D index in the grid, in threads (blockIdx * blockDim
 * + threadIdx, per dimension; C++ CG's thread_index()). */
CG_DEVICE cg_dim3_t cg_grid_thread_index(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(blockIdx.x * blockDim.x + threadIdx.x, blockIdx.y * blockDim.y + threadIdx.y,
                   blockIdx.z * blockDim.z + threadIdx.z);
}

/* C++ CG's size(): cg_grid_num_threads under its older name. */
CG_DEVICE uint64_t cg_grid_size(const cg_grid_t *g) { return cg_grid_num_threads(g); }

/* C++ CG's group_dim(): the grid's shape in BLOCKS (gridDim), as
 * cg_grid_dim_blocks (not in threads: that is cg_grid_dim_threads). */
CG_DEVICE cg_dim3_t cg_grid_group_dim(const cg_grid_t *g) { return cg_grid_dim_blocks(g); }

/* ------------------------------------------------------------------------- */
/* Barrier (barrier/grid_barrier.h on this group's state)                    */
/* ------------------------------------------------------------------------- */

/* Split arrive: collective over every thread of the grid, once per phase,
 * called from converged code (as C++ CG's grid.sync(): the block barriers in
 * the arrive and the wait are __syncthreads). Does a block barrier (the
 * block's writes are ordered before thread 0's release), then thread 0 adds
 * the block's arrival (barrier/grid_barrier.h: cg_grid_spread_arrive_ in a
 * spread phase, cg_grid_block_arrive_ in a flat one). Returns at once after
 * that, whatever other blocks do: threads may do independent work before
 * cg_grid_barrier_wait. The token is meaningful only in thread 0 but every
 * thread passes its own to the wait; a block waits for one arrive before it
 * arrives again. */
CG_DEVICE cg_token_t cg_grid_barrier_arrive(cg_grid_t *g)
{
    cg_token_t t = cg_token_none_();
#if CG_DEBUG
    cg_grid_debug_require_workspace_(g->_barrier);
#endif
    __syncthreads();
    if (cg_grid_is_block_thread0_()) {
#if !CG_DEBUG /* a debug build checked every thread above */
        if (CG_UNLIKELY_(g->_barrier == (uint32_t *)0))
            cg_grid_report_no_workspace_();
#endif
        uint32_t slot =
            (g->_spread & CG_GRID_SPREAD_WANTED_) ? cg_grid_spread_slot_for_phase_(&g->_spread, &g->_barrier) : 0u;
        t._opaque = slot ? cg_grid_spread_arrive_(slot) : cg_grid_block_arrive_(g->_barrier);
    }
    return t;
}

#if CG_DEBUG
/* What a grid wait that gave up prints: the word it polled and the phase, as
 * the token and the block's spread state name them. */
CG_REPORT_ void cg_grid_report_late_(const cg_grid_t *g, cg_token_t tok, uint32_t late);
#endif

/* Split wait: returns once every block of the grid has arrived in the phase
 * `tok` came from; afterwards every thread sees every write made anywhere in
 * the grid before the matching arrives (acquire at gpu scope). Collective
 * over the block: thread 0 (with warp 0 when it watches for its group) polls
 * (barrier/grid_barrier.h: cg_grid_spread_wait_ for a spread phase,
 * cg_grid_poll_flip_ for a flat one), then __syncthreads (the aligned
 * barrier: 110-170 ns less per grid sync than the non-aligned barrier.sync
 * from 1056 to 4224 blocks on an H200). A
 * debug build reports a wait that gave up, before the block barrier. */
CG_DEVICE void cg_grid_barrier_wait(cg_grid_t *g, cg_token_t tok)
{
#if CG_DEBUG
    uint32_t late = 0;
#define CG_GRID_WAIT_LATE_(x) (late = (x))
#else
#define CG_GRID_WAIT_LATE_(x) ((void)(x))
#endif
    if (g->_spread & CG_GRID_SPREAD_WANTED_) {
        /* Warp 0 learns from thread 0's token whether the phase was a spread
         * one (a block's first barrier is flat). */
        uint32_t tid = cg_grid_block_thread_rank_();
        if (tid < 32u) {
            uint32_t nthreads = blockDim.x * blockDim.y * blockDim.z;
            uint32_t lanes = nthreads < 32u ? nthreads : 32u;
            uint32_t mask = lanes == 32u ? 0xffffffffu : (1u << lanes) - 1u;
            uint32_t slot =
                (tok._opaque & CG_GRID_TOK_SPREAD_) ? (uint32_t)(tok._opaque >> CG_GRID_TOK_SLOT_SHIFT_) : 0u;
            slot = __shfl_sync(mask, slot, 0);
            if (slot)
                CG_GRID_WAIT_LATE_(cg_grid_spread_wait_(slot, (uint32_t)tok._opaque, tid, lanes, mask));
            else if (tid == 0 && !(tok._opaque & CG_GRID_TOK_DONE_))
                CG_GRID_WAIT_LATE_(cg_grid_poll_flip_(g->_barrier, (uint32_t)tok._opaque, cg_grid_sleep_ns_()));
        }
    } else if (cg_grid_is_block_thread0_() && !(tok._opaque & CG_GRID_TOK_DONE_)) {
        CG_GRID_WAIT_LATE_(cg_grid_poll_flip_(g->_barrier, (uint32_t)tok._opaque, cg_grid_sleep_ns_()));
    }
#undef CG_GRID_WAIT_LATE_
#if CG_DEBUG
    if (CG_UNLIKELY_(late != 0))
        cg_grid_report_late_(g, tok, late);
#endif
    __syncthreads();
}

#if CG_DEBUG
CG_REPORT_ void cg_grid_report_late_(const cg_grid_t *g, cg_token_t tok, uint32_t late)
{
    const uint32_t slot = (uint32_t)(tok._opaque >> CG_GRID_TOK_SLOT_SHIFT_);
    const uint64_t p = cg_grid_spread_block_()->phase;
    const void *group_word = late == CG_GRID_LATE_FLAT_ ? (const void *)0
                                                        : cg_grid_spread_release_(slot, cg_grid_rank_() / CG_GRID_SPREAD_GROUP);
    if (late == CG_GRID_LATE_FLAT_) {
        const uint32_t seen = (uint32_t)tok._opaque;
        printf("cgc: grid barrier %s at %p: phase (top bit %u, word 0x%08x) did not complete in %llu ns "
               "(block %u,%u,%u of %u,%u,%u). Was the kernel launched cooperatively, with every block "
               "co-resident, and does every block reach the barrier?\n",
               "wait", (const void *)g->_barrier, seen >> 31, seen, (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS,
               blockIdx.x, blockIdx.y, blockIdx.z, gridDim.x, gridDim.y, gridDim.z);
    } else if (late == CG_GRID_LATE_TOKEN_) {
        printf("cgc: grid barrier wait at %p with the token of phase %u, but this block's last arrival was "
               "for phase %llu (block %u,%u,%u): wait once per arrive, with that arrive's token\n",
               group_word, (uint32_t)tok._opaque, (unsigned long long)p, blockIdx.x, blockIdx.y, blockIdx.z);
    } else {
        const uint32_t lane = cg_grid_block_thread_rank_();
        printf("cgc: grid barrier %s at %p: phase %llu did not complete in %llu ns (block %u,%u,%u of "
               "%u,%u,%u). Was the kernel launched cooperatively, with every block co-resident, and does "
               "every block reach the barrier?\n",
               late == CG_GRID_LATE_WATCH_ ? "watch" : "wait",
               late == CG_GRID_LATE_WATCH_ ? (const void *)cg_grid_spread_count_(slot, lane) : group_word,
               late == CG_GRID_LATE_WATCH_ ? (unsigned long long)(uint32_t)p : (unsigned long long)p,
               (unsigned long long)CG_DEBUG_WAIT_TIMEOUT_NS, blockIdx.x, blockIdx.y, blockIdx.z, gridDim.x,
               gridDim.y, gridDim.z);
    }
    __trap();
}
#endif

/* Grid-wide barrier: arrive then wait. */
CG_DEVICE void cg_grid_sync(cg_grid_t *g) { cg_grid_barrier_wait(g, cg_grid_barrier_arrive(g)); }

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_GRID_H */
