/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cg/group_copy.h — the group forms of the copies and pushes, written once:
 *
 *   cg_memcpy_async(&g, dst, src, bytes, &bar)        async/copy.h's engine
 *   cg_memcpy_async(&g, dst, src, bytes)              one stage, no barrier;
 *   cg_memcpy_async_aligned(&g, dst, src, bytes, a)   the same, alignment a
 *                                                     stated (aligned_size_t);
 *   cg_memcpy_async_aligned(&g, dst, src, bytes, a, &bar)  on a barrier,
 *                                                     alignment a stated;
 *   cg_wait(&g), cg_wait_prior(&g, n)                 then wait (C++ CG's
 *                                                     memcpy_async / wait /
 *                                                     wait_prior<n>)
 *   cg_dsmem_push(&g, dst, src, bytes, &bar, to_rank)  dsmem/dsmem.h's engine
 *
 * for g a pointer to a cg_thread_block_t, cg_tile_t, cg_coalesced_group_t,
 * cg_wide_tile_t, cg_cluster_t, cg_grid_t or cg_thread_group_t (its stored group's share).
 * Every thread of the group calls it with the same arguments (the
 * contract of cuda::memcpy_async with a group). The group is chosen from the
 * static type of `g` at compile time (as cg/generic.h) and gives the engine
 * the calling thread's rank among the threads that EXIST and their count:
 *   - a thread block: its thread rank and size;
 *   - a tile: its rank and cg_tile_num_present (a partial last tile has fewer
 *     threads than its size; they divide the whole buffer among themselves);
 *   - a coalesced group: its rank and size (every member exists);
 *   - a wide tile: its rank and size (the block is a multiple of its size);
 *   - a cluster or a grid: each thread block copies as its own group, into
 *     its own shared memory, completing on its own barrier (a block-scope
 *     barrier cannot be shared between blocks).
 */
#ifndef CG_CG_GROUP_COPY_H
#define CG_CG_GROUP_COPY_H

#include "../async/copy.h"
#include "cluster_group.h"
#include "coalesced.h"
#include "../base/config.h"
#include "../base/warp.h"
#include "generic.h"
#include "thread_group.h"
#include "grid.h"
#include "group_kinds.h"
#include "thread_block.h"
#include "tile.h"
#include "wide_tile.h"
#include "../dsmem/dsmem.h"

#if CG_DEVICE_CODE_VISIBLE

/* The calling thread's rank in its block and the block's size: the share of a
 * thread block, and of a cluster or grid group (block by block). */
CG_DEVICE uint32_t cg_copy_block_rank_(void)
{
    return CG_BLOCK_LINEAR_RANK_();
}
CG_DEVICE uint32_t cg_copy_block_count_(void) { return blockDim.x * blockDim.y * blockDim.z; }

/* Each kind's share, cg_copy_<name>_rank_ and cg_copy_<name>_count_, by the
 * share column of cg/group_kinds.h: BLOCK, its block's (block by block);
 * THREADS, its thread_rank among its num_threads; PRESENT, its thread_rank
 * among its num_present. P is the kind's typed-call prefix. */
#define CG_COPY_RANK_BLOCK_(P, g) ((void)(g), cg_copy_block_rank_())
#define CG_COPY_COUNT_BLOCK_(P, g) ((void)(g), cg_copy_block_count_())
#define CG_COPY_RANK_THREADS_(P, g) P##_thread_rank(g)
#define CG_COPY_COUNT_THREADS_(P, g) P##_num_threads(g)
#define CG_COPY_RANK_PRESENT_(P, g) P##_thread_rank(g)
#define CG_COPY_COUNT_PRESENT_(P, g) P##_num_present(g)
#define CG_COPY_SHARE_(KIND, n, type, name, arch, reach, share, unused)                            \
    CG_GROUP_DEV_##arch##_ uint32_t cg_copy_##name##_rank_(const type *g)                          \
    {                                                                                              \
        return CG_COPY_RANK_##share##_(cg_##name, g);                                              \
    }                                                                                              \
    CG_GROUP_DEV_##arch##_ uint32_t cg_copy_##name##_count_(const type *g)                         \
    {                                                                                              \
        return CG_COPY_COUNT_##share##_(cg_##name, g);                                             \
    }
CG_GROUP_KINDS(CG_COPY_SHARE_, )

/* A cg_thread_group_t's share: its stored group's (a run-time switch, which
 * folds where the kind is in sight): a case per kind of its own share, the
 * block's share for the rest (a block, or a cluster or grid block by block). */
#define CG_COPY_CASE_BLOCK_(...)
#define CG_COPY_CASE_THREADS_(...) __VA_ARGS__
#define CG_COPY_CASE_PRESENT_(...) __VA_ARGS__
#define CG_COPY_CASE_(KIND, n, type, name, arch, reach, share, verb)                               \
    CG_GROUP_IF_BUILT_##arch##_(                                                                   \
        CG_COPY_CASE_##share##_(case CG_GROUP_##KIND: return cg_copy_##name##_##verb##_(&g->_g.name##_);))
CG_DEVICE uint32_t cg_copy_thread_group_rank_(const cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    CG_GROUP_KINDS(CG_COPY_CASE_, rank)
    default: return cg_copy_block_rank_();
    }
}
CG_DEVICE uint32_t cg_copy_thread_group_count_(const cg_thread_group_t *g)
{
    switch (g->_hdr.kind) {
    CG_GROUP_KINDS(CG_COPY_CASE_, count)
    default: return cg_copy_block_count_();
    }
}

