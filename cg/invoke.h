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
#include "group_kinds.h"
#include "thread_block.h"
#include "thread_group.h"
#include "tile.h"
#include "wide_tile.h"

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* invoke_one                                                                */
/* ------------------------------------------------------------------------- */

/* cg_<name>_invoke_one for each kind (cg/group_kinds.h): in a group within
 * one warp (reach WARP and up: a tile, a coalesced group), the thread
 * elect.sync picks over its `_mask` (collective); in any other (a thread
 * block, cluster, grid or wide tile), its thread rank 0, as C++ CG picks in
 * a group wider than a warp (not collective). */
#define CG_INVOKE_ONE_TYPED_(KIND, n, type, name, arch, reach, share, unused)                      \
    CG_GROUP_DEV_##arch##_ void cg_##name##_invoke_one(const type *g, void (*fn)(void *), void *arg) \
    {                                                                                              \
        CG_GROUP_IN_WARP_##reach##_(uint32_t leader; if (cg_elect_sync_leader_(g->_mask, &leader)) fn(arg);) \
        CG_GROUP_OUT_WARP_##reach##_(if (cg_##name##_thread_rank(g) == 0u) fn(arg);)               \
    }
CG_GROUP_KINDS(CG_INVOKE_ONE_TYPED_, )
CG_DEVICE void cg_thread_group_invoke_one(const cg_thread_group_t *g, void (*fn)(void *), void *arg)
{
    switch (g->_hdr.kind) {
    CG_GROUP_KINDS(CG_TG_CASE_DO_, invoke_one, , fn, arg)
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

/* The warp mask of a cg_thread_group_t holding a group within one warp
 * (reach WARP and up: a tile, a coalesced group); internal; 0 for another
 * kind, which a debug build traps on. */
#define CG_INVOKE_MASK_IF_(KIND, n, type, name, arch, reach, share, unused)                        \
    CG_GROUP_IN_WARP_##reach##_(if (g->_hdr.kind == CG_GROUP_##KIND) return g->_g.name##_._mask;)
CG_DEVICE uint32_t cg_invoke_mask_(const cg_thread_group_t *g)
{
    CG_GROUP_KINDS(CG_INVOKE_MASK_IF_, )
#if CG_DEBUG
    cg_invoke_report_kind_((unsigned)g->_hdr.kind);
#else
    return 0u;
#endif
}

/* Defines the broadcast forms of one type: on a mask (internal), each group
 * within one warp (reach WARP and up, over its `_mask`) and a
 * cg_thread_group_t. Why a macro: six types, one body. */
#define CG_INVOKE_BROADCAST_TYPED_(KIND, n, type, name, arch, reach, share, sfx, T)                 \
    CG_GROUP_IN_WARP_##reach##_(CG_GROUP_DEV_##arch##_ T cg_##name##_invoke_one_broadcast_##sfx(    \
        const type *g, T (*fn)(void *), void *arg) { return cg_invoke_broadcast_##sfx##_(g->_mask, fn, arg); })
#define CG_INVOKE_BROADCAST_(sfx, T)                                                               \
    CG_DEVICE T cg_invoke_broadcast_##sfx##_(uint32_t mask, T (*fn)(void *), void *arg)            \
    {                                                                                              \
        uint32_t leader;                                                                           \
        T r = (T)0;                                                                                \
        if (cg_elect_sync_leader_(mask, &leader))                                                  \
            r = fn(arg);                                                                           \
        return __shfl_sync(mask, r, (int)leader, 32);                                              \
    }                                                                                              \
    CG_GROUP_KINDS(CG_INVOKE_BROADCAST_TYPED_, sfx, T)                                             \
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
#define CG_INVOKE_BYTES_TYPED_(KIND, n, type, name, arch, reach, share, unused)                    \
    CG_GROUP_IN_WARP_##reach##_(CG_GROUP_DEV_##arch##_ void cg_##name##_invoke_one_broadcast_bytes(  \
        const type *g, void (*fn)(void *, void *), void *arg, void *result, size_t size)            \
        { cg_invoke_broadcast_bytes_(g->_mask, fn, arg, result, size); })
CG_GROUP_KINDS(CG_INVOKE_BYTES_TYPED_, )
CG_DEVICE void cg_thread_group_invoke_one_broadcast_bytes(const cg_thread_group_t *g, void (*fn)(void *, void *),
                                                          void *arg, void *result, size_t size)
{
    cg_invoke_broadcast_bytes_(cg_invoke_mask_(g), fn, arg, result, size);
}

/* ------------------------------------------------------------------------- */
/* Generic forms: the typed call picked from the static type of g            */
/* ------------------------------------------------------------------------- */

#if defined(__cplusplus)

/* The _Generic table below, as overloads (internal; users call the macros):
 * one per kind (an sm_90-only kind's form is sm_90-only, like its typed
 * call), and cg_thread_group_t. */
