/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/invoke.h — one thread of a group runs a function (C++ CG's invoke_one
 * and invoke_one_broadcast).
 *
 *   static __device__ uint32_t take(void *arg) { return atomicAdd((unsigned *)arg, 32u); }
 *   ...
 *   cg_invoke_one(&t, log_once, &state);                  // one thread of t
 *   uint32_t base = cg_invoke_one_broadcast_u32(&t, take, counter);  // all get it
 *
 * C has no lambdas: the function is a pointer and its argument a void *.
 * Where the function is named at the call (a constant pointer after
 * inlining), the compiler calls it directly and inlines it.
 *
 *   cg_invoke_one(&g, fn, arg)      void fn(void *arg), run by one thread of
 *                                   g; the others skip it. Any group.
 *   cg_invoke_one_broadcast_T(&g, fn, arg)
 *                                   T fn(void *arg), run by one thread; every
 *                                   thread of g returns its result. T is u32,
 *                                   i32, u64, i64, f32 or f64. Tiles, coalesced
 *                                   groups and cg_thread_group_t holding one
 *                                   (as C++ CG: warp-sized groups only).
 *   cg_invoke_one_broadcast_bytes(&g, fn, arg, result, size)
 *                                   void fn(void *arg, void *result) writes
 *                                   `size` bytes at result in the chosen
 *                                   thread; every thread of g gets them in
 *                                   its own `result`.
 * Typed forms: cg_tile_invoke_one, cg_coalesced_invoke_one_broadcast_f32, ...
 *
 * Which thread runs it (as C++ CG 13.0): in a tile or a coalesced group on
 * sm_90, the thread elect.sync picks over the group's mask (the group's
 * threads must all make the call together, converged); elsewhere, and in a
 * thread block, cluster, grid or wide tile, thread rank 0. The broadcast is a shuffle
 * from that thread over the group's mask (__shfl_sync), so the call also
 * orders nothing beyond what a shuffle does: a side effect of fn in memory
 * is not published to the group (sync the group for that).
 * Every thread of the group must call it (the broadcast forms are
 * collective; cg_invoke_one on a tile or coalesced group is too, through
 * elect.sync). Partial tiles: only the threads that exist take part.
 */
#ifndef CG_CG_INVOKE_H
#define CG_CG_INVOKE_H

#include "../base/config.h"
#include "../base/warp.h"
#include "cluster_group.h"
#include "coalesced.h"
#include "grid.h"
#include "thread_block.h"
#include "thread_group.h"
#include "tile.h"
#include "wide_tile.h"

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* invoke_one                                                                */
/* ------------------------------------------------------------------------- */

CG_DEVICE void cg_thread_block_invoke_one(const cg_thread_block_t *b, void (*fn)(void *), void *arg)
{
    if (cg_thread_block_thread_rank(b) == 0u)
        fn(arg);
}
CG_DEVICE_SM90 void cg_cluster_invoke_one(const cg_cluster_t *c, void (*fn)(void *), void *arg)
{
    if (cg_cluster_thread_rank(c) == 0u)
        fn(arg);
}
CG_DEVICE void cg_grid_invoke_one(const cg_grid_t *g, void (*fn)(void *), void *arg)
{
    if (cg_grid_thread_rank(g) == 0u)
        fn(arg);
}
CG_DEVICE void cg_tile_invoke_one(const cg_tile_t *t, void (*fn)(void *), void *arg)
{
    uint32_t leader;
    if (cg_elect_sync_leader_(t->_mask, &leader))
        fn(arg);
}
CG_DEVICE void cg_coalesced_invoke_one(const cg_coalesced_group_t *g, void (*fn)(void *), void *arg)
{
    uint32_t leader;
    if (cg_elect_sync_leader_(g->_mask, &leader))
        fn(arg);
}
/* A wide tile (cg/wide_tile.h): its thread rank 0 (the tile's first thread),
 * as C++ CG picks in a group wider than a warp. Not collective. */
