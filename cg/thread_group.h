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
 * `barrier.sync` (tests/cg/groupapi:ptx_test checks it where the kind is in
 * sight); its barrier_arrive is that sync and its wait does nothing
 * (cg/wide_tile.h).
 *
 * Room for more kinds: the union member, the from/as pair, the rows of
 * cg_thread_group() and each switch's case are stamped from the table of
 * kinds (cg/group_kinds.h); a new kind is a row there and its own header,
 * included below.
 */
#ifndef CG_CG_THREAD_GROUP_H
#define CG_CG_THREAD_GROUP_H

#include "../base/config.h"
#include "cluster_group.h"
#include "coalesced.h"
#include "grid.h"
#include "group_header.h"
#include "group_kinds.h"
#include "thread_block.h"
#include "tile.h"
#include "wide_tile.h"

/* Any group. Build it with cg_thread_group(&g) or a cg_thread_group_from_*
 * call; pass it by pointer. `_hdr.kind` is the stored group's kind; `_g`
 * holds the group (every member starts with its own header), one member
 * <name>_ per kind (tile_, wide_tile_, ...). */
#define CG_TG_MEMBER_(KIND, n, type, name, arch, reach, share, unused) type name##_;
typedef struct cg_thread_group {
    cg_group_header_t _hdr;
    union {
        CG_GROUP_KINDS(CG_TG_MEMBER_, )
        uint64_t _room[4]; /* room for kinds to come */
    } _g;
} cg_thread_group_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Conversions                                                               */
/* ------------------------------------------------------------------------- */

/* A cg_thread_group_t holding a copy of the group: cg_thread_group_from_<name>
 * for each kind (cg_thread_group_from_tile, ...). Not collective; touches no
 * memory. */
#define CG_TG_FROM_(KIND, n, type, name, arch, reach, share, unused)                               \
    CG_DEVICE cg_thread_group_t cg_thread_group_from_##name(const type *p)                         \
    {                                                                                              \
        cg_thread_group_t g;                                                                       \
        g._hdr.kind = CG_GROUP_##KIND;                                                             \
        g._g.name##_ = *p;                                                                         \
        return g;                                                                                  \
    }
CG_GROUP_KINDS(CG_TG_FROM_, )
/* A copy of a cg_thread_group_t (so cg_thread_group(&tg) works on one too). */
CG_DEVICE cg_thread_group_t cg_thread_group_from_thread_group(const cg_thread_group_t *tg) { return *tg; }

