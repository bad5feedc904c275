/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/ptx_test.c — what the group calls compile to (host test, reads the
 * PTX that the build made from ptx_probes.cu; runs everywhere, no GPU):
 *   - block sync is bar.sync 0 and nothing else (same as __syncthreads)
 *   - the cluster split barrier emits barrier.cluster.arrive.release and
 *     barrier.cluster.wait.acquire (non-aligned) and nothing else, the
 *     relaxed arrive barrier.cluster.arrive.relaxed
 *   - the block split barrier is an mbarrier arrive + try_wait, not bar.sync
 *     alone; the grid barrier is red.release.gpu.add (no atom: nothing
 *     waits for the arrival's return) + ld.acquire.gpu between two
 *     bar.sync 0 (plus the spread barrier's forms)
 *   - every generic call compiles to exactly the typed call's instructions. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/cg/ptx_probes.ptx"

TestSuite(cg_ptx, .timeout = 30);

/* Block sync is barrier 0 (the rest of its shape: ptx_test.tbl). */
Test(cg_ptx, block_sync_is_barrier_0)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *ours = cgt_ptx_normalized(ptx, "probe_block_sync");
    cr_expect_eq(cgt_count(ours, "bar.sync \t0;") + cgt_count(ours, "bar.sync 0;") +
                     cgt_count(ours, "barrier.sync 0;") + cgt_count(ours, "barrier.sync \t0;"),
                 1u, "block sync must be barrier 0: %s", ours);
    free(ours);
    free(ptx);
}

/* The block split barrier: only the one-time setup holds a CTA barrier,
 * before the arrive (its order: ptx_test.tbl). */
Test(cg_ptx, block_split_barrier_is_an_mbarrier)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *b = cgt_ptx_normalized(ptx, "probe_block_split");
    const char *arrive = strstr(b, "mbarrier.arrive.release.cta.shared::cta.b64");
    cr_expect_eq(cgt_count(b, "bar.sync") + cgt_count(b, "barrier.sync"), 1u, "%s", b);
    if (arrive)
        cr_expect_eq(cgt_count(arrive, "bar.sync") + cgt_count(arrive, "barrier.sync"), 0u,
                     "CTA barrier after the arrive:\n%s", b);
    free(b);
    free(ptx);
}

/* ---- the split block barrier's steady state -------------------------------- */

/* The lines of a PTX body that are instructions or labels (comments, blank
 * lines, directives, declarations and the asm braces dropped), one string
 * each; *n gets the count. Caller frees the array and its strings. */
static char **ptx_lines(const char *body, size_t *n)
{
    size_t cap = 64, k = 0;
    char **v = malloc(cap * sizeof *v);
    cr_assert(v != NULL);
    for (const char *p = body; *p;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        while (len && isspace((unsigned char)*p)) {
            p++;
            len--;
        }
        while (len && isspace((unsigned char)p[len - 1]))
            len--;
        int keep = len > 0 && p[0] != '/' && p[0] != '.' && p[0] != '{' && p[0] != '}' &&
                   p[0] != '(' && p[0] != ')';
        if (keep) {
            if (k == cap) {
                cap *= 2;
                v = realloc(v, cap * sizeof *v);
                cr_assert(v != NULL);
            }
            v[k] = malloc(len + 1);
            cr_assert(v[k] != NULL);
            memcpy(v[k], p, len);
            v[k][len] = '\0';
            k++;
        }
        p = e ? e + 1 : p + strlen(p);
    }
    *n = k;
    return v;
}

