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
 * The barrier itself (its algorithms, memory model, settings, token and
 * debug checks) is barrier/grid_barrier.h, which needs no group: this group
 * embeds its state (cg_grid_bar_t_, read only) and forwards to its arrive
 * and wait. What changes per phase lives in the block's shared memory, so
 * every call takes a const cg_grid_t (as C++ CG's sync() is const), and any
 * number of cg_grid_t of one kernel act as one barrier.
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
    cg_grid_bar_t_ _bar; /* the launch's grid workspace (0 without a cooperative launch) */
} cg_grid_t;

#if CG_DEVICE_CODE_VISIBLE

/* The grid group of the calling thread. Cheap and non-collective: reads
 * the workspace's special registers; touches no memory. */
CG_DEVICE cg_grid_t cg_this_grid(void)
{
    cg_grid_t g;
    g._hdr.kind = CG_GROUP_GRID;
    g._bar.ws = cg_sreg_grid_workspace_();
    return g;
}

/* 1 when the launch provided a grid workspace (as C++ CG's is_valid()). The
 * driver may hand a workspace to a non-cooperative launch too, so 1 does not
 * prove the launch was cooperative; grid sync still needs one. */
CG_DEVICE int cg_grid_is_valid(const cg_grid_t *g) { return g->_bar.ws != 0; }

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
    return cg_grid_block_rank(g) * (blockDim.x * blockDim.y * blockDim.z) +
           (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
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
 * the arrive and the wait are __syncthreads). A block barrier (the block's
 * writes are ordered before the arrival's gpu-scope release), then thread 0
 * adds the block's arrival with a release reduction and returns: nothing
 * waits for it, so threads may do independent work before
 * cg_grid_barrier_wait and it overlaps the barrier. The token is meaningful
 * only in thread 0 but every thread passes its own to the wait; a block
 * waits for one arrive before it arrives again. Limits: a cooperative
 * launch; mixing with C++ CG's grid.sync() only before the launch's first
 * cgc split arrive (barrier/grid_barrier.h; cg_grid_sync mixes anywhere
 * below 10 blocks per SM). */
CG_DEVICE cg_token_t cg_grid_barrier_arrive(const cg_grid_t *g) { return cg_grid_bar_arrive_(&g->_bar); }

/* Split wait: returns once every block of the grid has arrived in the phase
 * `tok` came from; afterwards every thread sees every write made anywhere in
 * the grid before the matching arrives (acquire at gpu scope). Collective
 * over the block: thread 0 (with warp 0 when it watches for its group)
 * polls, then a block barrier. A debug build reports a wait that gave up
 * and a token that is not the block's last arrive's. */
CG_DEVICE void cg_grid_barrier_wait(const cg_grid_t *g, cg_token_t tok) { cg_grid_bar_wait_(&g->_bar, tok); }

/* Grid-wide barrier (C++ CG's grid.sync()): release then acquire at gpu
 * scope: every write before it, anywhere in the grid, is visible to every
 * thread after it. Collective over the grid, from converged code, in a
 * cooperative launch. Below 10 blocks per SM it is one acq_rel atomic per
 * block whose return tells the last arriving block it is done (no poll
 * there), and it mixes with C++ CG's grid.sync() anywhere in a launch; from
 * 10 blocks per SM it is the split arrive then wait (barrier/grid_barrier.h).
 * Mixes with the split calls in one kernel. */
CG_DEVICE void cg_grid_sync(const cg_grid_t *g) { cg_grid_bar_sync_(&g->_bar); }

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_GRID_H */
