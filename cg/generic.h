/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/generic.h — calls that work on a pointer to any group, and on a value of
 * any arithmetic type: C++ CG's member functions and free functions, spelled
 * as C calls.
 *
 *   auto t = CG_TILED_PARTITION(&block, N);     (N a constant, 1..1024)
 *   T s  = cg_reduce(&t, v, CG_OP_PLUS);          cg::reduce(t, v, cg::plus<T>())
 *   T p  = cg_exclusive_scan(&t, v, CG_OP_PLUS);  cg::exclusive_scan(t, v)
 *   T x  = cg_shfl_down(&t, v, 1);                t.shfl_down(v, 1)
 *   cg_sync(&t);                                  t.sync()
 *
 * Groups:
 *   cg_sync(&g)  cg_barrier_arrive(&g) -> cg_token_t  cg_barrier_wait(&g, tok)
 *   cg_thread_rank(&g)  cg_num_threads(&g)
 *       g: cg_thread_block_t, cg_cluster_t, cg_grid_t, cg_tile_t,
 *       cg_coalesced_group_t, cg_wide_tile_t or cg_thread_group_t (any group,
 *       whose calls switch on the stored kind at run time, cg/thread_group.h).
 *       Every call takes a pointer or a pointer to const, as C++ CG's
 *       member functions are const; sync, barrier_arrive and barrier_wait
 *       take a pointer to const where the typed call does (every kind's sync
 *       but the grid's, every split barrier but the block's and the grid's,
 *       which cache their set-up in the group).
 *   cg_meta_group_rank(&g)  cg_meta_group_size(&g)
 *       g: a tile, a wide tile or a coalesced group.
 * Collectives (C++ CG's, on the same groups C++ CG takes them):
 *   cg_reduce(&g, v, op)  cg_inclusive_scan(&g, v, op)  cg_exclusive_scan(&g, v, op)
 *   cg_shfl(&g, v, src_rank)  cg_any(&g, pred)  cg_all(&g, pred)
 *       g: a tile (1..32), a wide tile (64..1024) or a coalesced group.
 *   cg_shfl_up(&g, v, delta)  cg_shfl_down(&g, v, delta)  cg_ballot(&g, pred)
 *   cg_match_any(&g, v) -> uint32_t  cg_match_all(&g, v, &pred) -> uint32_t
 *       g: a tile or a coalesced group (C++ CG has none of these for tiles
 *       of more than 32 threads).
 *   cg_shfl_xor(&g, v, lane_mask)
 *       g: a tile (C++ CG's coalesced_group has no shfl_xor).
 *   cg_binary_partition(&g, pred)  cg_labeled_partition(&g, label)
 *       -> cg_coalesced_group_t; g: a tile or a coalesced group; label any
 *       integer type (32-bit and narrower: the 32-bit call, 64-bit: _u64);
 *       a bool label is binary_partition, as in C++ CG.
 *   v: any arithmetic type: signed/unsigned char, short, int, long, long
 *   long, float, double (and so int32_t ... uint64_t, size_t); the result has
 *   v's type. op: a cg_op_t (CG_OP_PLUS, CG_OP_LESS, CG_OP_GREATER,
 *   CG_OP_BIT_AND, CG_OP_BIT_OR, CG_OP_BIT_XOR; cg/collectives.h).
 *   Each is the typed call cg_<group>_<verb>_<type> (cg_tile_reduce_f64,
 *   cg_coalesced_shfl_up_u32, cg_wide_tile_exclusive_scan_i64, ...): a
 *   64-bit integer goes to _i64/_u64, a 32-bit one to _i32/_u32, float to
 *   _f32, double to _f64; 8- and 16-bit integers are widened to 32 bits and
 *   the result narrowed back (reduce and scans wrap as C++ CG's narrow
 *   plus does: addition modulo 2^8 or 2^16 gives the same bits whichever
 *   width it is done in; min, max and the bit operators are exact).
 * Tiles of any size in one spelling:
 *   CG_TILED_PARTITION(&b, N)   C++ CG's tiled_partition<N>(b): a cg_tile_t
 *                               for N <= 32 (cg_tiled_partition), a
 *                               cg_wide_tile_t above (cg_wide_tiled_partition),
 *                               picked at compile time; b a cg_thread_block_t *
 *                               (or a cg_tile_t * for N <= 32: cg_tile_tiled_partition).
 *   CG_TILE_T(N)                C++ CG's thread_block_tile<N>: that type.
 *   N must be a constant expression (a literal, an enum, a template
 *   parameter) and a power of two in 1..1024; anything else is a compile
 *   error at the caller's line. Every generic call above takes either type,
 *   so a kernel templated over N needs no branch at 32.
 *
 * How: each generic call selects the typed call from the STATIC types of g
 * and v, at compile time. C11 spells the table with _Generic; C++ (how nvcc
 * compiles every .cu file) with an internal overload set that mirrors it.
 * Both are stamped from the same tables below (one row per group kind, one
 * per value type), so they cannot disagree. No group is ever read as another
 * kind and no run-time switch is added: a generic call is the typed call,
 * instruction for instruction (tests/cg:ptx_test, tests/cg/generic:ptx_test
 * compare the PTX), and compiles as fast.
 *
 * Misuse is a short error at the caller's line that names what is accepted:
 * a group passed by value (cg_sync(cta), not cg_sync(&cta)), a pointer to
 * something else, a value of no arithmetic type or an op that is not a
 * cg_op_t reaches a last, catch-all overload whose return type is
 * incomplete and whose name is the message:
 *
 *   app.cu(12): error: function "cg_generic_sync_(...)" returns incomplete type
 *   "cg_sync_takes_a_pointer_to_a_group_cg_thread_block_t_cg_cluster_t_..."
 *
 * (nvcc and NVRTC alike; tests/cg/generic:misuse_test checks the text and that
 * the whole report is at most 5 lines. nvcc reports a given call's misuse
 * once per file: a second one shows when the first is fixed.)
 *
 * The result type is the typed call's: thread_rank and num_threads are
 * uint32_t for a block, cluster or tile and uint64_t for a grid (a grid can
 * hold more than 2^32 threads), as in C++ CG.
 *
 * Tiles have no hardware split barrier: cg_barrier_arrive on a tile is a
 * __syncwarp over the tile and cg_barrier_wait does nothing (cg/tile.h); on a
 * wide tile the arrive is its named-barrier sync (cg/wide_tile.h).
 */
#ifndef CG_CG_GENERIC_H
#define CG_CG_GENERIC_H

#include "cluster_group.h"
#include "coalesced.h"
#include "collectives.h"
#include "../base/config.h"
#include "grid.h"
#include "group_kinds.h"
#include "thread_block.h"
#include "thread_group.h"
#include "tile.h"
#include "wide_tile.h"

/* ------------------------------------------------------------------------- */
/* The tables: which group kinds each call takes, which value types          */
/* ------------------------------------------------------------------------- */

/* Rows X(type, typed-call prefix, device qualifier, ...), stamped from the
 * table of kinds (cg/group_kinds.h) by its reach column: the qualifier is
 * CG_DEVICE, or CG_DEVICE_SM90 for a kind that needs sm_90 (so an older
 * target reports the user's generic call, not this table). One list per
 * set of calls; the rest of the arguments pass through to X. */
#define CG_GENERIC_ROW_ANY_(KIND, n, type, name, arch, reach, share, X, ...)                        \
    X(type, cg_##name, CG_GROUP_DEV_##arch##_, __VA_ARGS__)
#define CG_GENERIC_ROW_PART_(KIND, n, type, name, arch, reach, share, X, ...)                       \
    CG_GROUP_IN_PART_##reach##_(X(type, cg_##name, CG_GROUP_DEV_##arch##_, __VA_ARGS__))
#define CG_GENERIC_ROW_WARP_(KIND, n, type, name, arch, reach, share, X, ...)                       \
    CG_GROUP_IN_WARP_##reach##_(X(type, cg_##name, CG_GROUP_DEV_##arch##_, __VA_ARGS__))
#define CG_GENERIC_ROW_TILE_(KIND, n, type, name, arch, reach, share, X, ...)                       \
    CG_GROUP_IN_TILE_##reach##_(X(type, cg_##name, CG_GROUP_DEV_##arch##_, __VA_ARGS__))

/* Every group, and cg_thread_group_t: sync, barrier_arrive, barrier_wait,
 * thread_rank, num_threads. */
#define CG_GENERIC_KINDS_ANY_(X, ...)                                                              \
    CG_GROUP_KINDS(CG_GENERIC_ROW_ANY_, X, __VA_ARGS__)                                            \
    X(cg_thread_group_t, cg_thread_group, CG_DEVICE, __VA_ARGS__)

/* Partitions of a block (reach PART and up: tiles of any size, coalesced
 * groups): meta_group_rank, meta_group_size, reduce, inclusive_scan,
 * exclusive_scan, shfl, any, all. */
#define CG_GENERIC_KINDS_PART_(X, ...) CG_GROUP_KINDS(CG_GENERIC_ROW_PART_, X, __VA_ARGS__)

/* Groups within one warp (reach WARP and up): shfl_up, shfl_down, ballot,
 * match_any, match_all, binary_partition, labeled_partition. */
#define CG_GENERIC_KINDS_WARP_(X, ...) CG_GROUP_KINDS(CG_GENERIC_ROW_WARP_, X, __VA_ARGS__)

/* Tiles of 1..32 only (reach TILE): shfl_xor. */
#define CG_GENERIC_KINDS_TILE_(X, ...) CG_GROUP_KINDS(CG_GENERIC_ROW_TILE_, X, __VA_ARGS__)

/* Value types, X(type, suffix of the typed call, the typed call's type, ...):
 * each arithmetic type of C once (int32_t is int, uint64_t is unsigned long
 * or unsigned long long: both are rows). long is 64 bits on every CUDA host
 * but Windows. */
#if defined(_WIN32)
#define CG_GENERIC_LONG_ROWS_(X, ...)                                                              \
    X(long, i32, int32_t, __VA_ARGS__) X(unsigned long, u32, uint32_t, __VA_ARGS__)
#else
#define CG_GENERIC_LONG_ROWS_(X, ...)                                                              \
    X(long, i64, int64_t, __VA_ARGS__) X(unsigned long, u64, uint64_t, __VA_ARGS__)
#endif
#define CG_GENERIC_VALUES_(X, ...)                                                                 \
    X(char, i32, int32_t, __VA_ARGS__)                                                             \
    X(signed char, i32, int32_t, __VA_ARGS__)                                                      \
    X(unsigned char, u32, uint32_t, __VA_ARGS__)                                                   \
    X(short, i32, int32_t, __VA_ARGS__)                                                            \
    X(unsigned short, u32, uint32_t, __VA_ARGS__)                                                  \
    X(int, i32, int32_t, __VA_ARGS__)                                                              \
    X(unsigned int, u32, uint32_t, __VA_ARGS__)                                                    \
    CG_GENERIC_LONG_ROWS_(X, __VA_ARGS__)                                                          \
    X(long long, i64, int64_t, __VA_ARGS__)                                                        \
    X(unsigned long long, u64, uint64_t, __VA_ARGS__)                                              \
    X(float, f32, float, __VA_ARGS__)                                                              \
    X(double, f64, double, __VA_ARGS__)

/* Label types of labeled_partition, X(type, suffix of the typed call, its
 * label type, ...): 32-bit integers take the plain call, 64-bit ones _u64
 * (C++ CG takes unsigned int and unsigned long long labels). */
#if defined(_WIN32)
#define CG_GENERIC_LONG_LABELS_(X, ...) X(long, , uint32_t, __VA_ARGS__) X(unsigned long, , uint32_t, __VA_ARGS__)
#else
#define CG_GENERIC_LONG_LABELS_(X, ...) X(long, _u64, uint64_t, __VA_ARGS__) X(unsigned long, _u64, uint64_t, __VA_ARGS__)
#endif
#define CG_GENERIC_LABELS_(X, ...)                                                                 \
    X(char, , uint32_t, __VA_ARGS__)                                                               \
    X(signed char, , uint32_t, __VA_ARGS__)                                                        \
    X(unsigned char, , uint32_t, __VA_ARGS__)                                                      \
    X(short, , uint32_t, __VA_ARGS__)                                                              \
    X(unsigned short, , uint32_t, __VA_ARGS__)                                                     \
    X(int, , uint32_t, __VA_ARGS__)                                                                \
    X(unsigned int, , uint32_t, __VA_ARGS__)                                                       \
    CG_GENERIC_LONG_LABELS_(X, __VA_ARGS__)                                                        \
    X(long long, _u64, uint64_t, __VA_ARGS__)                                                      \
    X(unsigned long long, _u64, uint64_t, __VA_ARGS__)

/* Every generic verb, X(verb): the catch-all of each (C++ and C11) is stamped
 * from this list, and each has its message below (CG_GENERIC_MSG_<verb>_). */
#define CG_GENERIC_VERBS_(X)                                                                       \
    X(sync)                                                                                        \
    X(barrier_arrive)                                                                              \
    X(barrier_wait)                                                                                \
    X(thread_rank)                                                                                 \
    X(num_threads)                                                                                 \
    X(meta_group_rank)                                                                             \
    X(meta_group_size)                                                                             \
    X(reduce)                                                                                      \
    X(inclusive_scan)                                                                              \
    X(exclusive_scan)                                                                              \
    X(shfl)                                                                                        \
    X(any)                                                                                         \
    X(all)                                                                                         \
    X(shfl_up)                                                                                     \
    X(shfl_down)                                                                                   \
    X(ballot)                                                                                      \
    X(match_any)                                                                                   \
    X(match_all)                                                                                   \
    X(shfl_xor)                                                                                    \
    X(binary_partition)                                                                            \
    X(labeled_partition)                                                                           \
    X(tiled_partition)

/* The messages: the name of the catch-all's (incomplete) return type, which
 * the compiler prints at the caller's line. */
#define CG_GENERIC_ANY_GROUP_MSG_(verb) CG_GROUP_ANY_MSG_(cg_##verb##_takes_a_pointer_to_a_group_, )
#define CG_GENERIC_PART_MSG_(verb, what)                                                           \
    cg_##verb##_takes_a_pointer_to_a_cg_tile_t_cg_wide_tile_t_or_cg_coalesced_group_t##what
#define CG_GENERIC_WARP_MSG_(verb, what)                                                           \
    cg_##verb##_takes_a_pointer_to_a_cg_tile_t_or_cg_coalesced_group_t_not_a_wide_tile##what
#define CG_GENERIC_TILE_MSG_(verb, what) cg_##verb##_takes_a_pointer_to_a_cg_tile_t_of_1_to_32_threads##what

/* sync, barrier_arrive, barrier_wait: a pointer to const only where the
 * typed call takes one (a call that changes its group takes a G *). */
#define CG_GENERIC_SYNC_MSG_(verb)                                                                 \
    CG_GROUP_ANY_MSG_(cg_##verb##_takes_a_pointer_to_a_group_, _const_only_where_its_typed_call_takes_const)
#define CG_GENERIC_MSG_sync_ CG_GENERIC_SYNC_MSG_(sync)
#define CG_GENERIC_MSG_barrier_arrive_ CG_GENERIC_SYNC_MSG_(barrier_arrive)
#define CG_GENERIC_MSG_barrier_wait_ CG_GENERIC_SYNC_MSG_(barrier_wait_and_its_cg_token_t)
#define CG_GENERIC_MSG_thread_rank_ CG_GENERIC_ANY_GROUP_MSG_(thread_rank)
#define CG_GENERIC_MSG_num_threads_ CG_GENERIC_ANY_GROUP_MSG_(num_threads)
#define CG_GENERIC_MSG_meta_group_rank_ CG_GENERIC_PART_MSG_(meta_group_rank, )
#define CG_GENERIC_MSG_meta_group_size_ CG_GENERIC_PART_MSG_(meta_group_size, )
#define CG_GENERIC_MSG_reduce_ CG_GENERIC_PART_MSG_(reduce, _an_arithmetic_value_and_a_cg_op_t)
#define CG_GENERIC_MSG_inclusive_scan_ CG_GENERIC_PART_MSG_(inclusive_scan, _an_arithmetic_value_and_a_cg_op_t)
#define CG_GENERIC_MSG_exclusive_scan_ CG_GENERIC_PART_MSG_(exclusive_scan, _an_arithmetic_value_and_a_cg_op_t)
#define CG_GENERIC_MSG_shfl_ CG_GENERIC_PART_MSG_(shfl, _an_arithmetic_value_and_a_source_rank)
#define CG_GENERIC_MSG_any_ CG_GENERIC_PART_MSG_(any, _and_an_int_predicate)
#define CG_GENERIC_MSG_all_ CG_GENERIC_PART_MSG_(all, _and_an_int_predicate)
#define CG_GENERIC_MSG_shfl_up_ CG_GENERIC_WARP_MSG_(shfl_up, _an_arithmetic_value_and_a_delta)
#define CG_GENERIC_MSG_shfl_down_ CG_GENERIC_WARP_MSG_(shfl_down, _an_arithmetic_value_and_a_delta)
#define CG_GENERIC_MSG_ballot_ CG_GENERIC_WARP_MSG_(ballot, _and_an_int_predicate)
#define CG_GENERIC_MSG_match_any_ CG_GENERIC_WARP_MSG_(match_any, _and_an_arithmetic_value)
#define CG_GENERIC_MSG_match_all_ CG_GENERIC_WARP_MSG_(match_all, _an_arithmetic_value_and_an_int_pointer)
#define CG_GENERIC_MSG_shfl_xor_ CG_GENERIC_TILE_MSG_(shfl_xor, _an_arithmetic_value_and_a_lane_mask)
#define CG_GENERIC_MSG_binary_partition_ CG_GENERIC_WARP_MSG_(binary_partition, _and_an_int_predicate)
#define CG_GENERIC_MSG_labeled_partition_ CG_GENERIC_WARP_MSG_(labeled_partition, _and_an_integer_label)
#define CG_GENERIC_MSG_tiled_partition_                                                            \
    CG_TILED_PARTITION_takes_a_cg_thread_block_t_or_cg_tile_t_pointer_and_a_constant_power_of_two_1_to_1024

/* The size class of a tile of N threads, as a null pointer to char[1] (1..32:
 * cg_tile_t), char[2] (64..1024: cg_wide_tile_t) or char[3] (not a power of
 * two in 1..1024: the catch-all's error). N must be a constant expression. */
#define CG_TILE_CLASS_(N)                                                                          \
    ((char(*)[((N) >= 1 && (N) <= 1024 && ((N) & ((N)-1)) == 0) ? ((N) <= 32 ? 1 : 2) : 3])0)

#if CG_DEVICE_CODE_VISIBLE && defined(__cplusplus)

/* ------------------------------------------------------------------------- */
/* C++: the tables as overloads (internal; users call the macros)            */
/* ------------------------------------------------------------------------- */

/* The wide tile's typed float/double collectives check a constant bit
 * operator as the tile's and the coalesced group's do (cg/collectives.h:
 * CG_OP_FLOAT_CALL_), and its constructor a constant size. They belong after
 * the functions in cg/wide_tile.h; they are here for now because another
 * branch owns that file (a user of cg/wide_tile.h alone does not get them). */
#define cg_wide_tile_reduce_f32(t, v, op) CG_OP_FLOAT_CALL_(cg_wide_tile_reduce_f32, float, t, v, op)
#define cg_wide_tile_reduce_f64(t, v, op) CG_OP_FLOAT_CALL_(cg_wide_tile_reduce_f64, double, t, v, op)
#define cg_wide_tile_inclusive_scan_f32(t, v, op) CG_OP_FLOAT_CALL_(cg_wide_tile_inclusive_scan_f32, float, t, v, op)
#define cg_wide_tile_inclusive_scan_f64(t, v, op) CG_OP_FLOAT_CALL_(cg_wide_tile_inclusive_scan_f64, double, t, v, op)
#define cg_wide_tile_exclusive_scan_f32(t, v, op) CG_OP_FLOAT_CALL_(cg_wide_tile_exclusive_scan_f32, float, t, v, op)
#define cg_wide_tile_exclusive_scan_f64(t, v, op) CG_OP_FLOAT_CALL_(cg_wide_tile_exclusive_scan_f64, double, t, v, op)
/* ... and a constant n that is not a power of two in 64..1024 stops the
 * build (cg/tile.h: CG_WIDE_TILE_N_CHECK_), as cg_tiled_partition's does. */
#define cg_wide_tiled_partition(b, n) (CG_WIDE_TILE_N_CHECK_(n), cg_wide_tiled_partition((b), (n)))

#if defined(__CUDACC_RTC__) /* the decltype names a wrapper NVRTC marks deprecated below sm_90 */
#pragma nv_diagnostic push
#pragma nv_diag_suppress 1444
#endif

/* verb(g) and verb(g, a) forwarders on a const G * (a G * converts): the
 * calls whose typed form takes a const G *, as every query does. */
#define CG_GENERIC_FWD_G_(G, P, dev, verb, cq)                                                     \
    dev auto cg_generic_##verb##_(cq G *g)->decltype(P##_##verb(g)) { return P##_##verb(g); }
#define CG_GENERIC_FWD_GA_(G, P, dev, verb, cq, A)                                                 \
    dev auto cg_generic_##verb##_(cq G *g, A a)->decltype(P##_##verb(g, a)) { return P##_##verb(g, a); }

/* sync, barrier_arrive, barrier_wait: a G * forwarder for every kind, and a
 * const G * one that exists only where the typed call takes a const G * (a
 * template whose return type names the call on a const G_ *, G_ = G: a kind
 * whose typed call changes the group, as the block's barrier_arrive caching
 * its set-up, drops out of the set instead of failing the header). A G *
 * argument takes the first (an exact match beats the template), a const one
 * the second; both are the typed call, so the PTX is the same. (G_ is G;
 * the body names it so that nothing is checked before a call picks it.) */
#define CG_GENERIC_FWD_SYNC_G_(G, P, dev, verb, unused)                                            \
    CG_GENERIC_FWD_G_(G, P, dev, verb, )                                                           \
    template <class G_ = G>                                                                        \
    dev auto cg_generic_##verb##_(const G *g)->decltype(P##_##verb((const G_ *)g))                  \
    {                                                                                              \
        return P##_##verb((const G_ *)g);                                                          \
    }
#define CG_GENERIC_FWD_SYNC_GA_(G, P, dev, verb, unused, A)                                        \
    CG_GENERIC_FWD_GA_(G, P, dev, verb, , A)                                                       \
    template <class G_ = G>                                                                        \
    dev auto cg_generic_##verb##_(const G *g, A a)->decltype(P##_##verb((const G_ *)g, a))         \
    {                                                                                              \
        return P##_##verb((const G_ *)g, a);                                                       \
    }

CG_GENERIC_KINDS_ANY_(CG_GENERIC_FWD_SYNC_G_, sync, )
CG_GENERIC_KINDS_ANY_(CG_GENERIC_FWD_SYNC_G_, barrier_arrive, )
CG_GENERIC_KINDS_ANY_(CG_GENERIC_FWD_SYNC_GA_, barrier_wait, , cg_token_t)
CG_GENERIC_KINDS_ANY_(CG_GENERIC_FWD_G_, thread_rank, const)
CG_GENERIC_KINDS_ANY_(CG_GENERIC_FWD_G_, num_threads, const)
CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_G_, meta_group_rank, const)
CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_G_, meta_group_size, const)
CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_GA_, any, const, int)
CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_GA_, all, const, int)
CG_GENERIC_KINDS_WARP_(CG_GENERIC_FWD_GA_, ballot, const, int)
CG_GENERIC_KINDS_WARP_(CG_GENERIC_FWD_GA_, binary_partition, const, int)