CG_DEVICE void cg_wide_tile_invoke_one(const cg_wide_tile_t *t, void (*fn)(void *), void *arg)
{
    if (cg_wide_tile_thread_rank(t) == 0u)
        fn(arg);
}
CG_DEVICE void cg_thread_group_invoke_one(const cg_thread_group_t *g, void (*fn)(void *), void *arg)
{
    switch (g->_hdr.kind) {
    case CG_GROUP_THREAD_BLOCK: cg_thread_block_invoke_one(&g->_g.block, fn, arg); break;
    CG_TG_CLUSTER_CASE_(cg_cluster_invoke_one(&g->_g.cluster, fn, arg); break;)
    case CG_GROUP_GRID: cg_grid_invoke_one(&g->_g.grid, fn, arg); break;
    case CG_GROUP_TILE: cg_tile_invoke_one(&g->_g.tile, fn, arg); break;
    case CG_GROUP_COALESCED: cg_coalesced_invoke_one(&g->_g.coalesced, fn, arg); break;
    case CG_GROUP_WIDE_TILE: cg_wide_tile_invoke_one(&g->_g.wide_tile, fn, arg); break;
    default: break;
    }
}

/* ------------------------------------------------------------------------- */
/* invoke_one_broadcast                                                      */
/* ------------------------------------------------------------------------- */

#if CG_DEBUG
/* Out of line: base/config.h, CG_REPORT_. */
CG_REPORT_ void cg_invoke_report_kind_(unsigned kind)
{
    printf("cgc: cg_thread_group_invoke_one_broadcast: the group (kind %u) is not a tile or a coalesced group\n",
           kind);
    __trap();
}
#endif

/* The warp mask of a tile, coalesced group, or a cg_thread_group_t holding
 * one (internal; 0 for another kind, which a debug build traps on). */
CG_DEVICE uint32_t cg_invoke_mask_(const cg_thread_group_t *g)
{
    if (g->_hdr.kind == CG_GROUP_TILE)
        return g->_g.tile._mask;
    if (g->_hdr.kind == CG_GROUP_COALESCED)
        return g->_g.coalesced._mask;
#if CG_DEBUG
    cg_invoke_report_kind_((unsigned)g->_hdr.kind);
#else
    return 0u;
#endif
}

/* Defines the broadcast forms of one type: on a mask (internal), a tile, a
 * coalesced group and a cg_thread_group_t. Why a macro: six types, one body. */
#define CG_INVOKE_BROADCAST_(sfx, T)                                                               \
    CG_DEVICE T cg_invoke_broadcast_##sfx##_(uint32_t mask, T (*fn)(void *), void *arg)            \
    {                                                                                              \
        uint32_t leader;                                                                           \
        T r = (T)0;                                                                                \
        if (cg_elect_sync_leader_(mask, &leader))                                                  \
            r = fn(arg);                                                                           \
        return __shfl_sync(mask, r, (int)leader, 32);                                              \
    }                                                                                              \
    CG_DEVICE T cg_tile_invoke_one_broadcast_##sfx(const cg_tile_t *t, T (*fn)(void *), void *arg) \
    {                                                                                              \
        return cg_invoke_broadcast_##sfx##_(t->_mask, fn, arg);                                    \
    }                                                                                              \
    CG_DEVICE T cg_coalesced_invoke_one_broadcast_##sfx(const cg_coalesced_group_t *g, T (*fn)(void *), void *arg) \
    {                                                                                              \
        return cg_invoke_broadcast_##sfx##_(g->_mask, fn, arg);                                    \
    }                                                                                              \
    CG_DEVICE T cg_thread_group_invoke_one_broadcast_##sfx(const cg_thread_group_t *g, T (*fn)(void *), void *arg) \
    {                                                                                              \
        return cg_invoke_broadcast_##sfx##_(cg_invoke_mask_(g), fn, arg);                          \
    }

/* The fixed-width types, so a function returning uint64_t matches (CUDA's
 * __shfl_sync has a form for each). */