#if defined(__cplusplus)
/* The _Generic table below, as overloads (internal; users call the macro). */
#define CG_TG_OF_(KIND, n, type, name, arch, reach, share, unused)                                 \
    CG_DEVICE cg_thread_group_t cg_thread_group_of_(const type *g) { return cg_thread_group_from_##name(g); }
CG_GROUP_KINDS(CG_TG_OF_, )
CG_DEVICE cg_thread_group_t cg_thread_group_of_(const cg_thread_group_t *g) { return cg_thread_group_from_thread_group(g); }
/* Anything else (a group passed by value, another pointer): a short error at
 * the caller's line whose text names what is accepted (as cg/generic.h). */
CG_GROUP_CATCH_ALL_(cg_thread_group_of_, CG_GROUP_ANY_MSG_(cg_thread_group_takes_a_pointer_to_a_group_, ))
/* cg_thread_group(&g): g converted to a cg_thread_group_t, the converter
 * picked at compile time from the static type of g (as cg/generic.h). */
#define cg_thread_group(g) cg_thread_group_of_(g)
#else /* C11 */
#define CG_TG_C11_ROW_(KIND, n, type, name, arch, reach, share, unused)                             \
    type * : cg_thread_group_from_##name, const type * : cg_thread_group_from_##name,
#define cg_thread_group(g)                                                                         \
    _Generic((g), CG_GROUP_KINDS(CG_TG_C11_ROW_, ) cg_thread_group_t *: cg_thread_group_from_thread_group, \
             const cg_thread_group_t *: cg_thread_group_from_thread_group)(g)
#endif

/* The stored group, by kind: cg_thread_group_as_<name> (cg_thread_group_as_tile,
 * ...), a pointer into `g`, or NULL when `g` holds another kind. */
#define CG_TG_AS_(KIND, n, type, name, arch, reach, share, unused)                                 \
    CG_DEVICE type *cg_thread_group_as_##name(cg_thread_group_t *g)                                \
    {                                                                                              \
        return g->_hdr.kind == CG_GROUP_##KIND ? &g->_g.name##_ : (type *)0;                       \
    }
CG_GROUP_KINDS(CG_TG_AS_, )

/* ------------------------------------------------------------------------- */
/* Queries and barriers: a switch over the stored kind                      */
/* ------------------------------------------------------------------------- */

/* One case per kind of a switch on g->_hdr.kind (an sm_90-only kind's only
 * where sm_90 code is built: CG_GROUP_IF_BUILT_): the kind's typed call on
 * the stored group, its result returned (CG_TG_CASE_RETURN_) or not
 * (CG_TG_CASE_DO_). The call's other arguments follow an empty one, each
 * after a comma: CG_GROUP_KINDS(CG_TG_CASE_DO_, barrier_wait, , tok). */
#define CG_TG_CASE_RETURN_(KIND, n, type, name, arch, reach, share, verb, ...)                      \
    CG_GROUP_IF_BUILT_##arch##_(case CG_GROUP_##KIND: return cg_##name##_##verb(&g->_g.name##_ __VA_ARGS__);)
#define CG_TG_CASE_DO_(KIND, n, type, name, arch, reach, share, verb, ...)                          \
    CG_GROUP_IF_BUILT_##arch##_(case CG_GROUP_##KIND: cg_##name##_##verb(&g->_g.name##_ __VA_ARGS__); break;)

/* The stored group's kind (a cg_group_kind_t; C++ CG's get_type(), whose
 * numbers differ). */
CG_DEVICE uint32_t cg_thread_group_get_type(const cg_thread_group_t *g) { return g->_hdr.kind; }

/* Threads in the group (its num_threads). 0 for a value of no known kind. */
CG_DEVICE uint64_t cg_thread_group_num_threads(const cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    CG_GROUP_KINDS(CG_TG_CASE_RETURN_, num_threads, )
    default: return 0;
    }
}

/* C++ CG's size(): cg_thread_group_num_threads. */
CG_DEVICE uint64_t cg_thread_group_size(const cg_thread_group_t *g) { return cg_thread_group_num_threads(g); }

/* The calling thread's rank in the group, 0 .. num_threads - 1. */
CG_DEVICE uint64_t cg_thread_group_thread_rank(const cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    CG_GROUP_KINDS(CG_TG_CASE_RETURN_, thread_rank, )
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
    CG_GROUP_KINDS(CG_TG_CASE_DO_, sync, )
    default: break;
    }
}

/* The stored group's split barrier (see each group's header for what its
 * arrive and wait are). Same contract as the typed calls. */
CG_DEVICE cg_token_t cg_thread_group_barrier_arrive(cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    CG_GROUP_KINDS(CG_TG_CASE_RETURN_, barrier_arrive, )
    default: return cg_token_none_();
    }
}
CG_DEVICE void cg_thread_group_barrier_wait(cg_thread_group_t *g, cg_token_t tok)
{
    switch (g->_hdr.kind) {
    CG_GROUP_KINDS(CG_TG_CASE_DO_, barrier_wait, , tok)
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
    CG_TILE_CHECK_N_("cg_thread_group_tiled_partition", n);
    if (g->_hdr.kind == CG_GROUP_COALESCED) {
        c = cg_coalesced_tiled_partition(&g->_g.coalesced_, n);
    } else if (g->_hdr.kind == CG_GROUP_TILE) {
        const cg_tile_t *t = &g->_g.tile_;
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
        const cg_wide_tile_t *w = &g->_g.wide_tile_;
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

/* A constant n that is not a power of two in 1..32 stops the build
 * (cg/tile.h: CG_TILE_N_CHECK_). */
#define cg_thread_group_tiled_partition(g, n) (CG_TILE_N_CHECK_(n), cg_thread_group_tiled_partition((g), (n)))

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_THREAD_GROUP_H */
