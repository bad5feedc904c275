/*
 * cg/generic.h — group calls that work on a pointer to any group.
 *
 *   cg_sync(&g)               cg_barrier_arrive(&g) -> cg_token_t
 *   cg_barrier_wait(&g, tok)  cg_thread_rank(&g)    cg_num_threads(&g)
 *
 * for g a cg_thread_block_t, cg_cluster_t, cg_grid_t or cg_tile_t.
 *
 * Each is a macro that takes the address of the group's first member,
 * `_hdr` (so passing anything that is not a group fails to compile), and
 * switches on its kind. Every group constructor stores a constant kind and
 * every call is inlined, so the compiler sees the constant and the switch
 * folds to the typed call: the generic call costs nothing over it (the PTX
 * test tests/cg:generic_ptx_test compares both).
 *
 * thread_rank and num_threads return uint64_t for every group (a grid can
 * hold more than 2^32 threads); the typed calls of the block, cluster and tile
 * return uint32_t.
 *
 * Tiles have no hardware split barrier: cg_barrier_arrive on a tile is a
 * __syncwarp over the tile and cg_barrier_wait does nothing (cg/tile.h).
 */
#ifndef CG_GENERIC_H
#define CG_GENERIC_H

#include "cg/cluster_group.h"
#include "cg/config.h"
#include "cg/grid.h"
#include "cg/group_header.h"
#include "cg/thread_block.h"
#include "cg/tile.h"

#if CG_DEVICE_CODE_VISIBLE

#define cg_sync(g) cg__generic_sync(&(g)->_hdr)
#define cg_barrier_arrive(g) cg__generic_barrier_arrive(&(g)->_hdr)
#define cg_barrier_wait(g, tok) cg__generic_barrier_wait(&(g)->_hdr, (tok))
#define cg_thread_rank(g) cg__generic_thread_rank(&(g)->_hdr)
#define cg_num_threads(g) cg__generic_num_threads(&(g)->_hdr)

/* Reached only with a header that no group constructor made. */
CG_DEVICE void cg__generic_bad_kind(const cg_group_header_t *h)
{
#if CG_DEBUG
    printf("cgc: generic group call on %p: kind %u is not a group (not made by cg_this_* / "
           "cg_tiled_partition?)\n",
           (const void *)h, h->kind);
    __trap();
#else
    (void)h;
    __builtin_unreachable();
#endif
}

CG_DEVICE void cg__generic_sync(cg_group_header_t *h)
{
    switch (h->kind) {
    case CG_GROUP_THREAD_BLOCK:
        cg_thread_block_sync((cg_thread_block_t *)h);
        return;
    case CG_GROUP_CLUSTER:
        cg_cluster_sync((cg_cluster_t *)h);
        return;
    case CG_GROUP_GRID:
        cg_grid_sync((cg_grid_t *)h);
        return;
    case CG_GROUP_TILE:
        cg_tile_sync((cg_tile_t *)h);
        return;
    default:
        cg__generic_bad_kind(h);
    }
}

CG_DEVICE cg_token_t cg__generic_barrier_arrive(cg_group_header_t *h)
{
    cg_token_t t;
    switch (h->kind) {
    case CG_GROUP_THREAD_BLOCK:
        return cg_thread_block_barrier_arrive((cg_thread_block_t *)h);
    case CG_GROUP_CLUSTER:
        return cg_cluster_barrier_arrive((cg_cluster_t *)h);
    case CG_GROUP_GRID:
        return cg_grid_barrier_arrive((cg_grid_t *)h);
    case CG_GROUP_TILE:
        return cg_tile_barrier_arrive((cg_tile_t *)h);
    default:
        cg__generic_bad_kind(h);
    }
    t._opaque = 0;
    return t;
}

CG_DEVICE void cg__generic_barrier_wait(cg_group_header_t *h, cg_token_t tok)
{
    switch (h->kind) {
    case CG_GROUP_THREAD_BLOCK:
        cg_thread_block_barrier_wait((cg_thread_block_t *)h, tok);
        return;
    case CG_GROUP_CLUSTER:
        cg_cluster_barrier_wait((cg_cluster_t *)h, tok);
        return;
    case CG_GROUP_GRID:
        cg_grid_barrier_wait((cg_grid_t *)h, tok);
        return;
    case CG_GROUP_TILE:
        cg_tile_barrier_wait((cg_tile_t *)h, tok);
        return;
    default:
        cg__generic_bad_kind(h);
    }
}

CG_DEVICE uint64_t cg__generic_thread_rank(const cg_group_header_t *h)
{
    switch (h->kind) {
    case CG_GROUP_THREAD_BLOCK:
        return cg_thread_block_thread_rank((const cg_thread_block_t *)h);
    case CG_GROUP_CLUSTER:
        return cg_cluster_thread_rank((const cg_cluster_t *)h);
    case CG_GROUP_GRID:
        return cg_grid_thread_rank((const cg_grid_t *)h);
    case CG_GROUP_TILE:
        return cg_tile_thread_rank((const cg_tile_t *)h);
    default:
        cg__generic_bad_kind(h);
    }
    return 0;
}

CG_DEVICE uint64_t cg__generic_num_threads(const cg_group_header_t *h)
{
    switch (h->kind) {
    case CG_GROUP_THREAD_BLOCK:
        return cg_thread_block_num_threads((const cg_thread_block_t *)h);
    case CG_GROUP_CLUSTER:
        return cg_cluster_num_threads((const cg_cluster_t *)h);
    case CG_GROUP_GRID:
        return cg_grid_num_threads((const cg_grid_t *)h);
    case CG_GROUP_TILE:
        return cg_tile_num_threads((const cg_tile_t *)h);
    default:
        cg__generic_bad_kind(h);
    }
    return 0;
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_GENERIC_H */
