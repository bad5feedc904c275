/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/c11_stubs.h — a host stub of every typed call cg/generic.h's
 * C11 tables name, each recording its own name in `called`; for
 * tests/cg/generic/c11_table_test.c (one translation unit includes it) and the
 * misuse file that test compiles with gcc.
 */
#ifndef CGT_C11_STUBS_H
#define CGT_C11_STUBS_H

#include <stdint.h>

#include "cg/generic.h"
#include "tests/cg/generic/each_type.h"

/* The last stub called. */
const char *called = "";

/* ---- a stub for every typed call the tables name ---------------------------- */

/* One stub: declared (for -Wmissing-prototypes), then defined to mark its
 * parameters used (`uses`), record its name in `called` and return `ret`
 * (nothing for a void one). */
#define STUB_FN(R, name, params, uses, ret)                                                        \
    R name params;                                                                                 \
    R name params                                                                                  \
    {                                                                                              \
        uses;                                                                                      \
        called = #name;                                                                            \
        return ret;                                                                                \
    }
#define STUB_G(G, P, verb, R, cq) STUB_FN(R, P##_##verb, (cq G * g), (void)g, (R){0})
#define STUB_GA(G, P, verb, R, cq, A) STUB_FN(R, P##_##verb, (cq G * g, A a), ((void)g, (void)a), (R){0})
#define STUB_VOID(G, P, verb) STUB_FN(void, P##_##verb, (const G *g), (void)g, )
#define STUB_WAIT(G, P) STUB_FN(void, P##_barrier_wait, (const G *g, cg_token_t t), ((void)g, (void)t), )
/* Value calls: verb_sfx(const G *, W v, A a) -> W, or -> uint32_t for match. */
#define STUB_V(G, P, verb, sfx, W, A) STUB_FN(W, P##_##verb##_##sfx, (const G *g, W v, A a), ((void)g, (void)a), v)
#define STUB_MATCH(G, P, sfx, W)                                                                   \
    STUB_FN(uint32_t, P##_match_any_##sfx, (const G *g, W v), ((void)g, (void)v), 0)               \
    STUB_FN(uint32_t, P##_match_all_##sfx, (const G *g, W v, int *pred), ((void)g, (void)v, (void)pred), 0)

#define STUB_OP(G, P, verb, sfx, W) STUB_V(G, P, verb, sfx, W, cg_op_t)
#define STUB_ARG(G, P, verb, sfx, W) STUB_V(G, P, verb, sfx, W, uint32_t)
#define STUB_M(G, P, sfx, W) STUB_MATCH(G, P, sfx, W)

/* Every group: sync, barrier_arrive/wait, thread_rank, num_threads. */
#define STUB_ANY(G, P)                                                                             \
    STUB_VOID(G, P, sync)                                                                          \
    STUB_G(G, P, barrier_arrive, cg_token_t, const)                                                \
    STUB_WAIT(G, P)                                                                                \
    STUB_G(G, P, thread_rank, uint32_t, const)                                                     \
    STUB_G(G, P, num_threads, uint32_t, const)

/* Tiles, wide tiles, coalesced groups. */
#define STUB_PART(G, P)                                                                            \
    STUB_G(G, P, meta_group_rank, uint32_t, const)                                                 \
    STUB_G(G, P, meta_group_size, uint32_t, const)                                                 \
    STUB_GA(G, P, any, int, const, int)                                                            \
    STUB_GA(G, P, all, int, const, int)                                                            \
    EACH_TYPE(STUB_OP, G, P, reduce)                                                               \
    EACH_TYPE(STUB_OP, G, P, inclusive_scan)                                                       \
    EACH_TYPE(STUB_OP, G, P, exclusive_scan)                                                       \
    EACH_TYPE(STUB_ARG, G, P, shfl)
#define STUB_WARP(G, P)                                                                            \
    STUB_GA(G, P, ballot, uint32_t, const, int)                                                    \
    EACH_TYPE(STUB_ARG, G, P, shfl_up)                                                             \
    EACH_TYPE(STUB_ARG, G, P, shfl_down)                                                           \
    EACH_TYPE(STUB_M, G, P)

/* Partitions of a warp's groups. */
#define STUB_PARTITION(G, P)                                                                       \
    STUB_GA(G, P, binary_partition, cg_coalesced_group_t, const, int)                              \
    STUB_GA(G, P, labeled_partition, cg_coalesced_group_t, const, uint32_t)                        \
    STUB_GA(G, P, labeled_partition_u64, cg_coalesced_group_t, const, uint64_t)

/* Every kind of cg/group_kinds.h gets the stubs of the sets its reach
 * column puts it in; and cg_thread_group_t those of any group. */
#define STUB_KIND(KIND, n, G, name, arch, reach, share, unused)                                    \
    STUB_ANY(G, cg_##name)                                                                         \
    CG_GROUP_IN_PART_##reach##_(STUB_PART(G, cg_##name))                                           \
    CG_GROUP_IN_WARP_##reach##_(STUB_WARP(G, cg_##name) STUB_PARTITION(G, cg_##name))              \
    CG_GROUP_IN_TILE_##reach##_(EACH_TYPE(STUB_ARG, G, cg_##name, shfl_xor))
CG_GROUP_KINDS(STUB_KIND, )
STUB_ANY(cg_thread_group_t, cg_thread_group)

/* The constructors CG_TILED_PARTITION picks from: each records its name and
 * returns a group of kind K with n threads. */
#define STUB_CTOR(T, name, P, K)                                                                   \
    T name(const P *p, uint32_t n);                                                                \
    T name(const P *p, uint32_t n)                                                                 \
    {                                                                                              \
        (void)p;                                                                                   \
        called = #name;                                                                            \
        T t = {{K}, n, 0, 0, 0};                                                                   \
        return t;                                                                                  \
    }
STUB_CTOR(cg_tile_t, cg_tiled_partition, cg_thread_block_t, CG_GROUP_TILE)
STUB_CTOR(cg_tile_t, cg_tile_tiled_partition, cg_tile_t, CG_GROUP_TILE)
STUB_CTOR(cg_wide_tile_t, cg_wide_tiled_partition, cg_thread_block_t, CG_GROUP_WIDE_TILE)

#endif /* CGT_C11_STUBS_H */
