/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/groupapi/ptx_test.c — what the group API compiles to (host test,
 * reads the PTX the build made from ptx_probes.cu; runs everywhere, no GPU):
 *   - a cg_thread_group_t made in sight of its calls is the typed call,
 *     instruction for instruction (tile and block);
 *   - a run-time kind keeps its switch (bar.sync, bar.warp.sync and the
 *     wide tile's barrier.sync all there);
 *   - a cg_thread_group_t made from a wide tile in sight is the wide tile's
 *     calls: one barrier.sync per sync, no block or warp sync;
 *   - the generic cg_invoke_one / broadcast are the typed tile calls, with
 *     one elect.sync each and the named functions inlined (no call);
 *   - cg_wait_prior with a constant n is one cp.async.wait_group n; a
 *     run-time n reaches every immediate 0..7; one commit per staged copy;
 *   - cg_wait on a tile: wait_group 0, then bar.warp.sync, no bar.sync;
 *   - the staged block copy of 16-byte aligned data: one alignment test
 *     before anything else, then a loop of cp.async.cg 16-byte copies whose
 *     body is no longer than C++ CG's memcpy_async with aligned_size_t<16>.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/cg/groupapi/ptx_probes.ptx"

TestSuite(groupapi_ptx, .timeout = 30);

/* The calls in sight against the typed calls, and the counts (one named
 * barrier for the wide tile in sight; a run-time kind's switch; the generic
 * invoke's elect.sync; wait_prior's and a tile wait's instructions):
 * ptx_test.tbl. */
Test(groupapi_ptx, counts_follow_the_table)
{
    cgt_check_expectations(PTX_PATH, "tests/cg/groupapi/ptx_test.tbl");
}

/* The loop that holds the instruction at `at` (a pointer into body): its
 * instruction lines from the label before `at` to the branch back to that
 * label, counted; 0 when `at` is not in a loop block. The block's text goes
 * to *block (caller frees). */
static size_t loop_block(const char *body, const char *at, char **block)
{
    const char *start = at;
    /* back to the label line ("$L__BB...:") that opens the block */
    while (start > body) {
        const char *ls = start - 1;
        while (ls > body && ls[-1] != '\n')
            ls--;
        const char *le = strchr(ls, '\n');
        size_t len = (size_t)(le - ls);
        while (len > 0 && isspace((unsigned char)ls[len - 1]))
            len--;
        start = ls;
        if (len > 0 && ls[len - 1] == ':' && strncmp(ls, "$L__BB", 6) == 0)
            break;
    }
    char label[64];
    size_t ll = strcspn(start, ":");
    *block = NULL;
    if (strncmp(start, "$L__BB", 6) != 0 || ll >= sizeof label)
        return 0;
    memcpy(label, start, ll);
    label[ll] = '\0';
    size_t n = 0;
    for (const char *l = strchr(start, '\n'); l != NULL && l[1] != '\0'; l = strchr(l + 1, '\n')) {
        const char *p = l + 1;
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p == '\n' || strncmp(p, "//", 2) == 0)
            continue;
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        if (len > 0 && p[len - 1] == ':')
            return 0; /* another label before the branch back: not one block */
        n++;
        if (strstr(p, "bra") != NULL && strstr(p, "bra") < p + len) {
            char tail[80];
            snprintf(tail, sizeof tail, "%s;", label);
            const char *t = strstr(p, tail);
            if (t == NULL || t >= p + len)
                return 0;
            size_t blen = (size_t)(p + len - start);
            *block = malloc(blen + 1);
            cr_assert(*block != NULL);
            memcpy(*block, start, blen);
            (*block)[blen] = '\0';
            return n;
        }
    }
    return 0;
}

/* The instruction lines before the first conditional branch ("@%p") of
 * body. Caller frees. */
static char *before_first_branch(const char *body)
{
    const char *b = strstr(body, "@%p");
    return cgt_span(body, b ? b : body + strlen(body));
}

