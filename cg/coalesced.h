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

/* Defines cg_coalesced_shfl_<dir>_<sfx> (dir: up or down): a group of 32 is
 * a whole warp, whose lanes are its ranks (__shfl_<dir>_sync); a smaller one
 * reads the lane cg_coalesced_<dir>_lane_ finds. */
#define CG_COALESCED_SHFL_DIR_(sfx, T, dir)                                     \
    CG_DEVICE T cg_coalesced_shfl_##dir##_##sfx(const cg_coalesced_group_t *g, T v, uint32_t delta) \
    {                                                                           \
        if (g->_size == 32u)                                                    \
            return __shfl_##dir##_sync(0xffffffffu, v, delta, 32);              \
        return __shfl_sync(g->_mask, v, (int)cg_coalesced_##dir##_lane_(g, delta), 32); \
    }

/* Defines the shuffles, match, reduce and scans of one type over a coalesced
 * group. Why a macro: as CG_TILE_COLLECTIVES_ in cg/collectives.h. */
#define CG_COALESCED_COLLECTIVES_(sfx, T)                                       \
    /* The value of v in group rank src (src < size). */                        \
    CG_DEVICE T cg_coalesced_shfl_##sfx(const cg_coalesced_group_t *g, T v, uint32_t src) \
    {                                                                           \
        return __shfl_sync(g->_mask, v, (int)cg_coalesced_lane_of_(g, src), 32); \
    }                                                                           \
    /* The value of v in rank - delta; ranks below delta get their own. */     \
    CG_COALESCED_SHFL_DIR_(sfx, T, up)                                          \
    /* The value of v in rank + delta; ranks past the end get their own. */    \
    CG_COALESCED_SHFL_DIR_(sfx, T, down)                                        \
    /* Group ranks whose v has the caller's bits. */                            \
    CG_DEVICE uint32_t cg_coalesced_match_any_##sfx(const cg_coalesced_group_t *g, T v) \
    {                                                                           \
        uint32_t m = __match_any_sync(g->_mask, v);                             \
        return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);           \
    }                                                                           \
    /* The group's rank mask if every v has the same bits, else 0; *pred (if   \
     * not NULL) gets 1 or 0 alike. */                                          \
    CG_DEVICE uint32_t cg_coalesced_match_all_##sfx(const cg_coalesced_group_t *g, T v, int *pred) \
    {                                                                           \
        uint32_t m = cg_match_all_##sfx##_(g->_mask, v, pred);                  \
        return g->_size == 32u ? m : cg_coalesced_pack_(g->_mask, m);           \
    }                                                                           \
    /* Inclusive scan of a group of 32 (lanes are ranks): a tile's. */         \
    CG_DEVICE T cg_coalesced_scan_dense_##sfx##_(T v, cg_op_t op)                \
    {                                                                           \
        uint32_t r = cg_sreg_laneid();                                          \
        CG_SCAN_STEPS_(T, sfx, 32u, r, __shfl_up_sync(0xffffffffu, v, i, 32))   \
        return v;                                                               \
    }                                                                           \
    /* Inclusive scan of a smaller group: rank r combines rank r - i's value,  \
     * whose lane fns finds i + 1 set bits down from the caller's. */           \
    CG_DEVICE T cg_coalesced_scan_sparse_##sfx##_(const cg_coalesced_group_t *g, T v, cg_op_t op) \
    {                                                                           \
        uint32_t r = cg_coalesced_thread_rank(g), lane = cg_sreg_laneid();      \
        for (uint32_t i = 1; i < g->_size; i <<= 1) {                           \
            uint32_t src = i <= r ? __fns(g->_mask, lane, -(int)(i + 1u)) : lane; \
            T u = __shfl_sync(g->_mask, v, (int)src, 32);                       \
            if (i <= r)                                                         \
                v = cg_op_##sfx##_(op, v, u);                                   \
        }                                                                       \
        return v;                                                               \
    }                                                                           \
    /* op(v of ranks 0..r) in rank r. */                                        \
    CG_DEVICE T cg_coalesced_inclusive_scan_##sfx(const cg_coalesced_group_t *g, T v, cg_op_t op) \
    {                                                                           \
        if (g->_size == 32u)                                                    \
            return cg_coalesced_scan_dense_##sfx##_(v, op);                     \
        return cg_coalesced_scan_sparse_##sfx##_(g, v, op);                     \
    }                                                                           \
    /* op(v of ranks 0..r-1) in rank r; 0 in rank 0. */                         \
    CG_EXCLUSIVE_SCAN_(sfx, T, cg_coalesced_group_t, cg_coalesced_exclusive_scan_##sfx, \
                       cg_coalesced_inclusive_scan_##sfx, cg_coalesced_shfl_up_##sfx, \
                       cg_coalesced_thread_rank)                                \
    /* op over every thread of the group, in every thread. */                   \
    CG_DEVICE T cg_coalesced_reduce_##sfx(const cg_coalesced_group_t *g, T v, cg_op_t op) \
    {                                                                           \
        if (CG_REDUX_##sfx##_)                                                  \
            return cg_redux_##sfx##_(g->_mask, v, op);                          \
        if (g->_size == 32u) {                                                  \
            for (uint32_t o = 16u; o; o >>= 1)                                  \
                v = cg_op_##sfx##_(op, v, __shfl_xor_sync(0xffffffffu, v, (int)o, 32)); \
            return v;                                                           \
        }                                                                       \
        T s = cg_coalesced_scan_sparse_##sfx##_(g, v, op);                      \
        return __shfl_sync(g->_mask, s, 31 - __clz((int)g->_mask), 32);         \
    }

CG_COALESCED_COLLECTIVES_(i32, int32_t)
CG_COALESCED_COLLECTIVES_(u32, uint32_t)
CG_COALESCED_COLLECTIVES_(i64, int64_t)
CG_COALESCED_COLLECTIVES_(u64, uint64_t)
CG_COALESCED_COLLECTIVES_(f32, float)
CG_COALESCED_COLLECTIVES_(f64, double)

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
