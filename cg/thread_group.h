/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/thread_group.h — a group of any kind behind one type (C++ CG's
 * thread_group), for functions written over "any group".
 *
 *   CG_DEVICE void fill(cg_thread_group_t *g, int *out)
 *   {
 *       out[cg_thread_group_thread_rank(g)] = 1;
 *       cg_thread_group_sync(g);
 *   }
 *   ...
 *   cg_thread_block_t b = cg_this_thread_block();
 *   cg_tile_t t = cg_tiled_partition(&b, 8);
 *   cg_thread_group_t tg = cg_thread_group(&t);   // any group converts
 *   fill(&tg, out);
 *
 * A cg_thread_group_t holds a copy of the group it was made from and that
 * group's kind (cg_thread_group_get_type). Its calls switch on the kind at run
 * time and forward to the typed call: the one place in cgc with a run-time
 * switch over kinds, inherent to type erasure. Where the compiler sees the
 * conversion (the same function after inlining) the kind is a constant and
 * the switch folds away: cg_thread_group_sync(&tg) is then exactly the typed
 * sync (tests/cg:ptx_test). The generic calls (cg/generic.h: cg_sync,
 * cg_thread_rank, ...) accept a cg_thread_group_t * too.
 *
 * Conversion is a copy: it costs nothing the compiler cannot fold, touches no
 * memory and is not collective. A copy carries the group's per-thread state
 * with it (a thread block's barrier set-up flag, a grid's barrier slot): keep
 * using the same cg_thread_group_t rather than converting again per call.
 *
 * Kinds it holds: thread block, cluster, grid, tile, coalesced group and wide
 * tile (cg/wide_tile.h; C++ CG's thread_group cannot hold a tile over 32
 * threads, whose thread_block_tile<N> does not derive from it).
 *
 * Semantics, as C++ CG's thread_group:
 *   num_threads / size   uint64_t, the group's num_threads (a tile: n; a
 *                        coalesced group: its popcount)
 *   thread_rank          uint64_t, the group's thread_rank
 *   sync                 the group's sync (collective over the group)
 *   tiled_partition(n)   n a power of two, 1..32: of a coalesced group, its
 *                        tiled partition (cg_coalesced_tiled_partition); of
 *                        a tile of m > n threads, ranks [r - r % n, + n) of
 *                        the tile, meta rank r / n of m / n; of a tile of at
 *                        most n threads, the tile's own threads with its
 *                        meta rank and count (C++ CG returns the tile, a
 *                        coalesced group there); of a wide tile of m (64..
 *                        1024) threads, the same as a tile of m: its ranks
 *                        [r - r % n, + n) (whole lanes of one warp), meta
 *                        rank r / n of m / n (C++ CG's tiled_partition<n> of
 *                        a thread_block_tile<m>); of a thread block, cluster
 *                        or grid: the calling thread's tile of its BLOCK (as
 *                        C++ CG, which tiles any non-coalesced parent as a
 *                        block), with the threads that exist (popcount), meta
 *                        rank block rank / n of ceil(block size / n). The
 *                        result is a coalesced group (kind CG_GROUP_COALESCED),
 *                        as in C++ CG.
 * cgc adds barrier_arrive / barrier_wait (each group's own, see
 * cg/generic.h) and the typed views back (cg_thread_group_as_*).
 *
 * A wide tile's sync through a cg_thread_group_t is its one named-barrier
 * `barrier.sync` (tests/groupapi:ptx_test checks it where the kind is in
 * sight); its barrier_arrive is that sync and its wait does nothing
 * (cg/wide_tile.h).
 *
 * Room for more kinds: a new group kind adds a member to the union, a
 * cg_thread_group_from_* / cg_thread_group_as_* pair, a row in each
 * cg_thread_group() table, and a case to each switch below and in
 * cg/invoke.h and cg/group_copy.h.
 */
#ifndef CG_CG_THREAD_GROUP_H
#define CG_CG_THREAD_GROUP_H

