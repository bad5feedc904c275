/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/collectives/ptx_test.c — what the collectives compile to, beside C++
 * CG's own calls (host test: reads the PTX the build made from
 * ptx_probes.cu; runs everywhere, no GPU):
 *   - a 32-bit integer reduction of a tile of 16 or 32 with a constant
 *     operator is exactly one redux.sync of that operator's form and no
 *     shuffle, as C++ CG's;
 *   - butterfly reductions and scans issue as many shuffles of each kind as
 *     C++ CG's (a cgc reduction also carries the partial-tile path, taken
 *     only in a partial last warp; its shuffles are counted apart);
 *   - a constant operator folds: no compare in a float sum, no add in a
 *     float minimum;
 *   - a coalesced group's 32-bit reduction is one redux.sync, its ballot a
 *     redux.sync.or (partial groups) beside the plain ballot (groups of 32). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/collectives/ptx_probes.ptx"

TestSuite(collectives_ptx, .timeout = 30);

/* The bodies of cgc_<probe> and cpp_<probe>. */
typedef struct pair {
    char *cgc, *cpp;
} pair_t;

static pair_t probe(const char *ptx, const char *name)
{
    char n[128];
    pair_t p;
    snprintf(n, sizeof n, "cgc_%s", name);
    p.cgc = cgt_ptx_function(ptx, n);
    snprintf(n, sizeof n, "cpp_%s", name);
    p.cpp = cgt_ptx_function(ptx, n);
    return p;
}

static void release(pair_t p)
{
    free(p.cgc);
    free(p.cpp);
}

/* One redux.sync of `form` in both, no shuffle in either. */
static void expect_one_redux(const char *ptx, const char *name, const char *form)
{
    pair_t p = probe(ptx, name);
    cr_expect_eq(cgt_count(p.cgc, "redux.sync"), 1u, "%s: cgc has %zu redux.sync:\n%s", name,
                 cgt_count(p.cgc, "redux.sync"), p.cgc);
    cr_expect_eq(cgt_count(p.cgc, form), 1u, "%s: cgc lacks %s:\n%s", name, form, p.cgc);
    cr_expect_eq(cgt_count(p.cgc, "shfl.sync"), 0u, "%s: cgc shuffles:\n%s", name, p.cgc);
    cr_expect_eq(cgt_count(p.cpp, form), 1u, "%s: C++ CG lacks %s (the oracle changed?):\n%s", name, form, p.cpp);
    release(p);
}

/* As many shuffles of `kind` in cgc as in C++ CG. */
static void expect_same_count(const char *ptx, const char *name, const char *kind, size_t want)
{
    pair_t p = probe(ptx, name);
    cr_expect_eq(cgt_count(p.cpp, kind), want, "%s: C++ CG has %zu %s, expected %zu:\n%s", name,
                 cgt_count(p.cpp, kind), kind, want, p.cpp);
    cr_expect_eq(cgt_count(p.cgc, kind), cgt_count(p.cpp, kind), "%s: cgc has %zu %s, C++ CG %zu:\n%s", name,
                 cgt_count(p.cgc, kind), kind, cgt_count(p.cpp, kind), p.cgc);
    release(p);
}

static void expect_none(const char *ptx, const char *name, const char *what)
{
    pair_t p = probe(ptx, name);
    cr_expect_eq(cgt_count(p.cgc, what), 0u, "%s: cgc has %s (operator not folded?):\n%s", name, what, p.cgc);
    release(p);
}

Test(collectives_ptx, integer_reductions_are_one_redux)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    expect_one_redux(ptx, "reduce_plus_i32", "redux.sync.add.s32");
    expect_one_redux(ptx, "reduce_less_i32", "redux.sync.min.s32");
    expect_one_redux(ptx, "reduce_greater_i32", "redux.sync.max.s32");
    expect_one_redux(ptx, "reduce_plus_u32", "redux.sync.add.u32");
    expect_one_redux(ptx, "reduce_less_u32", "redux.sync.min.u32");
    expect_one_redux(ptx, "reduce_greater_u32", "redux.sync.max.u32");
    expect_one_redux(ptx, "reduce_and_u32", "redux.sync.and.b32");
    expect_one_redux(ptx, "reduce_or_i32", "redux.sync.or.b32");
    expect_one_redux(ptx, "reduce_xor_u32", "redux.sync.xor.b32");
    expect_one_redux(ptx, "coalesced_reduce_plus_i32", "redux.sync.add.s32");
    free(ptx);
}

Test(collectives_ptx, butterflies_and_scans_match_cpp_cg)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    /* Tile of 8: butterfly of 3 steps (the partial-tile redux apart). */
    expect_same_count(ptx, "reduce_plus_i32_n8", "shfl.sync.bfly", 3);
    expect_same_count(ptx, "reduce_plus_f32", "shfl.sync.bfly", 5);
    expect_same_count(ptx, "reduce_less_f64", "shfl.sync.bfly", 10); /* 2 words a step */
    expect_same_count(ptx, "reduce_plus_i64", "shfl.sync.bfly", 8);
    expect_same_count(ptx, "incl_plus_f32", "shfl.sync.up", 5);
    expect_same_count(ptx, "incl_plus_f32", "add.f32", 5);
    expect_same_count(ptx, "excl_plus_i32", "shfl.sync.up", 5); /* integer plus: inclusive - own, no shuffle */
    expect_same_count(ptx, "excl_greater_f64", "shfl.sync.up", 10); /* 4 steps + the shift, 2 words each */
    free(ptx);
}

Test(collectives_ptx, constant_operators_fold)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    expect_none(ptx, "reduce_plus_f32", "setp.lt.f32");
    expect_none(ptx, "reduce_plus_f32", "setp.gt.f32");
    expect_none(ptx, "reduce_less_f64", "add.f64");
    expect_none(ptx, "reduce_plus_i32", "min.");
    expect_none(ptx, "reduce_plus_i32", "max.");
    free(ptx);
}

Test(collectives_ptx, coalesced_ballot_forms)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    pair_t p = probe(ptx, "coalesced_ballot");
    cr_expect_eq(cgt_count(p.cgc, "redux.sync.or.b32"), 1u, "ballot of a partial group:\n%s", p.cgc);
    cr_expect_geq(cgt_count(p.cgc, "vote.sync.ballot.b32"), 1u, "ballot of a group of 32:\n%s", p.cgc);
    release(p);
    free(ptx);
}
