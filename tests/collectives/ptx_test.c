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

/* The warp instructions of a piece of PTX, by kind. */
typedef struct warp_counts {
    size_t bfly, up, down, idx, redux, vote, match;
} warp_counts_t;

static warp_counts_t warp_count(const char *text)
{
    warp_counts_t c;
    c.bfly = cgt_count(text, "shfl.sync.bfly");
    c.up = cgt_count(text, "shfl.sync.up");
    c.down = cgt_count(text, "shfl.sync.down");
    c.idx = cgt_count(text, "shfl.sync.idx");
    c.redux = cgt_count(text, "redux.sync");
    c.vote = cgt_count(text, "vote.sync");
    c.match = cgt_count(text, "match.");
    return c;
}

static int warp_counts_eq(warp_counts_t a, warp_counts_t b)
{
    return a.bfly == b.bfly && a.up == b.up && a.down == b.down && a.idx == b.idx && a.redux == b.redux &&
           a.vote == b.vote && a.match == b.match;
}

static size_t warp_total(warp_counts_t c) { return c.bfly + c.up + c.down + c.idx + c.redux + c.vote + c.match; }

/* Splits a PTX body into basic blocks (a label starts one, a branch or ret
 * ends one) and returns a copy of the first block whose warp instructions are
 * exactly `want`, or NULL. Caller frees. */
static char *block_with(const char *body, warp_counts_t want)
{
    size_t cap = strlen(body) + 1;
    char *blk = malloc(cap);
    cr_assert(blk != NULL);
    size_t n = 0;
    const char *p = body;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *s = p;
        while (s < p + len && (*s == ' ' || *s == '\t'))
            ++s;
        size_t slen = (size_t)(p + len - s);
        int label = slen > 0 && *s == '$' && s[slen - 1] == ':';
        int ends = 0;
        if (!label && slen > 0) {
            /* "bra", "@%p1 bra", "ret": the block ends after this line */
            const char *op = s;
            if (*op == '@') {
                while (op < s + slen && *op != ' ' && *op != '\t')
                    ++op;
                while (op < s + slen && (*op == ' ' || *op == '\t'))
                    ++op;
            }
            ends = strncmp(op, "bra", 3) == 0 || strncmp(op, "ret", 3) == 0;
            memcpy(blk + n, s, slen);
            n += slen;
            blk[n++] = '\n';
        }
        if (label || ends || !eol) {
            blk[n] = '\0';
            if (warp_counts_eq(warp_count(blk), want))
                return blk;
            n = 0;
        }
        p += len;
        if (*p == '\n')
            ++p;
    }
    free(blk);
    return NULL;
}

/* 1 when every shuffle and redux.sync line of `blk` names the full warp as its
 * member mask: the literal -1, or a register that `body` sets to -1. */
static int masks_constant_full(const char *body, const char *blk)
{
    const char *p = blk;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        char line[256];
        size_t l = len < sizeof line - 1 ? len : sizeof line - 1;
        memcpy(line, p, l);
        line[l] = '\0';
        if (strstr(line, "shfl.sync") || strstr(line, "redux.sync")) {
            char *semi = strrchr(line, ';');
            char *comma = strrchr(line, ',');
            if (!semi || !comma || comma > semi)
                return 0;
            *semi = '\0';
            char *op = comma + 1;
            while (*op == ' ')
                ++op;
            if (strcmp(op, "-1") != 0) {
                char pat[64];
                snprintf(pat, sizeof pat, "mov.u32 \t%s, -1;", op);
                char pat2[64];
                snprintf(pat2, sizeof pat2, "mov.b32 \t%s, -1;", op);
                if (!strstr(body, pat) && !strstr(body, pat2))
                    return 0;
            }
        }
        p += len;
        if (*p == '\n')
            ++p;
    }
    return 1;
}

/* cgc's whole-tile path of probe `name` is one basic block with exactly C++
 * CG's warp instructions (every shuffle and redux.sync of C++ CG's straight-
 * line code, none more), and `want_total` of them. With `full_mask`, both
 * name the constant full warp mask there (tiles of 32). Other blocks of cgc's
 * function may hold the partial-tile path. */