#if defined(__cplusplus)

/* The _Generic table below, as overloads: one pair per kind, and
 * cg_thread_group_t. */
#define CG_COPY_OVERLOAD_(KIND, n, type, name, arch, reach, share, unused)                         \
    CG_GROUP_DEV_##arch##_ uint32_t cg_copy_rank_(const type *g) { return cg_copy_##name##_rank_(g); } \
    CG_GROUP_DEV_##arch##_ uint32_t cg_copy_count_(const type *g) { return cg_copy_##name##_count_(g); }
CG_GROUP_KINDS(CG_COPY_OVERLOAD_, )
CG_DEVICE uint32_t cg_copy_rank_(const cg_thread_group_t *g) { return cg_copy_thread_group_rank_(g); }
CG_DEVICE uint32_t cg_copy_count_(const cg_thread_group_t *g) { return cg_copy_thread_group_count_(g); }

/* Anything else (a group passed by value, another pointer): a short error at
 * the caller's line whose text names what is accepted (as cg/generic.h).
 * Only the rank's catch-all fails, so a call reports once. */
CG_GROUP_CATCH_ALL_(cg_copy_rank_, CG_GROUP_ANY_MSG_(cg_memcpy_async_takes_a_pointer_to_a_group_, ))
CG_GROUP_CATCH_ALLS_BEGIN_ static __device__ uint32_t cg_copy_count_(...); CG_GROUP_CATCH_ALLS_END_

#define CG_COPY_RANK_(g) cg_copy_rank_(g)
#define CG_COPY_COUNT_(g) cg_copy_count_(g)

#else /* C11 */

#define CG_COPY_C11_ROW_(KIND, n, type, name, arch, reach, share, verb) type * : cg_copy_##name##_##verb##_,
#define CG_COPY_RANK_(g)                                                                           \
    _Generic((g), CG_GROUP_KINDS(CG_COPY_C11_ROW_, rank) cg_thread_group_t *: cg_copy_thread_group_rank_)(g)
#define CG_COPY_COUNT_(g)                                                                          \
    _Generic((g), CG_GROUP_KINDS(CG_COPY_C11_ROW_, count) cg_thread_group_t *: cg_copy_thread_group_count_)(g)