#include "../base/config.h"
#include "cluster_group.h"
#include "coalesced.h"
#include "grid.h"
#include "group_header.h"
#include "thread_block.h"
#include "tile.h"
#include "wide_tile.h"

/* Any group. Build it with cg_thread_group(&g) or a cg_thread_group_from_*
 * call; pass it by pointer. `_hdr.kind` is the stored group's kind; `_g`
 * holds the group (every member starts with its own header). */
typedef struct cg_thread_group {
    cg_group_header_t _hdr;
    union {
        cg_thread_block_t block;
        cg_cluster_t cluster;
        cg_grid_t grid;
        cg_tile_t tile;
        cg_coalesced_group_t coalesced;
        cg_wide_tile_t wide_tile;
        uint64_t _room[4]; /* room for kinds to come */
    } _g;
} cg_thread_group_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Conversions                                                               */
/* ------------------------------------------------------------------------- */

/* A cg_thread_group_t holding a copy of the group. Not collective; touches no
 * memory. */
CG_DEVICE cg_thread_group_t cg_thread_group_from_thread_block(const cg_thread_block_t *b)
{
    cg_thread_group_t g;
    g._hdr.kind = CG_GROUP_THREAD_BLOCK;
    g._g.block = *b;
    return g;
}
CG_DEVICE cg_thread_group_t cg_thread_group_from_cluster(const cg_cluster_t *c)
{
    cg_thread_group_t g;
    g._hdr.kind = CG_GROUP_CLUSTER;
    g._g.cluster = *c;
    return g;
}
CG_DEVICE cg_thread_group_t cg_thread_group_from_grid(const cg_grid_t *gr)
{
    cg_thread_group_t g;
    g._hdr.kind = CG_GROUP_GRID;
    g._g.grid = *gr;
    return g;
}
CG_DEVICE cg_thread_group_t cg_thread_group_from_tile(const cg_tile_t *t)
{
    cg_thread_group_t g;
    g._hdr.kind = CG_GROUP_TILE;
    g._g.tile = *t;
    return g;
}
CG_DEVICE cg_thread_group_t cg_thread_group_from_coalesced(const cg_coalesced_group_t *c)
{
    cg_thread_group_t g;
    g._hdr.kind = CG_GROUP_COALESCED;
    g._g.coalesced = *c;
    return g;
}
CG_DEVICE cg_thread_group_t cg_thread_group_from_wide_tile(const cg_wide_tile_t *w)
{
    cg_thread_group_t g;
    g._hdr.kind = CG_GROUP_WIDE_TILE;
    g._g.wide_tile = *w;
    return g;
}
/* A copy of a cg_thread_group_t (so cg_thread_group(&tg) works on one too). */
CG_DEVICE cg_thread_group_t cg_thread_group_from_thread_group(const cg_thread_group_t *tg) { return *tg; }

#if defined(__cplusplus)
/* The _Generic table below, as overloads (internal; users call the macro). */
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_thread_block_t *g) { return cg_thread_group_from_thread_block(g); }
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_cluster_t *g) { return cg_thread_group_from_cluster(g); }
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_grid_t *g) { return cg_thread_group_from_grid(g); }
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_tile_t *g) { return cg_thread_group_from_tile(g); }
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_coalesced_group_t *g) { return cg_thread_group_from_coalesced(g); }
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_thread_group_t *g) { return cg_thread_group_from_thread_group(g); }
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_wide_tile_t *g) { return cg_thread_group_from_wide_tile(g); }
/* Anything else (a group passed by value, another pointer): a short error at
 * the caller's line whose text names what is accepted (as cg/generic.h). */