#define CG_INVOKE_ONE_FORWARD_(KIND, n, type, name, arch, reach, share, unused)                    \
    CG_GROUP_DEV_##arch##_ void cg_generic_invoke_one_(const type *g, void (*fn)(void *), void *arg) \
    {                                                                                              \
        cg_##name##_invoke_one(g, fn, arg);                                                        \
    }
CG_GROUP_KINDS(CG_INVOKE_ONE_FORWARD_, )
CG_DEVICE void cg_generic_invoke_one_(const cg_thread_group_t *g, void (*fn)(void *), void *arg)
{
    cg_thread_group_invoke_one(g, fn, arg);
}

#define CG_INVOKE_BROADCAST_FORWARD_ROW_(KIND, n, type, name, arch, reach, share, sfx, T)           \
    CG_GROUP_IN_WARP_##reach##_(CG_GROUP_DEV_##arch##_ T cg_generic_invoke_one_broadcast_##sfx##_( \
        const type *g, T (*fn)(void *), void *arg) { return cg_##name##_invoke_one_broadcast_##sfx(g, fn, arg); })
#define CG_INVOKE_BROADCAST_FORWARD_(sfx, T)                                                       \
    CG_GROUP_KINDS(CG_INVOKE_BROADCAST_FORWARD_ROW_, sfx, T)                                       \
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

#define CG_INVOKE_BYTES_FORWARD_ROW_(KIND, n, type, name, arch, reach, share, unused)               \
    CG_GROUP_IN_WARP_##reach##_(CG_GROUP_DEV_##arch##_ void cg_generic_invoke_one_broadcast_bytes_( \
        const type *g, void (*fn)(void *, void *), void *arg, void *result, size_t size)            \
        { cg_##name##_invoke_one_broadcast_bytes(g, fn, arg, result, size); })
CG_GROUP_KINDS(CG_INVOKE_BYTES_FORWARD_ROW_, )
CG_DEVICE void cg_generic_invoke_one_broadcast_bytes_(const cg_thread_group_t *g, void (*fn)(void *, void *),
                                                      void *arg, void *result, size_t size)
{
    cg_thread_group_invoke_one_broadcast_bytes(g, fn, arg, result, size);
}

/* Anything else (a group passed by value, another pointer, a function of
 * another type): a short error at the caller's line whose text names what is
 * accepted (as cg/generic.h). */
CG_GROUP_CATCH_ALL_(cg_generic_invoke_one_, CG_GROUP_ANY_MSG_(cg_invoke_one_takes_a_pointer_to_a_group_,
                                                                 _a_void_fn_of_void_ptr_and_its_arg))
#define CG_INVOKE_BROADCAST_CATCH_ALL_(sfx, T)                                                     \
    CG_GROUP_CATCH_ALL_(                                                                          \
        cg_generic_invoke_one_broadcast_##sfx##_,                                                  \
        cg_invoke_one_broadcast_##sfx##_takes_a_pointer_to_a_cg_tile_t_cg_coalesced_group_t_or_cg_thread_group_t_a_##T##_fn_of_void_ptr_and_its_arg)
CG_INVOKE_BROADCAST_CATCH_ALL_(u32, uint32_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(i32, int32_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(u64, uint64_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(i64, int64_t)
CG_INVOKE_BROADCAST_CATCH_ALL_(f32, float)
CG_INVOKE_BROADCAST_CATCH_ALL_(f64, double)
CG_GROUP_CATCH_ALL_(
    cg_generic_invoke_one_broadcast_bytes_,
    cg_invoke_one_broadcast_bytes_takes_a_pointer_to_a_cg_tile_t_cg_coalesced_group_t_or_cg_thread_group_t_a_void_fn_of_two_void_ptrs_its_arg_the_result_and_its_size)

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

/* Rows of every kind (cg/group_kinds.h), or of those within one warp. */
#define CG_INVOKE_C11_ANY_(KIND, n, type, name, arch, reach, share, verb)                          \
    type * : cg_##name##_##verb, const type * : cg_##name##_##verb,
#define CG_INVOKE_C11_WARP_(KIND, n, type, name, arch, reach, share, verb)                         \
    CG_GROUP_IN_WARP_##reach##_(type * : cg_##name##_##verb, const type * : cg_##name##_##verb,)
#define CG_INVOKE_PICK_ANY_(g, verb)                                                               \
    _Generic((g), CG_GROUP_KINDS(CG_INVOKE_C11_ANY_, verb) cg_thread_group_t *: cg_thread_group_##verb, \
             const cg_thread_group_t *: cg_thread_group_##verb)
#define CG_INVOKE_PICK_WARP_(g, verb)                                                              \
    _Generic((g), CG_GROUP_KINDS(CG_INVOKE_C11_WARP_, verb) cg_thread_group_t *: cg_thread_group_##verb, \
             const cg_thread_group_t *: cg_thread_group_##verb)

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