/* Value forwarders: one overload per (kind, value type); v goes to the typed
 * call as its fixed-width type W, the result comes back as T. The last
 * parameter is the value's type as a null pointer (CG_GENERIC_VTAG_,
 * cg/collectives.h's CG_VALUE_TYPE_): only
 * the row of exactly that type takes it, so a value of a class type that
 * converts to several arithmetic types (__half, __nv_bfloat16) or of bool
 * reaches the catch-all and its named message, not an ambiguity among the
 * rows (as the C11 table, which has no row for them either). */
#define CG_GENERIC_VTAG_(v) ((CG_VALUE_TYPE_(v) *)0)
#define CG_GENERIC_FWD_OP_(T, sfx, W, G, P, dev, verb)                                             \
    dev T cg_generic_##verb##_(const G *g, T v, cg_op_t op, const volatile T *)                    \
    {                                                                                              \
        return (T)P##_##verb##_##sfx(g, (W)v, op);                                                 \
    }
#define CG_GENERIC_FWD_U32_(T, sfx, W, G, P, dev, verb)                                            \
    dev T cg_generic_##verb##_(const G *g, T v, uint32_t a, const volatile T *)                    \
    {                                                                                              \
        return (T)P##_##verb##_##sfx(g, (W)v, a);                                                  \
    }