#pragma nv_diagnostic push
#pragma nv_diag_suppress 114
#pragma nv_diag_suppress 177
struct cg_thread_group_takes_a_pointer_to_a_group_cg_thread_block_t_cg_cluster_t_cg_grid_t_cg_tile_t_cg_wide_tile_t_cg_coalesced_group_t_or_cg_thread_group_t;
static __device__ struct
    cg_thread_group_takes_a_pointer_to_a_group_cg_thread_block_t_cg_cluster_t_cg_grid_t_cg_tile_t_cg_wide_tile_t_cg_coalesced_group_t_or_cg_thread_group_t
    cg_thread_group_of_(...);
#pragma nv_diagnostic pop
/* cg_thread_group(&g): g converted to a cg_thread_group_t, the converter
 * picked at compile time from the static type of g (as cg/generic.h). */
#define cg_thread_group(g) cg_thread_group_of_(g)
#else /* C11 */
#define cg_thread_group(g)                                                                         \
    _Generic((g), cg_thread_block_t *: cg_thread_group_from_thread_block,                          \
             const cg_thread_block_t *: cg_thread_group_from_thread_block,                         \
             cg_cluster_t *: cg_thread_group_from_cluster, const cg_cluster_t *: cg_thread_group_from_cluster, \
             cg_grid_t *: cg_thread_group_from_grid, const cg_grid_t *: cg_thread_group_from_grid,  \
             cg_tile_t *: cg_thread_group_from_tile, const cg_tile_t *: cg_thread_group_from_tile,  \
             cg_coalesced_group_t *: cg_thread_group_from_coalesced,                               \
             const cg_coalesced_group_t *: cg_thread_group_from_coalesced,                         \
             cg_thread_group_t *: cg_thread_group_from_thread_group,                               \
             const cg_thread_group_t *: cg_thread_group_from_thread_group,                         \
             cg_wide_tile_t *: cg_thread_group_from_wide_tile,                                     \
             const cg_wide_tile_t *: cg_thread_group_from_wide_tile)(g)
#endif

/* The stored group, by kind: a pointer into `g`, or NULL when `g` holds
 * another kind. */
CG_DEVICE cg_thread_block_t *cg_thread_group_as_thread_block(cg_thread_group_t *g)
{
    return g->_hdr.kind == CG_GROUP_THREAD_BLOCK ? &g->_g.block : (cg_thread_block_t *)0;
}
CG_DEVICE cg_cluster_t *cg_thread_group_as_cluster(cg_thread_group_t *g)
{
    return g->_hdr.kind == CG_GROUP_CLUSTER ? &g->_g.cluster : (cg_cluster_t *)0;
}
CG_DEVICE cg_grid_t *cg_thread_group_as_grid(cg_thread_group_t *g)
{
    return g->_hdr.kind == CG_GROUP_GRID ? &g->_g.grid : (cg_grid_t *)0;
}
CG_DEVICE cg_tile_t *cg_thread_group_as_tile(cg_thread_group_t *g)
{
    return g->_hdr.kind == CG_GROUP_TILE ? &g->_g.tile : (cg_tile_t *)0;
}
CG_DEVICE cg_coalesced_group_t *cg_thread_group_as_coalesced(cg_thread_group_t *g)
{
    return g->_hdr.kind == CG_GROUP_COALESCED ? &g->_g.coalesced : (cg_coalesced_group_t *)0;
}
CG_DEVICE cg_wide_tile_t *cg_thread_group_as_wide_tile(cg_thread_group_t *g)
{
    return g->_hdr.kind == CG_GROUP_WIDE_TILE ? &g->_g.wide_tile : (cg_wide_tile_t *)0;
}

/* ------------------------------------------------------------------------- */
/* Queries and barriers: a switch over the stored kind                      */
/* ------------------------------------------------------------------------- */

/* The switches have a cluster case only where clusters exist: in an sm_80
 * build no cluster group can be made (cg_this_cluster stops the build), and
 * a cluster case would make every run-time switch stop it too. */
