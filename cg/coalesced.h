/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/coalesced.h — coalesced groups: the threads of one warp that are
 * converged at a point (C++ CG's coalesced_group), their collectives, and
 * the partitions that make such groups out of tiles and coalesced groups.
 *
 *   if (x[i] > 0) {
 *       cg_coalesced_group_t g = cg_coalesced_threads();   // the lanes here
 *       uint32_t n = cg_coalesced_num_threads(&g);
 *       uint32_t base;
 *       if (cg_coalesced_thread_rank(&g) == 0)
 *           base = atomicAdd(&count, n);
 *       base = cg_coalesced_shfl_u32(&g, base, 0);           // source is a RANK
 *       out[base + cg_coalesced_thread_rank(&g)] = x[i];
 *   }
 *
 *   cg_coalesced_group_t s = cg_tile_labeled_partition(&t, key);  // by key
 *   float sum = cg_coalesced_reduce_f32(&s, v, CG_OP_PLUS);
 *
 * A group is a value (pass it by pointer) holding a lane mask: every thread
 * of the mask must make the same collective calls on it, as with C++ CG.
 * Ranks are 0..size-1 in lane order. A shuffle's source is a RANK in the
 * group, not a lane: cgc finds the lane (the n-th set bit of the mask).
 *
 * Semantics are C++ CG's, call for call (cooperative_groups.h and
 * cooperative_groups/details/{partitioning,coalesced_reduce,coalesced_scan}.h
 * of CUDA 13.0):
 *   cg_coalesced_threads       the mask of __activemask(); meta rank 0, size 1
 *   shfl(v, src)               src must be < size
 *   shfl_up / shfl_down        ranks whose source is outside the group get
 *                              their own value
 *   ballot(pred)               bit r for group rank r (not lane r)
 *   match_any / match_all      rank masks, bit patterns compared
 *   reduce                     32-bit integers on sm_80+: one redux.sync over
 *                              the mask; a group of 32: the butterfly of a
 *                              32-thread tile; otherwise the inclusive scan,
 *                              then the last rank's result (same order, so
 *                              the same float bits as C++ CG)
 *   inclusive_scan             Hillis-Steele over ranks (a rank's partner
 *                              i ranks down is found with fns)
 *   exclusive_scan             integers with CG_OP_PLUS: inclusive - own
 *                              value; otherwise rank - 1's inclusive result,
 *                              and 0 in rank 0 for every operator
 *   binary_partition(pred)     the threads with the same pred; meta rank =
 *                              pred (0/1) of 2 groups, or 0 of 1 when every
 *                              thread has the same pred
 *   labeled_partition(label)   the threads with the same label; meta rank =
 *                              the group's order by lowest lane, meta size =
 *                              the number of distinct labels
 *   tiled_partition(n)         ranks [r - r % n, + n) of the parent; meta rank
 *                              r / n of ceil(size / n); a parent of at most n
 *                              threads is returned as it is
 * Operators, types and names: cg/collectives.h (cg_op_t, _i32 ... _f64).
 *
 * One difference, on purpose: partitions of a tile of a partial last warp
 * (block size not a multiple of 32). cgc's tile mask holds only the threads
 * that exist, so the partitions hold only those. C++ CG partitions the whole
 * tile's mask there: a binary partition's pred-false group then counts lanes
 * past the end of the block, and a group whose threads all have the same pred
 * gets meta rank 1 of 2 instead of 0 of 1.
 */
#ifndef CG_CG_COALESCED_H
#define CG_CG_COALESCED_H

#include "collectives.h"
#include "../base/config.h"
#include "group_header.h"
#include "../base/sreg.h"
#include "tile.h"

/* A coalesced group. Build it with cg_coalesced_threads() or a partition;
 * pass it by pointer. */
typedef struct cg_coalesced_group {
    cg_group_header_t _hdr;
    uint32_t _mask; /* the group's lanes in the warp */
    uint32_t _size; /* popcount of _mask */
    uint32_t _meta_rank; /* this group's index among its parent's partitions */
    uint32_t _meta_count; /* how many partitions the parent made */
} cg_coalesced_group_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Construction and queries                                                  */
/* ------------------------------------------------------------------------- */

/* The group of the lanes in `mask` (internal). */
CG_DEVICE cg_coalesced_group_t cg_coalesced_make_(uint32_t mask, uint32_t meta_rank, uint32_t meta_count)
{
    cg_coalesced_group_t g;
    g._hdr.kind = CG_GROUP_COALESCED;
    g._mask = mask;
    g._size = (uint32_t)__popc(mask);
    g._meta_rank = meta_rank;
    g._meta_count = meta_count;
    return g;
}

/* The threads of the caller's warp that execute this call together
 * (__activemask()). Not collective; touches no memory. As in C++ CG the
 * hardware does not promise which threads are converged: the group may be
 * smaller than the threads that took the same branch (one thread, at worst). */
CG_DEVICE cg_coalesced_group_t cg_coalesced_threads(void) { return cg_coalesced_make_(__activemask(), 0u, 1u); }

/* Threads in the group (1..32). */
CG_DEVICE uint32_t cg_coalesced_num_threads(const cg_coalesced_group_t *g) { return g->_size; }

/* The caller's rank: the number of group lanes below it. */
CG_DEVICE uint32_t cg_coalesced_thread_rank(const cg_coalesced_group_t *g)
{
    return (uint32_t)__popc(g->_mask & cg_sreg_lanemask_lt());
}

/* This group's index among the partitions its parent was split into, and
 * their number (0 and 1 for cg_coalesced_threads). */