#define CG_GENERIC_FWD_MATCH_ANY_(T, sfx, W, G, P, dev, verb)                                      \
    dev uint32_t cg_generic_##verb##_(const G *g, T v, const volatile T *) { return P##_##verb##_##sfx(g, (W)v); }
#define CG_GENERIC_FWD_MATCH_ALL_(T, sfx, W, G, P, dev, verb)                                      \
    dev uint32_t cg_generic_##verb##_(const G *g, T v, int *pred, const volatile T *)              \
    {                                                                                              \
        return P##_##verb##_##sfx(g, (W)v, pred);                                                  \
    }
/* One kind's row: every value type's overload of `verb` (FWD: the shape). */
#define CG_GENERIC_FWD_VALUES_(G, P, dev, verb, FWD) CG_GENERIC_VALUES_(FWD, G, P, dev, verb)

CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_VALUES_, reduce, CG_GENERIC_FWD_OP_)
CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_VALUES_, inclusive_scan, CG_GENERIC_FWD_OP_)
CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_VALUES_, exclusive_scan, CG_GENERIC_FWD_OP_)
CG_GENERIC_KINDS_PART_(CG_GENERIC_FWD_VALUES_, shfl, CG_GENERIC_FWD_U32_)
CG_GENERIC_KINDS_WARP_(CG_GENERIC_FWD_VALUES_, shfl_up, CG_GENERIC_FWD_U32_)
CG_GENERIC_KINDS_WARP_(CG_GENERIC_FWD_VALUES_, shfl_down, CG_GENERIC_FWD_U32_)
CG_GENERIC_KINDS_WARP_(CG_GENERIC_FWD_VALUES_, match_any, CG_GENERIC_FWD_MATCH_ANY_)
CG_GENERIC_KINDS_WARP_(CG_GENERIC_FWD_VALUES_, match_all, CG_GENERIC_FWD_MATCH_ALL_)
CG_GENERIC_KINDS_TILE_(CG_GENERIC_FWD_VALUES_, shfl_xor, CG_GENERIC_FWD_U32_)