static void free_lines(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* Index of the line "LABEL:" or n. */
static size_t label_index(char **v, size_t n, const char *label)
{
    size_t len = strlen(label);
    for (size_t i = 0; i < n; i++)
        if (strncmp(v[i], label, len) == 0 && v[i][len] == ':' && v[i][len + 1] == '\0')
            return i;
    return n;
}

/* The branch target of a "[@%p] bra[.uni] $L..;" line, copied into out; 0 if
 * the line is not a branch. */
static int branch_target(const char *line, char *out, size_t outlen)
{
    const char *b = strstr(line, "bra");
    if (!b || (b != line && !isspace((unsigned char)b[-1])))
        return 0;
    const char *t = strstr(b, "$L");
    if (!t)
        return 0;
    size_t len = strcspn(t, ";");
    if (len + 1 > outlen)
        return 0;
    memcpy(out, t, len);
    out[len] = '\0';
    return 1;
}

/* The outermost loop of a function: [*head, *latch] (the label line and the
 * back-edge branch). Fails the test if the function has no loop. */
static void outer_loop(char **v, size_t n, size_t *head, size_t *latch)
{
    char tgt[64];
    *head = n;
    *latch = n;
    for (size_t i = 0; i < n; i++) {
        if (!branch_target(v[i], tgt, sizeof tgt))
            continue;
        size_t l = label_index(v, n, tgt);
        if (l < i && l < *head) {
            *head = l;
            *latch = i;
        }
    }
    cr_assert(*head < n, "no loop found");
}

/* The outermost loops of probe `name` and of the raw floor's probe, as line
 * arrays (caller frees with free_lines) with their [head, latch] bounds. */
typedef struct probe_loops {
    char **v, **r;
    size_t n, rn, head, latch, rhead, rlatch;
} probe_loops_t;

static probe_loops_t probe_loops(const char *ptx, const char *name)
{
    probe_loops_t p;
    char *fn = cgt_ptx_function(ptx, name);
    char *rawfn = cgt_ptx_function(ptx, "probe_raw_split_loop");
    p.v = ptx_lines(fn, &p.n);
    p.r = ptx_lines(rawfn, &p.rn);
    outer_loop(p.v, p.n, &p.head, &p.latch);
    outer_loop(p.r, p.rn, &p.rhead, &p.rlatch);
    free(fn);
    free(rawfn);
    return p;
}

/* Everything of the barrier family and every other instruction that must not
 * be paid per phase. */
static size_t barrier_family(const char *s)
{
    return cgt_count(s, "mbarrier.") + cgt_count(s, "barrier.sync") + cgt_count(s, "bar.sync") +
           cgt_count(s, "bar.arrive") + (cgt_count(s, "barrier.arrive") - cgt_count(s, "mbarrier.arrive")) +
           cgt_count(s, "bar.red") +
           cgt_count(s, "barrier.red") + cgt_count(s, "fence") + cgt_count(s, "membar") +
           cgt_count(s, "%gridid") + cgt_count(s, "ld.shared") + cgt_count(s, "st.shared") +
           cgt_count(s, "cvta") + cgt_count(s, "isspacep");
}

/* Joins lines [from, to) of v with newlines (caller frees). */
static char *join(char **v, size_t from, size_t to)
{
    size_t len = 1;
    for (size_t i = from; i < to; i++)
        len += strlen(v[i]) + 1;
    char *s = malloc(len), *o = s;
    cr_assert(s != NULL);
    for (size_t i = from; i < to; i++) {
        size_t l = strlen(v[i]);
        memcpy(o, v[i], l);
        o += l;
        *o++ = '\n';
    }
    *o = '\0';
    return s;
}

/* probe_block_split_loop is the benchmark's loop (bench/cgc_rows.cu,
 * kc_block_split). Its loop body is
 *     head:   the loop's own work, the value's `_ready` test, one branch
 *     setup:  skipped once the value is ready (thread 0's tag load and init,
 *             the CTA barrier)
 *     steady: from the branch target to the back edge.
 * The steady part must be exactly one mbarrier.arrive.release.cta and the
 * try_wait loop, nothing else of the barrier family (no CTA barrier, fence,
 * %gridid, shared load/store, address conversion, other mbarrier form), and
 * no longer than the raw floor's loop (probe_raw_split_loop) plus the
 * `_ready` test (setp + bra). */
Test(cg_ptx, block_split_steady_state_is_the_raw_floor)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    probe_loops_t p = probe_loops(ptx, "probe_block_split_loop");
    char **v = p.v, **r = p.r;
    size_t n = p.n, rn = p.rn, head = p.head, latch = p.latch, rhead = p.rhead, rlatch = p.rlatch;

    /* The first forward branch inside the loop skips the setup. */
    size_t skip = n, target = n;
    char tgt[64];
    for (size_t i = head + 1; i < latch; i++) {
        if (branch_target(v[i], tgt, sizeof tgt)) {
            size_t l = label_index(v, n, tgt);
            if (l > i && l < latch) {
                skip = i;
                target = l;
                break;
            }
        }
    }
    char *all = join(v, head, latch + 1);
    cr_assert(skip < n, "no branch around the one-time setup in the loop:\n%s", all);
    char *loophead = join(v, head, skip + 1);
    char *setup = join(v, skip + 1, target);
    char *steady = join(v, target, latch + 1);
    char *rawloop = join(r, rhead, rlatch + 1);

    /* The setup holds the init and the one CTA barrier. */
    cr_expect_eq(cgt_count(setup, "mbarrier.init.shared::cta.b64"), 1u, "setup:\n%s", setup);
    cr_expect_eq(cgt_count(setup, "barrier.sync 0;") + cgt_count(setup, "bar.sync"), 1u, "setup:\n%s", setup);
    /* Before the skip: the loop's own work and the `_ready` test only. */
    cr_expect_eq(barrier_family(loophead), 0u, "per-phase work before the setup branch:\n%s", loophead);
    /* The steady state: one arrive, one try_wait, nothing else of the family. */
    cr_expect_eq(cgt_count(steady, "mbarrier.arrive.release.cta.shared::cta.b64"), 1u, "steady:\n%s", steady);
    cr_expect_eq(cgt_count(steady, "mbarrier.try_wait.acquire.cta.shared::cta.b64"), 1u, "steady:\n%s", steady);
    cr_expect_eq(barrier_family(steady), 2u, "steady state has more than arrive + try_wait:\n%s", steady);
    /* The try_wait loop is tight: its label, try_wait, selp, setp, branch back. */
    {
        const char *tw = strstr(steady, "mbarrier.try_wait");
        const char *arr = strstr(steady, "mbarrier.arrive");
        cr_expect(arr && tw && arr < tw, "arrive then try_wait:\n%s", steady);
        size_t twi = n;
        for (size_t i = target; i <= latch; i++)
            if (strstr(v[i], "mbarrier.try_wait")) {
                twi = i;
                break;
            }
        cr_assert(twi < n && twi > target);
        cr_expect(v[twi - 1][strlen(v[twi - 1]) - 1] == ':', "try_wait loop label:\n%s", steady);
        cr_expect(branch_target(v[twi + 3], tgt, sizeof tgt) && twi + 3 < latch &&
                      label_index(v, n, tgt) == twi - 1,
                  "try_wait loop is not label/try_wait/selp/setp/bra:\n%s", steady);
    }
    /* No longer than the raw loop plus the `_ready` test. */
    size_t ours = cgt_lines(loophead) + cgt_lines(steady) - (size_t)cgt_count(loophead, ":\n") -
                  (size_t)cgt_count(steady, ":\n");
    size_t floor_ = cgt_lines(rawloop) - (size_t)cgt_count(rawloop, ":\n");
    cr_expect_leq(ours, floor_ + 2, "steady state %zu instructions, raw floor %zu (+2 for the _ready test):\n"
                                    "--- ours (head + steady)\n%s%s--- raw\n%s",
                  ours, floor_, loophead, steady, rawloop);
    free(all);
    free(loophead);
    free(setup);
    free(steady);
    free(rawloop);
    free_lines(v, n);
    free_lines(r, rn);
    free(ptx);
}