CG_DEVICE uint32_t cg_coalesced_meta_group_rank(const cg_coalesced_group_t *g) { return g->_meta_rank; }
CG_DEVICE uint32_t cg_coalesced_meta_group_size(const cg_coalesced_group_t *g) { return g->_meta_count; }

/* C++ CG's size(): cg_coalesced_num_threads under its older name. */
CG_DEVICE uint32_t cg_coalesced_size(const cg_coalesced_group_t *g) { return g->_size; }

/* The group's lanes in the warp (cg_coalesced_mask); __syncwarp over them
 * (cg_coalesced_sync); the split barrier of the generic calls, as a tile's
 * (cg_coalesced_barrier_arrive/_wait): see CG_WARP_GROUP_SYNC_CALLS_ in
 * cg/tile.h. */
CG_WARP_GROUP_SYNC_CALLS_(cg_coalesced_group_t, cg_coalesced_mask, cg_coalesced_sync, cg_coalesced_barrier_arrive,
                          cg_coalesced_barrier_wait)

/* ------------------------------------------------------------------------- */
/* Lanes and ranks (internal)                                                */
/* ------------------------------------------------------------------------- */

/* fns.b32 d, mask, base, offset;   PTX ISA 6.0, sm_30 (the __fns intrinsic).
 * The lane of group rank `rank` (< size): the (rank+1)-th set bit. */
CG_DEVICE uint32_t cg_coalesced_lane_of_(const cg_coalesced_group_t *g, uint32_t rank)
{
    if (rank == 0u)
        return (uint32_t)__ffs((int)g->_mask) - 1u;
    if (g->_size == 32u)
        return rank;
    return __fns(g->_mask, 0u, (int)rank + 1);
}

/* The lane of rank - delta, or the caller's own lane when there is none
 * (fns counts the base lane itself, so -(delta + 1)). */
CG_DEVICE uint32_t cg_coalesced_up_lane_(const cg_coalesced_group_t *g, uint32_t delta)
{
    uint32_t lane = cg_sreg_laneid();
    uint32_t src = __fns(g->_mask, lane, -(int)(delta + 1u));
    return src < 32u ? src : lane;
}

/* The lane of rank + delta, or the caller's own lane when there is none. */
CG_DEVICE uint32_t cg_coalesced_down_lane_(const cg_coalesced_group_t *g, uint32_t delta)
{
    uint32_t lane = cg_sreg_laneid();
    uint32_t src = __fns(g->_mask, lane, (int)(delta + 1u));
    return src < 32u ? src : lane;
}

/* The bits of `lanes` at the group's lanes, packed to rank order (bit r of
 * the result is the bit of the lane of rank r). */
CG_DEVICE uint32_t cg_coalesced_pack_(uint32_t mask, uint32_t lanes)
{
    uint32_t out = 0, r = 0;
    for (uint32_t m = mask; m != 0u; m &= m - 1u, r++)
        out |= (uint32_t)((lanes & m & (0u - m)) != 0u) << r;
    return out;
}

/* ------------------------------------------------------------------------- */
/* Votes                                                                     */
/* ------------------------------------------------------------------------- */

/* Bit r set when `pred` is nonzero in group rank r. sm_80+: each thread ORs
 * its rank's bit, one redux.sync.or.b32 over the mask; older targets pack a
 * ballot's lane bits. */
CG_DEVICE uint32_t cg_coalesced_ballot(const cg_coalesced_group_t *g, int pred)
{
    if (g->_size == 32u)
        return __ballot_sync(0xffffffffu, pred);
#if CG_ARCH_HAS_SM80
    return __reduce_or_sync(g->_mask, pred ? 1u << cg_coalesced_thread_rank(g) : 0u);
#else
    return cg_coalesced_pack_(g->_mask, __ballot_sync(g->_mask, pred));
#endif
}

/* 1 when `pred` is nonzero in any / every thread of the group, else 0. */
CG_DEVICE int cg_coalesced_any(const cg_coalesced_group_t *g, int pred)
{
    return __ballot_sync(g->_mask, pred) != 0u;
}
CG_DEVICE int cg_coalesced_all(const cg_coalesced_group_t *g, int pred)
{
    return __ballot_sync(g->_mask, pred) == g->_mask;
}

/* ------------------------------------------------------------------------- */
/* Every coalesced-group collective of one type                              */
/* ------------------------------------------------------------------------- */

/* The shuffles, match, scans and reduce of every value type over a coalesced
 * group, written from cg/collectives.tbl by tools/ptx/gen_collectives.py. */
/* ---- generated by tools/ptx/gen_collectives.py from cg/collectives.tbl [coalesced]; do not edit ---- */
/* The value of v in group rank src (src < size). */
CG_DEVICE int32_t cg_coalesced_shfl_i32(const cg_coalesced_group_t *g, int32_t v, uint32_t src)
{
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_lane_of_(g, src), 32);
}

/* The value of v in rank - delta; ranks below delta get their own. A group
 * of 32 is a whole warp, whose lanes are its ranks (__shfl_up_sync); a
 * smaller one reads the lane cg_coalesced_up_lane_ finds. */
CG_DEVICE int32_t cg_coalesced_shfl_up_i32(const cg_coalesced_group_t *g, int32_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_up_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_up_lane_(g, delta), 32);
}

/* The value of v in rank + delta; ranks past the end get their own (as
 * shfl_up: __shfl_down_sync or the lane cg_coalesced_down_lane_ finds). */