/* labeled_partition: one overload per (kind, label type). */
#define CG_GENERIC_FWD_LABEL_(T, sfx, W, G, P, dev)                                                \
    dev cg_coalesced_group_t cg_generic_labeled_partition_(const G *g, T label)                    \
    {                                                                                              \
        return P##_labeled_partition##sfx(g, (W)label);                                            \
    }
/* A bool label is C++ CG's binary_partition (its labeled_partition
 * dispatches bool there: meta rank = the predicate), not a label 0/1 whose
 * meta rank counts labels by lowest lane. The C11 table's _Bool row agrees. */
#define CG_GENERIC_FWD_LABELS_(G, P, dev, unused)                                                  \
    CG_GENERIC_LABELS_(CG_GENERIC_FWD_LABEL_, G, P, dev)                                           \
    dev cg_coalesced_group_t cg_generic_labeled_partition_(const G *g, bool label)                 \
    {                                                                                              \
        return P##_binary_partition(g, (int)label);                                                \
    }
CG_GENERIC_KINDS_WARP_(CG_GENERIC_FWD_LABELS_, )

/* Tiles of any size: the size class picks the constructor and so the type. */
CG_DEVICE cg_tile_t cg_generic_tiled_partition_(char (*)[1], const cg_thread_block_t *b, uint32_t n)
{
    return cg_tiled_partition(b, n);
}
CG_DEVICE cg_tile_t cg_generic_tiled_partition_(char (*)[1], const cg_tile_t *t, uint32_t n)
{
    return cg_tile_tiled_partition(t, n);
}
CG_DEVICE cg_wide_tile_t cg_generic_tiled_partition_(char (*)[2], const cg_thread_block_t *b, uint32_t n)
{
    return cg_wide_tiled_partition(b, n);
}