#if CG_ARCH_HAS_SM90 || !defined(__CUDA_ARCH__)
#define CG_TG_CLUSTER_CASE_(stmt) case CG_GROUP_CLUSTER: stmt
#else
#define CG_TG_CLUSTER_CASE_(stmt)
#endif

/* The stored group's kind (a cg_group_kind_t; C++ CG's get_type(), whose
 * numbers differ). */
CG_DEVICE uint32_t cg_thread_group_get_type(const cg_thread_group_t *g) { return g->_hdr.kind; }

/* Threads in the group (its num_threads). 0 for a value of no known kind. */
CG_DEVICE uint64_t cg_thread_group_num_threads(const cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    case CG_GROUP_THREAD_BLOCK: return cg_thread_block_num_threads(&g->_g.block);
    CG_TG_CLUSTER_CASE_(return cg_cluster_num_threads(&g->_g.cluster);)
    case CG_GROUP_GRID: return cg_grid_num_threads(&g->_g.grid);
    case CG_GROUP_TILE: return cg_tile_num_threads(&g->_g.tile);
    case CG_GROUP_COALESCED: return cg_coalesced_num_threads(&g->_g.coalesced);
    case CG_GROUP_WIDE_TILE: return cg_wide_tile_num_threads(&g->_g.wide_tile);
    default: return 0;
    }
}

/* C++ CG's size(): cg_thread_group_num_threads. */
CG_DEVICE uint64_t cg_thread_group_size(const cg_thread_group_t *g) { return cg_thread_group_num_threads(g); }

/* The calling thread's rank in the group, 0 .. num_threads - 1. */
CG_DEVICE uint64_t cg_thread_group_thread_rank(const cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    case CG_GROUP_THREAD_BLOCK: return cg_thread_block_thread_rank(&g->_g.block);
    CG_TG_CLUSTER_CASE_(return cg_cluster_thread_rank(&g->_g.cluster);)
    case CG_GROUP_GRID: return cg_grid_thread_rank(&g->_g.grid);
    case CG_GROUP_TILE: return cg_tile_thread_rank(&g->_g.tile);
    case CG_GROUP_COALESCED: return cg_coalesced_thread_rank(&g->_g.coalesced);
    case CG_GROUP_WIDE_TILE: return cg_wide_tile_thread_rank(&g->_g.wide_tile);
    default: return 0;
    }
}

/* The group's sync: the stored group's own (__syncthreads for a block, the
 * cluster barrier, the grid barrier, __syncwarp(mask) for a tile or a
 * coalesced group, the named barrier's barrier.sync for a wide tile), with
 * its memory ordering. Collective over the group. */
CG_DEVICE void cg_thread_group_sync(cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    case CG_GROUP_THREAD_BLOCK: cg_thread_block_sync(&g->_g.block); break;
    CG_TG_CLUSTER_CASE_(cg_cluster_sync(&g->_g.cluster); break;)
    case CG_GROUP_GRID: cg_grid_sync(&g->_g.grid); break;
    case CG_GROUP_TILE: cg_tile_sync(&g->_g.tile); break;
    case CG_GROUP_COALESCED: cg_coalesced_sync(&g->_g.coalesced); break;
    case CG_GROUP_WIDE_TILE: cg_wide_tile_sync(&g->_g.wide_tile); break;
    default: break;
    }
}

/* The stored group's split barrier (see each group's header for what its
 * arrive and wait are). Same contract as the typed calls. */