CG_DEVICE int32_t cg_coalesced_shfl_down_i32(const cg_coalesced_group_t *g, int32_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_down_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_down_lane_(g, delta), 32);
}

/* Group ranks whose v has the caller's bits. */
CG_DEVICE uint32_t cg_coalesced_match_any_i32(const cg_coalesced_group_t *g, int32_t v)
{
    uint32_t m = __match_any_sync(g->_mask, v);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* The group's rank mask if every v has the same bits, else 0; *pred (if
 * not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_coalesced_match_all_i32(const cg_coalesced_group_t *g, int32_t v, int *pred)
{
    uint32_t m = cg_match_all_i32_(g->_mask, v, pred);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* Inclusive scan of a group of 32 (lanes are ranks): a tile's. */
CG_DEVICE int32_t cg_coalesced_scan_dense_i32_(int32_t v, cg_op_t op)
{
    uint32_t r = cg_sreg_laneid();
    CG_SCAN_STEPS_(int32_t, i32, 32u, r, __shfl_up_sync(0xffffffffu, v, i, 32))
    return v;
}

/* Inclusive scan of a smaller group: rank r combines rank r - i's value,
 * whose lane fns finds i + 1 set bits down from the caller's. */
CG_DEVICE int32_t cg_coalesced_scan_sparse_i32_(const cg_coalesced_group_t *g, int32_t v, cg_op_t op)
{
    uint32_t r = cg_coalesced_thread_rank(g), lane = cg_sreg_laneid();
    for (uint32_t i = 1; i < g->_size; i <<= 1) {
        uint32_t src = i <= r ? __fns(g->_mask, lane, -(int)(i + 1u)) : lane;
        int32_t u = __shfl_sync(g->_mask, v, (int)src, 32);
        if (i <= r)
            v = cg_op_i32_(op, v, u);
    }
    return v;
}

/* op(v of ranks 0..r) in rank r. */
CG_DEVICE int32_t cg_coalesced_inclusive_scan_i32(const cg_coalesced_group_t *g, int32_t v, cg_op_t op)
{
    if (g->_size == 32u)
        return cg_coalesced_scan_dense_i32_(v, op);
    return cg_coalesced_scan_sparse_i32_(g, v, op);
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0. */
CG_DEVICE int32_t cg_coalesced_exclusive_scan_i32(const cg_coalesced_group_t *g, int32_t v, cg_op_t op)
{
    int32_t s = cg_coalesced_inclusive_scan_i32(g, v, op);
    if (CG_INTEGRAL_i32_ && op == CG_OP_PLUS)
        return cg_unplus_i32_(s, v);
    int32_t u = cg_coalesced_shfl_up_i32(g, s, 1u);
    return cg_coalesced_thread_rank(g) == 0u ? (int32_t)0 : u;
}

/* op over every thread of the group, in every thread. */
CG_DEVICE int32_t cg_coalesced_reduce_i32(const cg_coalesced_group_t *g, int32_t v, cg_op_t op)
{
    if (CG_REDUX_i32_)
        return cg_redux_i32_(g->_mask, v, op);
    if (g->_size == 32u) {
        for (uint32_t o = 16u; o; o >>= 1)
            v = cg_op_i32_(op, v, __shfl_xor_sync(0xffffffffu, v, (int)o, 32));
        return v;
    }
    int32_t s = cg_coalesced_scan_sparse_i32_(g, v, op);
    return __shfl_sync(g->_mask, s, 31 - __clz((int)g->_mask), 32);
}

/* The value of v in group rank src (src < size). */
CG_DEVICE uint32_t cg_coalesced_shfl_u32(const cg_coalesced_group_t *g, uint32_t v, uint32_t src)
{
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_lane_of_(g, src), 32);
}

/* The value of v in rank - delta; ranks below delta get their own. A group
 * of 32 is a whole warp, whose lanes are its ranks (__shfl_up_sync); a
 * smaller one reads the lane cg_coalesced_up_lane_ finds. */
CG_DEVICE uint32_t cg_coalesced_shfl_up_u32(const cg_coalesced_group_t *g, uint32_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_up_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_up_lane_(g, delta), 32);
}

/* The value of v in rank + delta; ranks past the end get their own (as
 * shfl_up: __shfl_down_sync or the lane cg_coalesced_down_lane_ finds). */
CG_DEVICE uint32_t cg_coalesced_shfl_down_u32(const cg_coalesced_group_t *g, uint32_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_down_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_down_lane_(g, delta), 32);
}