#if defined(__CUDACC_RTC__)
#pragma nv_diagnostic pop
#endif

/* The catch-alls (cg/group_kinds.h: CG_GROUP_CATCH_ALL_): a call reaches one
 * only when no row above takes its arguments. */
#define CG_GENERIC_CATCH_ALL_(verb) CG_GROUP_CATCH_ALL_(cg_generic_##verb##_, CG_GENERIC_MSG_##verb##_)
CG_GENERIC_VERBS_(CG_GENERIC_CATCH_ALL_)

#define cg_sync(g) cg_generic_sync_(g)
#define cg_barrier_arrive(g) cg_generic_barrier_arrive_(g)
#define cg_barrier_wait(g, tok) cg_generic_barrier_wait_((g), (tok))
#define cg_thread_rank(g) cg_generic_thread_rank_(g)
#define cg_num_threads(g) cg_generic_num_threads_(g)
#define cg_meta_group_rank(g) cg_generic_meta_group_rank_(g)
#define cg_meta_group_size(g) cg_generic_meta_group_size_(g)
#define cg_any(g, pred) cg_generic_any_((g), (pred))
#define cg_all(g, pred) cg_generic_all_((g), (pred))
#define cg_ballot(g, pred) cg_generic_ballot_((g), (pred))
/* reduce and the scans check a constant bit operator on a float or double
 * first (cg/collectives.h: CG_OP_VALUE_CHECK_, a compile error naming the
 * rule; it emits nothing). */
