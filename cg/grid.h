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
 * Requirements: the kernel is started with a standard cooperative launch
 * (cudaLaunchCooperativeKernel, cudaLaunchKernelExC with
 * cudaLaunchAttributeCooperative, or cg_launch with .cooperative = 1), so all
 * blocks are co-resident. No extra kernel parameter and no -rdc: the barrier
 * word lives in the grid workspace the driver hands every launch through the
 * %envreg1 (high half) / %envreg2 (low half) special registers, the same ABI
 * C++ cooperative groups uses (cooperative_groups/details/driver_abi.h).
 *
 * ---------------------------------------------------------------------------
 * The workspace and why the algorithm is what it is
 * ---------------------------------------------------------------------------
 * The workspace gives each running launch ONE 32-bit word, zero at the start
 * of every launch; an address is owned by one running launch at a time.
 *
 * Flat algorithm (below CG_GRID_SPREAD_MIN_BLOCKS_PER_SM blocks per SM, every
 * launch's first barrier, and the fallback): a sense-reversing counter on the
 * workspace word, bit-compatible with C++ CG's grid.sync().
 *   - Each block arrives once per phase: __syncthreads, then thread 0 adds to
 *     the word with atom.add.acq_rel.gpu. Block 0 adds 0x80000000 - (N-1),
 *     every other block adds 1, so a full phase adds exactly 0x80000000: the
 *     top bit flips on the last arrival and the low 31 bits return to 0. A
 *     block that saw phase p complete and arrives for p+1 changes only the
 *     low bits, so a slow block still polling for p cannot be confused (the
 *     re-arrival race of NVIDIA/cuml#458 cannot happen: completion is an edge
 *     of one bit that only the last arrival of a phase can produce).
 *   - The arrival that flips the bit knows it from its own atom's result and
 *     never polls (CG polls even then: one L2 round trip saved on the critical
 *     path, which ends with the last block to arrive).
 *   - The others poll with ld.acquire.gpu; above
 *     CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM (4) blocks per SM they sleep
 *     CG_GRID_POLL_SLEEP_NS (32) between polls so the pollers leave the one
 *     L2 slice that holds the word to the arrivals' atomics (measured best
 *     on both sizes of grid: docs/design/grid_barrier.md).
 *   Its floor: every block's atomic serializes on one L2 slice, so at many
 *   blocks per SM it stays near CG.
 *
 * Spread barrier (from CG_GRID_SPREAD_MIN_BLOCKS_PER_SM = 10 blocks per SM, up
 * to CG_GRID_SPREAD_MAX_BLOCKS blocks). Its words live in module memory, in
 * CG_GRID_SPREAD_SLOTS slots, each owned by the workspace address that first
 * claimed it (atom.cas): two launches running at once never share a slot,
 * and a launch that finds every slot taken by other workspaces stays flat.
 *   - Arrive: thread 0 adds 1 to one of 32 counters (block rank mod 32) with
 *     red.release.gpu: fire and forget, so the arrival waits for nothing and
 *     32 counters take the grid's arrivals side by side. Every block counts
 *     the phases in shared memory (every block takes part in every phase, so
 *     all agree on the number p).
 *   - Wait: blocks are released in groups of CG_GRID_SPREAD_GROUP (64)
 *     consecutive ranks, each group through one 64-bit word: 2p + 1 while a
 *     block of the group watches phase p, 2p + 2 once it is released. Thread
 *     0 does atom.acquire.max(word, 2p + 1). The first of the group to get
 *     there (the old value is below 2p + 1) is the group's watcher: warp 0
 *     polls all 32 counters (one per lane) until each holds all of phase p's
 *     arrivals, then lane 0 fences and stores 2p + 2. Any later block of the
 *     group polls the word for 2p + 2 (or already found it in the atom).
 *   - Counters only grow (wrap-safe compares): counter k has all of phase
 *     p's arrivals once it reaches p times its share of the blocks, because
 *     no block arrives for p + 1 before some watcher saw all of phase p.
 *   - Progress: the watcher is a block already in its wait, and what it
 *     waits for is the arrivals alone. So a wait returns once every block has
 *     arrived, whatever the other blocks do after arriving: one that works
 *     between its arrive and its wait (or waits there for another block's
 *     post-barrier write) holds up nobody, as with the flat counter and C++
 *     CG's barrier_arrive.
 *   - A block's first barrier in a launch is always flat (the workspace word
 *     is fresh each launch); during it block 0 zeroes the counters and the
 *     first block of each group its word, so the slot starts clean whatever
 *     an earlier launch left there (a kernel that ended mid-phase included),
 *     and every block starts counting at p = 0. Whether a barrier is a
 *     block's first is in shared memory, tagged with %gridid and the block's
 *     rank (the thread block barrier's scheme); a cg_grid_t then keeps the
 *     slot, so the next barrier on it reads nothing to find it.
 *   Every counter and word is alone in a 128-byte line (with several in one
 *   line their atomics and polls meet in one L2 slice). Memory:
 *   CG_GRID_SPREAD_SLOTS * (128 * (33 + CG_GRID_SPREAD_MAX_BLOCKS /
 *   CG_GRID_SPREAD_GROUP)) bytes of __device__ data per module that uses the
 *   grid barrier (81 KB with the defaults); -DCG_GRID_SPREAD_SLOTS=0 keeps the
 *   flat barrier only.
 *
 * Why this shape: a gpu-scope fence is an L2 round trip of its own, so a
 * design is judged by the fences and round trips on the path from the last
 * arrival to the last wake-up. The measurements, the switch point and the
 * designs built and not kept: docs/design/grid_barrier.md.
 *
 * Memory model, flat: all threads of a block -> __syncthreads -> thread 0's
 * release (cumulative) on the counter -> the last arrival's acquire -> its
 * release (flip) -> every poller's acquire -> __syncthreads -> all threads.
 * Spread: all threads of a block -> __syncthreads -> thread 0's
 * red.release.gpu on its counter -> a watcher lane's ld.acquire.gpu that
 * reads a value at or past the phase's target (reductions are atomic
 * read-modify-writes, so the value read follows every reduction of the phase
 * on that counter in observation order) -> __syncwarp (memory ordering among
 * warp 0's lanes) -> lane 0's fence.acq_rel.gpu -> st.relaxed 2p + 2 on the
 * group word (a release pattern) -> a group member's atom.acquire.max or
 * ld.acquire.gpu that reads it (or a later value, which follows it) ->
 * __syncthreads -> all threads. Either way, writes before the arrive are
 * visible to every thread of the grid after the wait.
 *
 * Debug build (CG_DEBUG=1): a null workspace (no cooperative launch) is
 * reported and traps at cg_this_grid's first barrier call; a wait that does not
 * complete within CG_DEBUG_WAIT_TIMEOUT_NS (e.g. a non-cooperative launch whose
 * blocks are not all resident, or a block that skipped the barrier) prints the
 * word, the phase and the block, then traps; so does a spread wait whose
 * token is not from the block's last arrive.
 */
#ifndef CG_CG_GRID_H
#define CG_CG_GRID_H

#include "../base/gpu_scope.h"
#include "../base/config.h"
#include "../base/dim3.h"
#include "group_header.h"
#include "../base/sreg.h"

/* Nanoseconds a polling block sleeps between polls of the grid barrier word
 * when the grid has more than one block per SM (0: spin). Tuned on an H200. */
#if !defined(CG_GRID_POLL_SLEEP_NS)
#define CG_GRID_POLL_SLEEP_NS 32
#endif
/* ... and only above this many blocks per SM (at or below it they spin). */
#if !defined(CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM)
#define CG_GRID_POLL_SPIN_MAX_BLOCKS_PER_SM 4
#endif

/* The spread barrier (see above): used from CG_GRID_SPREAD_MIN_BLOCKS_PER_SM
 * blocks per SM (grid size >= that * %nsmid), for grids of up to
 * CG_GRID_SPREAD_MAX_BLOCKS blocks; blocks are released in groups of
 * CG_GRID_SPREAD_GROUP; CG_GRID_SPREAD_SLOTS launches running at once per
 * module get one (0 turns it off: every grid uses the flat barrier). */
#if !defined(CG_GRID_SPREAD_MIN_BLOCKS_PER_SM)
#define CG_GRID_SPREAD_MIN_BLOCKS_PER_SM 10
#endif
#if !defined(CG_GRID_SPREAD_MAX_BLOCKS)
#define CG_GRID_SPREAD_MAX_BLOCKS 8192
#endif
#if !defined(CG_GRID_SPREAD_GROUP)
#define CG_GRID_SPREAD_GROUP 64
#endif
#if !defined(CG_GRID_SPREAD_SLOTS)
#define CG_GRID_SPREAD_SLOTS 4
#endif
/* Nanoseconds a watcher or a waiting block sleeps between polls (0: spin). */
#if !defined(CG_GRID_SPREAD_POLL_SLEEP_NS)
#define CG_GRID_SPREAD_POLL_SLEEP_NS 0
#endif

/* The grid group. Build it with cg_this_grid(); pass it by pointer. */
typedef struct cg_grid {
    cg_group_header_t _hdr;
    uint32_t _spread;   /* CG_GRID_SPREAD_WANTED_, and in thread 0 once its block's first barrier is done,
                           CG_GRID_SPREAD_KNOWN_ | slot */
    uint32_t *_barrier; /* the workspace's barrier word; NULL without a cooperative launch */
} cg_grid_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Grid workspace ABI                                                        */
/* ------------------------------------------------------------------------- */

/* mov.u32 d, %envreg1; mov.u32 d, %envreg2;  PTX ISA 2.1 (envregs), sm_20
 * The driver's grid workspace address, high word in %envreg1, low word in
 * %envreg2. Layout: { uint32 wsSize; uint32 barrier; ... }. */
CG_DEVICE uint32_t *cg_grid_workspace_barrier_(void)
{
    uint32_t hi, lo;
    asm("mov.u32 %0, %%envreg1;" : "=r"(hi));
    asm("mov.u32 %0, %%envreg2;" : "=r"(lo));
    uint64_t ws = ((uint64_t)hi << 32) | lo;
    return ws ? (uint32_t *)(uintptr_t)(ws + 4) : (uint32_t *)0;
}

/* ------------------------------------------------------------------------- */
/* Memory operations on the barrier words (gpu scope)                        */
/* ------------------------------------------------------------------------- */

/* ------------------------------------------------------------------------- */
/* Queries                                                                   */
/* ------------------------------------------------------------------------- */

/* cg_grid_t._spread: WANTED when the grid is large enough for the spread
 * barrier (a launch constant, decided alike in every thread); KNOWN and the
 * slot below, set by thread 0 once its block's first barrier is done (the
 * slot no longer changes in the launch). */
#define CG_GRID_SPREAD_WANTED_ 0x40000000u
#define CG_GRID_SPREAD_KNOWN_ 0x80000000u
#define CG_GRID_SPREAD_SLOT_MASK_ 0x3fffffffu

/* The grid is large enough for the spread barrier. */
CG_DEVICE int cg_grid_spread_wanted_(void)
{
    uint32_t n = gridDim.x * gridDim.y * gridDim.z;
    return CG_GRID_SPREAD_SLOTS > 0 && n >= (uint32_t)CG_GRID_SPREAD_MIN_BLOCKS_PER_SM * cg_sreg_nsmid() &&
           n <= (uint32_t)CG_GRID_SPREAD_MAX_BLOCKS;
}

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
CG_DEVICE cg_dim3_t cg_grid_dim_blocks(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(gridDim.x, gridDim.y, gridDim.z);
}

/* This block's 3-D index (blockIdx). */
CG_DEVICE cg_dim3_t cg_grid_block_index(const cg_grid_t *g)
{
    (void)g;
    return cg_dim3(blockIdx.x, blockIdx.y, blockIdx.z);
}

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

/* The calling thread's linear rank in its block (x fastest: warp 0 is ranks
 * 0..31). */
CG_DEVICE uint32_t cg_grid_block_thread_rank_(void)
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
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

#endif /* CG_DEVICE_CODE_VISIBLE */
/* The grid barrier's algorithms have a file of their own. */
#include "grid_barrier.h"

#endif /* CG_CG_GRID_H */
