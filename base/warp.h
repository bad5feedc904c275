/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * base/warp.h — where a thread sits in its block and warp, and elect.sync.
 *
 * The block's linear thread rank (x fastest) and the lane it gives are
 * spelled here once: the block, its tiles, wide tiles, the cluster's and the
 * grid's ranks, the group copies and the grid barrier all use these two
 * macros (internal, so every floor above may).
 *
 * elect.sync: the hardware's pick of one thread among the
 * warp's threads in a mask. Its two forms (with and without the elected
 * lane as a result) are here only; the bulk copies pick their issuing thread
 * with the first (async/), invoke_one its thread with the second (cg/).
 * Every thread named in the mask executes the call together. Both are
 * hand-written (tools/ptx/README.md): each turns the predicate into a result
 * inside the asm, and the second has two results and its own sm_80 path.
 */
#ifndef CG_BASE_WARP_H
#define CG_BASE_WARP_H

#include "config.h"
#include "sreg.h"

#if CG_DEVICE_CODE_VISIBLE

/* The thread's rank in its block, x fastest: (z * dim.y + y) * dim.x + x,
 * C++ CG's thread_block::thread_rank(), and its lane in its warp (a warp
 * holds 32 consecutive ranks; unlike a %laneid read, it folds with a block
 * shape the compiler knows). Expression macros, not functions: the compiler
 * orders and merges the special-register reads of an inlined function
 * otherwise than those of the expression written in place, and every caller's
 * PTX stays what it was with the expression (tools/ptx/ptxdiff.sh). */
#define CG_BLOCK_LINEAR_RANK_() ((threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x)
#define CG_BLOCK_LINEAR_LANE_() (CG_BLOCK_LINEAR_RANK_() & 31u)

/* elect.sync _|p, membermask;   PTX ISA 8.0, sm_90.
 * True in exactly one thread of the warp's threads in membermask (all of them
 * must execute it together): the cheap way to pick the thread that issues a
 * bulk copy. */
CG_DEVICE_SM90 bool cg_elect_sync(uint32_t membermask)
{
    uint32_t elected = 0;
    CG_AT_SM90_(asm volatile("{\n\t.reg .pred p;\n\telect.sync _|p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
                             : "=r"(elected)
                             : "r"(membermask));)
    return elected != 0;
}

/* elect.sync d|p, membermask;   PTX ISA 8.0, sm_90.
 * Elects one thread of the warp's threads in membermask (all of them execute
 * it together): returns 1 in that thread, 0 in the others; *leader gets the
 * elected thread's lane in every thread. Older targets: the lowest lane of
 * the mask (what a rank-0 election gives for a tile or coalesced group). */
CG_DEVICE int cg_elect_sync_leader_(uint32_t membermask, uint32_t *leader)
{
#if CG_ARCH_HAS_SM90
    uint32_t lane = 0, is_leader = 0;
    asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, %2;\n\tselp.u32 %1, 1, 0, p;\n\t}"
                 : "=r"(lane), "=r"(is_leader)
                 : "r"(membermask));
    *leader = lane;
    return (int)is_leader;
#else
    uint32_t lane = (uint32_t)__ffs((int)membermask) - 1u;
    *leader = lane;
    return cg_sreg_laneid() == lane;
#endif
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_BASE_WARP_H */