CG_INVOKE_BROADCAST_(u32, uint32_t)
CG_INVOKE_BROADCAST_(i32, int32_t)
CG_INVOKE_BROADCAST_(u64, uint64_t)
CG_INVOKE_BROADCAST_(i64, int64_t)
CG_INVOKE_BROADCAST_(f32, float)
CG_INVOKE_BROADCAST_(f64, double)

/* `size` bytes: fn(arg, result) fills result in the chosen thread, then
 * every thread of the mask gets them, word by word (internal). */
CG_DEVICE void cg_invoke_broadcast_bytes_(uint32_t mask, void (*fn)(void *, void *), void *arg, void *result,
                                          size_t size)
{
    uint32_t leader;
    unsigned char *d = (unsigned char *)result;
    if (cg_elect_sync_leader_(mask, &leader))
        fn(arg, result);
    for (size_t o = 0; o < size; o += 4) {
        size_t k = size - o < 4 ? size - o : 4;
        uint32_t w = 0;
        memcpy(&w, d + o, k);
        w = __shfl_sync(mask, w, (int)leader, 32);
        memcpy(d + o, &w, k);
    }
}
CG_DEVICE void cg_tile_invoke_one_broadcast_bytes(const cg_tile_t *t, void (*fn)(void *, void *), void *arg,
                                                  void *result, size_t size)
{
    cg_invoke_broadcast_bytes_(t->_mask, fn, arg, result, size);
}
CG_DEVICE void cg_coalesced_invoke_one_broadcast_bytes(const cg_coalesced_group_t *g, void (*fn)(void *, void *),
                                                       void *arg, void *result, size_t size)
{
    cg_invoke_broadcast_bytes_(g->_mask, fn, arg, result, size);
}
CG_DEVICE void cg_thread_group_invoke_one_broadcast_bytes(const cg_thread_group_t *g, void (*fn)(void *, void *),
                                                          void *arg, void *result, size_t size)
{
    cg_invoke_broadcast_bytes_(cg_invoke_mask_(g), fn, arg, result, size);
}

/* ------------------------------------------------------------------------- */
/* Generic forms: the typed call picked from the static type of g            */
/* ------------------------------------------------------------------------- */

#if defined(__cplusplus)

