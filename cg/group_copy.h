/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/group_copy.h — the group forms of the copies and pushes, written once:
 *
 *   cg_memcpy_async(&g, dst, src, bytes, &bar)        async/copy.h's engine
 *   cg_dsmem_push(&g, dst, src, bytes, &bar, to_rank)  dsmem/dsmem.h's engine
 *
 * for g a pointer to a cg_thread_block_t, cg_tile_t, cg_coalesced_group_t,
 * cg_cluster_t or cg_grid_t. Every thread of the group calls it with the same arguments (the
 * contract of cuda::memcpy_async with a group). The group is chosen from the
 * static type of `g` at compile time (as cg/generic.h) and gives the engine
 * the calling thread's rank among the threads that EXIST and their count:
 *   - a thread block: its thread rank and size;
 *   - a tile: its rank and cg_tile_num_present (a partial last tile has fewer
 *     threads than its size; they divide the whole buffer among themselves);
 *   - a coalesced group: its rank and size (every member exists);
 *   - a cluster or a grid: each thread block copies as its own group, into
 *     its own shared memory, completing on its own barrier (a block-scope
 *     barrier cannot be shared between blocks).
 */
#ifndef CG_CG_GROUP_COPY_H
#define CG_CG_GROUP_COPY_H

#include "../async/copy.h"
#include "cluster_group.h"
#include "coalesced.h"
#include "../base/config.h"
#include "grid.h"
#include "thread_block.h"
#include "tile.h"
#include "../dsmem/dsmem.h"

#if CG_DEVICE_CODE_VISIBLE

/* The calling thread's rank in its block and the block's size: the share of a
 * thread block, and of a cluster or grid group (block by block). */
CG_DEVICE uint32_t cg_copy_block_rank_(void)
{
    return (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
}
CG_DEVICE uint32_t cg_copy_block_count_(void) { return blockDim.x * blockDim.y * blockDim.z; }

#if defined(__cplusplus)

CG_DEVICE uint32_t cg_copy_rank_(const cg_thread_block_t *g) { return cg_thread_block_thread_rank(g); }
CG_DEVICE uint32_t cg_copy_count_(const cg_thread_block_t *g) { return cg_thread_block_num_threads(g); }
CG_DEVICE uint32_t cg_copy_rank_(const cg_tile_t *g) { return cg_tile_thread_rank(g); }
CG_DEVICE uint32_t cg_copy_count_(const cg_tile_t *g) { return cg_tile_num_present(g); }
CG_DEVICE uint32_t cg_copy_rank_(const cg_coalesced_group_t *g) { return cg_coalesced_thread_rank(g); }
CG_DEVICE uint32_t cg_copy_count_(const cg_coalesced_group_t *g) { return cg_coalesced_num_threads(g); }
CG_DEVICE uint32_t cg_copy_rank_(const cg_cluster_t *g) { (void)g; return cg_copy_block_rank_(); }
CG_DEVICE uint32_t cg_copy_count_(const cg_cluster_t *g) { (void)g; return cg_copy_block_count_(); }
CG_DEVICE uint32_t cg_copy_rank_(const cg_grid_t *g) { (void)g; return cg_copy_block_rank_(); }
CG_DEVICE uint32_t cg_copy_count_(const cg_grid_t *g) { (void)g; return cg_copy_block_count_(); }

#define CG_COPY_RANK_(g) cg_copy_rank_(g)
#define CG_COPY_COUNT_(g) cg_copy_count_(g)

#else /* C11 */

CG_DEVICE uint32_t cg_copy_cluster_rank_(const cg_cluster_t *g) { (void)g; return cg_copy_block_rank_(); }
CG_DEVICE uint32_t cg_copy_cluster_count_(const cg_cluster_t *g) { (void)g; return cg_copy_block_count_(); }
CG_DEVICE uint32_t cg_copy_grid_rank_(const cg_grid_t *g) { (void)g; return cg_copy_block_rank_(); }
CG_DEVICE uint32_t cg_copy_grid_count_(const cg_grid_t *g) { (void)g; return cg_copy_block_count_(); }

#define CG_COPY_RANK_(g)                                                                           \
    _Generic((g), cg_thread_block_t *: cg_thread_block_thread_rank, cg_tile_t *: cg_tile_thread_rank, \
             cg_coalesced_group_t *: cg_coalesced_thread_rank, cg_cluster_t *: cg_copy_cluster_rank_,     \
             cg_grid_t *: cg_copy_grid_rank_)(g)
#define CG_COPY_COUNT_(g)                                                                          \
    _Generic((g), cg_thread_block_t *: cg_thread_block_num_threads, cg_tile_t *: cg_tile_num_present, \
             cg_coalesced_group_t *: cg_coalesced_num_threads, cg_cluster_t *: cg_copy_cluster_count_,    \
             cg_grid_t *: cg_copy_grid_count_)(g)

#endif /* __cplusplus */

/* The group copies global -> shared, completing on `bar` (async/copy.h). */
#define cg_memcpy_async(g, dst, src, bytes, bar)                                                   \
    cg_memcpy_async_share(CG_COPY_RANK_(g), CG_COPY_COUNT_(g), (dst), (src), (size_t)(bytes), (bar))

/* The group pushes `bytes` from its shared `src` into CTA to_rank's `dst`,
 * completing them on CTA to_rank's `bar` (dsmem/dsmem.h). */
#define cg_dsmem_push(g, dst, src, bytes, bar, to_rank)                                            \
    cg_dsmem_push_share(CG_COPY_RANK_(g), CG_COPY_COUNT_(g), (dst), (src), (uint32_t)(bytes), (bar), \
                        (uint32_t)(to_rank))

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_GROUP_COPY_H */
