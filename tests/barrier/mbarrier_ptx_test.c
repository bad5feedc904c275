/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/barrier/mbarrier_ptx_test.c — instruction checks on the PTX of
 * mbarrier_probe.cu (no GPU needed): every wrapper emits exactly the PTX form
 * it names, with its .sem/.scope and operand count, and no other instruction
 * of the mbarrier family; release builds carry no debug code; the barrier
 * objects cost nothing over the mbarrier calls they forward to.
 */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define RELEASE_PTX "tests/barrier/mbarrier_probe.ptx"
#define DEBUG_PTX "tests/barrier/mbarrier_probe_debug.ptx"

TestSuite(mbarrier_ptx, .timeout = 60);

/* One row per wrapper: its probe kernel, the instruction text it must emit
 * (mnemonic with every qualifier, up to the operands) and its operand count
 * (0: an instruction without operands). */
typedef struct form {
    const char *probe;
    const char *instr;
    int operands;
} form_t;

static const form_t forms[] = {
    {"probe_init", "mbarrier.init.shared::cta.b64 ", 2},
    {"probe_init_fence_cluster", "fence.mbarrier_init.release.cluster;", 0},
    {"probe_inval", "mbarrier.inval.shared::cta.b64 ", 1},
    {"probe_arrive", "mbarrier.arrive.release.cta.shared::cta.b64 ", 2},
    {"probe_arrive_n", "mbarrier.arrive.release.cta.shared::cta.b64 ", 3},
    {"probe_arrive_cluster", "mbarrier.arrive.release.cluster.shared::cta.b64 ", 2},
    {"probe_arrive_n_cluster", "mbarrier.arrive.release.cluster.shared::cta.b64 ", 3},
    {"probe_arrive_relaxed", "mbarrier.arrive.relaxed.cta.shared::cta.b64 ", 2},
    {"probe_arrive_n_relaxed", "mbarrier.arrive.relaxed.cta.shared::cta.b64 ", 3},
    {"probe_arrive_relaxed_cluster", "mbarrier.arrive.relaxed.cluster.shared::cta.b64 ", 2},
    {"probe_arrive_n_relaxed_cluster", "mbarrier.arrive.relaxed.cluster.shared::cta.b64 ", 3},
    {"probe_arrive_no_complete", "mbarrier.arrive.noComplete.release.cta.shared::cta.b64 ", 3},
    {"probe_arrive_warp", "mbarrier.arrive.release.cta.shared::cta.b64 ", 3},
    {"probe_pending_count", "mbarrier.pending_count.b64 ", 2},
    {"probe_arrive_tx", "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 ", 3},
    {"probe_arrive_tx_cluster", "mbarrier.arrive.expect_tx.release.cluster.shared::cta.b64 ", 3},
    {"probe_arrive_tx_relaxed", "mbarrier.arrive.expect_tx.relaxed.cta.shared::cta.b64 ", 3},
    {"probe_arrive_tx_relaxed_cluster", "mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 ",
     3},
    {"probe_expect_tx", "mbarrier.expect_tx.relaxed.cta.shared::cta.b64 ", 2},
    {"probe_expect_tx_cluster", "mbarrier.expect_tx.relaxed.cluster.shared::cta.b64 ", 2},
    {"probe_complete_tx", "mbarrier.complete_tx.relaxed.cta.shared::cta.b64 ", 2},
    {"probe_complete_tx_cluster", "mbarrier.complete_tx.relaxed.cluster.shared::cta.b64 ", 2},
    {"probe_arrive_drop", "mbarrier.arrive_drop.release.cta.shared::cta.b64 ", 2},
    {"probe_arrive_drop_n", "mbarrier.arrive_drop.release.cta.shared::cta.b64 ", 3},
    {"probe_arrive_drop_cluster", "mbarrier.arrive_drop.release.cluster.shared::cta.b64 ", 2},
    {"probe_arrive_drop_relaxed", "mbarrier.arrive_drop.relaxed.cta.shared::cta.b64 ", 2},
    {"probe_arrive_drop_no_complete", "mbarrier.arrive_drop.noComplete.release.cta.shared::cta.b64 ",
     3},
    {"probe_arrive_drop_tx", "mbarrier.arrive_drop.expect_tx.release.cta.shared::cta.b64 ", 3},
    {"probe_arrive_remote", "mbarrier.arrive.release.cluster.shared::cluster.b64 _, ", 2},
    {"probe_arrive_remote_n", "mbarrier.arrive.release.cluster.shared::cluster.b64 _, ", 3},
    {"probe_arrive_remote_relaxed", "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, ", 2},
    {"probe_arrive_remote_if", "@p mbarrier.arrive.release.cluster.shared::cluster.b64 _, ", 2},
    {"probe_arrive_remote_relaxed_if", "@p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, ", 2},
    {"probe_arrive_tx_remote", "mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, ",
     3},
    {"probe_arrive_tx_remote_if",
     "@p mbarrier.arrive.expect_tx.release.cluster.shared::cluster.b64 _, ", 3},
    {"probe_arrive_drop_remote", "mbarrier.arrive_drop.release.cluster.shared::cluster.b64 _, ", 2},
    {"probe_expect_tx_remote", "mbarrier.expect_tx.relaxed.cluster.shared::cluster.b64 ", 2},
    {"probe_complete_tx_remote", "mbarrier.complete_tx.relaxed.cluster.shared::cluster.b64 ", 2},
    {"probe_test_wait", "mbarrier.test_wait.acquire.cta.shared::cta.b64 ", 3},
    {"probe_test_wait_cluster", "mbarrier.test_wait.acquire.cluster.shared::cta.b64 ", 3},
    {"probe_test_wait_parity", "mbarrier.test_wait.parity.acquire.cta.shared::cta.b64 ", 3},
    {"probe_test_wait_parity_cluster", "mbarrier.test_wait.parity.acquire.cluster.shared::cta.b64 ",
     3},
    {"probe_try_wait", "mbarrier.try_wait.acquire.cta.shared::cta.b64 ", 3},
    {"probe_try_wait_cluster", "mbarrier.try_wait.acquire.cluster.shared::cta.b64 ", 3},
    {"probe_try_wait_hint", "mbarrier.try_wait.acquire.cta.shared::cta.b64 ", 4},
    {"probe_try_wait_hint_cluster", "mbarrier.try_wait.acquire.cluster.shared::cta.b64 ", 4},
    {"probe_try_wait_parity", "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 ", 3},
    {"probe_try_wait_parity_cluster", "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 ", 3},
    {"probe_try_wait_parity_relaxed_cluster", "mbarrier.try_wait.parity.relaxed.cluster.shared::cta.b64 ", 3},
    {"probe_try_wait_parity_hint", "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 ", 4},
    {"probe_try_wait_parity_hint_cluster",
     "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 ", 4},
    {"probe_wait", "mbarrier.try_wait.acquire.cta.shared::cta.b64 ", 3},
    {"probe_wait_cluster", "mbarrier.try_wait.acquire.cluster.shared::cta.b64 ", 3},
    {"probe_wait_parity", "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64 ", 3},
    {"probe_wait_parity_cluster", "mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 ", 3},
};