/* After cg_thread_block_barrier_prepare the loop is the raw floor's: the same
 * number of instructions, one arrive, one try_wait, nothing else of the
 * barrier family, and the setup (init, CTA barrier) before the loop. */
Test(cg_ptx, block_split_prepared_loop_is_the_raw_loop)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    probe_loops_t p = probe_loops(ptx, "probe_block_split_prepared");
    char *loop = join(p.v, p.head, p.latch + 1);
    char *rawloop = join(p.r, p.rhead, p.rlatch + 1);
    char *before = join(p.v, 0, p.head);
    cr_expect_eq(cgt_count(loop, "mbarrier.arrive.release.cta.shared::cta.b64"), 1u, "loop:\n%s", loop);
    cr_expect_eq(cgt_count(loop, "mbarrier.try_wait.acquire.cta.shared::cta.b64"), 1u, "loop:\n%s", loop);
    cr_expect_eq(barrier_family(loop), 2u, "loop has more than arrive + try_wait:\n%s", loop);
    cr_expect_eq(cgt_lines(loop), cgt_lines(rawloop), "loop %zu lines, raw loop %zu:\n--- prepared\n%s--- raw\n%s",
                 cgt_lines(loop), cgt_lines(rawloop), loop, rawloop);
    cr_expect_eq(cgt_count(before, "mbarrier.init.shared::cta.b64"), 1u, "setup before the loop:\n%s", before);
    cr_expect_eq(cgt_count(before, "barrier.sync 0;"), 1u, "setup before the loop:\n%s", before);
    free(loop);
    free(rawloop);
    free(before);
    free_lines(p.v, p.n);
    free_lines(p.r, p.rn);
    free(ptx);
}

Test(cg_ptx, grid_barrier_forms)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *g = cgt_ptx_normalized(ptx, "probe_grid_sync");
    /* The block barriers around thread 0's part are __syncthreads (measured
     * cheaper than the non-aligned barrier.sync there), as in C++ CG: two
     * in the flat sync, two in the arrive and wait. The rest: ptx_test.tbl. */
    cr_expect_eq(cgt_count(g, "bar.sync \t0;") + cgt_count(g, "bar.sync 0;"), 4u, "%s", g);
    free(g);
    free(ptx);
}

/* The block, cluster and grid barriers' instructions, the split bulk store's,
 * and every generic call (on a group or a const group) against its typed
 * call: rows of ptx_test.tbl. */
Test(cg_ptx, counts_follow_the_table)
{
    cgt_check_expectations(PTX_PATH, "tests/cg/ptx_test.tbl");
}
