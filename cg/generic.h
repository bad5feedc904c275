/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/generic.h — group calls that work on a pointer to any group.
 *
 *   cg_sync(&g)               cg_barrier_arrive(&g) -> cg_token_t
 *   cg_barrier_wait(&g, tok)  cg_thread_rank(&g)    cg_num_threads(&g)
 *
 * for g a cg_thread_block_t, cg_cluster_t, cg_grid_t, cg_tile_t,
 * cg_coalesced_group_t, cg_wide_tile_t or cg_thread_group_t (cg/thread_group.h: any
 * group, whose calls switch on the stored kind at run time).
 *
 * Each selects the typed call (cg_thread_block_sync, cg_grid_thread_rank, ...)
 * from the STATIC type of `g`, at compile time: C11 spells the table with
 * _Generic; C++ (how nvcc compiles every .cu file) with an internal overload
 * set that mirrors it. No group is ever read as another kind and no run-time
 * switch is left, so a generic call is the typed call, instruction for
 * instruction (tests/cg:ptx_test compares the PTX), and compiles as fast.
 * Anything that is not a pointer to a group is a compile error.
 *
 * The result type is the typed call's: thread_rank and num_threads are
 * uint32_t for a block, cluster or tile and uint64_t for a grid (a grid can
 * hold more than 2^32 threads), as in C++ CG.
 *
 * Tiles have no hardware split barrier: cg_barrier_arrive on a tile is a
 * __syncwarp over the tile and cg_barrier_wait does nothing (cg/tile.h); on a
 * wide tile the arrive is its named-barrier sync (cg/wide_tile.h).
 */
#ifndef CG_CG_GENERIC_H
#define CG_CG_GENERIC_H

#include "cluster_group.h"
#include "coalesced.h"
#include "../base/config.h"
#include "grid.h"
#include "thread_block.h"
#include "thread_group.h"
#include "tile.h"
#include "wide_tile.h"

#if CG_DEVICE_CODE_VISIBLE

#if defined(__cplusplus)

/* The _Generic table below, as overloads (internal; users call the macros). */
/* dev: CG_DEVICE, or CG_DEVICE_SM90 for a group that needs sm_90 (so an
 * older target reports the user's generic call, not this table). */
#define CG_GENERIC_FORWARD_DEV_(group, prefix, dev)                                                \
    dev void cg_generic_sync_(group *g) { prefix##_sync(g); }                                      \
    dev cg_token_t cg_generic_barrier_arrive_(group *g) { return prefix##_barrier_arrive(g); }     \
    dev void cg_generic_barrier_wait_(group *g, cg_token_t t) { prefix##_barrier_wait(g, t); }     \
    dev auto cg_generic_thread_rank_(const group *g)->decltype(prefix##_thread_rank(g))            \
    {                                                                                              \
        return prefix##_thread_rank(g);                                                            \
    }                                                                                              \
    dev auto cg_generic_num_threads_(const group *g)->decltype(prefix##_num_threads(g))            \
    {                                                                                              \
        return prefix##_num_threads(g);                                                            \
    }
#define CG_GENERIC_FORWARD_(group, prefix) CG_GENERIC_FORWARD_DEV_(group, prefix, CG_DEVICE)

CG_GENERIC_FORWARD_(cg_thread_block_t, cg_thread_block)
#if defined(__CUDACC_RTC__) /* the decltype names a wrapper NVRTC marks deprecated below sm_90 */
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1444
#endif
CG_GENERIC_FORWARD_DEV_(cg_cluster_t, cg_cluster, CG_DEVICE_SM90)
#if defined(__CUDACC_RTC__)
#pragma nv_diagnostic pop
#endif
CG_GENERIC_FORWARD_(cg_grid_t, cg_grid)
CG_GENERIC_FORWARD_(cg_tile_t, cg_tile)
CG_GENERIC_FORWARD_(cg_coalesced_group_t, cg_coalesced)
CG_GENERIC_FORWARD_(cg_wide_tile_t, cg_wide_tile)
CG_GENERIC_FORWARD_(cg_thread_group_t, cg_thread_group)

#define cg_sync(g) cg_generic_sync_(g)
#define cg_barrier_arrive(g) cg_generic_barrier_arrive_(g)
#define cg_barrier_wait(g, tok) cg_generic_barrier_wait_((g), (tok))
#define cg_thread_rank(g) cg_generic_thread_rank_(g)
#define cg_num_threads(g) cg_generic_num_threads_(g)

#else /* C11 */

#define CG_GENERIC_PICK_(g, verb)                                                                  \
    _Generic((g), cg_thread_block_t *: cg_thread_block_##verb, cg_cluster_t *: cg_cluster_##verb,  \
             cg_grid_t *: cg_grid_##verb, cg_tile_t *: cg_tile_##verb,                             \
             cg_coalesced_group_t *: cg_coalesced_##verb, cg_wide_tile_t *: cg_wide_tile_##verb,        \
             cg_thread_group_t *: cg_thread_group_##verb)
#define CG_GENERIC_PICK_CONST_(g, verb)                                                            \
    _Generic((g), cg_thread_block_t *: cg_thread_block_##verb,                                     \
             const cg_thread_block_t *: cg_thread_block_##verb, cg_cluster_t *: cg_cluster_##verb, \
             const cg_cluster_t *: cg_cluster_##verb, cg_grid_t *: cg_grid_##verb,                 \
             const cg_grid_t *: cg_grid_##verb, cg_tile_t *: cg_tile_##verb,                       \
             const cg_tile_t *: cg_tile_##verb, cg_coalesced_group_t *: cg_coalesced_##verb,       \
             const cg_coalesced_group_t *: cg_coalesced_##verb, cg_wide_tile_t *: cg_wide_tile_##verb,  \
             const cg_wide_tile_t *: cg_wide_tile_##verb, cg_thread_group_t *: cg_thread_group_##verb, \
             const cg_thread_group_t *: cg_thread_group_##verb)

#define cg_sync(g) CG_GENERIC_PICK_((g), sync)(g)
#define cg_barrier_arrive(g) CG_GENERIC_PICK_((g), barrier_arrive)(g)
#define cg_barrier_wait(g, tok) CG_GENERIC_PICK_((g), barrier_wait)((g), (tok))
#define cg_thread_rank(g) CG_GENERIC_PICK_CONST_((g), thread_rank)(g)
#define cg_num_threads(g) CG_GENERIC_PICK_CONST_((g), num_threads)(g)

#endif /* __cplusplus */

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_GENERIC_H */