#define cg_reduce(g, v, op) (CG_OP_VALUE_CHECK_((v), (op)), cg_generic_reduce_((g), (v), (op), CG_GENERIC_VTAG_(v)))
#define cg_inclusive_scan(g, v, op) (CG_OP_VALUE_CHECK_((v), (op)), cg_generic_inclusive_scan_((g), (v), (op), CG_GENERIC_VTAG_(v)))
#define cg_exclusive_scan(g, v, op) (CG_OP_VALUE_CHECK_((v), (op)), cg_generic_exclusive_scan_((g), (v), (op), CG_GENERIC_VTAG_(v)))
#define cg_shfl(g, v, src) cg_generic_shfl_((g), (v), (src), CG_GENERIC_VTAG_(v))
#define cg_shfl_up(g, v, delta) cg_generic_shfl_up_((g), (v), (delta), CG_GENERIC_VTAG_(v))
#define cg_shfl_down(g, v, delta) cg_generic_shfl_down_((g), (v), (delta), CG_GENERIC_VTAG_(v))
#define cg_shfl_xor(g, v, lane_mask) cg_generic_shfl_xor_((g), (v), (lane_mask), CG_GENERIC_VTAG_(v))
#define cg_match_any(g, v) cg_generic_match_any_((g), (v), CG_GENERIC_VTAG_(v))
#define cg_match_all(g, v, pred) cg_generic_match_all_((g), (v), (pred), CG_GENERIC_VTAG_(v))
#define cg_binary_partition(g, pred) cg_generic_binary_partition_((g), (pred))
#define cg_labeled_partition(g, label) cg_generic_labeled_partition_((g), (label))
#define CG_TILED_PARTITION(parent, N) cg_generic_tiled_partition_(CG_TILE_CLASS_(N), (parent), (uint32_t)(N))
#define CG_TILE_T(N) decltype(CG_TILED_PARTITION((const cg_thread_block_t *)0, N))

