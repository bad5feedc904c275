/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/group_kinds.h — the one table of group kinds. Every list over the kinds
 * in cg/ is stamped from it, so a kind is named once:
 *
 *   cg/group_header.h   the kind enum (CG_GROUP_<KIND> = n)
 *   cg/thread_group.h   the cg_thread_group_t union, its from/as
 *                       conversions, cg_thread_group()'s _Generic rows and
 *                       C++ overloads, and the run-time switches over kinds
 *   cg/generic.h        the rows of the generic calls (_Generic and the C++
 *                       overload set), by the kind's collective reach
 *   cg/invoke.h         invoke_one and invoke_one_broadcast_*: the typed
 *                       forms, their switch, _Generic rows and overloads
 *   cg/group_copy.h     each kind's share of a group copy, its switch,
 *                       _Generic rows and overloads
 *
 * A new kind is a row here plus its own header (the struct, starting with
 * a cg_group_header_t, its constructor and its typed calls cg_<name>_<verb>),
 * included by cg/thread_group.h; docs/design/group_api.md has the recipe.
 * tests/cg:group_kinds_test fails when a group struct of cg/ has no row, a
 * row has no struct, or a switch over kinds is written by hand.
 *
 * A row: X(KIND, n, type, name, arch, reach, share, ...)
 *   KIND   the enum value is CG_GROUP_<KIND>
 *   n      its number, what cg_thread_group_get_type returns; never reused
 *   type   the group's struct; its first member is a cg_group_header_t
 *   name   its typed calls are cg_<name>_<verb> (cg_tile_sync, ...); also
 *          its cg_thread_group_t member and cg_thread_group_from_<name> /
 *          cg_thread_group_as_<name>
 *   arch   ALL, or SM90 for a kind that exists only on sm_90: its forwarders
 *          are CG_DEVICE_SM90 (an older target reports the caller's line),
 *          and the run-time switches have its case only where sm_90 code is
 *          built (CG_GROUP_IF_BUILT_)
 *   reach  the collectives it takes, each set within the one before:
 *            NONE  the calls of every group: sync, barrier_arrive/wait,
 *                  thread_rank, num_threads, invoke_one, the group copies
 *            PART  + those of a partition of a block: meta_group_rank/size,
 *                  reduce, inclusive/exclusive_scan, shfl, any, all
 *            WARP  + those of a group within one warp: shfl_up/down, ballot,
 *                  match_any/all, binary/labeled_partition,
 *                  invoke_one_broadcast_* (elected over its `_mask` member,
 *                  the warp mask of its threads)
 *            TILE  + those of a tile of 1..32 only: shfl_xor
 *   share  its part in a group copy (cg/group_copy.h): BLOCK (each thread
 *          block of the group copies as its own group), THREADS (its
 *          thread_rank among its num_threads) or PRESENT (its thread_rank
 *          among its num_present, for a group whose size counts threads
 *          that may not exist)
 *   ...    passed through to X after the row
 * The bare words of a row (KIND, name, arch, reach, share) are only ever
 * pasted (##), never expanded, so a user macro named TILE or grid cannot
 * reach them. Call the table with at least one argument after X (it may be
 * empty: CG_GROUP_KINDS(X, )).
 */
#ifndef CG_CG_GROUP_KINDS_H
#define CG_CG_GROUP_KINDS_H

#include "../base/config.h"

/* KIND, n, type, name, arch, reach, share */
#define CG_GROUP_KINDS(X, ...)                                                                     \
    X(THREAD_BLOCK, 1, cg_thread_block_t, thread_block, ALL, NONE, BLOCK, __VA_ARGS__)             \
    X(CLUSTER, 2, cg_cluster_t, cluster, SM90, NONE, BLOCK, __VA_ARGS__)                           \
    X(GRID, 3, cg_grid_t, grid, ALL, NONE, BLOCK, __VA_ARGS__)                                     \
    X(TILE, 4, cg_tile_t, tile, ALL, TILE, PRESENT, __VA_ARGS__)                                   \
    X(COALESCED, 5, cg_coalesced_group_t, coalesced, ALL, WARP, THREADS, __VA_ARGS__)              \
    X(WIDE_TILE, 6, cg_wide_tile_t, wide_tile, ALL, PART, THREADS, __VA_ARGS__)

/* The types a call on any group accepts, for the name of the catch-all
 * whose incomplete type is the misuse message (the preprocessor cannot
 * paste a list): every row's type, then cg_thread_group_t. Add a new
 * kind's type here too (tests/cg:group_kinds_test checks it). */
#define CG_GROUP_KINDS_ANY_NAMES_                                                                  \
    cg_thread_block_t_cg_cluster_t_cg_grid_t_cg_tile_t_cg_wide_tile_t_cg_coalesced_group_t_or_cg_thread_group_t

/* The misuse message of a call on any group: head, the names above, tail
 * (pasted after expanding the names). */
#define CG_GROUP_ANY_MSG_(head, tail) CG_GROUP_ANY_MSG2_(head, CG_GROUP_KINDS_ANY_NAMES_, tail)
#define CG_GROUP_ANY_MSG2_(head, names, tail) CG_GROUP_ANY_MSG3_(head, names, tail)
#define CG_GROUP_ANY_MSG3_(head, names, tail) head##names##tail

/* C++: the catch-all overload fn(...) of a call on groups, whose incomplete
 * return type `struct msg` is the misuse message the compiler prints at the
 * caller's line. `...` ranks below every conversion, so a call reaches it
 * only when no overload takes its arguments. Declared, never defined (no
 * call to one compiles): 114 ("referenced but not defined") and 177
 * ("declared but never referenced") would only repeat the error. */
#define CG_GROUP_CATCH_ALL_(fn, msg)                                                               \
    CG_GROUP_CATCH_ALLS_BEGIN_ struct msg;                                                         \
    static __device__ struct msg fn(...);                                                          \
    CG_GROUP_CATCH_ALLS_END_
/* Around other declared-only catch-alls (114 and 177 as above). */
#define CG_GROUP_CATCH_ALLS_BEGIN_                                                                 \
    _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 114") _Pragma("nv_diag_suppress 177")
#define CG_GROUP_CATCH_ALLS_END_ _Pragma("nv_diagnostic pop")

/* The row's device qualifier by its arch column. */
#define CG_GROUP_DEV_ALL_ CG_DEVICE
#define CG_GROUP_DEV_SM90_ CG_DEVICE_SM90

/* A run-time switch's case, by the arch column: an sm_90-only kind has one
 * only where sm_90 code is built (or in host passes). In an sm_80 build no
 * cluster group can be made (cg_this_cluster stops the build), and its case
 * would drag a Hopper-only call into every switch. */
#define CG_GROUP_IF_BUILT_ALL_(...) __VA_ARGS__
#if CG_ARCH_HAS_SM90 || !defined(__CUDA_ARCH__)
#define CG_GROUP_IF_BUILT_SM90_(...) __VA_ARGS__
#else
#define CG_GROUP_IF_BUILT_SM90_(...)
#endif

/* The arguments, only for a kind in a reach set (the reach column). */
#define CG_GROUP_IN_PART_NONE_(...)
#define CG_GROUP_IN_PART_PART_(...) __VA_ARGS__
#define CG_GROUP_IN_PART_WARP_(...) __VA_ARGS__
#define CG_GROUP_IN_PART_TILE_(...) __VA_ARGS__
#define CG_GROUP_IN_WARP_NONE_(...)
#define CG_GROUP_IN_WARP_PART_(...)
#define CG_GROUP_IN_WARP_WARP_(...) __VA_ARGS__
#define CG_GROUP_IN_WARP_TILE_(...) __VA_ARGS__
#define CG_GROUP_IN_TILE_NONE_(...)
#define CG_GROUP_IN_TILE_PART_(...)
#define CG_GROUP_IN_TILE_WARP_(...)
#define CG_GROUP_IN_TILE_TILE_(...) __VA_ARGS__
/* ... and only for a kind outside the WARP set. */
#define CG_GROUP_OUT_WARP_NONE_(...) __VA_ARGS__
#define CG_GROUP_OUT_WARP_PART_(...) __VA_ARGS__
#define CG_GROUP_OUT_WARP_WARP_(...)
#define CG_GROUP_OUT_WARP_TILE_(...)

#endif /* CG_CG_GROUP_KINDS_H */
