/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/c11_table_test.c — no GPU: the C11 form of the generic calls
 * (cg/generic.h's _Generic tables) picks the right typed call for every
 * group kind and every value type.
 *
 * nvcc compiles every .cu file as C++, so device code only ever meets the
 * mirrored overload set (tests/cg/generic:ptx_test checks that one). This test
 * compiles the _Generic side with the host C compiler instead: each typed
 * call the tables name is a host stub here that records its own name, and
 * each case calls a generic macro and expects the stub of the typed call
 * the C++ overloads pick (the same rows). The value's type and the
 * group's constness are part of each case; so is the conversion of an 8- or
 * 16-bit integer, a long long and an unsigned long to its row's type.
 * A misuse (a group by value) must not compile with gcc either, and gcc's
 * message must name the accepted types.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "cg/generic.h"
#include "tests/support/cgtest.h"

TestSuite(generic_c11, .timeout = 120);

#include "tests/cg/generic/c11_stubs.h"

/* ---- the checks ------------------------------------------------------------------ */

#define EXPECT_CALLS(expr, name)                                                                   \
    do {                                                                                           \
        called = "";                                                                               \
        (void)(expr);                                                                              \
        cr_expect_str_eq(called, name, "%s called %s, expected %s", #expr, called, name);          \
    } while (0)
#define EXPECT_CALLS_VOID(stmt, name)                                                              \
    do {                                                                                           \
        called = "";                                                                               \
        stmt;                                                                                      \
        cr_expect_str_eq(called, name, "%s called %s, expected %s", #stmt, called, name);          \
    } while (0)

/* cg_sync on one group of every kind (pointers, or pointers to const). */
#define EXPECT_SYNC_EVERY_KIND(b, cl, gr, t, c, w, tg)                                             \
    do {                                                                                           \
        EXPECT_CALLS_VOID(cg_sync(b), "cg_thread_block_sync");                                     \
        EXPECT_CALLS_VOID(cg_sync(cl), "cg_cluster_sync");                                         \
        EXPECT_CALLS_VOID(cg_sync(gr), "cg_grid_sync");                                            \
        EXPECT_CALLS_VOID(cg_sync(t), "cg_tile_sync");                                             \
        EXPECT_CALLS_VOID(cg_sync(c), "cg_coalesced_sync");                                        \
        EXPECT_CALLS_VOID(cg_sync(w), "cg_wide_tile_sync");                                        \
        EXPECT_CALLS_VOID(cg_sync(tg), "cg_thread_group_sync");                                    \
    } while (0)

Test(generic_c11, every_group_kind_picks_its_own_call)
{
    cg_thread_block_t b = {0};
    cg_cluster_t cl = {0};
    cg_grid_t gr = {0};
    cg_tile_t t = {0};
    cg_coalesced_group_t c = {0};
    cg_wide_tile_t w = {0};
    cg_thread_group_t tg = {0};
    const cg_tile_t *ct = &t;
    cg_token_t tok = {0};
    EXPECT_SYNC_EVERY_KIND(&b, &cl, &gr, &t, &c, &w, &tg);
    EXPECT_CALLS(cg_barrier_arrive(&cl), "cg_cluster_barrier_arrive");
    EXPECT_CALLS_VOID(cg_barrier_wait(&gr, tok), "cg_grid_barrier_wait");
    EXPECT_CALLS(cg_thread_rank(ct), "cg_tile_thread_rank");
    EXPECT_CALLS(cg_thread_rank(&w), "cg_wide_tile_thread_rank");
    EXPECT_CALLS(cg_num_threads(&tg), "cg_thread_group_num_threads");
    EXPECT_CALLS(cg_num_threads(&b), "cg_thread_block_num_threads");
    EXPECT_CALLS(cg_meta_group_rank(&c), "cg_coalesced_meta_group_rank");
    EXPECT_CALLS(cg_meta_group_size(&w), "cg_wide_tile_meta_group_size");
    EXPECT_CALLS(cg_any(&w, 1), "cg_wide_tile_any");
    EXPECT_CALLS(cg_all(ct, 0), "cg_tile_all");
    EXPECT_CALLS(cg_ballot(&c, 1), "cg_coalesced_ballot");
}

/* Issue 34.1: a pointer to const picks the call a pointer picks, for every
 * kind and every call on any group (the stubs take const, as the typed
 * calls that do not change their group do). */
Test(generic_c11, a_pointer_to_const_picks_the_same_call)
{
    const cg_thread_block_t b = {0};
    const cg_cluster_t cl = {0};
    const cg_grid_t gr = {0};
    const cg_tile_t t = {0};
    const cg_coalesced_group_t c = {0};
    const cg_wide_tile_t w = {0};
    const cg_thread_group_t tg = {0};
    cg_token_t tok = {0};
    EXPECT_SYNC_EVERY_KIND(&b, &cl, &gr, &t, &c, &w, &tg);
    EXPECT_CALLS(cg_barrier_arrive(&cl), "cg_cluster_barrier_arrive");
    EXPECT_CALLS(cg_barrier_arrive(&t), "cg_tile_barrier_arrive");
    EXPECT_CALLS(cg_barrier_arrive(&w), "cg_wide_tile_barrier_arrive");
    EXPECT_CALLS_VOID(cg_barrier_wait(&c, tok), "cg_coalesced_barrier_wait");
    EXPECT_CALLS_VOID(cg_barrier_wait(&gr, tok), "cg_grid_barrier_wait");
    EXPECT_CALLS(cg_thread_rank(&b), "cg_thread_block_thread_rank");
    EXPECT_CALLS(cg_num_threads(&tg), "cg_thread_group_num_threads");
    EXPECT_CALLS(cg_meta_group_rank(&c), "cg_coalesced_meta_group_rank");
    EXPECT_CALLS(cg_reduce(&t, 1.0f, CG_OP_PLUS), "cg_tile_reduce_f32");
    EXPECT_CALLS(cg_shfl_down(&c, 1u, 1u), "cg_coalesced_shfl_down_u32");
}

Test(generic_c11, every_value_type_picks_its_row)
{
    cg_tile_t t = {0};
    cg_coalesced_group_t c = {0};
    cg_wide_tile_t w = {0};
    const cg_wide_tile_t *cw = &w;
    int pred = 0;
    EXPECT_CALLS(cg_reduce(&t, (char)1, CG_OP_PLUS), "cg_tile_reduce_i32");
    EXPECT_CALLS(cg_reduce(&t, (signed char)1, CG_OP_PLUS), "cg_tile_reduce_i32");
    EXPECT_CALLS(cg_reduce(&t, (unsigned char)1, CG_OP_PLUS), "cg_tile_reduce_u32");
    EXPECT_CALLS(cg_reduce(&t, (short)1, CG_OP_PLUS), "cg_tile_reduce_i32");
    EXPECT_CALLS(cg_reduce(&t, (unsigned short)1, CG_OP_PLUS), "cg_tile_reduce_u32");
    EXPECT_CALLS(cg_reduce(&t, 1, CG_OP_PLUS), "cg_tile_reduce_i32");
    EXPECT_CALLS(cg_reduce(&t, 1u, CG_OP_PLUS), "cg_tile_reduce_u32");
    EXPECT_CALLS(cg_reduce(&t, (int32_t)1, CG_OP_PLUS), "cg_tile_reduce_i32");
    EXPECT_CALLS(cg_reduce(&t, (uint32_t)1, CG_OP_PLUS), "cg_tile_reduce_u32");
    if (sizeof(long) == 8) {
        EXPECT_CALLS(cg_reduce(&t, 1l, CG_OP_PLUS), "cg_tile_reduce_i64");
        EXPECT_CALLS(cg_reduce(&t, 1ul, CG_OP_PLUS), "cg_tile_reduce_u64");
    }
    EXPECT_CALLS(cg_reduce(&t, 1ll, CG_OP_PLUS), "cg_tile_reduce_i64");
    EXPECT_CALLS(cg_reduce(&t, 1ull, CG_OP_PLUS), "cg_tile_reduce_u64");
    EXPECT_CALLS(cg_reduce(&t, (int64_t)1, CG_OP_PLUS), "cg_tile_reduce_i64");
    EXPECT_CALLS(cg_reduce(&t, (uint64_t)1, CG_OP_PLUS), "cg_tile_reduce_u64");
    EXPECT_CALLS(cg_reduce(&t, (size_t)1, CG_OP_PLUS), "cg_tile_reduce_u64");
    EXPECT_CALLS(cg_reduce(&t, 1.0f, CG_OP_PLUS), "cg_tile_reduce_f32");
    EXPECT_CALLS(cg_reduce(&t, 1.0, CG_OP_PLUS), "cg_tile_reduce_f64");
    /* every verb on every kind that takes it */
    EXPECT_CALLS(cg_reduce(&c, 1.0, CG_OP_LESS), "cg_coalesced_reduce_f64");
    EXPECT_CALLS(cg_reduce(cw, 1u, CG_OP_GREATER), "cg_wide_tile_reduce_u32");
    EXPECT_CALLS(cg_inclusive_scan(&t, 1.0f, CG_OP_PLUS), "cg_tile_inclusive_scan_f32");
    EXPECT_CALLS(cg_inclusive_scan(&c, 1ll, CG_OP_PLUS), "cg_coalesced_inclusive_scan_i64");
    EXPECT_CALLS(cg_inclusive_scan(&w, 1, CG_OP_PLUS), "cg_wide_tile_inclusive_scan_i32");
    EXPECT_CALLS(cg_exclusive_scan(&t, (uint64_t)1, CG_OP_BIT_OR), "cg_tile_exclusive_scan_u64");
    EXPECT_CALLS(cg_exclusive_scan(&c, 1u, CG_OP_PLUS), "cg_coalesced_exclusive_scan_u32");
    EXPECT_CALLS(cg_exclusive_scan(&w, 1.0, CG_OP_PLUS), "cg_wide_tile_exclusive_scan_f64");
    EXPECT_CALLS(cg_shfl(&t, 1.0, 3), "cg_tile_shfl_f64");
    EXPECT_CALLS(cg_shfl(&c, 1ull, 3), "cg_coalesced_shfl_u64");
    EXPECT_CALLS(cg_shfl(&w, 1.0f, 3), "cg_wide_tile_shfl_f32");
    EXPECT_CALLS(cg_shfl_up(&t, 1, 1), "cg_tile_shfl_up_i32");
    EXPECT_CALLS(cg_shfl_up(&c, 1.0f, 1), "cg_coalesced_shfl_up_f32");
    EXPECT_CALLS(cg_shfl_down(&t, 1ll, 1), "cg_tile_shfl_down_i64");
    EXPECT_CALLS(cg_shfl_down(&c, 1u, 1), "cg_coalesced_shfl_down_u32");
    EXPECT_CALLS(cg_shfl_xor(&t, 1.0, 1), "cg_tile_shfl_xor_f64");
    EXPECT_CALLS(cg_match_any(&t, 1.0f), "cg_tile_match_any_f32");
    EXPECT_CALLS(cg_match_any(&c, (uint64_t)1), "cg_coalesced_match_any_u64");
    EXPECT_CALLS(cg_match_all(&t, 1, &pred), "cg_tile_match_all_i32");
    EXPECT_CALLS(cg_match_all(&c, 1.0, &pred), "cg_coalesced_match_all_f64");
    EXPECT_CALLS(cg_binary_partition(&t, 1), "cg_tile_binary_partition");
    EXPECT_CALLS(cg_binary_partition(&c, 0), "cg_coalesced_binary_partition");
    EXPECT_CALLS(cg_labeled_partition(&t, 7u), "cg_tile_labeled_partition");
    EXPECT_CALLS(cg_labeled_partition(&c, (short)7), "cg_coalesced_labeled_partition");
    EXPECT_CALLS(cg_labeled_partition(&t, 7ull), "cg_tile_labeled_partition_u64");
    EXPECT_CALLS(cg_labeled_partition(&c, (uint64_t)7), "cg_coalesced_labeled_partition_u64");
    /* Issue 34.9: a bool label is binary_partition, as C++ CG and the C++ overloads. */
    EXPECT_CALLS(cg_labeled_partition(&t, (_Bool)1), "cg_tile_binary_partition");
    EXPECT_CALLS(cg_labeled_partition(&c, 3 > 2), "cg_coalesced_labeled_partition");
}

Test(generic_c11, a_tile_of_any_size_in_one_spelling)
{
    cg_thread_block_t b = {0};
    cg_tile_t parent = {0};
    called = "";
    CG_TILE_T(16) t16 = CG_TILED_PARTITION(&b, 16);
    cr_expect_str_eq(called, "cg_tiled_partition");
    CG_TILE_T(32) t32 = CG_TILED_PARTITION(&b, 32);
    CG_TILE_T(8) t8 = CG_TILED_PARTITION(&parent, 8);
    cr_expect_str_eq(called, "cg_tile_tiled_partition");
    CG_TILE_T(64) t64 = CG_TILED_PARTITION(&b, 64);
    cr_expect_str_eq(called, "cg_wide_tiled_partition");
    CG_TILE_T(1024) t1024 = CG_TILED_PARTITION(&b, 1024);
    cr_expect(_Generic(t16, cg_tile_t: 1, default: 0), "CG_TILE_T(16) is not cg_tile_t");
    cr_expect(_Generic(t32, cg_tile_t: 1, default: 0), "CG_TILE_T(32) is not cg_tile_t");
    cr_expect(_Generic(t64, cg_wide_tile_t: 1, default: 0), "CG_TILE_T(64) is not cg_wide_tile_t");
    cr_expect(_Generic(t1024, cg_wide_tile_t: 1, default: 0), "CG_TILE_T(1024) is not cg_wide_tile_t");
    cr_expect_eq(t8._size, 8u);
    cr_expect_eq(t1024._size, 1024u);
    /* and the generic calls take both */
    EXPECT_CALLS(cg_reduce(&t16, 1.0, CG_OP_PLUS), "cg_tile_reduce_f64");
    EXPECT_CALLS(cg_reduce(&t64, 1.0, CG_OP_PLUS), "cg_wide_tile_reduce_f64");
}

/* A misuse stops gcc too, at the caller's line: a pointer to something else
 * with the message that names the accepted types, a group passed by value
 * as an argument the catch-all refuses. Host C built with -Wstrict-prototypes
 * -Werror still compiles the header (the catch-alls are prototyped). */
Test(generic_c11, a_misuse_does_not_compile)
{
    char dir[512], src[600], cmd[4096], log[8192], root[1024];
    cr_assert(getcwd(root, sizeof root) != NULL);
    snprintf(dir, sizeof dir, "%s/c11_misuse_%d", cgt_tmpdir(), (int)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(src, sizeof src, "%s/misuse.c", dir);
    FILE *f = fopen(src, "w");
    cr_assert(f != NULL);
    fputs("#include \"tests/cg/generic/c11_stubs.h\"\n"
          "void user(cg_thread_block_t b, int *p);\n"
          "void user(cg_thread_block_t b, int *p)\n"
          "{\n"
          "    cg_sync(b);\n" /* line 5 */
          "    (void)cg_reduce(p, 1, CG_OP_PLUS);\n" /* line 6 */
          "}\n",
          f);
    fclose(f);
    snprintf(cmd, sizeof cmd, "cd '%s' && gcc -std=c11 -fsyntax-only -I'%s' misuse.c 2>&1", dir, root);
    int rc = cgt_run(cmd, log, sizeof log);
    cr_expect_neq(rc, 0, "gcc compiled the misuses:\n%s", log);
    cr_expect(strstr(log, "misuse.c:5") != NULL && strstr(log, "misuse.c:6") != NULL,
              "the callers' lines misuse.c:5 and :6 are not named:\n%s", log);
    cr_expect(strstr(log, "cg_generic_sync_") != NULL, "the by-value error does not name the call:\n%s", log);
    cr_expect(strstr(log, "cg_reduce_takes_a_pointer_to_a_cg_tile_t") != NULL, "gcc said:\n%s", log);

    FILE *g = fopen(src, "w");
    cr_assert(g != NULL);
    fputs("#include \"cg/generic.h\"\nint main(void) { return 0; }\n", g);
    fclose(g);
    snprintf(cmd, sizeof cmd,
             "cd '%s' && gcc -std=c11 -Wall -Wextra -Wstrict-prototypes -pedantic -Werror -fsyntax-only -I'%s' "
             "misuse.c 2>&1",
             dir, root);
    rc = cgt_run(cmd, log, sizeof log);
    cr_expect_eq(rc, 0, "host C with -Wstrict-prototypes -pedantic -Werror does not compile cg/generic.h:\n%s", log);
}