#endif /* __cplusplus */

/* The group copies global -> shared, completing on `bar` (async/copy.h). */
#define cg_memcpy_async_bar_(g, dst, src, bytes, bar)                                              \
    cg_memcpy_async_share(CG_COPY_RANK_(g), CG_COPY_COUNT_(g), (dst), (src), (size_t)(bytes), (bar))

/* The group copies global -> shared as one stage, waited for with cg_wait /
 * cg_wait_prior (async/copy.h's cg_memcpy_async_stage). */
#define cg_memcpy_async_stage_(g, dst, src, bytes)                                                 \
    cg_memcpy_async_stage(CG_COPY_RANK_(g), CG_COPY_COUNT_(g), (dst), (src), (size_t)(bytes))

/* The same stage when the caller states the alignment: dst, src and bytes
 * multiples of `align` (4, 8 or 16, a constant), the counterpart of C++'s
 * memcpy_async(group, dst, src, cuda::aligned_size_t<align>(bytes)):
 *   cg_memcpy_async_aligned(&b, stage, src, 16384, 16);   one cp.async.cg loop
 *   cg_memcpy_async_aligned(&t, &s[i], &g[j], 4, 4);       one cp.async of 4
 * Nothing is tested at run time (a debug build checks the promise and traps
 * with the values). Waited for with cg_wait / cg_wait_prior as the
 * four-argument form (async/copy.h, cg_memcpy_async_stage_aligned). */
#define cg_memcpy_async_aligned_stage_(g, dst, src, bytes, align)                                 \
    cg_memcpy_async_stage_aligned(CG_COPY_RANK_(g), CG_COPY_COUNT_(g), (dst), (src), (size_t)(bytes), \
                                  (uint32_t)(align))

/* The barrier form when the caller states the alignment, C++'s
 * cuda::memcpy_async(group, dst, src, cuda::aligned_size_t<align>(bytes), bar):
 *   cg_memcpy_async_aligned(&b, tile, src, 65536, 16, &bar);
 * completes on `bar` (a cg_barrier_t) like the five-argument
 * cg_memcpy_async, with nothing tested at run time and no proxy fence, as
 * libcu++'s (async/copy.h, cg_memcpy_async_share_aligned, says when to add
 * one). */
#define cg_memcpy_async_aligned_bar_(g, dst, src, bytes, align, bar)                              \
    cg_memcpy_async_share_aligned(CG_COPY_RANK_(g), CG_COPY_COUNT_(g), (dst), (src), (size_t)(bytes), \
                                  (uint32_t)(align), (bar))

/* cg_memcpy_async_aligned(&g, dst, src, bytes, align)        one stage;
 * cg_memcpy_async_aligned(&g, dst, src, bytes, align, &bar)  on a barrier.
 * Picked by the number of arguments (the ninth slot of the list below);
 * any other count (1 to 8) names
 * cg_memcpy_async_aligned_takes_5_or_6_arguments, which does not exist: the
 * compiler's error names the mistake. */
#define CG_COPY_PICK8_(a1, a2, a3, a4, a5, a6, a7, a8, name, ...) name
#define CG_COPY_ALIGNED_ARGS_ cg_memcpy_async_aligned_takes_5_or_6_arguments
#define cg_memcpy_async_aligned(...)                                                               \
    CG_COPY_PICK8_(__VA_ARGS__, CG_COPY_ALIGNED_ARGS_, CG_COPY_ALIGNED_ARGS_,                      \
                   cg_memcpy_async_aligned_bar_, cg_memcpy_async_aligned_stage_,                   \
                   CG_COPY_ALIGNED_ARGS_, CG_COPY_ALIGNED_ARGS_, CG_COPY_ALIGNED_ARGS_,            \
                   CG_COPY_ALIGNED_ARGS_, CG_COPY_ALIGNED_ARGS_)                                   \
    (__VA_ARGS__)