/* Group ranks whose v has the caller's bits. */
CG_DEVICE uint32_t cg_coalesced_match_any_u32(const cg_coalesced_group_t *g, uint32_t v)
{
    uint32_t m = __match_any_sync(g->_mask, v);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* The group's rank mask if every v has the same bits, else 0; *pred (if
 * not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_coalesced_match_all_u32(const cg_coalesced_group_t *g, uint32_t v, int *pred)
{
    uint32_t m = cg_match_all_u32_(g->_mask, v, pred);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* Inclusive scan of a group of 32 (lanes are ranks): a tile's. */
CG_DEVICE uint32_t cg_coalesced_scan_dense_u32_(uint32_t v, cg_op_t op)
{
    uint32_t r = cg_sreg_laneid();
    CG_SCAN_STEPS_(uint32_t, u32, 32u, r, __shfl_up_sync(0xffffffffu, v, i, 32))
    return v;
}

/* Inclusive scan of a smaller group: rank r combines rank r - i's value,
 * whose lane fns finds i + 1 set bits down from the caller's. */
CG_DEVICE uint32_t cg_coalesced_scan_sparse_u32_(const cg_coalesced_group_t *g, uint32_t v, cg_op_t op)
{
    uint32_t r = cg_coalesced_thread_rank(g), lane = cg_sreg_laneid();
    for (uint32_t i = 1; i < g->_size; i <<= 1) {
        uint32_t src = i <= r ? __fns(g->_mask, lane, -(int)(i + 1u)) : lane;
        uint32_t u = __shfl_sync(g->_mask, v, (int)src, 32);
        if (i <= r)
            v = cg_op_u32_(op, v, u);
    }
    return v;
}

/* op(v of ranks 0..r) in rank r. */
CG_DEVICE uint32_t cg_coalesced_inclusive_scan_u32(const cg_coalesced_group_t *g, uint32_t v, cg_op_t op)
{
    if (g->_size == 32u)
        return cg_coalesced_scan_dense_u32_(v, op);
    return cg_coalesced_scan_sparse_u32_(g, v, op);
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0. */
CG_DEVICE uint32_t cg_coalesced_exclusive_scan_u32(const cg_coalesced_group_t *g, uint32_t v, cg_op_t op)
{
    uint32_t s = cg_coalesced_inclusive_scan_u32(g, v, op);
    if (CG_INTEGRAL_u32_ && op == CG_OP_PLUS)
        return cg_unplus_u32_(s, v);
    uint32_t u = cg_coalesced_shfl_up_u32(g, s, 1u);
    return cg_coalesced_thread_rank(g) == 0u ? (uint32_t)0 : u;
}

/* op over every thread of the group, in every thread. */
CG_DEVICE uint32_t cg_coalesced_reduce_u32(const cg_coalesced_group_t *g, uint32_t v, cg_op_t op)
{
    if (CG_REDUX_u32_)
        return cg_redux_u32_(g->_mask, v, op);
    if (g->_size == 32u) {
        for (uint32_t o = 16u; o; o >>= 1)
            v = cg_op_u32_(op, v, __shfl_xor_sync(0xffffffffu, v, (int)o, 32));
        return v;
    }
    uint32_t s = cg_coalesced_scan_sparse_u32_(g, v, op);
    return __shfl_sync(g->_mask, s, 31 - __clz((int)g->_mask), 32);
}

/* The value of v in group rank src (src < size). */
CG_DEVICE int64_t cg_coalesced_shfl_i64(const cg_coalesced_group_t *g, int64_t v, uint32_t src)
{
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_lane_of_(g, src), 32);
}

/* The value of v in rank - delta; ranks below delta get their own. A group
 * of 32 is a whole warp, whose lanes are its ranks (__shfl_up_sync); a
 * smaller one reads the lane cg_coalesced_up_lane_ finds. */
CG_DEVICE int64_t cg_coalesced_shfl_up_i64(const cg_coalesced_group_t *g, int64_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_up_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_up_lane_(g, delta), 32);
}

/* The value of v in rank + delta; ranks past the end get their own (as
 * shfl_up: __shfl_down_sync or the lane cg_coalesced_down_lane_ finds). */
CG_DEVICE int64_t cg_coalesced_shfl_down_i64(const cg_coalesced_group_t *g, int64_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_down_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_down_lane_(g, delta), 32);
}

/* Group ranks whose v has the caller's bits. */
CG_DEVICE uint32_t cg_coalesced_match_any_i64(const cg_coalesced_group_t *g, int64_t v)
{
    uint32_t m = __match_any_sync(g->_mask, v);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* The group's rank mask if every v has the same bits, else 0; *pred (if
 * not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_coalesced_match_all_i64(const cg_coalesced_group_t *g, int64_t v, int *pred)
{
    uint32_t m = cg_match_all_i64_(g->_mask, v, pred);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* Inclusive scan of a group of 32 (lanes are ranks): a tile's. */
CG_DEVICE int64_t cg_coalesced_scan_dense_i64_(int64_t v, cg_op_t op)
{
    uint32_t r = cg_sreg_laneid();
    CG_SCAN_STEPS_(int64_t, i64, 32u, r, __shfl_up_sync(0xffffffffu, v, i, 32))
    return v;
}

/* Inclusive scan of a smaller group: rank r combines rank r - i's value,
 * whose lane fns finds i + 1 set bits down from the caller's. */
CG_DEVICE int64_t cg_coalesced_scan_sparse_i64_(const cg_coalesced_group_t *g, int64_t v, cg_op_t op)
{
    uint32_t r = cg_coalesced_thread_rank(g), lane = cg_sreg_laneid();
    for (uint32_t i = 1; i < g->_size; i <<= 1) {
        uint32_t src = i <= r ? __fns(g->_mask, lane, -(int)(i + 1u)) : lane;
        int64_t u = __shfl_sync(g->_mask, v, (int)src, 32);
        if (i <= r)
            v = cg_op_i64_(op, v, u);
    }
    return v;
}

/* op(v of ranks 0..r) in rank r. */
CG_DEVICE int64_t cg_coalesced_inclusive_scan_i64(const cg_coalesced_group_t *g, int64_t v, cg_op_t op)
{
    if (g->_size == 32u)
        return cg_coalesced_scan_dense_i64_(v, op);
    return cg_coalesced_scan_sparse_i64_(g, v, op);
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0. */
CG_DEVICE int64_t cg_coalesced_exclusive_scan_i64(const cg_coalesced_group_t *g, int64_t v, cg_op_t op)
{
    int64_t s = cg_coalesced_inclusive_scan_i64(g, v, op);
    if (CG_INTEGRAL_i64_ && op == CG_OP_PLUS)
        return cg_unplus_i64_(s, v);
    int64_t u = cg_coalesced_shfl_up_i64(g, s, 1u);
    return cg_coalesced_thread_rank(g) == 0u ? (int64_t)0 : u;
}

/* op over every thread of the group, in every thread. */
CG_DEVICE int64_t cg_coalesced_reduce_i64(const cg_coalesced_group_t *g, int64_t v, cg_op_t op)
{
    if (CG_REDUX_i64_)
        return cg_redux_i64_(g->_mask, v, op);
    if (g->_size == 32u) {
        for (uint32_t o = 16u; o; o >>= 1)
            v = cg_op_i64_(op, v, __shfl_xor_sync(0xffffffffu, v, (int)o, 32));
        return v;
    }
    int64_t s = cg_coalesced_scan_sparse_i64_(g, v, op);
    return __shfl_sync(g->_mask, s, 31 - __clz((int)g->_mask), 32);
}

/* The value of v in group rank src (src < size). */
CG_DEVICE uint64_t cg_coalesced_shfl_u64(const cg_coalesced_group_t *g, uint64_t v, uint32_t src)
{
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_lane_of_(g, src), 32);
}

/* The value of v in rank - delta; ranks below delta get their own. A group
 * of 32 is a whole warp, whose lanes are its ranks (__shfl_up_sync); a
 * smaller one reads the lane cg_coalesced_up_lane_ finds. */
CG_DEVICE uint64_t cg_coalesced_shfl_up_u64(const cg_coalesced_group_t *g, uint64_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_up_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_up_lane_(g, delta), 32);
}

/* The value of v in rank + delta; ranks past the end get their own (as
 * shfl_up: __shfl_down_sync or the lane cg_coalesced_down_lane_ finds). */
CG_DEVICE uint64_t cg_coalesced_shfl_down_u64(const cg_coalesced_group_t *g, uint64_t v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_down_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_down_lane_(g, delta), 32);
}

