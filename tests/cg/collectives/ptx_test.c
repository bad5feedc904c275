/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/collectives/ptx_test.c — what the collectives compile to, beside C++
 * CG's own calls (host test: reads the PTX the build made from
 * ptx_probes.cu; runs everywhere, no GPU):
 *   - a 32-bit integer reduction of a tile of 16 or 32 with a constant
 *     operator is exactly one redux.sync of that operator's form and no
 *     shuffle, as C++ CG's;
 *   - butterfly reductions and scans issue as many shuffles of each kind as
 *     C++ CG's; for a reduction this is the path a block without a partial
 *     warp takes (branching only on the block size), the partial-tile path
 *     lying off it;
 *   - the benchmark's calls (bench/cgc_rows.cu) take exactly C++ CG's warp
 *     instructions on that path, with the constant full mask on tiles of 32
 *     (docs/design/collectives.md);
 *   - a constant operator folds: no compare in a float sum, no add in a
 *     float minimum;
 *   - a coalesced group's 32-bit reduction is one redux.sync, its ballot a
 *     redux.sync.or (partial groups) beside the plain ballot (groups of 32);
 *   - a reduction in a loop compiles to C++ CG's loop: the block-size test
 *     unswitched out of it, as many butterfly shuffles (unrolled alike). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/cg/collectives/ptx_probes.ptx"

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

/* One PTX line, trimmed, into `out` (a label keeps its colon). */
static void line_at(const char *p, char *out, size_t cap, const char **next)
{
    const char *eol = strchr(p, '\n');
    size_t len = eol ? (size_t)(eol - p) : strlen(p);
    const char *s = p;
    while (s < p + len && (*s == ' ' || *s == '\t'))
        ++s;
    size_t n = (size_t)(p + len - s);
    if (n > cap - 1)
        n = cap - 1;
    memcpy(out, s, n);
    out[n] = '\0';
    *next = eol ? eol + 1 : p + len;
}

/* The line of `body` that defines register `reg` ("op \treg, ..."), or NULL. */
static const char *def_of(const char *body, const char *reg)
{
    char pat[48];
    snprintf(pat, sizeof pat, "\t%s, ", reg);
    const char *q = strstr(body, pat);
    if (!q)
        return NULL;
    while (q > body && q[-1] != '\n')
        --q;
    return q;
}

/* 1 when predicate `pred` is set from the block-size test "(ntid.x * ntid.y
 * * ntid.z) & 31 == 0" (setp.eq/ne against 0 of an and with 31 of a product);
 * *whole_if gets the predicate value that means "no partial warp". */
static int is_block_test(const char *body, const char *pred, int *whole_if)
{
    char ln[256], a[32], b[32], c[32];
    const char *nx;
    const char *d = def_of(body, pred);
    if (!d)
        return 0;
    line_at(d, ln, sizeof ln, &nx);
    int eq = strncmp(ln, "setp.eq.", 8) == 0, ne = strncmp(ln, "setp.ne.", 8) == 0;
    if (!(eq || ne) || sscanf(strchr(ln, '\t') ? strchr(ln, '\t') : ln, " %31[^,], %31[^,], %31[^;];", a, b, c) != 3 ||
        strcmp(c, "0") != 0)
        return 0;
    d = def_of(body, b);
    if (!d)
        return 0;
    line_at(d, ln, sizeof ln, &nx);
    if (strncmp(ln, "and.b32", 7) != 0 || sscanf(strchr(ln, '\t'), " %31[^,], %31[^,], %31[^;];", a, b, c) != 3 ||
        strcmp(c, "31") != 0)
        return 0;
    d = def_of(body, b);
    if (!d)
        return 0;
    line_at(d, ln, sizeof ln, &nx);
    if (strncmp(ln, "mul.lo.s32", 10) != 0)
        return 0;
    *whole_if = eq;
    return 1;
}

/* The instructions a launch whose block has no partial warp executes in
 * `body`, from the entry to its ret, into a new string; a conditional branch
 * on anything but the block-size test ends the walk with NULL and a message
 * in `why`. Caller frees. */