CG_DEVICE cg_token_t cg_thread_group_barrier_arrive(cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    case CG_GROUP_THREAD_BLOCK: return cg_thread_block_barrier_arrive(&g->_g.block);
    CG_TG_CLUSTER_CASE_(return cg_cluster_barrier_arrive(&g->_g.cluster);)
    case CG_GROUP_GRID: return cg_grid_barrier_arrive(&g->_g.grid);
    case CG_GROUP_TILE: return cg_tile_barrier_arrive(&g->_g.tile);
    case CG_GROUP_COALESCED: return cg_coalesced_barrier_arrive(&g->_g.coalesced);
    case CG_GROUP_WIDE_TILE: return cg_wide_tile_barrier_arrive(&g->_g.wide_tile);
    default: {
        cg_token_t t;
        t._opaque = 0;
        return t;
    }
    }
}
CG_DEVICE void cg_thread_group_barrier_wait(cg_thread_group_t *g, cg_token_t tok)
{
    switch (g->_hdr.kind) {
    case CG_GROUP_THREAD_BLOCK: cg_thread_block_barrier_wait(&g->_g.block, tok); break;
    CG_TG_CLUSTER_CASE_(cg_cluster_barrier_wait(&g->_g.cluster, tok); break;)
    case CG_GROUP_GRID: cg_grid_barrier_wait(&g->_g.grid, tok); break;
    case CG_GROUP_TILE: cg_tile_barrier_wait(&g->_g.tile, tok); break;
    case CG_GROUP_COALESCED: cg_coalesced_barrier_wait(&g->_g.coalesced, tok); break;
    case CG_GROUP_WIDE_TILE: cg_wide_tile_barrier_wait(&g->_g.wide_tile, tok); break;
    default: break;
    }
}

/* ------------------------------------------------------------------------- */
/* Partition                                                                 */
/* ------------------------------------------------------------------------- */

/* The calling thread's group of n (a power of two, 1..32) consecutive ranks
 * of `g`, as a coalesced group in a cg_thread_group_t (see the top for each
 * parent kind). Not collective; touches no memory. A debug build traps on
 * any other n. */
CG_DEVICE cg_thread_group_t cg_thread_group_tiled_partition(const cg_thread_group_t *g, uint32_t n)
{
    cg_coalesced_group_t c;
#if CG_DEBUG
    if (CG_UNLIKELY_(n == 0 || n > 32 || (n & (n - 1)) != 0))
        cg_tile_report_n_("cg_thread_group_tiled_partition", n);
#endif
    if (g->_hdr.kind == CG_GROUP_COALESCED) {
        c = cg_coalesced_tiled_partition(&g->_g.coalesced, n);
    } else if (g->_hdr.kind == CG_GROUP_TILE) {
        const cg_tile_t *t = &g->_g.tile;
        if (t->_size <= n) {
            /* The tile's own threads, as a coalesced group with the tile's
             * meta rank and count (C++ CG returns the tile itself, which
             * is a coalesced group there). */
            c = cg_coalesced_make_(t->_mask, t->_meta_rank, t->_meta_count);
            return cg_thread_group_from_coalesced(&c);
        }
        uint32_t r = cg_tile_thread_rank(t);
        uint32_t lane = cg_sreg_laneid();
        uint32_t mask = ((n == 32u ? 0xffffffffu : (1u << n) - 1u) << (lane & ~(n - 1u))) & t->_mask;
        c = cg_coalesced_make_(mask, r / n, t->_size / n);
    } else if (g->_hdr.kind == CG_GROUP_WIDE_TILE) {
        /* Whole warps, every lane present: n consecutive lanes of the
         * caller's warp; meta rank and count relative to the wide tile. */
        const cg_wide_tile_t *w = &g->_g.wide_tile;
        uint32_t r = cg_wide_tile_thread_rank(w);
        uint32_t lane = cg_sreg_laneid();
        uint32_t mask = (n == 32u ? 0xffffffffu : (1u << n) - 1u) << (lane & ~(n - 1u));
        c = cg_coalesced_make_(mask, r / n, w->_size / n);
    } else {
        /* A block, cluster or grid: the block's tile (C++ CG tiles these as
         * their block). */
        cg_thread_block_t b = cg_this_thread_block();
        cg_tile_t t = cg_tiled_partition(&b, n);
        c = cg_coalesced_make_(t._mask, t._meta_rank, t._meta_count);
    }
    return cg_thread_group_from_coalesced(&c);
}

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_THREAD_GROUP_H */