/* Group ranks whose v has the caller's bits. */
CG_DEVICE uint32_t cg_coalesced_match_any_u64(const cg_coalesced_group_t *g, uint64_t v)
{
    uint32_t m = __match_any_sync(g->_mask, v);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* The group's rank mask if every v has the same bits, else 0; *pred (if
 * not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_coalesced_match_all_u64(const cg_coalesced_group_t *g, uint64_t v, int *pred)
{
    uint32_t m = cg_match_all_u64_(g->_mask, v, pred);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* Inclusive scan of a group of 32 (lanes are ranks): a tile's. */
CG_DEVICE uint64_t cg_coalesced_scan_dense_u64_(uint64_t v, cg_op_t op)
{
    uint32_t r = cg_sreg_laneid();
    CG_SCAN_STEPS_(uint64_t, u64, 32u, r, __shfl_up_sync(0xffffffffu, v, i, 32))
    return v;
}

/* Inclusive scan of a smaller group: rank r combines rank r - i's value,
 * whose lane fns finds i + 1 set bits down from the caller's. */
CG_DEVICE uint64_t cg_coalesced_scan_sparse_u64_(const cg_coalesced_group_t *g, uint64_t v, cg_op_t op)
{
    uint32_t r = cg_coalesced_thread_rank(g), lane = cg_sreg_laneid();
    for (uint32_t i = 1; i < g->_size; i <<= 1) {
        uint32_t src = i <= r ? __fns(g->_mask, lane, -(int)(i + 1u)) : lane;
        uint64_t u = __shfl_sync(g->_mask, v, (int)src, 32);
        if (i <= r)
            v = cg_op_u64_(op, v, u);
    }
    return v;
}

/* op(v of ranks 0..r) in rank r. */
CG_DEVICE uint64_t cg_coalesced_inclusive_scan_u64(const cg_coalesced_group_t *g, uint64_t v, cg_op_t op)
{
    if (g->_size == 32u)
        return cg_coalesced_scan_dense_u64_(v, op);
    return cg_coalesced_scan_sparse_u64_(g, v, op);
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0. */
CG_DEVICE uint64_t cg_coalesced_exclusive_scan_u64(const cg_coalesced_group_t *g, uint64_t v, cg_op_t op)
{
    uint64_t s = cg_coalesced_inclusive_scan_u64(g, v, op);
    if (CG_INTEGRAL_u64_ && op == CG_OP_PLUS)
        return cg_unplus_u64_(s, v);
    uint64_t u = cg_coalesced_shfl_up_u64(g, s, 1u);
    return cg_coalesced_thread_rank(g) == 0u ? (uint64_t)0 : u;
}

/* op over every thread of the group, in every thread. */
CG_DEVICE uint64_t cg_coalesced_reduce_u64(const cg_coalesced_group_t *g, uint64_t v, cg_op_t op)
{
    if (CG_REDUX_u64_)
        return cg_redux_u64_(g->_mask, v, op);
    if (g->_size == 32u) {
        for (uint32_t o = 16u; o; o >>= 1)
            v = cg_op_u64_(op, v, __shfl_xor_sync(0xffffffffu, v, (int)o, 32));
        return v;
    }
    uint64_t s = cg_coalesced_scan_sparse_u64_(g, v, op);
    return __shfl_sync(g->_mask, s, 31 - __clz((int)g->_mask), 32);
}

/* The value of v in group rank src (src < size). */
CG_DEVICE float cg_coalesced_shfl_f32(const cg_coalesced_group_t *g, float v, uint32_t src)
{
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_lane_of_(g, src), 32);
}

/* The value of v in rank - delta; ranks below delta get their own. A group
 * of 32 is a whole warp, whose lanes are its ranks (__shfl_up_sync); a
 * smaller one reads the lane cg_coalesced_up_lane_ finds. */
CG_DEVICE float cg_coalesced_shfl_up_f32(const cg_coalesced_group_t *g, float v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_up_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_up_lane_(g, delta), 32);
}

/* The value of v in rank + delta; ranks past the end get their own (as
 * shfl_up: __shfl_down_sync or the lane cg_coalesced_down_lane_ finds). */
CG_DEVICE float cg_coalesced_shfl_down_f32(const cg_coalesced_group_t *g, float v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_down_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_down_lane_(g, delta), 32);
}