/* Operands of the first occurrence of instr in body: commas up to ';', + 1
 * (the text of instr itself may end inside the operand list, as "_, "). */
static int operand_count(const char *body, const char *instr)
{
    const char *p = strstr(body, instr);
    if (p == NULL)
        return -1;
    const char *line = p;
    while (line > body && line[-1] != '\n')
        --line;
    const char *end = strchr(p, ';');
    if (end == NULL)
        return -1;
    /* skip the mnemonic: operands start after the first whitespace past it */
    const char *q = p;
    while (q < end && *q != ' ' && *q != '\t')
        ++q;
    if (*p == '@') { /* predicated: skip the guard too */
        ++q;
        while (q < end && *q != ' ' && *q != '\t')
            ++q;
    }
    int n = 1;
    int any = 0;
    for (; q < end; ++q) {
        if (*q == ',')
            ++n;
        else if (*q != ' ' && *q != '\t')
            any = 1;
    }
    return any ? n : 0;
}

static size_t line_count(const char *text)
{
    return cgt_count(text, "\n");
}

Test(mbarrier_ptx, every_wrapper_emits_exactly_its_form)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; ++i) {
        const form_t *f = &forms[i];
        char *body = cgt_ptx_function(ptx, f->probe);
        int is_mbarrier = strstr(f->instr, "mbarrier.") != NULL;
        cr_expect_eq(cgt_count(body, f->instr), 1, "%s: want exactly one '%s', found %zu", f->probe,
                     f->instr, cgt_count(body, f->instr));
        cr_expect_eq(cgt_count(body, "mbarrier."), is_mbarrier ? 1u : 0u,
                     "%s: %zu mbarrier instructions, want only '%s'", f->probe,
                     cgt_count(body, "mbarrier."), f->instr);
        cr_expect_eq(cgt_count(body, "fence.mbarrier_init"), strstr(f->instr, "fence.") ? 1u : 0u,
                     "%s: unexpected fence.mbarrier_init", f->probe);
        if (f->operands > 0)
            cr_expect_eq(operand_count(body, f->instr), f->operands, "%s: '%s' has %d operands, want %d",
                         f->probe, f->instr, operand_count(body, f->instr), f->operands);
        /* Release build: no debug code anywhere. */
        cr_expect_eq(cgt_count(body, "globaltimer"), 0, "%s: reads %%globaltimer in a release build",
                     f->probe);
        cr_expect_eq(cgt_count(body, "vprintf"), 0, "%s: printf in a release build", f->probe);
        cr_expect_eq(cgt_count(body, "trap;"), 0, "%s: trap in a release build", f->probe);
        /* The ordering forms are never the old defaults-only spelling. */
        if (is_mbarrier && strstr(f->instr, "shared::") == NULL)
            cr_expect(strstr(f->instr, "pending_count") != NULL, "%s: no state space", f->probe);
        free(body);
    }
    free(ptx);
}