#elif !defined(__cplusplus)

/* ------------------------------------------------------------------------- */
/* C11: the same tables as _Generic selections                               */
/* ------------------------------------------------------------------------- */

/* The macros are defined for host C too (no typed call exists there, so a
 * call does not compile): tests/cg/generic:c11_table_test checks the table
 * with a host stub of every typed call. */

/* The catch-alls: a function returning an incomplete struct whose name is
 * the message; a call that selects one (no row matched) does not compile.
 * Prototyped (host C built with -Wstrict-prototypes stays quiet): a pointer
 * to something else gets the message; a group passed by value is refused as
 * the first argument, an error at the same line that names the catch-all. */
#define CG_GENERIC_C11_CATCH_ALL_(verb)                                                            \
    struct CG_GENERIC_MSG_##verb##_ cg_generic_##verb##_(const volatile void *not_a_group, ...);
CG_GENERIC_VERBS_(CG_GENERIC_C11_CATCH_ALL_)

/* Rows: G * and const G *, for every call: sync, barrier_arrive and
 * barrier_wait too (a typed call that changes its group, as the block's
 * barrier_arrive, takes a G *: C then reports the const pointer passed to it,
 * "discards 'const' qualifier", at the caller's line). */
#define CG_GENERIC_C11_CONST_(G, P, dev, verb) G * : P##_##verb, const G * : P##_##verb,
/* A value row, and a kind's row that selects on the value next. */
#define CG_GENERIC_C11_VALUE_(T, sfx, W, P, verb) T : P##_##verb##_##sfx,
#define CG_GENERIC_C11_PICK_VALUE_(v, P, verb)                                                     \
    _Generic((v), CG_GENERIC_VALUES_(CG_GENERIC_C11_VALUE_, P, verb) default : cg_generic_##verb##_)
#define CG_GENERIC_C11_VALUES_(G, P, dev, verb, v)                                                 \
    G * : CG_GENERIC_C11_PICK_VALUE_(v, P, verb), const G * : CG_GENERIC_C11_PICK_VALUE_(v, P, verb),

#define CG_GENERIC_C11_PICK_(KINDS, ROW, g, verb) _Generic((g), KINDS(ROW, verb) default : cg_generic_##verb##_)
#define CG_GENERIC_C11_PICK_V_(KINDS, g, v, verb)                                                  \
    _Generic((g), KINDS(CG_GENERIC_C11_VALUES_, verb, v) default : cg_generic_##verb##_)

#define cg_sync(g) CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_ANY_, CG_GENERIC_C11_CONST_, (g), sync)(g)
#define cg_barrier_arrive(g) CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_ANY_, CG_GENERIC_C11_CONST_, (g), barrier_arrive)(g)
#define cg_barrier_wait(g, tok)                                                                    \
    CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_ANY_, CG_GENERIC_C11_CONST_, (g), barrier_wait)((g), (tok))
#define cg_thread_rank(g) CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_ANY_, CG_GENERIC_C11_CONST_, (g), thread_rank)(g)
#define cg_num_threads(g) CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_ANY_, CG_GENERIC_C11_CONST_, (g), num_threads)(g)
#define cg_meta_group_rank(g)                                                                      \
    CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_PART_, CG_GENERIC_C11_CONST_, (g), meta_group_rank)(g)