/* Group ranks whose v has the caller's bits. */
CG_DEVICE uint32_t cg_coalesced_match_any_f32(const cg_coalesced_group_t *g, float v)
{
    uint32_t m = __match_any_sync(g->_mask, v);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* The group's rank mask if every v has the same bits, else 0; *pred (if
 * not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_coalesced_match_all_f32(const cg_coalesced_group_t *g, float v, int *pred)
{
    uint32_t m = cg_match_all_f32_(g->_mask, v, pred);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* Inclusive scan of a group of 32 (lanes are ranks): a tile's. */
CG_DEVICE float cg_coalesced_scan_dense_f32_(float v, cg_op_t op)
{
    uint32_t r = cg_sreg_laneid();
    CG_SCAN_STEPS_(float, f32, 32u, r, __shfl_up_sync(0xffffffffu, v, i, 32))
    return v;
}

/* Inclusive scan of a smaller group: rank r combines rank r - i's value,
 * whose lane fns finds i + 1 set bits down from the caller's. */
CG_DEVICE float cg_coalesced_scan_sparse_f32_(const cg_coalesced_group_t *g, float v, cg_op_t op)
{
    uint32_t r = cg_coalesced_thread_rank(g), lane = cg_sreg_laneid();
    for (uint32_t i = 1; i < g->_size; i <<= 1) {
        uint32_t src = i <= r ? __fns(g->_mask, lane, -(int)(i + 1u)) : lane;
        float u = __shfl_sync(g->_mask, v, (int)src, 32);
        if (i <= r)
            v = cg_op_f32_(op, v, u);
    }
    return v;
}

/* op(v of ranks 0..r) in rank r. */
CG_DEVICE float cg_coalesced_inclusive_scan_f32(const cg_coalesced_group_t *g, float v, cg_op_t op)
{
    if (g->_size == 32u)
        return cg_coalesced_scan_dense_f32_(v, op);
    return cg_coalesced_scan_sparse_f32_(g, v, op);
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0. */
CG_DEVICE float cg_coalesced_exclusive_scan_f32(const cg_coalesced_group_t *g, float v, cg_op_t op)
{
    float s = cg_coalesced_inclusive_scan_f32(g, v, op);
    if (CG_INTEGRAL_f32_ && op == CG_OP_PLUS)
        return cg_unplus_f32_(s, v);
    float u = cg_coalesced_shfl_up_f32(g, s, 1u);
    return cg_coalesced_thread_rank(g) == 0u ? (float)0 : u;
}

/* op over every thread of the group, in every thread. */
CG_DEVICE float cg_coalesced_reduce_f32(const cg_coalesced_group_t *g, float v, cg_op_t op)
{
    if (CG_REDUX_f32_)
        return cg_redux_f32_(g->_mask, v, op);
    if (g->_size == 32u) {
        for (uint32_t o = 16u; o; o >>= 1)
            v = cg_op_f32_(op, v, __shfl_xor_sync(0xffffffffu, v, (int)o, 32));
        return v;
    }
    float s = cg_coalesced_scan_sparse_f32_(g, v, op);
    return __shfl_sync(g->_mask, s, 31 - __clz((int)g->_mask), 32);
}

/* The value of v in group rank src (src < size). */
CG_DEVICE double cg_coalesced_shfl_f64(const cg_coalesced_group_t *g, double v, uint32_t src)
{
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_lane_of_(g, src), 32);
}

/* The value of v in rank - delta; ranks below delta get their own. A group
 * of 32 is a whole warp, whose lanes are its ranks (__shfl_up_sync); a
 * smaller one reads the lane cg_coalesced_up_lane_ finds. */
CG_DEVICE double cg_coalesced_shfl_up_f64(const cg_coalesced_group_t *g, double v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_up_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_up_lane_(g, delta), 32);
}

/* The value of v in rank + delta; ranks past the end get their own (as
 * shfl_up: __shfl_down_sync or the lane cg_coalesced_down_lane_ finds). */
CG_DEVICE double cg_coalesced_shfl_down_f64(const cg_coalesced_group_t *g, double v, uint32_t delta)
{
    if (g->_size == 32u)
        return __shfl_down_sync(0xffffffffu, v, delta, 32);
    return __shfl_sync(g->_mask, v, (int)cg_coalesced_down_lane_(g, delta), 32);
}

/* Group ranks whose v has the caller's bits. */
CG_DEVICE uint32_t cg_coalesced_match_any_f64(const cg_coalesced_group_t *g, double v)
{
    uint32_t m = __match_any_sync(g->_mask, v);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* The group's rank mask if every v has the same bits, else 0; *pred (if
 * not NULL) gets 1 or 0 alike. */
CG_DEVICE uint32_t cg_coalesced_match_all_f64(const cg_coalesced_group_t *g, double v, int *pred)
{
    uint32_t m = cg_match_all_f64_(g->_mask, v, pred);
    return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);
}

