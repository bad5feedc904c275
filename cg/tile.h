/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/tile.h — warp tiles: a block split into tiles of n threads, n a power of
 * two in 1..32 (C++ CG's tiled_partition / thread_block_tile<n>).
 *
 *   cg_thread_block_t b = cg_this_thread_block();
 *   cg_tile_t t = cg_tiled_partition(&b, 8);
 *   int s = cg_reduce(&t, v, CG_OP_PLUS);          (cg/generic.h)
 *   float x = cg_tile_shfl_down_f32(&t, y, 1);     (cg/collectives.h)
 *
 * Tile i holds the threads of block ranks [i*n, (i+1)*n): a tile never spans
 * two warps. When n is a constant at the call, everything below folds to the
 * plain warp intrinsics with a constant mask. In a block whose thread count is
 * not a multiple of 32 the last warp is partial: a tile's mask then holds only
 * the threads that exist, so sync, votes and the int reductions stay correct
 * there (num_threads stays n, as in C++ CG). Shuffles that name a missing lane
 * and the float reductions of such a tile read undefined values: keep the
 * block size a multiple of n when a partial tile shuffles.
 *
 * C has no overloads: the typed shuffles and reductions carry the value type
 * in the name (_i32, _u32, _i64, _u64, _f32, _f64; cg/collectives.h, written
 * from cg/collectives.tbl). The older _int, _uint and _float names below are
 * deprecated: a use warns and names the call to use instead.
 */
#ifndef CG_CG_TILE_H
#define CG_CG_TILE_H

#include "../base/config.h"
#include "../base/warp.h"
#include "group_header.h"
#include "thread_block.h"

/* A warp tile. Build it with cg_tiled_partition(); pass it by pointer. */
typedef struct cg_tile {
    cg_group_header_t _hdr;
    uint32_t _size; /* n: 1, 2, 4, 8, 16 or 32 */
    uint32_t _mask; /* lanes of this tile in the warp */
    uint32_t _meta_rank; /* this tile's index in the block */
    uint32_t _meta_count; /* tiles in the block */
} cg_tile_t;

#if CG_DEVICE_CODE_VISIBLE

#if CG_DEBUG
/* A tile size that is not a power of two in 1..32 (out of line: base/config.h,
 * CG_REPORT_). */
CG_REPORT_ void cg_tile_report_n_(const char *what, uint32_t n)
{
    printf("cgc: %s(n = %u): n must be a power of two in 1..32\n", what, n);
    __trap();
}
#endif

/* A debug build traps on a tile size n that is not a power of two in 1..32,
 * naming the call `what` (internal). A release build has nothing, not even
 * the string. */
#if CG_DEBUG
#define CG_TILE_CHECK_N_(what, n)                                                                  \
    if (CG_UNLIKELY_(n == 0 || n > 32 || (n & (n - 1)) != 0))                                      \
        cg_tile_report_n_(what, n);                                                                \
    else                                                                                           \
        (void)0
#else
#define CG_TILE_CHECK_N_(what, n) ((void)0)
#endif

/* Split the block into tiles of n threads (n a power of two, 1..32) and return
 * the caller's. Not collective and touches no memory. A debug build traps on
 * any other n. */
CG_DEVICE cg_tile_t cg_tiled_partition(const cg_thread_block_t *b, uint32_t n)
{
    cg_tile_t t;
    CG_TILE_CHECK_N_("cg_tiled_partition", n);
    uint32_t rank = cg_thread_block_thread_rank(b);
    uint32_t nthreads = cg_thread_block_num_threads(b);
    uint32_t lane = rank & 31u;
    uint32_t base = lane & ~(n - 1u);
    uint32_t mask = (n == 32u ? 0xffffffffu : ((1u << n) - 1u)) << base;
    /* Lanes past the end of a partial last warp do not exist. */
    uint32_t warp_left = nthreads - (rank & ~31u);
    if (warp_left < 32u)
        mask &= (1u << warp_left) - 1u;
    t._hdr.kind = CG_GROUP_TILE;
    t._size = n;
    t._mask = mask;
    t._meta_rank = rank / n;
    t._meta_count = (nthreads + n - 1u) / n;
    return t;
}

/* Threads in the tile (n). */
CG_DEVICE uint32_t cg_tile_num_threads(const cg_tile_t *t) { return t->_size; }

/* Threads of the tile that exist: n, except in the partial last warp of a
 * block whose size is not a multiple of 32, where only tile ranks
 * 0 .. cg_tile_num_present - 1 exist. Work split among the tile's threads
 * (group copies, pushes) divides by this, not by n. */
CG_DEVICE uint32_t cg_tile_num_present(const cg_tile_t *t) { return (uint32_t)__popc(t->_mask); }

/* The calling thread's rank in its tile, 0..n-1. */
CG_DEVICE uint32_t cg_tile_thread_rank(const cg_tile_t *t)
{
    return CG_BLOCK_LINEAR_RANK_() & (t->_size - 1u);
}

/* This tile's index among the block's tiles, and how many there are. */
CG_DEVICE uint32_t cg_tile_meta_group_rank(const cg_tile_t *t) { return t->_meta_rank; }
CG_DEVICE uint32_t cg_tile_meta_group_size(const cg_tile_t *t) { return t->_meta_count; }

/* C++ CG's size(): n, as cg_tile_num_threads. */
CG_DEVICE uint32_t cg_tile_size(const cg_tile_t *t) { return t->_size; }

/* The calling thread alone, as a tile of 1 (C++ CG's this_thread()): rank 0
 * of 1, meta rank 0 of 1 (as C++ CG, whose this_thread() has a tile of 1 for
 * parent). Not collective; touches no memory. */
CG_DEVICE cg_tile_t cg_this_thread(void)
{
    cg_tile_t t;
    t._hdr.kind = CG_GROUP_TILE;
    t._size = 1u;
    t._mask = 1u << CG_BLOCK_LINEAR_LANE_();
    t._meta_rank = 0u;
    t._meta_count = 1u;
    return t;
}

/* Split tile t into tiles of n threads (n a power of two below t's size) and
 * return the caller's (C++ CG's tiled_partition<n>(t)): the same threads as
 * cg_tiled_partition(&block, n), but meta rank = rank in t / n and meta size
 * = t's size / n, as C++ CG counts them for a tile parent. n at least t's
 * size returns t itself (C++ CG rejects it at compile time). Not
 * collective; touches no memory. A debug build traps on an n that is not a
 * power of two in 1..32. */
CG_DEVICE cg_tile_t cg_tile_tiled_partition(const cg_tile_t *t, uint32_t n)
{
    CG_TILE_CHECK_N_("cg_tile_tiled_partition", n);
    if (n >= t->_size)
        return *t;
    cg_tile_t s;
    uint32_t r = cg_tile_thread_rank(t);
    uint32_t lane = CG_BLOCK_LINEAR_LANE_();
    s._hdr.kind = CG_GROUP_TILE;
    s._size = n;
    s._mask = (((1u << n) - 1u) << (lane & ~(n - 1u))) & t->_mask; /* n < 32 here */
    s._meta_rank = r / n;
    s._meta_count = t->_size / n;
    return s;
}

/* A constant tile size that is not a power of two in 1..32 is a compile
 * error at the caller's line: cg_tiled_partition(&b, 48) does not build
 * (C++ CG's tiled_partition<48> does not either); a size known only at run
 * time is checked by a debug build, as above. How: CG_TILE_N_CHECK_(n) asks
 * for the size of cg_tile_n_check_'s result on char[2] (a constant bad n)
 * or char[1] (any other); the first is declared with an incomplete return
 * type whose name is the message. It emits nothing and evaluates nothing
 * (n is an operand of sizeof and __builtin_constant_p only). Internal. */
CG_GROUP_CATCH_ALLS_BEGIN_
struct cg_tiled_partition_n_must_be_a_power_of_two_in_1_to_32;
static __device__ struct cg_tiled_partition_n_must_be_a_power_of_two_in_1_to_32 cg_tile_n_check_(char (*)[2]);
static __device__ char cg_tile_n_check_(char (*)[1]);
/* The same for a wide tile's n (64..1024; cg/generic.h applies it). */
struct cg_wide_tiled_partition_n_must_be_a_power_of_two_in_64_to_1024;
static __device__ struct cg_wide_tiled_partition_n_must_be_a_power_of_two_in_64_to_1024 cg_wide_tile_n_check_(char (*)[2]);
static __device__ char cg_wide_tile_n_check_(char (*)[1]);
CG_GROUP_CATCH_ALLS_END_
#if defined(__CUDACC_RTC__) /* NVRTC has no __builtin_constant_p: the debug build's run-time report only */
#define CG_TILE_N_IS_CONSTANT_BAD_(n) 0
#else
#define CG_TILE_N_IS_CONSTANT_BAD_(n)                                                              \
    (__builtin_constant_p(n) && ((n) == 0 || (n) > 32 || ((n) & ((n)-1)) != 0))
#endif
#define CG_TILE_N_CHECK_(n) ((void)sizeof(cg_tile_n_check_((char(*)[1 + CG_TILE_N_IS_CONSTANT_BAD_(n)])0)))
#if defined(__CUDACC_RTC__)
#define CG_WIDE_TILE_N_IS_CONSTANT_BAD_(n) 0
#else
#define CG_WIDE_TILE_N_IS_CONSTANT_BAD_(n)                                                         \
    (__builtin_constant_p(n) && ((n) < 64 || (n) > 1024 || ((n) & ((n)-1)) != 0))
#endif
#define CG_WIDE_TILE_N_CHECK_(n)                                                                   \
    ((void)sizeof(cg_wide_tile_n_check_((char(*)[1 + CG_WIDE_TILE_N_IS_CONSTANT_BAD_(n)])0)))

/* The constructors as macros of the same name that check a constant n first
 * (the functions above stay callable through a pointer). */
#define cg_tiled_partition(b, n) (CG_TILE_N_CHECK_(n), cg_tiled_partition((b), (n)))
#define cg_tile_tiled_partition(t, n) (CG_TILE_N_CHECK_(n), cg_tile_tiled_partition((t), (n)))

/* Defines the calls of a group of lanes of one warp (`type` has _mask: a tile,
 * a coalesced group), named by the arguments (internal):
 *   mask          the group's lanes in the warp (for the raw *_sync
 *                 intrinsics);
 *   sync          __syncwarp(mask): the group's threads meet; orders their
 *                 memory accesses;
 *   barrier_arrive, barrier_wait: no split barrier in hardware; for the
 *                 generic calls the arrive is a __syncwarp over the group
 *                 (every thread has arrived when it returns, with memory
 *                 ordered) and the wait does nothing. */
#define CG_WARP_GROUP_SYNC_CALLS_(type, mask, sync, barrier_arrive, barrier_wait)                  \
    CG_DEVICE uint32_t mask(const type *g) { return g->_mask; }                                    \
    CG_DEVICE void sync(const type *g) { __syncwarp(g->_mask); }                                         \
    CG_DEVICE cg_token_t barrier_arrive(const type *g)                                                   \
    {                                                                                              \
        __syncwarp(g->_mask);                                                                      \
        return cg_token_none_();                                                                   \
    }                                                                                              \
    CG_DEVICE void barrier_wait(const type *g, cg_token_t tok)                                           \
    {                                                                                              \
        (void)g;                                                                                   \
        (void)tok;                                                                                 \
    }

/* cg_tile_mask, cg_tile_sync, cg_tile_barrier_arrive, cg_tile_barrier_wait:
 * see CG_WARP_GROUP_SYNC_CALLS_. */
CG_WARP_GROUP_SYNC_CALLS_(cg_tile_t, cg_tile_mask, cg_tile_sync, cg_tile_barrier_arrive, cg_tile_barrier_wait)

/* ------------------------------------------------------------------------- */
/* Shuffles (src/delta/lane mask are relative to the tile)                   */
/* ------------------------------------------------------------------------- */

/* The 12 shuffles of int, unsigned and float by their older names, kept for
 * code written against them and deprecated: a use compiles with a warning
 * that names the fixed-width call to use instead (cg/collectives.h; the
 * generic cg_shfl, cg_shfl_down, ... pick it from the value's type). They
 * will go in a later release (docs/PORTING.md, "Old names"). The macro
 * stamps the four of one type T; each line below it spells out their names. */
#define CG_TILE_SHFL_OLD_(T, sh, dn, up, xr, now)                                                           \
    CG_DEPRECATED_(#sh " is deprecated: use cg_tile_shfl_" #now " (or cg_shfl)")                            \
    CG_DEVICE T sh(const cg_tile_t *t, T v, uint32_t src) { return __shfl_sync(t->_mask, v, (int)src, (int)t->_size); } \
    CG_DEPRECATED_(#dn " is deprecated: use cg_tile_shfl_down_" #now " (or cg_shfl_down)")                  \
    CG_DEVICE T dn(const cg_tile_t *t, T v, uint32_t delta) { return __shfl_down_sync(t->_mask, v, delta, (int)t->_size); } \
    CG_DEPRECATED_(#up " is deprecated: use cg_tile_shfl_up_" #now " (or cg_shfl_up)")                      \
    CG_DEVICE T up(const cg_tile_t *t, T v, uint32_t delta) { return __shfl_up_sync(t->_mask, v, delta, (int)t->_size); } \
    CG_DEPRECATED_(#xr " is deprecated: use cg_tile_shfl_xor_" #now " (or cg_shfl_xor)")                    \
    CG_DEVICE T xr(const cg_tile_t *t, T v, uint32_t lane_mask)                                             \
    {                                                                                                       \
        return __shfl_xor_sync(t->_mask, v, (int)lane_mask, (int)t->_size);                                 \
    }
/* Deprecated (cg_tile_shfl_i32 and its down/up/xor forms replace them):
 * an int `v` of tile rank `src` (modulo n); of rank + delta or
 * rank - delta (out of the tile: the caller's own `v`); of rank ^ lane_mask. */
CG_TILE_SHFL_OLD_(int, cg_tile_shfl_int, cg_tile_shfl_down_int, cg_tile_shfl_up_int, cg_tile_shfl_xor_int, i32)
/* Deprecated (cg_tile_shfl_u32 and its down/up/xor forms replace them):
 * an unsigned `v` of tile rank `src` (modulo n); of rank + delta or
 * rank - delta (out of the tile: the caller's own `v`); of rank ^ lane_mask. */
CG_TILE_SHFL_OLD_(unsigned, cg_tile_shfl_uint, cg_tile_shfl_down_uint, cg_tile_shfl_up_uint, cg_tile_shfl_xor_uint, u32)
/* Deprecated (cg_tile_shfl_f32 and its down/up/xor forms replace them):
 * a float `v` of tile rank `src` (modulo n); of rank + delta or
 * rank - delta (out of the tile: the caller's own `v`); of rank ^ lane_mask. */
CG_TILE_SHFL_OLD_(float, cg_tile_shfl_float, cg_tile_shfl_down_float, cg_tile_shfl_up_float, cg_tile_shfl_xor_float, f32)

/* ------------------------------------------------------------------------- */
/* Votes                                                                     */
/* ------------------------------------------------------------------------- */

/* Bit r set when `pred` is nonzero in tile rank r (bits 0..n-1). */
CG_DEVICE uint32_t cg_tile_ballot(const cg_tile_t *t, int pred)
{
    uint32_t lane = CG_BLOCK_LINEAR_LANE_();
    uint32_t base = lane & ~(t->_size - 1u);
    return (__ballot_sync(t->_mask, pred) & t->_mask) >> base;
}

/* Nonzero when `pred` is nonzero in any / every thread of the tile. */
CG_DEVICE int cg_tile_any(const cg_tile_t *t, int pred) { return __any_sync(t->_mask, pred); }
CG_DEVICE int cg_tile_all(const cg_tile_t *t, int pred) { return __all_sync(t->_mask, pred); }

/* ------------------------------------------------------------------------- */
/* Reductions: every thread of the tile gets the result                      */
/*                                                                           */
/* int: redux.sync over the tile mask (one instruction, sm_80+). float: a     */
/* butterfly of log2(n) shfl.bfly steps (sm_90 has no float redux).          */
/* ------------------------------------------------------------------------- */

/* The six reductions of int and float by their older names, kept for code
 * written against them and deprecated: a use compiles with a warning that
 * names cg_tile_reduce_i32 / cg_tile_reduce_f32 and the operator
 * (cg/collectives.h; or the generic cg_reduce). Every name is spelled out
 * below, where its line stamps it. */
/* A deprecated reduction `name` of T: a butterfly of log2(n) shfl.bfly
 * steps, each step's value v and its partner's w combined by `step`; the
 * warning names cg_tile_reduce_<now>(t, v, CG_OP_<OP>). */
#define CG_TILE_REDUCE_OLD_(T, name, now, OP, step)                                                          \
    CG_DEPRECATED_(#name " is deprecated: use cg_tile_reduce_" #now "(t, v, CG_OP_" #OP ") (or cg_reduce)") \
    CG_DEVICE T name(const cg_tile_t *t, T v)                                                                \
    {                                                                                                        \
        for (uint32_t o = t->_size >> 1; o; o >>= 1) {                                                       \
            T w = __shfl_xor_sync(t->_mask, v, (int)o, (int)t->_size);                                      \
            v = step;                                                                                        \
        }                                                                                                    \
        return v;                                                                                            \
    }
#if CG_ARCH_HAS_SM80
/* redux.sync over the tile mask (one instruction, sm_80+). */
CG_DEPRECATED_("cg_tile_reduce_sum_int is deprecated: use cg_tile_reduce_i32(t, v, CG_OP_PLUS) (or cg_reduce)")
CG_DEVICE int cg_tile_reduce_sum_int(const cg_tile_t *t, int v) { return (int)__reduce_add_sync(t->_mask, (unsigned)v); }
CG_DEPRECATED_("cg_tile_reduce_min_int is deprecated: use cg_tile_reduce_i32(t, v, CG_OP_LESS) (or cg_reduce)")
CG_DEVICE int cg_tile_reduce_min_int(const cg_tile_t *t, int v) { return __reduce_min_sync(t->_mask, v); }
CG_DEPRECATED_("cg_tile_reduce_max_int is deprecated: use cg_tile_reduce_i32(t, v, CG_OP_GREATER) (or cg_reduce)")
CG_DEVICE int cg_tile_reduce_max_int(const cg_tile_t *t, int v) { return __reduce_max_sync(t->_mask, v); }
#else
/* The butterfly (no redux before sm_80). */
CG_TILE_REDUCE_OLD_(int, cg_tile_reduce_sum_int, i32, PLUS, v + w)
CG_TILE_REDUCE_OLD_(int, cg_tile_reduce_min_int, i32, LESS, w < v ? w : v)
CG_TILE_REDUCE_OLD_(int, cg_tile_reduce_max_int, i32, GREATER, w > v ? w : v)
#endif

/* Float sums are formed in butterfly order, so every thread gets the same
 * bits; the order differs from a sequential sum (usual float rounding). min
 * and max use fminf/fmaxf: not the same bits as CG_OP_LESS / CG_OP_GREATER
 * for NaN and for +0 vs -0 (docs/PORTING.md, "Old names"). */
CG_TILE_REDUCE_OLD_(float, cg_tile_reduce_sum_float, f32, PLUS, v + w)
CG_TILE_REDUCE_OLD_(float, cg_tile_reduce_min_float, f32, LESS, fminf(v, w))
CG_TILE_REDUCE_OLD_(float, cg_tile_reduce_max_float, f32, GREATER, fmaxf(v, w))

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_TILE_H */