Test(mbarrier_ptx, remote_forms_map_the_address_once)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; ++i) {
        char *body = cgt_ptx_function(ptx, forms[i].probe);
        size_t want = strstr(forms[i].instr, "shared::cluster") ? 1u : 0u;
        cr_expect_eq(cgt_count(body, "mapa.shared::cluster.u32"), want, "%s: %zu mapa, want %zu",
                     forms[i].probe, cgt_count(body, "mapa.shared::cluster.u32"), want);
        free(body);
    }
    free(ptx);
}

Test(mbarrier_ptx, blocking_waits_are_a_try_wait_loop)
{
    static const char *waits[] = {"probe_wait", "probe_wait_cluster", "probe_wait_parity",
                                  "probe_wait_parity_cluster"};
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    for (size_t i = 0; i < 4; ++i) {
        char *body = cgt_ptx_function(ptx, waits[i]);
        cr_expect_eq(cgt_count(body, "mbarrier.try_wait"), 1, "%s: one try_wait in the loop", waits[i]);
        cr_expect_eq(cgt_count(body, "mbarrier.test_wait"), 0, "%s: no test_wait spin", waits[i]);
        cr_expect_eq(cgt_count(body, "bra"), 1, "%s: one back branch", waits[i]);
        cr_expect_eq(cgt_count(body, "nanosleep"), 0, "%s: no back-off sleep", waits[i]);
        free(body);
    }
    free(ptx);
}

