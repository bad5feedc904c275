/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/groups.h — every cgc group: thread block, cluster, grid, warp tiles, and
 * the generic calls over them. Include this (or cg/cg.h) rather than the
 * split files.
 *
 *   cg/thread_block.h   cg_this_thread_block, real split block barrier
 *   cg/cluster_group.h  cg_this_cluster, cluster barrier, DSMEM mapping
 *   cg/grid.h           cg_this_grid, grid barrier (cooperative launch)
 *   cg/tile.h           cg_tiled_partition, shuffles, votes, reductions
 *   cg/collectives.h    tile reduce/scan/shuffle/match for every type and operator
 *   cg/coalesced.h      coalesced groups, binary/labeled/tiled partitions
 *   cg/wide_tile.h      tiles of 64..1024 threads: named-barrier sync, reduce, scans, votes
 *   cg/generic.h        cg_sync, cg_barrier_arrive/wait, cg_thread_rank, ...
 *   cg/thread_group.h   cg_thread_group_t: any group behind one type
 *   cg/invoke.h         cg_invoke_one, cg_invoke_one_broadcast_*
 *   cg/reduce_store.h   cg_tile_reduce_store_*, cg_coalesced_reduce_store_*
 *   cg/group_copy.h     cg_memcpy_async (barrier or staged), cg_wait, cg_wait_prior
 *   cg/group_kinds.h    the table of group kinds every list over kinds is stamped from
 *
 * Types are visible to host C too (they are plain structs); the calls exist
 * only in nvcc's passes.
 */
#ifndef CG_CG_GROUPS_H
#define CG_CG_GROUPS_H

#include "cluster_group.h"
#include "coalesced.h"
#include "collectives.h"
#include "../base/config.h"
#include "../base/dim3.h"
#include "generic.h"
#include "grid.h"
#include "group_copy.h"
#include "group_header.h"
#include "invoke.h"
#include "reduce_store.h"
#include "thread_block.h"
#include "thread_group.h"
#include "tile.h"
#include "wide_tile.h"

#endif /* CG_CG_GROUPS_H */