static char *whole_block_path(const char *body, char *why, size_t why_cap)
{
    size_t cap = strlen(body) * 2 + 1;
    char *out = malloc(cap);
    cr_assert(out != NULL);
    size_t n = 0;
    const char *p = strchr(body, '{');
    p = p ? p + 1 : body;
    for (int steps = 0; steps < 20000 && *p; ++steps) {
        char ln[256];
        const char *next;
        line_at(p, ln, sizeof ln, &next);
        p = next;
        if (ln[0] == '\0' || ln[0] == '.' || ln[0] == '/' || ln[0] == '$' || ln[0] == '{' || ln[0] == '}')
            continue;
        const char *op = ln;
        char pred[32] = "";
        int neg = 0;
        if (ln[0] == '@') {
            neg = ln[1] == '!';
            sscanf(ln + 1 + neg, "%31s", pred);
            op = strchr(ln, ' ');
            op = op ? op + 1 : ln;
            while (*op == ' ' || *op == '\t')
                ++op;
        }
        if (strncmp(op, "ret", 3) == 0) {
            out[n] = '\0';
            return out;
        }
        if (strncmp(op, "bra", 3) == 0) {
            int take = 1;
            if (pred[0]) {
                int whole_if;
                if (!is_block_test(body, pred, &whole_if)) {
                    snprintf(why, why_cap, "branch on %s%s, not on the block size: %s", neg ? "!" : "", pred, ln);
                    free(out);
                    return NULL;
                }
                take = neg ? !whole_if : whole_if;
            }
            if (take) {
                char label[64], pat[72];
                const char *t = strchr(op, '$');
                if (!t || sscanf(t, "%63[^;]", label) != 1) {
                    snprintf(why, why_cap, "branch without a label: %s", ln);
                    free(out);
                    return NULL;
                }
                snprintf(pat, sizeof pat, "\n%s:", label);
                const char *l = strstr(body, pat);
                if (!l) {
                    snprintf(why, why_cap, "label %s not found", label);
                    free(out);
                    return NULL;
                }
                p = l + 1;
            }
            continue;
        }
        size_t len = strlen(ln);
        memcpy(out + n, ln, len);
        n += len;
        out[n++] = '\n';
        if (n + 300 > cap)
            break;
    }
    snprintf(why, why_cap, "no ret reached");
    free(out);
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

/* The path a launch without a partial warp takes through cgc's probe `name`
 * (every conditional branch on it is the block-size test, which ptxas sees
 * as uniform) holds exactly C++ CG's warp instructions: every shuffle and
 * redux.sync of C++ CG's straight-line code, none more, `want_total` in all.
 * With `full_mask`, both name the constant full warp mask there (tiles of
 * 32). The partial-tile path lies off that path. */
static void expect_fast_path(const char *ptx, const char *name, size_t want_total, int full_mask)
{
    pair_t p = probe(ptx, name);
    warp_counts_t cpp = warp_count(p.cpp);
    cr_expect_eq(warp_total(cpp), want_total, "%s: C++ CG has %zu warp instructions, expected %zu (the oracle changed?):\n%s",
                 name, warp_total(cpp), want_total, p.cpp);
    char why[256] = "";
    char *fast = whole_block_path(p.cgc, why, sizeof why);
    cr_expect(fast != NULL, "%s: cgc's whole-block path: %s; cgc:\n%s", name, why, p.cgc);
    if (fast) {
        warp_counts_t c = warp_count(fast);
        cr_expect(warp_counts_eq(c, cpp),
                  "%s: cgc's whole-block path has bfly %zu up %zu down %zu idx %zu redux %zu vote %zu match %zu, C++ CG "
                  "bfly %zu up %zu down %zu idx %zu redux %zu vote %zu match %zu; path:\n%s",
                  name, c.bfly, c.up, c.down, c.idx, c.redux, c.vote, c.match, cpp.bfly, cpp.up, cpp.down, cpp.idx,
                  cpp.redux, cpp.vote, cpp.match, fast);
    }
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
    static const char *const k[][2] = {
        {"reduce_plus_i32", "redux.sync.add.s32"},    {"reduce_less_i32", "redux.sync.min.s32"},
        {"reduce_greater_i32", "redux.sync.max.s32"}, {"reduce_plus_u32", "redux.sync.add.u32"},
        {"reduce_less_u32", "redux.sync.min.u32"},    {"reduce_greater_u32", "redux.sync.max.u32"},
        {"reduce_and_u32", "redux.sync.and.b32"},     {"reduce_or_i32", "redux.sync.or.b32"},
        {"reduce_xor_u32", "redux.sync.xor.b32"},     {"coalesced_reduce_plus_i32", "redux.sync.add.s32"},
    };
    char *ptx = cgt_ptx_read(PTX_PATH);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i)
        expect_one_redux(ptx, k[i][0], k[i][1]);
    free(ptx);
}