Test(mbarrier_ptx, warp_aggregated_arrive_is_one_arrive_for_the_warp)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    char *body = cgt_ptx_function(ptx, "probe_arrive_warp");
    cr_expect_eq(cgt_count(body, "activemask.b32"), 1);
    cr_expect_eq(cgt_count(body, "match.any.sync.b64"), 1, "only lanes naming the same mbarrier count together");
    cr_expect_eq(cgt_count(body, "bar.warp.sync"), 1, "lanes' writes ordered before the leader's release");
    cr_expect_eq(cgt_count(body, "popc.b32"), 1, "the warp's count");
    cr_expect_eq(cgt_count(body, "shfl.sync.idx.b32"), 2, "64-bit token broadcast");
    cr_expect_eq(cgt_count(body, "@p mbarrier.arrive.release.cta.shared::cta.b64"), 1,
                 "the leader's arrive is predicated on its lane");
    cr_expect_eq(cgt_count(body, "bra"), 0, "no branch between the grouping and the token shuffle");
    free(body);
    free(ptx);
}

/* cg_barrier_t forwards to the mbarrier: same instructions, same count. */
Test(mbarrier_ptx, barrier_costs_nothing_over_mbarrier)
{
    static const char *pairs[][2] = {{"probe_barrier_arrive", "probe_arrive"},
                                     {"probe_barrier_native_arrive", "probe_arrive"},
                                     {"probe_barrier_wait", "probe_wait"},
                                     {"probe_barrier_arrive_tx1", "probe_arrive_tx"}};
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    for (size_t i = 0; i < 4; ++i) {
        char *a = cgt_ptx_function(ptx, pairs[i][0]);
        char *b = cgt_ptx_function(ptx, pairs[i][1]);
        char *ia = cgt_ptx_instructions(a);
        char *ib = cgt_ptx_instructions(b);
        cr_expect_eq(line_count(ia), line_count(ib), "%s has %zu instructions, %s %zu", pairs[i][0],
                     line_count(ia), pairs[i][1], line_count(ib));
        cr_expect_eq(cgt_count(a, "mbarrier."), 1, "%s: one mbarrier instruction", pairs[i][0]);
        free(ia);
        free(ib);
        free(a);
        free(b);
    }
    free(ptx);
}

/* A copy of the text from `from` up to (not including) `to`. */
static char *copy_span(const char *from, const char *to)
{
    size_t n = (size_t)(to - from);
    char *s = malloc(n + 1);
    if (s != NULL) {
        memcpy(s, from, n);
        s[n] = '\0';
    }
    return s;
}

Test(mbarrier_ptx, completion_barrier_shape)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    char *body = cgt_ptx_function(ptx, "probe_barrier_fn_arrive");
    cr_expect_eq(cgt_count(body, "mbarrier.arrive.noComplete.release.cta.shared::cta.b64"), 1,
                 "every arrival: noComplete, release");
    cr_expect_eq(cgt_count(body, "mbarrier.pending_count.b64"), 1, "the last arrival knows it");
    cr_expect_eq(cgt_count(body, "fence.acq_rel.cta"), 1, "the completer's acquire");
    cr_expect_eq(cgt_count(body, "mbarrier.arrive.release.cta.shared::cta.b64"), 1,
                 "the completer's arrival ends the phase");
    cr_expect_eq(cgt_count(body, "mbarrier."), 3, "nothing else of the mbarrier family");
    cr_expect_eq(cgt_count(body, "atom."), 0, "no shared counter");
    cr_expect_eq(cgt_count(body, "membar"), 0, "no full fences");
    cr_expect_eq(cgt_count(body, "nanosleep"), 0, "no back-off");
    cr_expect_eq(cgt_count(body, ".callprototype"), 1, "one indirect call: the completion function");
    /* CG_BARRIER_FN_READ_BEFORE_ARRIVE: the stored function and argument are
     * read before the arrive, and between the completer's fence and its
     * call at most the test for a NULL function branches
     * (CG_BARRIER_FN_NO_NULL_TEST 0, the default). */
    const char *arrive = strstr(body, "mbarrier.arrive.noComplete");
    const char *fence = strstr(body, "fence.acq_rel.cta");
    const char *call = strstr(body, ".callprototype");
    cr_assert(arrive != NULL && fence != NULL && call != NULL && fence < call);
    char *before = copy_span(body, arrive);
    char *between = copy_span(fence, call);
    cr_assert(before != NULL && between != NULL);
    cr_expect_eq(cgt_count(before, "ld.shared"), 2, "_fn and _arg read before the arrive:\n%s", before);
    cr_expect_leq(cgt_count(between, "bra"), 1, "only the NULL test branches from the fence to the call:\n%s",
                  between);
    free(before);
    free(between);
    free(body);
    body = cgt_ptx_function(ptx, "probe_barrier_fn_elect");
    cr_expect_eq(cgt_count(body, "call"), 0, "inline completion: no call");
    cr_expect_eq(cgt_count(body, "mbarrier.try_wait.acquire.cta.shared::cta.b64"), 1,
                 "waiters sleep on the one mbarrier, by token");
    cr_expect_eq(cgt_count(body, "mbarrier.test_wait"), 0);
    free(body);
    free(ptx);
}

