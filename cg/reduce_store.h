/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/reduce_store.h — a group's reduction stored by one thread (C++ CG's
 * reduce_store_async(group, T *dst, v, op), the pointer form).
 *
 *   cg_tile_reduce_store_f32(&t, &out[cg_tile_meta_group_rank(&t)], v, CG_OP_PLUS);
 *
 * Every thread of the group calls it (it is the group's reduction,
 * cg_tile_reduce_<type> / cg_coalesced_reduce_<type>: same result, same
 * bits); then the group's rank 0 writes the result to *dst with an ordinary
 * store. Nothing waits for the store and no other thread is ordered after it
 * (as in C++ CG): read *dst after a sync that orders it (the group's sync for
 * its own threads, a kernel boundary for the host). Types: i32, u32, i64,
 * u64, f32, f64; operators: cg_op_t (cg/collectives.h).
 * The atomic forms (C++ CG's reduce_update_async and reduce_store_async on a
 * cuda::atomic, inclusive/exclusive_scan_update) are not here: docs/PORTING.md
 * says how to compose them.
 */
#ifndef CG_CG_REDUCE_STORE_H
#define CG_CG_REDUCE_STORE_H

#include "../base/config.h"
#include "coalesced.h"
#include "collectives.h"
#include "tile.h"

#if CG_DEVICE_CODE_VISIBLE

/* The tile and coalesced-group forms of one type. Why a macro: six types, one
 * body. */
#define CG_REDUCE_STORE_(sfx, T)                                                                   \
    CG_DEVICE void cg_tile_reduce_store_##sfx(const cg_tile_t *t, T *dst, T v, cg_op_t op)          \
    {                                                                                              \
        T r = cg_tile_reduce_##sfx(t, v, op);                                                      \
        if (cg_tile_thread_rank(t) == 0u)                                                          \
            *dst = r;                                                                              \
    }                                                                                              \
    CG_DEVICE void cg_coalesced_reduce_store_##sfx(const cg_coalesced_group_t *g, T *dst, T v, cg_op_t op) \
    {                                                                                              \
        T r = cg_coalesced_reduce_##sfx(g, v, op);                                                 \
        if (cg_coalesced_thread_rank(g) == 0u)                                                     \
            *dst = r;                                                                              \
    }

CG_REDUCE_STORE_(i32, int32_t)
CG_REDUCE_STORE_(u32, uint32_t)
CG_REDUCE_STORE_(i64, int64_t)
CG_REDUCE_STORE_(u64, uint64_t)
CG_REDUCE_STORE_(f32, float)
CG_REDUCE_STORE_(f64, double)

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_REDUCE_STORE_H */