Test(groupapi_ptx, aligned_block_copy_loop_is_no_longer_than_cxx_cg)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *cxx = cgt_ptx_function(ptx, "staged_copy_block_cxx");
    char *cgc = cgt_ptx_function(ptx, "staged_copy_block_cgc");

    /* C++ CG's loop: the shortest block around a 16-byte cp.async.cg. */
    size_t cxx_len = 0;
    for (const char *at = strstr(cxx, "cp.async.cg.shared"); at; at = strstr(at + 1, "cp.async.cg.shared")) {
        char *blk = NULL;
        size_t n = loop_block(cxx, at, &blk);
        if (n > 0 && (cxx_len == 0 || n < cxx_len))
            cxx_len = n;
        free(blk);
    }
    cr_assert_gt(cxx_len, 0u, "no cp.async.cg loop in C++ CG's aligned block copy:\n%s", cxx);

    /* cgc's: every 16-byte loop holds exactly one cp.async.cg 16-byte copy
     * (shared::cta destination register, global source) and nothing longer
     * than C++ CG's body. */
    const char *form = "cp.async.cg.shared::cta.global [%r";
    size_t loops = 0;
    for (const char *at = strstr(cgc, form); at; at = strstr(at + 1, form)) {
        char *blk = NULL;
        size_t n = loop_block(cgc, at, &blk);
        const char *eol = strchr(at, '\n');
        char line[128];
        size_t ll = eol ? (size_t)(eol - at) : strlen(at);
        if (ll >= sizeof line)
            ll = sizeof line - 1;
        memcpy(line, at, ll);
        line[ll] = '\0';
        cr_expect(strstr(line, "], [%rd") != NULL && strstr(line, "], 16;") != NULL,
                  "want cp.async.cg.shared::cta.global [%%r], [%%rd], 16; got: %s", line);
        if (n == 0) {
            cr_expect(0, "a 16-byte cp.async.cg outside a loop block in cgc's copy (at: %s):\n%s", line, cgc);
            continue;
        }
        loops++;
        cr_expect_eq(cgt_count(blk, "cp.async"), 1u, "want one cp.async per loop body, got:\n%s", blk);
        cr_expect_leq(n, cxx_len, "cgc's loop body has %zu instructions, C++ CG's %zu:\n--- cgc\n%s\n--- C++ CG\n%s",
                      n, cxx_len, blk, cxx);
        free(blk);
    }
    cr_expect_gt(loops, 0u, "no 16-byte cp.async.cg loop in cgc's block copy:\n%s", cgc);

    /* The aligned test comes first: before cgc's first conditional branch,
     * no alignment-width choice (xor, selp) and no generic shared address
     * (cvta.shared); one 15-mask test of the addresses and size. */
    char *pre = before_first_branch(cgc);
    cr_expect_eq(cgt_count(pre, "cvta.shared"), 0u, "cvta.shared before the aligned test:\n%s", pre);
    cr_expect_eq(cgt_count(pre, "xor"), 0u, "a skew computation before the aligned test:\n%s", pre);
    cr_expect_eq(cgt_count(pre, "selp"), 0u, "a width choice before the aligned test:\n%s", pre);
    cr_expect_eq(cgt_count(pre, ", 15;"), 1u, "want one '& 15' test before the first branch:\n%s", pre);
    cr_expect_eq(cgt_count(cgc, "cp.async.commit_group"), 1u, "want one commit per staged copy:\n%s", cgc);
    free(pre);
    free(cgc);
    free(cxx);
    free(ptx);
}

/* The instruction lines of `name`, mnemonics only (the text before the first
 * tab or space of each line), one per line, without the lines whose mnemonic
 * is skip_a or skip_b (NULL: none) and with the predicate guards dropped.
 * Caller frees. */