/* Inclusive scan of a group of 32 (lanes are ranks): a tile's. */
CG_DEVICE double cg_coalesced_scan_dense_f64_(double v, cg_op_t op)
{
    uint32_t r = cg_sreg_laneid();
    CG_SCAN_STEPS_(double, f64, 32u, r, __shfl_up_sync(0xffffffffu, v, i, 32))
    return v;
}

/* Inclusive scan of a smaller group: rank r combines rank r - i's value,
 * whose lane fns finds i + 1 set bits down from the caller's. */
CG_DEVICE double cg_coalesced_scan_sparse_f64_(const cg_coalesced_group_t *g, double v, cg_op_t op)
{
    uint32_t r = cg_coalesced_thread_rank(g), lane = cg_sreg_laneid();
    for (uint32_t i = 1; i < g->_size; i <<= 1) {
        uint32_t src = i <= r ? __fns(g->_mask, lane, -(int)(i + 1u)) : lane;
        double u = __shfl_sync(g->_mask, v, (int)src, 32);
        if (i <= r)
            v = cg_op_f64_(op, v, u);
    }
    return v;
}

/* op(v of ranks 0..r) in rank r. */
CG_DEVICE double cg_coalesced_inclusive_scan_f64(const cg_coalesced_group_t *g, double v, cg_op_t op)
{
    if (g->_size == 32u)
        return cg_coalesced_scan_dense_f64_(v, op);
    return cg_coalesced_scan_sparse_f64_(g, v, op);
}

/* op(v of ranks 0..r-1) in rank r; 0 in rank 0. */
CG_DEVICE double cg_coalesced_exclusive_scan_f64(const cg_coalesced_group_t *g, double v, cg_op_t op)
{
    double s = cg_coalesced_inclusive_scan_f64(g, v, op);
    if (CG_INTEGRAL_f64_ && op == CG_OP_PLUS)
        return cg_unplus_f64_(s, v);
    double u = cg_coalesced_shfl_up_f64(g, s, 1u);
    return cg_coalesced_thread_rank(g) == 0u ? (double)0 : u;
}

/* op over every thread of the group, in every thread. */
CG_DEVICE double cg_coalesced_reduce_f64(const cg_coalesced_group_t *g, double v, cg_op_t op)
{
    if (CG_REDUX_f64_)
        return cg_redux_f64_(g->_mask, v, op);
    if (g->_size == 32u) {
        for (uint32_t o = 16u; o; o >>= 1)
            v = cg_op_f64_(op, v, __shfl_xor_sync(0xffffffffu, v, (int)o, 32));
        return v;
    }
    double s = cg_coalesced_scan_sparse_f64_(g, v, op);
    return __shfl_sync(g->_mask, s, 31 - __clz((int)g->_mask), 32);
}
/* ---- end of generated part ---- */

/* ------------------------------------------------------------------------- */
/* Shuffles of any object, by size (see cg/collectives.h)                    */
/* ------------------------------------------------------------------------- */

/* `size` bytes from src to dst, word by word, each word from the lane
 * `kind`/`arg` names (the lane is found once). */
CG_DEVICE void cg_coalesced_shfl_bytes_(const cg_coalesced_group_t *g, void *dst, const void *src, size_t size,
                                        cg_shfl_kind_t_ kind, uint32_t arg)
{
    unsigned char *d = (unsigned char *)dst;
    const unsigned char *s = (const unsigned char *)src;
    uint32_t lane = kind == CG_SHFL_IDX_ ? cg_coalesced_lane_of_(g, arg)
                    : kind == CG_SHFL_UP_ ? cg_coalesced_up_lane_(g, arg)
                                          : cg_coalesced_down_lane_(g, arg);
    for (size_t o = 0; o < size; o += 4) {
        size_t k = size - o < 4 ? size - o : 4;
        uint32_t w = 0;
        memcpy(&w, s + o, k);
        w = __shfl_sync(g->_mask, w, (int)lane, 32);
        memcpy(d + o, &w, k);
    }
}

/* dst = the `size` bytes at src in group rank src_rank (< size). */
CG_DEVICE void cg_coalesced_shfl_bytes(const cg_coalesced_group_t *g, void *dst, const void *src, size_t size,
                                       uint32_t src_rank)
{
    cg_coalesced_shfl_bytes_(g, dst, src, size, CG_SHFL_IDX_, src_rank);
}
/* ... in rank - delta (ranks below delta get their own bytes). */
CG_DEVICE void cg_coalesced_shfl_up_bytes(const cg_coalesced_group_t *g, void *dst, const void *src, size_t size,
                                          uint32_t delta)
{
    cg_coalesced_shfl_bytes_(g, dst, src, size, CG_SHFL_UP_, delta);
}
/* ... in rank + delta (ranks past the end get their own bytes). */
CG_DEVICE void cg_coalesced_shfl_down_bytes(const cg_coalesced_group_t *g, void *dst, const void *src, size_t size,
                                            uint32_t delta)
{
    cg_coalesced_shfl_bytes_(g, dst, src, size, CG_SHFL_DOWN_, delta);
}

/* ------------------------------------------------------------------------- */
/* Partitions                                                                */
/* ------------------------------------------------------------------------- */