#define cg_meta_group_size(g)                                                                      \
    CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_PART_, CG_GENERIC_C11_CONST_, (g), meta_group_size)(g)
#define cg_any(g, pred) CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_PART_, CG_GENERIC_C11_CONST_, (g), any)((g), (pred))
#define cg_all(g, pred) CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_PART_, CG_GENERIC_C11_CONST_, (g), all)((g), (pred))
#define cg_ballot(g, pred)                                                                         \
    CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_WARP_, CG_GENERIC_C11_CONST_, (g), ballot)((g), (pred))
#define cg_reduce(g, v, op) CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_PART_, (g), (v), reduce)((g), (v), (op))
#define cg_inclusive_scan(g, v, op)                                                                \
    CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_PART_, (g), (v), inclusive_scan)((g), (v), (op))
#define cg_exclusive_scan(g, v, op)                                                                \
    CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_PART_, (g), (v), exclusive_scan)((g), (v), (op))
#define cg_shfl(g, v, src) CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_PART_, (g), (v), shfl)((g), (v), (src))
#define cg_shfl_up(g, v, delta) CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_WARP_, (g), (v), shfl_up)((g), (v), (delta))
#define cg_shfl_down(g, v, delta)                                                                  \
    CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_WARP_, (g), (v), shfl_down)((g), (v), (delta))
#define cg_shfl_xor(g, v, lane_mask)                                                               \
    CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_TILE_, (g), (v), shfl_xor)((g), (v), (lane_mask))
#define cg_match_any(g, v) CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_WARP_, (g), (v), match_any)((g), (v))
#define cg_match_all(g, v, pred)                                                                   \
    CG_GENERIC_C11_PICK_V_(CG_GENERIC_KINDS_WARP_, (g), (v), match_all)((g), (v), (pred))
#define cg_binary_partition(g, pred)                                                               \
    CG_GENERIC_C11_PICK_(CG_GENERIC_KINDS_WARP_, CG_GENERIC_C11_CONST_, (g), binary_partition)((g), (pred))
#define CG_GENERIC_C11_LABEL_(T, sfx, W, P) T : P##_labeled_partition##sfx,
/* _Bool: binary_partition, as C++ CG and the C++ overloads above. */
#define CG_GENERIC_C11_PICK_LABEL_(v, P)                                                           \
    _Generic((v), CG_GENERIC_LABELS_(CG_GENERIC_C11_LABEL_, P) _Bool : P##_binary_partition,       \
             default : cg_generic_labeled_partition_)
#define CG_GENERIC_C11_LABELS_(G, P, dev, verb, v)                                                 \
    G * : CG_GENERIC_C11_PICK_LABEL_(v, P), const G * : CG_GENERIC_C11_PICK_LABEL_(v, P),
#define cg_labeled_partition(g, label)                                                             \
    _Generic((g), CG_GENERIC_KINDS_WARP_(CG_GENERIC_C11_LABELS_, labeled_partition, (label)) default         \
             : cg_generic_labeled_partition_)((g), (label))

/* Tiles of any size: the size class, then the parent. */
#define CG_TILED_PARTITION(parent, N)                                                              \
    _Generic(CG_TILE_CLASS_(N),                                                                    \
        char(*)[1] : _Generic((parent), cg_thread_block_t * : cg_tiled_partition,                  \
                              const cg_thread_block_t * : cg_tiled_partition,                      \
                              cg_tile_t * : cg_tile_tiled_partition,                               \
                              const cg_tile_t * : cg_tile_tiled_partition,                         \
                              default : cg_generic_tiled_partition_),                          \
        char(*)[2] : _Generic((parent), cg_thread_block_t * : cg_wide_tiled_partition,             \
                              const cg_thread_block_t * : cg_wide_tiled_partition,                 \
                              default : cg_generic_tiled_partition_),                          \
        default : cg_generic_tiled_partition_)((parent), (uint32_t)(N))
#define CG_TILE_T(N) __typeof__(CG_TILED_PARTITION((const cg_thread_block_t *)0, N))

#endif /* C++ / C11 */

#endif /* CG_CG_GENERIC_H */