Test(mbarrier_ptx, device_barrier_orders_at_gpu_scope)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    char *body = cgt_ptx_function(ptx, "probe_device_barrier_arrive");
    /* Every thread adds its own arrival: no warp intrinsic a lane could
     * wait in for a lane on another path (docs/design/device_barrier.md). */
    static const char *warp_ops[] = {"activemask", "match.", "vote.", "shfl.", "bar.warp.sync"};
    for (size_t i = 0; i < sizeof warp_ops / sizeof *warp_ops; ++i)
        cr_expect_eq(cgt_count(body, warp_ops[i]), 0, "no %s in the arrive", warp_ops[i]);
    cr_expect_eq(cgt_count(body, "atom.acq_rel.gpu.global.add.u64"), 1, "arrive is acq_rel.gpu");
    cr_expect_eq(cgt_count(body, "red.relaxed.gpu.global.add.u64"), 1, "a staying completer re-arms with a red");
    cr_expect_eq(cgt_count(body, "atom.relaxed.gpu.global.add.u64"), 0, "only a dropping completer waits for its re-arm");
    cr_expect_eq(cgt_count(body, "fence"), 0, "no fence: the last arrival's own add releases the waiters");
    cr_expect_eq(cgt_count(body, "st.release"), 0, "no releasing store");
    free(body);
    body = cgt_ptx_function(ptx, "probe_device_barrier_wait");
    /* The first poll before the loop and one in it (the compiler peels it);
     * each an acquire at gpu scope. */
    cr_expect_geq(cgt_count(body, "ld.acquire.gpu.global.u64"), 1, "wait is acquire.gpu");
    cr_expect_eq(cgt_count(body, "ld.relaxed"), 0, "no relaxed poll");
    /* Issue 33 (H200): the polls after a failed one are paced by a
     * %globaltimer read, as libcu++'s loop is (CG_DEVICE_BARRIER_POLL_PACE). */
    cr_expect_geq(cgt_count(body, "%globaltimer"), 1, "the polls are paced by %%globaltimer:\n%s", body);
    cr_expect_eq(cgt_count(body, "bar.warp.sync"), 0, "every thread polls for its own token");
    /* Issue 33: the completing arrive's token (bit 32) skips the poll: the
     * test of the bit comes before the first load. */
    const char *mask = strstr(body, "4294967296;"), *load = strstr(body, "ld.acquire.gpu.global.u64");
    cr_expect(mask && load && mask < load, "the done-token test (bit 32) precedes the poll:\n%s", body);
    free(body);
    free(ptx);
}