/* cg_memcpy_async(&g, dst, src, bytes, &bar)   completes on the barrier;
 * cg_memcpy_async(&g, dst, src, bytes)         one stage of cp.async copies
 *                                              (C++ CG's memcpy_async(group,
 *                                              dst, src, bytes)), waited for
 *                                              with cg_wait / cg_wait_prior.
 * Picked by the number of arguments (the sixth slot of the list below is
 * the pick); any other count names cg_memcpy_async_takes_4_or_5_arguments,
 * which does not exist: the compiler's error names the mistake. */
#define CG_COPY_PICK_(a1, a2, a3, a4, a5, name, ...) name
#define cg_memcpy_async(...)                                                                       \
    CG_COPY_PICK_(__VA_ARGS__, cg_memcpy_async_bar_, cg_memcpy_async_stage_,                       \
                  cg_memcpy_async_takes_4_or_5_arguments, cg_memcpy_async_takes_4_or_5_arguments,  \
                  cg_memcpy_async_takes_4_or_5_arguments, cg_memcpy_async_takes_4_or_5_arguments)  \
    (__VA_ARGS__)

/* ------------------------------------------------------------------------- */
/* wait / wait_prior: the staged copies have landed, for the whole group     */
/* ------------------------------------------------------------------------- */

/* cg_wait(&g): every copy this thread staged (four-argument cg_memcpy_async)
 * has landed (cp.async.wait_group 0), then the group's sync, so every
 * thread of g sees every byte the group copied (C++ CG's wait(group)).
 * Collective over g. Any group cg_sync takes; for a cluster or a grid, whose
 * staged copies each block makes into its own shared memory (as above), the
 * block's own cg_wait(&block) is enough and far cheaper than the cluster's or
 * grid's sync. */
#define cg_wait(g) (cg_cp_async_wait_prior(0u), cg_sync(g))

/* cg_wait_prior(&g, n): all but this thread's n newest staged copies have
 * landed (cp.async.wait_group n; n a constant folds to one instruction, a
 * run-time n is a switch over 0..7, above 7 waits as 7), then the group's
 * sync (C++ CG's wait_prior<n>(group)). Collective over g. */
#define cg_wait_prior(g, n) (cg_cp_async_wait_prior((uint32_t)(n)), cg_sync(g))

/* The typed forms. */
CG_DEVICE void cg_thread_block_wait(const cg_thread_block_t *b) { cg_cp_async_wait_prior(0u); cg_thread_block_sync(b); }
CG_DEVICE void cg_thread_block_wait_prior(const cg_thread_block_t *b, uint32_t n)
{
    cg_cp_async_wait_prior(n);
    cg_thread_block_sync(b);
}
CG_DEVICE void cg_tile_wait(const cg_tile_t *t) { cg_cp_async_wait_prior(0u); cg_tile_sync(t); }
CG_DEVICE void cg_tile_wait_prior(const cg_tile_t *t, uint32_t n)
{
    cg_cp_async_wait_prior(n);
    cg_tile_sync(t);
}
CG_DEVICE void cg_coalesced_wait(const cg_coalesced_group_t *g) { cg_cp_async_wait_prior(0u); cg_coalesced_sync(g); }
CG_DEVICE void cg_coalesced_wait_prior(const cg_coalesced_group_t *g, uint32_t n)
{
    cg_cp_async_wait_prior(n);
    cg_coalesced_sync(g);
}

/* The group pushes `bytes` from its shared `src` into CTA to_rank's `dst`,
 * completing them on CTA to_rank's `bar` (dsmem/dsmem.h). */
#define cg_dsmem_push(g, dst, src, bytes, bar, to_rank)                                            \
    cg_dsmem_push_share(CG_COPY_RANK_(g), CG_COPY_COUNT_(g), (dst), (src), (uint32_t)(bytes), (bar), \
                        (uint32_t)(to_rank))

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CG_GROUP_COPY_H */