static void expect_fast_path(const char *ptx, const char *name, size_t want_total, int full_mask)
{
    pair_t p = probe(ptx, name);
    warp_counts_t cpp = warp_count(p.cpp);
    cr_expect_eq(warp_total(cpp), want_total, "%s: C++ CG has %zu warp instructions, expected %zu (the oracle changed?):\n%s",
                 name, warp_total(cpp), want_total, p.cpp);
    char *fast = block_with(p.cgc, cpp);
    cr_expect(fast != NULL,
              "%s: no basic block of cgc holds exactly C++ CG's warp instructions (bfly %zu up %zu down %zu idx %zu "
              "redux %zu vote %zu match %zu); cgc:\n%s",
              name, cpp.bfly, cpp.up, cpp.down, cpp.idx, cpp.redux, cpp.vote, cpp.match, p.cgc);
    if (fast && full_mask) {
        cr_expect(masks_constant_full(p.cpp, p.cpp), "%s: C++ CG's mask is not the constant -1 (the oracle changed?):\n%s",
                  name, p.cpp);
        cr_expect(masks_constant_full(p.cgc, fast), "%s: cgc's whole-tile path has a run-time mask:\n%s", name, fast);
    }
    free(fast);
    release(p);
}

/* The whole function of cgc holds exactly C++ CG's warp instructions (no
 * partial-tile path at all: redux.sync and scans cover partial tiles as they
 * are). */
static void expect_same_code_path(const char *ptx, const char *name)
{
    pair_t p = probe(ptx, name);
    warp_counts_t a = warp_count(p.cgc), b = warp_count(p.cpp);
    cr_expect(warp_counts_eq(a, b),
              "%s: cgc bfly %zu up %zu idx %zu redux %zu vote %zu match %zu popc %zu; C++ CG bfly %zu up %zu idx %zu "
              "redux %zu:\n%s",
              name, a.bfly, a.up, a.idx, a.redux, a.vote, a.match, cgt_count(p.cgc, "popc"), b.bfly, b.up, b.idx,
              b.redux, p.cgc);
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
    /* Butterflies: the whole-tile path is C++ CG's (the partial-tile path,
     * taken only in a partial last warp, lies in other blocks). Tile of 8:
     * 3 steps (the partial-tile redux apart). */
    expect_fast_path(ptx, "reduce_plus_i32_n8", 3, 0);
    expect_fast_path(ptx, "reduce_plus_f32", 5, 1);
    expect_fast_path(ptx, "reduce_less_f64", 10, 1); /* 2 words a step */
    expect_fast_path(ptx, "reduce_plus_i64", 8, 0);
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

/* The benchmark's calls (bench/cgc_rows.cu): each whole-tile path is C++ CG's
 * warp code, with the constant full mask on tiles of 32. Before the fix the
 * tile-32 calls passed the tile's mask from a register and the butterflies
 * sat behind a branch ptxas could not see was warp-uniform (the benchmark
 * measured 1.04 to 1.39 x C++ CG's time). docs/design/collectives.md. */
Test(collectives_ptx, benchmark_calls_take_cpp_cg_code)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    expect_same_code_path(ptx, "fast_reduce32_i32");
    expect_fast_path(ptx, "fast_reduce32_i32", 1, 1);
    expect_same_code_path(ptx, "fast_reduce16_i32");
    expect_fast_path(ptx, "fast_reduce16_i32", 1, 0);
    expect_fast_path(ptx, "fast_reduce32_f32", 5, 1);
    expect_fast_path(ptx, "fast_reduce32_f64", 10, 1);
    expect_fast_path(ptx, "fast_reduce16_f32", 4, 0);
    expect_fast_path(ptx, "fast_reduce16_f64", 8, 0);
    expect_fast_path(ptx, "fast_reduce32_less_f32", 5, 1);
    expect_same_code_path(ptx, "fast_scan32_i32");
    expect_fast_path(ptx, "fast_scan32_i32", 5, 1);
    expect_same_code_path(ptx, "fast_scan32_f32");
    expect_fast_path(ptx, "fast_scan32_f32", 5, 1);
    expect_same_code_path(ptx, "fast_scan32_f64");
    expect_fast_path(ptx, "fast_scan32_f64", 10, 1);
    expect_same_code_path(ptx, "fast_scan16_i32");
    expect_fast_path(ptx, "fast_scan16_i32", 4, 0);
    expect_same_code_path(ptx, "fast_scan16_f32");
    expect_fast_path(ptx, "fast_scan16_f64", 8, 0);
    free(ptx);
}