/* Debug build: the blocking waits are bounded and report; counts are checked. */
Test(mbarrier_ptx, debug_build_bounds_waits_and_checks_counts)
{
    static const char *waits[] = {"probe_wait", "probe_wait_cluster", "probe_wait_parity",
                                  "probe_wait_parity_cluster", "probe_device_barrier_wait"};
    static const char *counted[] = {"probe_init", "probe_arrive_n", "probe_arrive_tx",
                                    "probe_expect_tx", "probe_complete_tx", "probe_arrive_remote_n"};
    char *ptx = cgt_ptx_read(DEBUG_PTX);
    for (size_t i = 0; i < sizeof waits / sizeof waits[0]; ++i) {
        char *body = cgt_ptx_function(ptx, waits[i]);
        cr_expect_geq(cgt_count(body, "%globaltimer"), 2, "%s: bounded by %%globaltimer", waits[i]);
        /* the report is out of line (base/config.h, CG_REPORT_): the wait
         * calls it; its body prints and traps (checked below) */
        cr_expect_geq(cgt_count(body, "call.uni"), 1, "%s: calls its report", waits[i]);
        cr_expect_geq(cgt_count(body, "_report_"), 1, "%s: the call is to a report", waits[i]);
        cr_expect_eq(cgt_count(body, "vprintf"), 0, "%s: no printf inline (the report is out of line)", waits[i]);
        free(body);
    }
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; ++i) {
        char *body = cgt_ptx_function(ptx, counted[i]);
        cr_expect_geq(cgt_count(body, "1048575"), 1, "%s: checks the 2^20-1 limit", counted[i]);
        cr_expect_geq(cgt_count(body, "_report_range_"), 1, "%s: calls the count report on a bad count",
                      counted[i]);
        free(body);
    }
    /* every report function prints and traps: as many traps as reports */
    size_t funcs = 0, traps = 0;
    for (const char *f = strstr(ptx, ".func"); f != NULL; f = strstr(f + 5, ".func")) {
        const char *paren = strchr(f, '('), *name = strstr(f, "_report_");
        const char *end = strstr(f, "\n}");
        if (name == NULL || paren == NULL || name > paren || end == NULL)
            continue;
        ++funcs;
        const char *t = strstr(f, "trap;"), *v = strstr(f, "vprintf");
        traps += t != NULL && t < end && v != NULL && v < end;
    }
    cr_expect_geq(funcs, 2, "the debug PTX defines its report functions");
    cr_expect_eq(traps, funcs, "%zu of %zu report functions print and trap", traps, funcs);
    free(ptx);
}

/* The handoff composites (cross-CTA buffer release): the shared-memory-
 * restricted release fence (the proxy form for an async-proxy writer), THEN
 * one relaxed cluster-scope remote arrive (predicated in the _if forms), and
 * no other fence or mbarrier instruction: in particular no
 * mbarrier.arrive.release.cluster, whose fence is GPU-wide. */
Test(mbarrier_ptx, smem_releases_are_a_restricted_fence_then_a_relaxed_arrive)
{
    static const struct {
        const char *probe, *fence, *arrive;
    } k[] = {
        {"probe_release_smem_remote", "fence.release.sync_restrict::shared::cta.cluster;",
         "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, "},
        {"probe_release_smem_remote_if", "fence.release.sync_restrict::shared::cta.cluster;",
         "@p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, "},
        {"probe_release_smem_remote_async", "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
         "mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, "},
        {"probe_release_smem_remote_async_if",
         "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster;",
         "@p mbarrier.arrive.relaxed.cluster.shared::cluster.b64 _, "},
    };
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    for (size_t i = 0; i < sizeof k / sizeof k[0]; ++i) {
        char *body = cgt_ptx_function(ptx, k[i].probe);
        const char *f = strstr(body, k[i].fence), *a = strstr(body, k[i].arrive);
        cr_expect(f && a && f < a, "%s: want '%s' then '%s':\n%s", k[i].probe, k[i].fence, k[i].arrive, body);
        cr_expect_eq(cgt_count(body, "fence."), 1, "%s: exactly one fence:\n%s", k[i].probe, body);
        cr_expect_eq(cgt_count(body, "mbarrier."), 1, "%s: exactly one mbarrier instruction:\n%s", k[i].probe, body);
        cr_expect_eq(cgt_count(body, "release.cluster"), 0, "%s: a cluster-scope release:\n%s", k[i].probe, body);
        free(body);
    }
    free(ptx);
}