/* The _Generic table below, as overloads (internal; users call the macros). */
#define CG_INVOKE_ONE_FORWARD_(group, prefix)                                                      \
    CG_DEVICE void cg_generic_invoke_one_(const group *g, void (*fn)(void *), void *arg) { prefix##_invoke_one(g, fn, arg); }
CG_INVOKE_ONE_FORWARD_(cg_thread_block_t, cg_thread_block)
/* The cluster's form is sm_90-only, like cg_cluster_invoke_one itself. */
CG_DEVICE_SM90 void cg_generic_invoke_one_(const cg_cluster_t *g, void (*fn)(void *), void *arg)
{
    cg_cluster_invoke_one(g, fn, arg);
}
CG_INVOKE_ONE_FORWARD_(cg_grid_t, cg_grid)
CG_INVOKE_ONE_FORWARD_(cg_tile_t, cg_tile)
CG_INVOKE_ONE_FORWARD_(cg_coalesced_group_t, cg_coalesced)
CG_INVOKE_ONE_FORWARD_(cg_thread_group_t, cg_thread_group)
CG_INVOKE_ONE_FORWARD_(cg_wide_tile_t, cg_wide_tile)

#define CG_INVOKE_BROADCAST_FORWARD_(sfx, T)                                                       \
    CG_DEVICE T cg_generic_invoke_one_broadcast_##sfx##_(const cg_tile_t *g, T (*fn)(void *), void *arg) \
    {                                                                                              \
        return cg_tile_invoke_one_broadcast_##sfx(g, fn, arg);                                     \
    }                                                                                              \
    CG_DEVICE T cg_generic_invoke_one_broadcast_##sfx##_(const cg_coalesced_group_t *g, T (*fn)(void *), void *arg) \
    {                                                                                              \
        return cg_coalesced_invoke_one_broadcast_##sfx(g, fn, arg);                                \
    }                                                                                              \
    CG_DEVICE T cg_generic_invoke_one_broadcast_##sfx##_(const cg_thread_group_t *g, T (*fn)(void *), void *arg) \
    {                                                                                              \
        return cg_thread_group_invoke_one_broadcast_##sfx(g, fn, arg);                             \
    }
CG_INVOKE_BROADCAST_FORWARD_(u32, uint32_t)
CG_INVOKE_BROADCAST_FORWARD_(i32, int32_t)
CG_INVOKE_BROADCAST_FORWARD_(u64, uint64_t)
CG_INVOKE_BROADCAST_FORWARD_(i64, int64_t)
CG_INVOKE_BROADCAST_FORWARD_(f32, float)
CG_INVOKE_BROADCAST_FORWARD_(f64, double)

CG_DEVICE void cg_generic_invoke_one_broadcast_bytes_(const cg_tile_t *g, void (*fn)(void *, void *), void *arg,
                                                      void *result, size_t size)
{
    cg_tile_invoke_one_broadcast_bytes(g, fn, arg, result, size);
}
CG_DEVICE void cg_generic_invoke_one_broadcast_bytes_(const cg_coalesced_group_t *g, void (*fn)(void *, void *),
                                                      void *arg, void *result, size_t size)
{
    cg_coalesced_invoke_one_broadcast_bytes(g, fn, arg, result, size);
}
CG_DEVICE void cg_generic_invoke_one_broadcast_bytes_(const cg_thread_group_t *g, void (*fn)(void *, void *),
                                                      void *arg, void *result, size_t size)
{
    cg_thread_group_invoke_one_broadcast_bytes(g, fn, arg, result, size);
}

/* Anything else (a group passed by value, another pointer, a function of
 * another type): a short error at the caller's line whose text names what is
 * accepted (as cg/generic.h). */
#pragma nv_diagnostic push
#pragma nv_diag_suppress 114
#pragma nv_diag_suppress 177
#define CG_INVOKE_CATCH_ALL_(fn, msg)                                                              \
    struct msg;                                                                                    \
    static __device__ struct msg fn(...);
CG_INVOKE_CATCH_ALL_(
    cg_generic_invoke_one_,
    cg_invoke_one_takes_a_pointer_to_a_group_cg_thread_block_t_cg_cluster_t_cg_grid_t_cg_tile_t_cg_wide_tile_t_cg_coalesced_group_t_or_cg_thread_group_t_a_void_fn_of_void_ptr_and_its_arg)
#define CG_INVOKE_BROADCAST_CATCH_ALL_(sfx, T)                                                     \
    CG_INVOKE_CATCH_ALL_(                                                                          \
        cg_generic_invoke_one_broadcast_##sfx##_,                                                  \
        cg_invoke_one_broadcast_##sfx##_takes_a_pointer_to_a_cg_tile_t_cg_coalesced_group_t_or_cg_thread_group_t_a_##T##_fn_of_void_ptr_and_its_arg)
CG_INVOKE_BROADCAST_CATCH_ALL_(u32, uint32_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(i32, int32_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(u64, uint64_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(i64, int64_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(f32, float)
CG_INVOKE_BROADCAST_CATCH_ALL_(f64, double)
CG_INVOKE_CATCH_ALL_(
    cg_generic_invoke_one_broadcast_bytes_,
    cg_invoke_one_broadcast_bytes_takes_a_pointer_to_a_cg_tile_t_cg_coalesced_group_t_or_cg_thread_group_t_a_void_fn_of_two_void_ptrs_its_arg_the_result_and_its_size)
#pragma nv_diagnostic pop

#define cg_invoke_one(g, fn, arg) cg_generic_invoke_one_((g), (fn), (arg))
#define cg_invoke_one_broadcast_u32(g, fn, arg) cg_generic_invoke_one_broadcast_u32_((g), (fn), (arg))
#define cg_invoke_one_broadcast_i32(g, fn, arg) cg_generic_invoke_one_broadcast_i32_((g), (fn), (arg))
#define cg_invoke_one_broadcast_u64(g, fn, arg) cg_generic_invoke_one_broadcast_u64_((g), (fn), (arg))
#define cg_invoke_one_broadcast_i64(g, fn, arg) cg_generic_invoke_one_broadcast_i64_((g), (fn), (arg))
#define cg_invoke_one_broadcast_f32(g, fn, arg) cg_generic_invoke_one_broadcast_f32_((g), (fn), (arg))
#define cg_invoke_one_broadcast_f64(g, fn, arg) cg_generic_invoke_one_broadcast_f64_((g), (fn), (arg))
#define cg_invoke_one_broadcast_bytes(g, fn, arg, result, size)                                    \
    cg_generic_invoke_one_broadcast_bytes_((g), (fn), (arg), (result), (size))

#else /* C11 */

#define CG_INVOKE_PICK_ANY_(g, verb)                                                               \
    _Generic((g), cg_thread_block_t *: cg_thread_block_##verb, const cg_thread_block_t *: cg_thread_block_##verb, \
             cg_cluster_t *: cg_cluster_##verb, const cg_cluster_t *: cg_cluster_##verb,           \
             cg_grid_t *: cg_grid_##verb, const cg_grid_t *: cg_grid_##verb, cg_tile_t *: cg_tile_##verb, \
             const cg_tile_t *: cg_tile_##verb, cg_coalesced_group_t *: cg_coalesced_##verb,       \
             const cg_coalesced_group_t *: cg_coalesced_##verb, cg_thread_group_t *: cg_thread_group_##verb, \
             const cg_thread_group_t *: cg_thread_group_##verb, cg_wide_tile_t *: cg_wide_tile_##verb, \
             const cg_wide_tile_t *: cg_wide_tile_##verb)
#define CG_INVOKE_PICK_WARP_(g, verb)                                                              \
    _Generic((g), cg_tile_t *: cg_tile_##verb, const cg_tile_t *: cg_tile_##verb,                  \
             cg_coalesced_group_t *: cg_coalesced_##verb, const cg_coalesced_group_t *: cg_coalesced_##verb, \
             cg_thread_group_t *: cg_thread_group_##verb, const cg_thread_group_t *: cg_thread_group_##verb)

#define cg_invoke_one(g, fn, arg) CG_INVOKE_PICK_ANY_((g), invoke_one)((g), (fn), (arg))
#define cg_invoke_one_broadcast_u32(g, fn, arg) CG_INVOKE_PICK_WARP_((g), invoke_one_broadcast_u32)((g), (fn), (arg))
#define cg_invoke_one_broadcast_i32(g, fn, arg) CG_INVOKE_PICK_WARP_((g), invoke_one_broadcast_i32)((g), (fn), (arg))
#define cg_invoke_one_broadcast_u64(g, fn, arg) CG_INVOKE_PICK_WARP_((g), invoke_one_broadcast_u64)((g), (fn), (arg))
#define cg_invoke_one_broadcast_i64(g, fn, arg) CG_INVOKE_PICK_WARP_((g), invoke_one_broadcast_i64)((g), (fn), (arg))
#define cg_invoke_one_broadcast_f32(g, fn, arg) CG_INVOKE_PICK_WARP_((g), invoke_one_broadcast_f32)((g), (fn), (arg))
#define cg_invoke_one_broadcast_f64(g, fn, arg) CG_INVOKE_PICK_WARP_((g), invoke_one_broadcast_f64)((g), (fn), (arg))
#define cg_invoke_one_broadcast_bytes(g, fn, arg, result, size)                                    \
    CG_INVOKE_PICK_WARP_((g), invoke_one_broadcast_bytes)((g), (fn), (arg), (result), (size))

#endif /* __cplusplus */

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_INVOKE_H */
