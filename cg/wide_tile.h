/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/wide_tile.h — tiles wider than a warp: a block split into tiles of n
 * threads, n a power of two in 64..1024 (C++ CG's thread_block_tile<n> for
 * n > 32, from tiled_partition<n>(block)).
 *
 *   cg_thread_block_t b = cg_this_thread_block();
 *   cg_wide_tile_t wt = cg_wide_tiled_partition(&b, 128);
 *   cg_wide_tile_sync(&wt);                                 (one barrier.sync)
 *   double s = cg_wide_tile_reduce_f64(&wt, x, CG_OP_PLUS);
 *   uint32_t o = cg_wide_tile_exclusive_scan_u32(&wt, k, CG_OP_PLUS);
 *
 * Tile i holds the block ranks [i*n, (i+1)*n): whole warps. The block's
 * thread count must be a multiple of n (C++ CG requires the parent's size to
 * be divisible by the tile size; a debug build traps otherwise).
 *
 * Sync: each tile owns one hardware named barrier, `barrier.sync id, n`
 * (non-aligned: lanes of a diverged warp may arrive separately). It orders
 * the memory accesses of the tile's threads (CTA scope): writes before it
 * are visible to every tile thread after it. Ids, by a heap layout that
 * keeps tiles of DIFFERENT sizes apart too (a 64-tile and the 128-tile
 * holding it may be used at the same time, as in C++ CG):
 *     id = CG_WIDE_TILE_BARRIER_BASE + (c - 1) + meta_group_rank,
 *     c  = tiles in the block (meta_group_size).
 * Tiles of c per block take ids BASE+c-1 .. BASE+2c-2; every id must be at
 * most 15 (16 named barriers per CTA on sm_70..sm_90), so with the default
 * BASE 1 (id 0 is __syncthreads') a block may hold up to 8 tiles: every n in
 * blocks of up to 8n threads, i.e. everything except n = 64 in blocks of more
 * than 512 threads. A debug build traps on a tile whose id would pass 15;
 * a release build's barrier there is undefined. Define
 * CG_WIDE_TILE_BARRIER_BASE (before including cgc) to move the range: ids
 * below it stay the user's (CUTLASS takes ids from 1 up for its own barriers
 * and maps its users' NamedBarrier ids to 8..15: a kernel mixing the two
 * needs its other code's ids below BASE).
 * docs/design/wide_tile.md says why named barriers and not an mbarrier.
 *
 * cg_wide_tiled_partition is NOT collective and touches no memory (C++ CG's
 * tiled_partition<n> syncs the whole block); any thread may build its tile
 * at any time.
 *
 * Collectives (reduce, scans, any, all, shfl) combine within each warp with
 * shuffles, then across the tile's warps through shared scratch that cgc
 * declares itself: one 8-byte slot per warp of the block (256 bytes), a
 * function-scope __shared__ array, so only kernels that call a wide
 * collective allocate it. Every thread of the tile must call the same
 * collective (as in C++ CG). Each costs two tile barriers: one after the
 * slots are written, one after they are read (so the next collective, of
 * this tile or of a tile of another size over the same warps, cannot
 * overwrite a slot still being read).
 *
 * Results are C++ CG's bit for bit, same order of combination:
 *   reduce   each warp: redux.sync for 32-bit integers (sm_80+), else the
 *            butterfly op(v, shfl_xor(v, o)), o = 16..1; then the W = n/32
 *            warp totals t_0..t_{W-1}: a butterfly over W lanes, op(x,
 *            shfl_xor(x, o)), o = W/2..1, and the threads of warp w get that
 *            butterfly's lane-w result (C++ CG: the last warp to arrive runs
 *            it in its lanes 0..W-1, lane w writes warp w's slot).
 *   scans    each warp: Hillis-Steele inclusive scan (op(v, shfl_up(v, i)));
 *            warp totals: Hillis-Steele over W lanes, made exclusive (integer
 *            plus: minus own total; else the lower lane's, 0 in lane 0);
 *            a thread of warp w > 0 gets op(own warp scan, prefix of warps
 *            0..w-1); exclusive: own warp's lower-lane inclusive value, and
 *            lane 0 of each warp gets the prefix alone (0 in warp 0).
 * Ties C++ CG leaves unspecified: in a reduce its warps store the warp total
 * from every lane to one slot, so where lanes hold different bits (min/max
 * over +0 and -0, NaN operands) the stored value is whichever store lands;
 * cgc stores lane 0's. Results agree whenever the lanes agree (integers;
 * floats without NaN or a +0/-0 tie). Scans store lane 31's in both.
 *
 * Bit operators on _f32/_f64 are a contract violation as in cg/collectives.h.
 * Wide tiles have no match_any/match_all, ballot, shfl_up/down/xor (C++ CG
 * has none for tiles over 32 threads). cg_wide_tile_shfl_* is a BROADCAST:
 * every thread of the tile passes the same src and gets the value of the
 * thread of rank src, as C++ CG's thread_block_tile<N > 32>::shfl (which
 * also has every warp read the source warp's one scratch slot). Only the
 * thread whose rank is src writes the slot, so a thread passing another src
 * would read a slot nobody wrote this round (a general shuffle would need a
 * slot per thread). A debug build checks that the tile agrees on src and
 * traps with a message otherwise. src is taken modulo n (C++ CG's src >= n is
 * undefined: it waits for a warp outside the tile).
 */
#ifndef CG_CG_WIDE_TILE_H
#define CG_CG_WIDE_TILE_H

#include "../base/config.h"
#include "../base/warp.h"
#include "../base/sreg.h"
#include "../barrier/block_sync.h"
#include "collectives.h"
#include "group_header.h"
#include "thread_block.h"

/* This header's calls exist (the benchmark keys a row on it). */
#define CG_HAS_WIDE_TILE 1

/* The lowest named-barrier id cgc's wide tiles use (1..15; 0 is
 * __syncthreads'). Override before including cgc to leave ids to other code. */
#ifndef CG_WIDE_TILE_BARRIER_BASE
#define CG_WIDE_TILE_BARRIER_BASE 1
#endif
/* 1: the tile's sync is the aligned barrier.sync.aligned id, n (bar.sync:
 * every thread of a warp must execute the same sync together, converged,
 * as __syncthreads requires); 0 (default): the non-aligned barrier.sync id,
 * n, which lanes of a diverged warp may reach separately (the contract
 * above). Not a supported mode: measured once against the aligned PTX
 * floor (H200, issue 33: 1.004 / 1.028 at 128 / 256 threads, where the
 * default is 1.005 / 1.002 of the non-aligned floor; docs/design/wide_tile.md)
 * and kept only so that measurement can be repeated. */
#ifndef CG_WIDE_TILE_SYNC_ALIGNED
#define CG_WIDE_TILE_SYNC_ALIGNED 0
#endif
/* The highest named-barrier id (16 per CTA on sm_70..sm_90). */
#define CG_WIDE_TILE_BARRIER_LAST 15

/* A tile of 64..1024 threads. Build it with cg_wide_tiled_partition(); pass
 * it by pointer. */
typedef struct cg_wide_tile {
    cg_group_header_t _hdr;
    uint32_t _size; /* n: 64, 128, 256, 512 or 1024 */
    uint32_t _bar; /* its named barrier id */
    uint32_t _meta_rank; /* this tile's index in the block */
    uint32_t _meta_count; /* tiles in the block */
} cg_wide_tile_t;

#if CG_DEVICE_CODE_VISIBLE

/* ------------------------------------------------------------------------- */
/* Construction and queries                                                  */
/* ------------------------------------------------------------------------- */

#if CG_DEBUG
/* The debug reports, out of line (base/config.h, CG_REPORT_). */
CG_REPORT_ void cg_wide_tile_report_partition_(uint32_t n, uint32_t nthreads)
{
    if (n < 64u || n > 1024u || (n & (n - 1u)) != 0)
        printf("cgc: cg_wide_tiled_partition(n = %u): n must be a power of two in 64..1024 "
               "(1..32: cg_tiled_partition)\n",
               n);
    else if (nthreads % n != 0)
        printf("cgc: cg_wide_tiled_partition(n = %u): the block's %u threads are not a multiple of n\n", n, nthreads);
    else
        printf("cgc: cg_wide_tiled_partition(n = %u): %u tiles per block need named barriers %u..%u, past 15 "
               "(CG_WIDE_TILE_BARRIER_BASE = %u); use fewer, larger tiles or a lower base\n",
               n, nthreads / n, CG_WIDE_TILE_BARRIER_BASE + nthreads / n - 1u,
               CG_WIDE_TILE_BARRIER_BASE + 2u * (nthreads / n) - 2u, (unsigned)CG_WIDE_TILE_BARRIER_BASE);
    __trap();
}

CG_REPORT_ void cg_wide_tile_report_shfl_src_(uint32_t src, uint32_t other, uint32_t n)
{
    printf("cgc: cg_wide_tile_shfl (tile of %u threads): thread rank %u passed src %u, another thread of the tile "
           "src %u: a wide tile's shfl is a broadcast, every thread must pass the same src "
           "(block %d,%d,%d thread %d,%d,%d)\n",
           n, CG_BLOCK_LINEAR_RANK_() & (n - 1u), src, other, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x,
           threadIdx.y, threadIdx.z);
    __trap();
}
#endif

/* Split the block into tiles of n threads (n a power of two, 64..1024; the
 * block's thread count a multiple of n) and return the caller's. Not
 * collective, touches no memory. A debug build traps on a bad n, a block
 * size that n does not divide, or a barrier id past 15 (see the top). */
CG_DEVICE cg_wide_tile_t cg_wide_tiled_partition(const cg_thread_block_t *b, uint32_t n)
{
    cg_wide_tile_t t;
    uint32_t rank = cg_thread_block_thread_rank(b);
    uint32_t nthreads = cg_thread_block_num_threads(b);
#if CG_DEBUG
    if (CG_UNLIKELY_(n < 64u || n > 1024u || (n & (n - 1u)) != 0 || nthreads % n != 0 ||
                     CG_WIDE_TILE_BARRIER_BASE + 2u * (nthreads / n) - 2u > CG_WIDE_TILE_BARRIER_LAST))
        cg_wide_tile_report_partition_(n, nthreads);
#endif
    t._hdr.kind = CG_GROUP_WIDE_TILE;
    t._size = n;
    t._meta_rank = rank / n;
    t._meta_count = nthreads / n;
    t._bar = CG_WIDE_TILE_BARRIER_BASE + t._meta_count - 1u + t._meta_rank;
    return t;
}

/* Threads in the tile (n). */
CG_DEVICE uint32_t cg_wide_tile_num_threads(const cg_wide_tile_t *t) { return t->_size; }

/* The calling thread's rank in its tile, 0..n-1 (block rank mod n). */
CG_DEVICE uint32_t cg_wide_tile_thread_rank(const cg_wide_tile_t *t)
{
    return CG_BLOCK_LINEAR_RANK_() & (t->_size - 1u);
}

/* This tile's index among the block's tiles, and how many there are. */
CG_DEVICE uint32_t cg_wide_tile_meta_group_rank(const cg_wide_tile_t *t) { return t->_meta_rank; }
CG_DEVICE uint32_t cg_wide_tile_meta_group_size(const cg_wide_tile_t *t) { return t->_meta_count; }

/* The named barrier id this tile syncs on (for tests and diagnostics). */
CG_DEVICE uint32_t cg_wide_tile_barrier_id(const cg_wide_tile_t *t) { return t->_bar; }

/* Every thread of the tile meets; memory ordered among them (CTA scope). One
 * barrier.sync on the tile's named barrier. */
CG_DEVICE void cg_wide_tile_sync(const cg_wide_tile_t *t)
{
#if CG_WIDE_TILE_SYNC_ALIGNED
    cg_named_barrier_sync_aligned_(t->_bar, t->_size);
#else
    cg_named_barrier_sync_(t->_bar, t->_size);
#endif
}

/* No real split: a named barrier counts a thread once per phase, so arriving
 * early and waiting later would need a second arrival (barrier.arrive does
 * not wait; barrier.sync arrives again). For the generic calls the arrive is
 * the whole sync and the wait does nothing, as for cg_tile_t. */
CG_DEVICE cg_token_t cg_wide_tile_barrier_arrive(const cg_wide_tile_t *t)
{
    cg_wide_tile_sync(t);
    return cg_token_none_();
}
CG_DEVICE void cg_wide_tile_barrier_wait(const cg_wide_tile_t *t, cg_token_t tok)
{
    (void)t;
    (void)tok;
}

/* ------------------------------------------------------------------------- */
/* Scratch and helpers (internal)                                            */
/* ------------------------------------------------------------------------- */

/* One 8-byte slot per warp of the block (32 warps at most). Function-scope
 * __shared__: one array per translation unit, allocated only in kernels that
 * reach it. */
CG_DEVICE uint64_t *cg_wide_tile_scratch_(void)
{
    __shared__ uint64_t slots[32];
    return slots;
}

/* Warps in the tile (W = n / 32). */
CG_DEVICE uint32_t cg_wide_tile_warps_(const cg_wide_tile_t *t) { return t->_size >> 5; }

/* The caller's warp within its tile, 0..W-1. */
CG_DEVICE uint32_t cg_wide_tile_warp_(const cg_wide_tile_t *t) { return cg_wide_tile_thread_rank(t) >> 5; }

/* The scratch slot of the tile's first warp (its first warp in the block). */
CG_DEVICE uint64_t *cg_wide_tile_slots_(const cg_wide_tile_t *t)
{
    uint32_t rank = CG_BLOCK_LINEAR_RANK_();
    return cg_wide_tile_scratch_() + ((rank & ~(t->_size - 1u)) >> 5);
}

/* A value's bits in a slot, and back. */
CG_DEVICE uint64_t cg_wide_bits_i32_(int32_t v) { return (uint64_t)(uint32_t)v; }
CG_DEVICE uint64_t cg_wide_bits_u32_(uint32_t v) { return (uint64_t)v; }
CG_DEVICE uint64_t cg_wide_bits_i64_(int64_t v) { return (uint64_t)v; }
CG_DEVICE uint64_t cg_wide_bits_u64_(uint64_t v) { return v; }
CG_DEVICE uint64_t cg_wide_bits_f32_(float v) { return (uint64_t)__float_as_uint(v); }
CG_DEVICE uint64_t cg_wide_bits_f64_(double v) { return (uint64_t)__double_as_longlong(v); }
CG_DEVICE int32_t cg_wide_from_i32_(uint64_t b) { return (int32_t)(uint32_t)b; }
CG_DEVICE uint32_t cg_wide_from_u32_(uint64_t b) { return (uint32_t)b; }
CG_DEVICE int64_t cg_wide_from_i64_(uint64_t b) { return (int64_t)b; }
CG_DEVICE uint64_t cg_wide_from_u64_(uint64_t b) { return b; }
CG_DEVICE float cg_wide_from_f32_(uint64_t b) { return __uint_as_float((uint32_t)b); }
CG_DEVICE double cg_wide_from_f64_(uint64_t b) { return __longlong_as_double((long long)b); }

/* ------------------------------------------------------------------------- */
/* Votes                                                                     */
/* ------------------------------------------------------------------------- */

/* Defines `name`, a vote over the tile: `vote` (__any_sync or __all_sync) in
 * each warp, each warp's result in its slot, then `vote` over the slots. */
#define CG_WIDE_TILE_VOTE_(name, vote)                                                             \
    CG_DEVICE int name(const cg_wide_tile_t *t, int pred)                                          \
    {                                                                                              \
        uint64_t *s = cg_wide_tile_slots_(t);                                                      \
        uint32_t lane = cg_sreg_laneid();                                                          \
        int w = vote(0xffffffffu, pred);                                                           \
        if (lane == 0u)                                                                            \
            s[cg_wide_tile_warp_(t)] = (uint64_t)(w != 0);                                         \
        cg_wide_tile_sync(t);                                                                      \
        int r = vote(0xffffffffu, s[lane & (cg_wide_tile_warps_(t) - 1u)] != 0u);                  \
        cg_wide_tile_sync(t);                                                                      \
        return r;                                                                                  \
    }

/* 1 when `pred` is nonzero in any thread of the tile, else 0. */
CG_WIDE_TILE_VOTE_(cg_wide_tile_any, __any_sync)

/* 1 when `pred` is nonzero in every thread of the tile, else 0. */
CG_WIDE_TILE_VOTE_(cg_wide_tile_all, __all_sync)

/* ------------------------------------------------------------------------- */
/* Reduce, scans, shfl: every type                                           */
/* ------------------------------------------------------------------------- */

/* Debug build: every thread of the tile passed the same src (modulo n)?
 * Within each warp by a shuffle from lane 0, across the warps through the
 * tile's slots (lane 0 of each warp stores its src, two more tile syncs).
 * Release build: nothing. */
#if CG_DEBUG
CG_DEVICE void cg_wide_tile_check_src_(const cg_wide_tile_t *t, uint64_t *s, uint32_t src)
{
    const uint32_t lane = cg_sreg_laneid();
    uint32_t other = __shfl_sync(0xffffffffu, src, 0);
    if (lane == 0u)
        s[cg_wide_tile_warp_(t)] = src;
    cg_wide_tile_sync(t);
    const uint32_t theirs = (uint32_t)s[lane & (cg_wide_tile_warps_(t) - 1u)];
    cg_wide_tile_sync(t);
    if (theirs != src)
        other = theirs;
    if (CG_UNLIKELY_(other != src))
        cg_wide_tile_report_shfl_src_(src, other, t->_size);
}
#define CG_WIDE_TILE_CHECK_SRC_(t, s, src) cg_wide_tile_check_src_((t), (s), (src))
#else
#define CG_WIDE_TILE_CHECK_SRC_(t, s, src) ((void)0)
#endif

/* Reduce, scans and shfl of every value type, written from cg/collectives.tbl
 * by tools/ptx/gen_collectives.py. The operator helpers cg_op_<sfx>_,
 * cg_unplus_<sfx>_, cg_redux_<sfx>_ and CG_REDUX_/CG_INTEGRAL_<sfx>_ are
 * cg/collectives.h's. */
/* ---- generated by tools/ptx/gen_collectives.py from cg/collectives.tbl [wide_tile]; do not edit ---- */
/* op over the 32 lanes of the caller's warp: C++ CG's warp step. */
CG_DEVICE int32_t cg_wide_warp_reduce_i32_(int32_t v, cg_op_t op)
{
    if (CG_REDUX_i32_) {
        v = cg_redux_i32_(0xffffffffu, v, op);
    } else {
        for (int o = 16; o > 0; o >>= 1)
            v = cg_op_i32_(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

/* Hillis-Steele inclusive scan over the 32 lanes of the caller's warp. */
CG_DEVICE int32_t cg_wide_warp_scan_i32_(int32_t v, cg_op_t op, uint32_t lane)
{
    CG_SCAN_STEPS_(int32_t, i32, 32u, lane, __shfl_up_sync(0xffffffffu, v, i))
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE int32_t cg_wide_tile_reduce_i32(const cg_wide_tile_t *t, int32_t v, cg_op_t op)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    int32_t r = cg_wide_warp_reduce_i32_(v, op);
    if (lane == 0u)
        s[cg_wide_tile_warp_(t)] = cg_wide_bits_i32_(r);
    cg_wide_tile_sync(t);
    /* Each group of nw lanes runs C++ CG's inter-warp butterfly. */
    int32_t x = cg_wide_from_i32_(s[lane & (nw - 1u)]);
    for (uint32_t o = nw >> 1; o; o >>= 1)
        x = cg_op_i32_(op, x, __shfl_xor_sync(0xffffffffu, x, (int)o, (int)nw));
    x = __shfl_sync(0xffffffffu, x, (int)cg_wide_tile_warp_(t));
    cg_wide_tile_sync(t);
    return x;
}

/* The scans' common body; excl selects the exclusive result. */
CG_DEVICE int32_t cg_wide_tile_scan_i32_(const cg_wide_tile_t *t, int32_t v, cg_op_t op, int excl)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint32_t w = cg_wide_tile_warp_(t);
    int32_t ws = cg_wide_warp_scan_i32_(v, op, lane);
    if (lane == 31u)
        s[w] = cg_wide_bits_i32_(ws);
    if (excl)
        ws = __shfl_up_sync(0xffffffffu, ws, 1u);
    cg_wide_tile_sync(t);
    /* Exclusive scan of the warp totals over nw lanes (per group). */
    uint32_t sl = lane & (nw - 1u);
    int32_t x = cg_wide_from_i32_(s[sl]);
    int32_t y = x;
    for (uint32_t i = 1; i < nw; i <<= 1) {
        int32_t u = __shfl_up_sync(0xffffffffu, y, i, (int)nw);
        if (i <= sl)
            y = cg_op_i32_(op, y, u);
    }
    int32_t e;
    if (CG_INTEGRAL_i32_ && op == CG_OP_PLUS) {
        e = cg_unplus_i32_(y, x);
    } else {
        int32_t u = __shfl_up_sync(0xffffffffu, y, 1u, (int)nw);
        e = sl == 0u ? (int32_t)0 : u;
    }
    int32_t prev = __shfl_sync(0xffffffffu, e, (int)w);
    cg_wide_tile_sync(t);
    if (excl && lane == 0u)
        return prev;
    if (w == 0u)
        return ws;
    return cg_op_i32_(op, ws, prev);
}

/* op(v of ranks 0..r) in tile rank r. */
CG_DEVICE int32_t cg_wide_tile_inclusive_scan_i32(const cg_wide_tile_t *t, int32_t v, cg_op_t op)
{
    return cg_wide_tile_scan_i32_(t, v, op, 0);
}

/* op(v of ranks 0..r-1) in tile rank r; 0 in rank 0 (C++ CG: T{}). */
CG_DEVICE int32_t cg_wide_tile_exclusive_scan_i32(const cg_wide_tile_t *t, int32_t v, cg_op_t op)
{
    return cg_wide_tile_scan_i32_(t, v, op, 1);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE int32_t cg_wide_tile_shfl_i32(const cg_wide_tile_t *t, int32_t v, uint32_t src)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    src &= t->_size - 1u;
    if (cg_wide_tile_thread_rank(t) == src)
        s[src >> 5] = cg_wide_bits_i32_(v);
    cg_wide_tile_sync(t);
    int32_t x = cg_wide_from_i32_(s[src >> 5]);
    cg_wide_tile_sync(t);
    CG_WIDE_TILE_CHECK_SRC_(t, s, src);
    return x;
}

/* op over the 32 lanes of the caller's warp: C++ CG's warp step. */
CG_DEVICE uint32_t cg_wide_warp_reduce_u32_(uint32_t v, cg_op_t op)
{
    if (CG_REDUX_u32_) {
        v = cg_redux_u32_(0xffffffffu, v, op);
    } else {
        for (int o = 16; o > 0; o >>= 1)
            v = cg_op_u32_(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

/* Hillis-Steele inclusive scan over the 32 lanes of the caller's warp. */
CG_DEVICE uint32_t cg_wide_warp_scan_u32_(uint32_t v, cg_op_t op, uint32_t lane)
{
    CG_SCAN_STEPS_(uint32_t, u32, 32u, lane, __shfl_up_sync(0xffffffffu, v, i))
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE uint32_t cg_wide_tile_reduce_u32(const cg_wide_tile_t *t, uint32_t v, cg_op_t op)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint32_t r = cg_wide_warp_reduce_u32_(v, op);
    if (lane == 0u)
        s[cg_wide_tile_warp_(t)] = cg_wide_bits_u32_(r);
    cg_wide_tile_sync(t);
    /* Each group of nw lanes runs C++ CG's inter-warp butterfly. */
    uint32_t x = cg_wide_from_u32_(s[lane & (nw - 1u)]);
    for (uint32_t o = nw >> 1; o; o >>= 1)
        x = cg_op_u32_(op, x, __shfl_xor_sync(0xffffffffu, x, (int)o, (int)nw));
    x = __shfl_sync(0xffffffffu, x, (int)cg_wide_tile_warp_(t));
    cg_wide_tile_sync(t);
    return x;
}

/* The scans' common body; excl selects the exclusive result. */
CG_DEVICE uint32_t cg_wide_tile_scan_u32_(const cg_wide_tile_t *t, uint32_t v, cg_op_t op, int excl)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint32_t w = cg_wide_tile_warp_(t);
    uint32_t ws = cg_wide_warp_scan_u32_(v, op, lane);
    if (lane == 31u)
        s[w] = cg_wide_bits_u32_(ws);
    if (excl)
        ws = __shfl_up_sync(0xffffffffu, ws, 1u);
    cg_wide_tile_sync(t);
    /* Exclusive scan of the warp totals over nw lanes (per group). */
    uint32_t sl = lane & (nw - 1u);
    uint32_t x = cg_wide_from_u32_(s[sl]);
    uint32_t y = x;
    for (uint32_t i = 1; i < nw; i <<= 1) {
        uint32_t u = __shfl_up_sync(0xffffffffu, y, i, (int)nw);
        if (i <= sl)
            y = cg_op_u32_(op, y, u);
    }
    uint32_t e;
    if (CG_INTEGRAL_u32_ && op == CG_OP_PLUS) {
        e = cg_unplus_u32_(y, x);
    } else {
        uint32_t u = __shfl_up_sync(0xffffffffu, y, 1u, (int)nw);
        e = sl == 0u ? (uint32_t)0 : u;
    }
    uint32_t prev = __shfl_sync(0xffffffffu, e, (int)w);
    cg_wide_tile_sync(t);
    if (excl && lane == 0u)
        return prev;
    if (w == 0u)
        return ws;
    return cg_op_u32_(op, ws, prev);
}

/* op(v of ranks 0..r) in tile rank r. */
CG_DEVICE uint32_t cg_wide_tile_inclusive_scan_u32(const cg_wide_tile_t *t, uint32_t v, cg_op_t op)
{
    return cg_wide_tile_scan_u32_(t, v, op, 0);
}

/* op(v of ranks 0..r-1) in tile rank r; 0 in rank 0 (C++ CG: T{}). */
CG_DEVICE uint32_t cg_wide_tile_exclusive_scan_u32(const cg_wide_tile_t *t, uint32_t v, cg_op_t op)
{
    return cg_wide_tile_scan_u32_(t, v, op, 1);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE uint32_t cg_wide_tile_shfl_u32(const cg_wide_tile_t *t, uint32_t v, uint32_t src)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    src &= t->_size - 1u;
    if (cg_wide_tile_thread_rank(t) == src)
        s[src >> 5] = cg_wide_bits_u32_(v);
    cg_wide_tile_sync(t);
    uint32_t x = cg_wide_from_u32_(s[src >> 5]);
    cg_wide_tile_sync(t);
    CG_WIDE_TILE_CHECK_SRC_(t, s, src);
    return x;
}

/* op over the 32 lanes of the caller's warp: C++ CG's warp step. */
CG_DEVICE int64_t cg_wide_warp_reduce_i64_(int64_t v, cg_op_t op)
{
    if (CG_REDUX_i64_) {
        v = cg_redux_i64_(0xffffffffu, v, op);
    } else {
        for (int o = 16; o > 0; o >>= 1)
            v = cg_op_i64_(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

/* Hillis-Steele inclusive scan over the 32 lanes of the caller's warp. */
CG_DEVICE int64_t cg_wide_warp_scan_i64_(int64_t v, cg_op_t op, uint32_t lane)
{
    CG_SCAN_STEPS_(int64_t, i64, 32u, lane, __shfl_up_sync(0xffffffffu, v, i))
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE int64_t cg_wide_tile_reduce_i64(const cg_wide_tile_t *t, int64_t v, cg_op_t op)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    int64_t r = cg_wide_warp_reduce_i64_(v, op);
    if (lane == 0u)
        s[cg_wide_tile_warp_(t)] = cg_wide_bits_i64_(r);
    cg_wide_tile_sync(t);
    /* Each group of nw lanes runs C++ CG's inter-warp butterfly. */
    int64_t x = cg_wide_from_i64_(s[lane & (nw - 1u)]);
    for (uint32_t o = nw >> 1; o; o >>= 1)
        x = cg_op_i64_(op, x, __shfl_xor_sync(0xffffffffu, x, (int)o, (int)nw));
    x = __shfl_sync(0xffffffffu, x, (int)cg_wide_tile_warp_(t));
    cg_wide_tile_sync(t);
    return x;
}

/* The scans' common body; excl selects the exclusive result. */
CG_DEVICE int64_t cg_wide_tile_scan_i64_(const cg_wide_tile_t *t, int64_t v, cg_op_t op, int excl)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint32_t w = cg_wide_tile_warp_(t);
    int64_t ws = cg_wide_warp_scan_i64_(v, op, lane);
    if (lane == 31u)
        s[w] = cg_wide_bits_i64_(ws);
    if (excl)
        ws = __shfl_up_sync(0xffffffffu, ws, 1u);
    cg_wide_tile_sync(t);
    /* Exclusive scan of the warp totals over nw lanes (per group). */
    uint32_t sl = lane & (nw - 1u);
    int64_t x = cg_wide_from_i64_(s[sl]);
    int64_t y = x;
    for (uint32_t i = 1; i < nw; i <<= 1) {
        int64_t u = __shfl_up_sync(0xffffffffu, y, i, (int)nw);
        if (i <= sl)
            y = cg_op_i64_(op, y, u);
    }
    int64_t e;
    if (CG_INTEGRAL_i64_ && op == CG_OP_PLUS) {
        e = cg_unplus_i64_(y, x);
    } else {
        int64_t u = __shfl_up_sync(0xffffffffu, y, 1u, (int)nw);
        e = sl == 0u ? (int64_t)0 : u;
    }
    int64_t prev = __shfl_sync(0xffffffffu, e, (int)w);
    cg_wide_tile_sync(t);
    if (excl && lane == 0u)
        return prev;
    if (w == 0u)
        return ws;
    return cg_op_i64_(op, ws, prev);
}

/* op(v of ranks 0..r) in tile rank r. */
CG_DEVICE int64_t cg_wide_tile_inclusive_scan_i64(const cg_wide_tile_t *t, int64_t v, cg_op_t op)
{
    return cg_wide_tile_scan_i64_(t, v, op, 0);
}

/* op(v of ranks 0..r-1) in tile rank r; 0 in rank 0 (C++ CG: T{}). */
CG_DEVICE int64_t cg_wide_tile_exclusive_scan_i64(const cg_wide_tile_t *t, int64_t v, cg_op_t op)
{
    return cg_wide_tile_scan_i64_(t, v, op, 1);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE int64_t cg_wide_tile_shfl_i64(const cg_wide_tile_t *t, int64_t v, uint32_t src)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    src &= t->_size - 1u;
    if (cg_wide_tile_thread_rank(t) == src)
        s[src >> 5] = cg_wide_bits_i64_(v);
    cg_wide_tile_sync(t);
    int64_t x = cg_wide_from_i64_(s[src >> 5]);
    cg_wide_tile_sync(t);
    CG_WIDE_TILE_CHECK_SRC_(t, s, src);
    return x;
}

/* op over the 32 lanes of the caller's warp: C++ CG's warp step. */
CG_DEVICE uint64_t cg_wide_warp_reduce_u64_(uint64_t v, cg_op_t op)
{
    if (CG_REDUX_u64_) {
        v = cg_redux_u64_(0xffffffffu, v, op);
    } else {
        for (int o = 16; o > 0; o >>= 1)
            v = cg_op_u64_(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

/* Hillis-Steele inclusive scan over the 32 lanes of the caller's warp. */
CG_DEVICE uint64_t cg_wide_warp_scan_u64_(uint64_t v, cg_op_t op, uint32_t lane)
{
    CG_SCAN_STEPS_(uint64_t, u64, 32u, lane, __shfl_up_sync(0xffffffffu, v, i))
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE uint64_t cg_wide_tile_reduce_u64(const cg_wide_tile_t *t, uint64_t v, cg_op_t op)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint64_t r = cg_wide_warp_reduce_u64_(v, op);
    if (lane == 0u)
        s[cg_wide_tile_warp_(t)] = cg_wide_bits_u64_(r);
    cg_wide_tile_sync(t);
    /* Each group of nw lanes runs C++ CG's inter-warp butterfly. */
    uint64_t x = cg_wide_from_u64_(s[lane & (nw - 1u)]);
    for (uint32_t o = nw >> 1; o; o >>= 1)
        x = cg_op_u64_(op, x, __shfl_xor_sync(0xffffffffu, x, (int)o, (int)nw));
    x = __shfl_sync(0xffffffffu, x, (int)cg_wide_tile_warp_(t));
    cg_wide_tile_sync(t);
    return x;
}

/* The scans' common body; excl selects the exclusive result. */
CG_DEVICE uint64_t cg_wide_tile_scan_u64_(const cg_wide_tile_t *t, uint64_t v, cg_op_t op, int excl)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint32_t w = cg_wide_tile_warp_(t);
    uint64_t ws = cg_wide_warp_scan_u64_(v, op, lane);
    if (lane == 31u)
        s[w] = cg_wide_bits_u64_(ws);
    if (excl)
        ws = __shfl_up_sync(0xffffffffu, ws, 1u);
    cg_wide_tile_sync(t);
    /* Exclusive scan of the warp totals over nw lanes (per group). */
    uint32_t sl = lane & (nw - 1u);
    uint64_t x = cg_wide_from_u64_(s[sl]);
    uint64_t y = x;
    for (uint32_t i = 1; i < nw; i <<= 1) {
        uint64_t u = __shfl_up_sync(0xffffffffu, y, i, (int)nw);
        if (i <= sl)
            y = cg_op_u64_(op, y, u);
    }
    uint64_t e;
    if (CG_INTEGRAL_u64_ && op == CG_OP_PLUS) {
        e = cg_unplus_u64_(y, x);
    } else {
        uint64_t u = __shfl_up_sync(0xffffffffu, y, 1u, (int)nw);
        e = sl == 0u ? (uint64_t)0 : u;
    }
    uint64_t prev = __shfl_sync(0xffffffffu, e, (int)w);
    cg_wide_tile_sync(t);
    if (excl && lane == 0u)
        return prev;
    if (w == 0u)
        return ws;
    return cg_op_u64_(op, ws, prev);
}

/* op(v of ranks 0..r) in tile rank r. */
CG_DEVICE uint64_t cg_wide_tile_inclusive_scan_u64(const cg_wide_tile_t *t, uint64_t v, cg_op_t op)
{
    return cg_wide_tile_scan_u64_(t, v, op, 0);
}

/* op(v of ranks 0..r-1) in tile rank r; 0 in rank 0 (C++ CG: T{}). */
CG_DEVICE uint64_t cg_wide_tile_exclusive_scan_u64(const cg_wide_tile_t *t, uint64_t v, cg_op_t op)
{
    return cg_wide_tile_scan_u64_(t, v, op, 1);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE uint64_t cg_wide_tile_shfl_u64(const cg_wide_tile_t *t, uint64_t v, uint32_t src)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    src &= t->_size - 1u;
    if (cg_wide_tile_thread_rank(t) == src)
        s[src >> 5] = cg_wide_bits_u64_(v);
    cg_wide_tile_sync(t);
    uint64_t x = cg_wide_from_u64_(s[src >> 5]);
    cg_wide_tile_sync(t);
    CG_WIDE_TILE_CHECK_SRC_(t, s, src);
    return x;
}

/* op over the 32 lanes of the caller's warp: C++ CG's warp step. */
CG_DEVICE float cg_wide_warp_reduce_f32_(float v, cg_op_t op)
{
    if (CG_REDUX_f32_) {
        v = cg_redux_f32_(0xffffffffu, v, op);
    } else {
        for (int o = 16; o > 0; o >>= 1)
            v = cg_op_f32_(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

/* Hillis-Steele inclusive scan over the 32 lanes of the caller's warp. */
CG_DEVICE float cg_wide_warp_scan_f32_(float v, cg_op_t op, uint32_t lane)
{
    CG_SCAN_STEPS_(float, f32, 32u, lane, __shfl_up_sync(0xffffffffu, v, i))
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE float cg_wide_tile_reduce_f32(const cg_wide_tile_t *t, float v, cg_op_t op)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    float r = cg_wide_warp_reduce_f32_(v, op);
    if (lane == 0u)
        s[cg_wide_tile_warp_(t)] = cg_wide_bits_f32_(r);
    cg_wide_tile_sync(t);
    /* Each group of nw lanes runs C++ CG's inter-warp butterfly. */
    float x = cg_wide_from_f32_(s[lane & (nw - 1u)]);
    for (uint32_t o = nw >> 1; o; o >>= 1)
        x = cg_op_f32_(op, x, __shfl_xor_sync(0xffffffffu, x, (int)o, (int)nw));
    x = __shfl_sync(0xffffffffu, x, (int)cg_wide_tile_warp_(t));
    cg_wide_tile_sync(t);
    return x;
}

/* The scans' common body; excl selects the exclusive result. */
CG_DEVICE float cg_wide_tile_scan_f32_(const cg_wide_tile_t *t, float v, cg_op_t op, int excl)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint32_t w = cg_wide_tile_warp_(t);
    float ws = cg_wide_warp_scan_f32_(v, op, lane);
    if (lane == 31u)
        s[w] = cg_wide_bits_f32_(ws);
    if (excl)
        ws = __shfl_up_sync(0xffffffffu, ws, 1u);
    cg_wide_tile_sync(t);
    /* Exclusive scan of the warp totals over nw lanes (per group). */
    uint32_t sl = lane & (nw - 1u);
    float x = cg_wide_from_f32_(s[sl]);
    float y = x;
    for (uint32_t i = 1; i < nw; i <<= 1) {
        float u = __shfl_up_sync(0xffffffffu, y, i, (int)nw);
        if (i <= sl)
            y = cg_op_f32_(op, y, u);
    }
    float e;
    if (CG_INTEGRAL_f32_ && op == CG_OP_PLUS) {
        e = cg_unplus_f32_(y, x);
    } else {
        float u = __shfl_up_sync(0xffffffffu, y, 1u, (int)nw);
        e = sl == 0u ? (float)0 : u;
    }
    float prev = __shfl_sync(0xffffffffu, e, (int)w);
    cg_wide_tile_sync(t);
    if (excl && lane == 0u)
        return prev;
    if (w == 0u)
        return ws;
    return cg_op_f32_(op, ws, prev);
}

/* op(v of ranks 0..r) in tile rank r. */
CG_DEVICE float cg_wide_tile_inclusive_scan_f32(const cg_wide_tile_t *t, float v, cg_op_t op)
{
    return cg_wide_tile_scan_f32_(t, v, op, 0);
}

/* op(v of ranks 0..r-1) in tile rank r; 0 in rank 0 (C++ CG: T{}). */
CG_DEVICE float cg_wide_tile_exclusive_scan_f32(const cg_wide_tile_t *t, float v, cg_op_t op)
{
    return cg_wide_tile_scan_f32_(t, v, op, 1);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE float cg_wide_tile_shfl_f32(const cg_wide_tile_t *t, float v, uint32_t src)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    src &= t->_size - 1u;
    if (cg_wide_tile_thread_rank(t) == src)
        s[src >> 5] = cg_wide_bits_f32_(v);
    cg_wide_tile_sync(t);
    float x = cg_wide_from_f32_(s[src >> 5]);
    cg_wide_tile_sync(t);
    CG_WIDE_TILE_CHECK_SRC_(t, s, src);
    return x;
}

/* op over the 32 lanes of the caller's warp: C++ CG's warp step. */
CG_DEVICE double cg_wide_warp_reduce_f64_(double v, cg_op_t op)
{
    if (CG_REDUX_f64_) {
        v = cg_redux_f64_(0xffffffffu, v, op);
    } else {
        for (int o = 16; o > 0; o >>= 1)
            v = cg_op_f64_(op, v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

/* Hillis-Steele inclusive scan over the 32 lanes of the caller's warp. */
CG_DEVICE double cg_wide_warp_scan_f64_(double v, cg_op_t op, uint32_t lane)
{
    CG_SCAN_STEPS_(double, f64, 32u, lane, __shfl_up_sync(0xffffffffu, v, i))
    return v;
}

/* op over every thread of the tile, in every thread (see the top). */
CG_DEVICE double cg_wide_tile_reduce_f64(const cg_wide_tile_t *t, double v, cg_op_t op)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    double r = cg_wide_warp_reduce_f64_(v, op);
    if (lane == 0u)
        s[cg_wide_tile_warp_(t)] = cg_wide_bits_f64_(r);
    cg_wide_tile_sync(t);
    /* Each group of nw lanes runs C++ CG's inter-warp butterfly. */
    double x = cg_wide_from_f64_(s[lane & (nw - 1u)]);
    for (uint32_t o = nw >> 1; o; o >>= 1)
        x = cg_op_f64_(op, x, __shfl_xor_sync(0xffffffffu, x, (int)o, (int)nw));
    x = __shfl_sync(0xffffffffu, x, (int)cg_wide_tile_warp_(t));
    cg_wide_tile_sync(t);
    return x;
}

/* The scans' common body; excl selects the exclusive result. */
CG_DEVICE double cg_wide_tile_scan_f64_(const cg_wide_tile_t *t, double v, cg_op_t op, int excl)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    uint32_t lane = cg_sreg_laneid();
    uint32_t nw = cg_wide_tile_warps_(t);
    uint32_t w = cg_wide_tile_warp_(t);
    double ws = cg_wide_warp_scan_f64_(v, op, lane);
    if (lane == 31u)
        s[w] = cg_wide_bits_f64_(ws);
    if (excl)
        ws = __shfl_up_sync(0xffffffffu, ws, 1u);
    cg_wide_tile_sync(t);
    /* Exclusive scan of the warp totals over nw lanes (per group). */
    uint32_t sl = lane & (nw - 1u);
    double x = cg_wide_from_f64_(s[sl]);
    double y = x;
    for (uint32_t i = 1; i < nw; i <<= 1) {
        double u = __shfl_up_sync(0xffffffffu, y, i, (int)nw);
        if (i <= sl)
            y = cg_op_f64_(op, y, u);
    }
    double e;
    if (CG_INTEGRAL_f64_ && op == CG_OP_PLUS) {
        e = cg_unplus_f64_(y, x);
    } else {
        double u = __shfl_up_sync(0xffffffffu, y, 1u, (int)nw);
        e = sl == 0u ? (double)0 : u;
    }
    double prev = __shfl_sync(0xffffffffu, e, (int)w);
    cg_wide_tile_sync(t);
    if (excl && lane == 0u)
        return prev;
    if (w == 0u)
        return ws;
    return cg_op_f64_(op, ws, prev);
}

/* op(v of ranks 0..r) in tile rank r. */
CG_DEVICE double cg_wide_tile_inclusive_scan_f64(const cg_wide_tile_t *t, double v, cg_op_t op)
{
    return cg_wide_tile_scan_f64_(t, v, op, 0);
}

/* op(v of ranks 0..r-1) in tile rank r; 0 in rank 0 (C++ CG: T{}). */
CG_DEVICE double cg_wide_tile_exclusive_scan_f64(const cg_wide_tile_t *t, double v, cg_op_t op)
{
    return cg_wide_tile_scan_f64_(t, v, op, 1);
}

/* The value of v in tile rank src (taken modulo n). */
CG_DEVICE double cg_wide_tile_shfl_f64(const cg_wide_tile_t *t, double v, uint32_t src)
{
    uint64_t *s = cg_wide_tile_slots_(t);
    src &= t->_size - 1u;
    if (cg_wide_tile_thread_rank(t) == src)
        s[src >> 5] = cg_wide_bits_f64_(v);
    cg_wide_tile_sync(t);
    double x = cg_wide_from_f64_(s[src >> 5]);
    cg_wide_tile_sync(t);
    CG_WIDE_TILE_CHECK_SRC_(t, s, src);
    return x;
}
/* ---- end of generated part ---- */

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_WIDE_TILE_H */