Test(collectives_ptx, butterflies_and_scans_match_cpp_cg)
{
    /* Butterflies: the whole-tile path is C++ CG's (the partial-tile path,
     * taken only in a partial last warp, lies in other blocks). Tile of 8:
     * 3 steps (the partial-tile redux apart); f64: 2 words a step. */
    static const struct {
        const char *name;
        size_t total;
        int full_mask;
    } fast[] = {{"reduce_plus_i32_n8", 3, 0}, {"reduce_plus_f32", 5, 1}, {"reduce_less_f64", 10, 1},
                {"reduce_plus_i64", 8, 0}};
    /* Scans: integer plus is inclusive - own (no extra shuffle); the f64
     * exclusive max: 4 steps + the shift, 2 words each. */
    static const struct {
        const char *name, *kind;
        size_t want;
    } same[] = {{"incl_plus_f32", "shfl.sync.up", 5}, {"incl_plus_f32", "add.f32", 5},
                {"excl_plus_i32", "shfl.sync.up", 5}, {"excl_greater_f64", "shfl.sync.up", 10}};
    char *ptx = cgt_ptx_read(PTX_PATH);
    for (size_t i = 0; i < sizeof fast / sizeof fast[0]; ++i)
        expect_fast_path(ptx, fast[i].name, fast[i].total, fast[i].full_mask);
    for (size_t i = 0; i < sizeof same / sizeof same[0]; ++i)
        expect_same_count(ptx, same[i].name, same[i].kind, same[i].want);
    free(ptx);
}

Test(collectives_ptx, constant_operators_fold)
{
    static const char *const k[][2] = {{"reduce_plus_f32", "setp.lt.f32"}, {"reduce_plus_f32", "setp.gt.f32"},
                                       {"reduce_less_f64", "add.f64"},     {"reduce_plus_i32", "min."},
                                       {"reduce_plus_i32", "max."}};
    char *ptx = cgt_ptx_read(PTX_PATH);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i)
        expect_none(ptx, k[i][0], k[i][1]);
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
    /* name; 1: the whole function holds exactly C++ CG's warp instructions;
     * the whole-tile path's warp instructions and full mask (total 0: not
     * checked apart) */
    static const struct {
        const char *name;
        int same_code;
        size_t total;
        int full_mask;
    } k[] = {
        {"fast_reduce32_i32", 1, 1, 1},  {"fast_reduce16_i32", 1, 1, 0},      {"fast_reduce32_f32", 0, 5, 1},
        {"fast_reduce32_f64", 0, 10, 1}, {"fast_reduce16_f32", 0, 4, 0},      {"fast_reduce16_f64", 0, 8, 0},
        {"fast_reduce32_less_f32", 0, 5, 1}, {"fast_scan32_i32", 1, 5, 1},   {"fast_scan32_f32", 1, 5, 1},
        {"fast_scan32_f64", 1, 10, 1},   {"fast_scan16_i32", 1, 4, 0},        {"fast_scan16_f32", 1, 0, 0},
        {"fast_scan16_f64", 0, 8, 0},
    };
    char *ptx = cgt_ptx_read(PTX_PATH);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        if (k[i].same_code)
            expect_same_code_path(ptx, k[i].name);
        if (k[i].total > 0)
            expect_fast_path(ptx, k[i].name, k[i].total, k[i].full_mask);
    }
    free(ptx);
}

/* A reduction in a loop (the benchmark's shape): C++ CG's loop is its
 * butterfly unrolled (no branch); cgc's block-size test must leave the loop
 * (NVVM unswitches it) so that the loop left is the same butterfly, unrolled
 * as far: as many shfl.sync.bfly in the whole function as C++ CG's (cgc's
 * partial-warp path shuffles with shfl.sync.idx, so it adds none). Before
 * 64-bit values were split without CUDA's `asm volatile("mov.b64 ...")`,
 * NVVM kept the test in the loop and did not unroll it: 20 against 50 at
 * tile 32, and every call paid a branch, a BSSY/BSYNC and a BRA.DIV in SASS.
 * docs/design/collectives.md. */
static void expect_loop_like_cpp(const char *ptx, const char *name)
{
    pair_t p = probe(ptx, name);
    size_t a = cgt_count(p.cgc, "shfl.sync.bfly"), b = cgt_count(p.cpp, "shfl.sync.bfly");
    cr_expect(b > 0 && a == b, "%s: cgc has %zu shfl.sync.bfly, C++ CG %zu (loop not unswitched/unrolled alike)", name,
              a, b);
    cr_expect_eq(cgt_count(p.cgc, "mov.b64 {"), 0u, "%s: cgc splits a 64-bit value with inline asm:\n%s", name,
                 p.cgc);
    release(p);
}

Test(collectives_ptx, reduce_loops_unswitch_like_cpp_cg)
{
    static const char *const names[] = {"loop_reduce32_f64", "loop_reduce16_f64", "loop_reduce8_f64",
                                        "loop_reduce16_i64", "loop_reduce32_f32"};
    char *ptx = cgt_ptx_read(PTX_PATH);
    for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
        expect_loop_like_cpp(ptx, names[i]);
    free(ptx);
}