/* The threads of `mask` whose pred agrees with the caller's (internal). */
CG_DEVICE cg_coalesced_group_t cg_binary_partition_(uint32_t mask, int pred)
{
    uint32_t set = __ballot_sync(mask, pred);
    if (set == mask || set == 0u)
        return cg_coalesced_make_(mask, 0u, 1u);
    return pred ? cg_coalesced_make_(set, 1u, 2u) : cg_coalesced_make_(mask & ~set, 0u, 2u);
}

/* The threads of `mask` whose label matches the caller's, from the lanes that
 * __match_any_sync found (internal). The groups are ordered by their lowest
 * lane (their leader). */
CG_DEVICE cg_coalesced_group_t cg_labeled_partition_(uint32_t mask, uint32_t same)
{
    uint32_t leader = (uint32_t)__ffs((int)same) - 1u;
    uint32_t leaders = __ballot_sync(mask, cg_sreg_laneid() == leader);
    uint32_t below = leaders & ((1u << leader) - 1u);
    return cg_coalesced_make_(same, (uint32_t)__popc(below), (uint32_t)__popc(leaders));
}

/* Defines the partitions of a group of lanes of one warp (`type` has _mask),
 * named by the arguments:
 *   binary        split by a predicate: the threads whose pred is nonzero /
 *                 zero;
 *   labeled       split by a label (32-bit; _u64 for 64-bit labels and
 *                 pointers, (uint64_t)(uintptr_t)p): the threads with the
 *                 caller's label;
 *   labeled_u32   the 32-bit form under the type-suffix scheme of every typed
 *                 name. */
#define CG_WARP_GROUP_PARTITIONS_(type, binary, labeled, labeled_u64, labeled_u32)                 \
    CG_DEVICE cg_coalesced_group_t binary(const type *g, int pred)                                 \
    {                                                                                              \
        return cg_binary_partition_(g->_mask, pred != 0);                                          \
    }                                                                                              \
    CG_DEVICE cg_coalesced_group_t labeled(const type *g, uint32_t label)                          \
    {                                                                                              \
        return cg_labeled_partition_(g->_mask, __match_any_sync(g->_mask, label));                 \
    }                                                                                              \
    CG_DEVICE cg_coalesced_group_t labeled_u64(const type *g, uint64_t label)                      \
    {                                                                                              \
        return cg_labeled_partition_(g->_mask, __match_any_sync(g->_mask, label));                 \
    }                                                                                              \
    CG_DEVICE cg_coalesced_group_t labeled_u32(const type *g, uint32_t label) { return labeled(g, label); }

/* Split a tile by a predicate or a label. */
CG_WARP_GROUP_PARTITIONS_(cg_tile_t, cg_tile_binary_partition, cg_tile_labeled_partition,
                          cg_tile_labeled_partition_u64, cg_tile_labeled_partition_u32)

/* The same for a coalesced group. */
CG_WARP_GROUP_PARTITIONS_(cg_coalesced_group_t, cg_coalesced_binary_partition, cg_coalesced_labeled_partition,
                          cg_coalesced_labeled_partition_u64, cg_coalesced_labeled_partition_u32)

/* Split a coalesced group into groups of n consecutive ranks (n a power of
 * two, 1..32) and return the caller's: ranks [r - r % n, r - r % n + n), the
 * last one shorter when n does not divide the size. Not collective (each
 * thread computes its group from the mask). A group of at most n threads is
 * returned as it is, meta rank and size included. A debug build traps on any
 * other n. */
CG_DEVICE cg_coalesced_group_t cg_coalesced_tiled_partition(const cg_coalesced_group_t *g, uint32_t n)
{
    CG_TILE_CHECK_N_("cg_coalesced_tiled_partition", n);
    if (g->_size <= n)
        return *g;
    uint32_t r = cg_coalesced_thread_rank(g);
    uint32_t lo = r & ~(n - 1u);
    uint32_t first = cg_coalesced_lane_of_(g, lo);
    uint32_t sub = g->_mask & (0xffffffffu << first);
    if (lo + n < g->_size)
        sub &= (1u << cg_coalesced_lane_of_(g, lo + n)) - 1u;
    return cg_coalesced_make_(sub, r / n, (g->_size + n - 1u) / n);
}

/* A constant bit operator on the float/double collectives stops the build
 * (cg/collectives.h: CG_OP_VALUE_CHECK_). */
#define cg_coalesced_reduce_f32(g, v, op) CG_OP_FLOAT_CALL_(cg_coalesced_reduce_f32, float, g, v, op)
#define cg_coalesced_reduce_f64(g, v, op) CG_OP_FLOAT_CALL_(cg_coalesced_reduce_f64, double, g, v, op)
#define cg_coalesced_inclusive_scan_f32(g, v, op) CG_OP_FLOAT_CALL_(cg_coalesced_inclusive_scan_f32, float, g, v, op)
#define cg_coalesced_inclusive_scan_f64(g, v, op) CG_OP_FLOAT_CALL_(cg_coalesced_inclusive_scan_f64, double, g, v, op)
#define cg_coalesced_exclusive_scan_f32(g, v, op) CG_OP_FLOAT_CALL_(cg_coalesced_exclusive_scan_f32, float, g, v, op)
#define cg_coalesced_exclusive_scan_f64(g, v, op) CG_OP_FLOAT_CALL_(cg_coalesced_exclusive_scan_f64, double, g, v, op)

/* A constant n that is not a power of two in 1..32 stops the build
 * (cg/tile.h: CG_TILE_N_CHECK_). */
#define cg_coalesced_tiled_partition(g, n) (CG_TILE_N_CHECK_(n), cg_coalesced_tiled_partition((g), (n)))

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_COALESCED_H */