static char *mnemonics(const char *ptx, const char *name, const char *skip_a, const char *skip_b)
{
    char *body = cgt_ptx_function(ptx, name);
    char *ins = cgt_ptx_instructions(body);
    size_t cap = strlen(ins) + 1, n = 0;
    char *out = malloc(cap);
    cr_assert(out != NULL);
    for (const char *line = ins; *line;) {
        const char *eol = strchr(line, '\n');
        size_t len = eol ? (size_t)(eol - line) : strlen(line);
        const char *p = line;
        while (p < line + len && isspace((unsigned char)*p))
            ++p;
        if (*p == '@') /* a guard: @%p1 bra -> bra */
            while (p < line + len && !isspace((unsigned char)*p++)) {
            }
        const char *m = p;
        while (p < line + len && !isspace((unsigned char)*p))
            ++p;
        size_t ml = (size_t)(p - m);
        int skip = (skip_a && strlen(skip_a) == ml && strncmp(m, skip_a, ml) == 0) ||
                   (skip_b && strlen(skip_b) == ml && strncmp(m, skip_b, ml) == 0);
        if (ml > 0 && !skip) {
            memcpy(out + n, m, ml);
            n += ml;
            out[n++] = '\n';
        }
        line = eol ? eol + 1 : line + len;
    }
    out[n] = '\0';
    free(ins);
    free(body);
    return out;
}

static int cmp_line(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* The lines of s sorted (the same instructions whatever their order; the
 * order of the memory instructions is checked apart). In place. */
static void sort_lines(char *s)
{
    size_t n = cgt_count(s, "\n"), k = 0, len = strlen(s);
    char **v = malloc((n + 1) * sizeof *v), *copy = malloc(len + 1);
    cr_assert(v && copy);
    memcpy(copy, s, len + 1);
    for (char *line = strtok(copy, "\n"); line; line = strtok(NULL, "\n"))
        v[k++] = line;
    qsort(v, k, sizeof *v, cmp_line);
    size_t at = 0;
    for (size_t i = 0; i < k; ++i) {
        size_t l = strlen(v[i]);
        memcpy(s + at, v[i], l);
        at += l;
        s[at++] = '\n';
    }
    s[at] = '\0';
    free(v);
    free(copy);
}

/* Issue 34: the barrier copy with the alignment stated is libcu++'s
 * cuda::memcpy_async with aligned_size_t<16>: the same instructions (the
 * rank-0 test, one bulk copy completing on the barrier, then one expect_tx,
 * in that order), no proxy fence, no alignment test; the only differences
 * allowed are libcu++'s cvta.to.global of the source (cgc passes the generic
 * address, which the bulk copy takes as is) and, for a run-time size, cgc's
 * one and.b32 that rounds it down to whole 16-byte pieces (so a size outside
 * the contract never writes past dst + bytes; a constant size folds it). */
static void expect_libcuxx_copy(const char *ptx, const char *cgc, const char *cxx, int runtime_size)
{
    char *a = mnemonics(ptx, cgc, "and.b32", NULL), *b = mnemonics(ptx, cxx, "cvta.to.global.u64", NULL);
    sort_lines(a);
    sort_lines(b);
    cr_expect_str_eq(a, b, "%s and %s differ (mnemonics, sorted):\n--- %s\n%s\n--- %s\n%s", cgc, cxx, cgc, a, cxx, b);
    free(a);
    free(b);
    const char *names[2] = {cgc, cxx};
    for (int side = 0; side < 2; ++side) {
        char *f = cgt_ptx_function(ptx, names[side]), *ins = cgt_ptx_instructions(f);
        const char *copy = strstr(ins, "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes");
        const char *expect = strstr(ins, "mbarrier.expect_tx.relaxed.cta.shared::cta.b64");
        cr_expect(copy && expect && copy < expect && cgt_count(ins, "cp.async.bulk") == 1u,
                  "%s: one bulk copy, then expect_tx:\n%s", names[side], ins);
        cr_expect_eq(cgt_count(ins, "fence"), 0u, "%s: no proxy fence:\n%s", names[side], ins);
        if (side == 0)
            cr_expect_eq(cgt_count(ins, "and.b32"), runtime_size ? 1u : 0u, "%s: the size's rounding:\n%s", cgc,
                         ins);
        free(f);
        free(ins);
    }
}

Test(groupapi_ptx, aligned_barrier_copy_is_libcuxx_memcpy_async)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    expect_libcuxx_copy(ptx, "barcopy16_cgc", "barcopy16_cxx", 1);
    expect_libcuxx_copy(ptx, "thrcopy16_cgc", "thrcopy16_cxx", 1);
    expect_libcuxx_copy(ptx, "barcopyk_cgc", "barcopyk_cxx", 0);
    free(ptx);
}
