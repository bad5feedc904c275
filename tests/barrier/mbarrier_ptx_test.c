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

/* One row per wrapper: its probe kernel and the form it must emit; the form's
 * row of barrier/mbarrier_forms.tbl gives the instruction text (mnemonic
 * with every qualifier, up to the operands) and its operand count (0: an
 * instruction without operands), through cgt_form (tests/support/ptxcheck.h). */
static const cgt_probe_t forms[] = {
    {"probe_init", "cg_mbarrier_ptx_init_"},
    {"probe_init_fence_cluster", "cg_mbarrier_init_fence_cluster"},
    {"probe_inval", "cg_mbarrier_ptx_inval_"},
    {"probe_arrive", "cg_mbarrier_ptx_arrive_release_cta_"},
    {"probe_arrive_n", "cg_mbarrier_ptx_arrive_n_release_cta_"},
    {"probe_arrive_cluster", "cg_mbarrier_ptx_arrive_release_cluster_"},
    {"probe_arrive_n_cluster", "cg_mbarrier_ptx_arrive_n_release_cluster_"},
    {"probe_arrive_relaxed", "cg_mbarrier_ptx_arrive_relaxed_cta_"},
    {"probe_arrive_n_relaxed", "cg_mbarrier_ptx_arrive_n_relaxed_cta_"},
    {"probe_arrive_relaxed_cluster", "cg_mbarrier_ptx_arrive_relaxed_cluster_"},
    {"probe_arrive_n_relaxed_cluster", "cg_mbarrier_ptx_arrive_n_relaxed_cluster_"},
    {"probe_arrive_no_complete", "cg_mbarrier_ptx_arrive_no_complete_release_cta_"},
    {"probe_arrive_warp", "cg_mbarrier_ptx_arrive_n_release_cta_"},
    {"probe_pending_count", "cg_mbarrier_pending_count"},
    {"probe_arrive_tx", "cg_mbarrier_ptx_arrive_tx_release_cta_"},
    {"probe_arrive_tx_cluster", "cg_mbarrier_ptx_arrive_tx_release_cluster_"},
    {"probe_arrive_tx_relaxed", "cg_mbarrier_ptx_arrive_tx_relaxed_cta_"},
    {"probe_arrive_tx_relaxed_cluster", "cg_mbarrier_ptx_arrive_tx_relaxed_cluster_"},
    {"probe_expect_tx", "cg_mbarrier_ptx_expect_tx_relaxed_cta_"},
    {"probe_expect_tx_cluster", "cg_mbarrier_ptx_expect_tx_relaxed_cluster_"},
    {"probe_complete_tx", "cg_mbarrier_ptx_complete_tx_relaxed_cta_"},
    {"probe_complete_tx_cluster", "cg_mbarrier_ptx_complete_tx_relaxed_cluster_"},
    {"probe_arrive_drop", "cg_mbarrier_ptx_arrive_drop_release_cta_"},
    {"probe_arrive_drop_n", "cg_mbarrier_ptx_arrive_drop_n_release_cta_"},
    {"probe_arrive_drop_cluster", "cg_mbarrier_ptx_arrive_drop_release_cluster_"},
    {"probe_arrive_drop_relaxed", "cg_mbarrier_ptx_arrive_drop_relaxed_cta_"},
    {"probe_arrive_drop_no_complete", "cg_mbarrier_ptx_arrive_drop_no_complete_release_cta_"},
    {"probe_arrive_drop_tx", "cg_mbarrier_ptx_arrive_drop_tx_release_cta_"},
    {"probe_arrive_remote", "cg_mbarrier_ptx_arrive_remote_release_cluster_"},
    {"probe_arrive_remote_n", "cg_mbarrier_ptx_arrive_n_remote_release_cluster_"},
    {"probe_arrive_remote_relaxed", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_"},
    {"probe_arrive_remote_if", "cg_mbarrier_ptx_arrive_remote_release_cluster_if_"},
    {"probe_arrive_remote_relaxed_if", "cg_mbarrier_ptx_arrive_remote_relaxed_cluster_if_"},
    {"probe_arrive_tx_remote", "cg_mbarrier_ptx_arrive_tx_remote_release_cluster_"},
    {"probe_arrive_tx_remote_if", "cg_mbarrier_ptx_arrive_tx_remote_release_cluster_if_"},
    {"probe_arrive_drop_remote", "cg_mbarrier_ptx_arrive_drop_remote_release_cluster_"},
    {"probe_expect_tx_remote", "cg_mbarrier_ptx_expect_tx_remote_relaxed_cluster_"},
    {"probe_complete_tx_remote", "cg_mbarrier_ptx_complete_tx_remote_relaxed_cluster_"},
    {"probe_test_wait", "cg_mbarrier_ptx_test_wait_acquire_cta_"},
    {"probe_test_wait_cluster", "cg_mbarrier_ptx_test_wait_acquire_cluster_"},
    {"probe_test_wait_parity", "cg_mbarrier_ptx_test_wait_parity_acquire_cta_"},
    {"probe_test_wait_parity_cluster", "cg_mbarrier_ptx_test_wait_parity_acquire_cluster_"},
    {"probe_try_wait", "cg_mbarrier_ptx_try_wait_acquire_cta_"},
    {"probe_try_wait_cluster", "cg_mbarrier_ptx_try_wait_acquire_cluster_"},
    {"probe_try_wait_hint", "cg_mbarrier_ptx_try_wait_acquire_cta_hint_"},
    {"probe_try_wait_hint_cluster", "cg_mbarrier_ptx_try_wait_acquire_cluster_hint_"},
    {"probe_try_wait_parity", "cg_mbarrier_ptx_try_wait_parity_acquire_cta_"},
    {"probe_try_wait_parity_cluster", "cg_mbarrier_ptx_try_wait_parity_acquire_cluster_"},
    {"probe_try_wait_parity_relaxed_cluster", "cg_mbarrier_ptx_try_wait_parity_relaxed_cluster_"},
    {"probe_try_wait_parity_hint", "cg_mbarrier_ptx_try_wait_parity_acquire_cta_hint_"},
    {"probe_try_wait_parity_hint_cluster", "cg_mbarrier_ptx_try_wait_parity_acquire_cluster_hint_"},
    {"probe_wait", "cg_mbarrier_ptx_try_wait_acquire_cta_"},
    {"probe_wait_cluster", "cg_mbarrier_ptx_try_wait_acquire_cluster_"},
    {"probe_wait_parity", "cg_mbarrier_ptx_try_wait_parity_acquire_cta_"},
    {"probe_wait_parity_cluster", "cg_mbarrier_ptx_try_wait_parity_acquire_cluster_"},
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

Test(mbarrier_ptx, every_wrapper_emits_exactly_its_form)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; ++i) {
        const char *probe = forms[i].probe, *instr = cgt_form(forms[i].form)->text;
        const int operands = cgt_form(forms[i].form)->operands;
        char *body = cgt_ptx_function(ptx, probe);
        int is_mbarrier = strstr(instr, "mbarrier.") != NULL;
        cr_expect_eq(cgt_count(body, instr), 1, "%s: want exactly one '%s', found %zu", probe, instr,
                     cgt_count(body, instr));
        cr_expect_eq(cgt_count(body, "mbarrier."), is_mbarrier ? 1u : 0u,
                     "%s: %zu mbarrier instructions, want only '%s'", probe, cgt_count(body, "mbarrier."), instr);
        cr_expect_eq(cgt_count(body, "fence.mbarrier_init"), strstr(instr, "fence.") ? 1u : 0u,
                     "%s: unexpected fence.mbarrier_init", probe);
        if (operands > 0)
            cr_expect_eq(operand_count(body, instr), operands, "%s: '%s' has %d operands, want %d", probe, instr,
                         operand_count(body, instr), operands);
        /* Release build: no debug code anywhere. */
        cgt_expect_no_debug_code(body, probe);
        /* The ordering forms are never the old defaults-only spelling. */
        if (is_mbarrier && strstr(instr, "shared::") == NULL)
            cr_expect(strstr(instr, "pending_count") != NULL, "%s: no state space", probe);
        free(body);
    }
    free(ptx);
}

Test(mbarrier_ptx, remote_forms_map_the_address_once)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; ++i) {
        char *body = cgt_ptx_function(ptx, forms[i].probe);
        size_t want = strstr(cgt_form(forms[i].form)->text, "shared::cluster") ? 1u : 0u;
        cr_expect_eq(cgt_count(body, "mapa.shared::cluster.u32"), want, "%s: %zu mapa, want %zu",
                     forms[i].probe, cgt_count(body, "mapa.shared::cluster.u32"), want);
        free(body);
    }
    free(ptx);
}

/* The shapes beyond each wrapper's form (the blocking waits' loop, the warp-
 * aggregated arrive, cg_barrier_t's cost, the completion barriers, the device
 * barrier, the shared-memory releases): rows of mbarrier_ptx.tbl. */
Test(mbarrier_ptx, shapes_follow_the_table)
{
    cgt_check_expectations(RELEASE_PTX, "tests/barrier/mbarrier_ptx.tbl");
}

Test(mbarrier_ptx, completion_barrier_shape)
{
    char *ptx = cgt_ptx_read(RELEASE_PTX);
    char *body = cgt_ptx_function(ptx, "probe_barrier_fn_arrive");
    /* CG_BARRIER_FN_READ_BEFORE_ARRIVE: the stored function and argument are
     * read before the arrive, and between the completer's fence and its
     * call at most the test for a NULL function branches
     * (CG_BARRIER_FN_NO_NULL_TEST 0, the default). */
    const char *arrive = strstr(body, "mbarrier.arrive.noComplete");
    const char *fence = strstr(body, "fence.acq_rel.cta");
    const char *call = strstr(body, ".callprototype");
    cr_assert(arrive != NULL && fence != NULL && call != NULL && fence < call);
    char *before = cgt_span(body, arrive);
    char *between = cgt_span(fence, call);
    cr_assert(before != NULL && between != NULL);
    cr_expect_eq(cgt_count(before, "ld.shared"), 2, "_fn and _arg read before the arrive:\n%s", before);
    cr_expect_leq(cgt_count(between, "bra"), 1, "only the NULL test branches from the fence to the call:\n%s",
                  between);
    free(before);
    free(between);
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
        cgt_expect_bounded_wait(body, waits[i], 2, "_report_");
        cr_expect_geq(cgt_count(body, "call.uni"), 1, "%s: calls its report", waits[i]);
        free(body);
    }
    for (size_t i = 0; i < sizeof counted / sizeof counted[0]; ++i) {
        char *body = cgt_ptx_function(ptx, counted[i]);
        cr_expect_geq(cgt_count(body, "1048575"), 1, "%s: checks the 2^20-1 limit", counted[i]);
        cr_expect_geq(cgt_count(body, "_report_range_"), 1, "%s: calls the count report on a bad count",
                      counted[i]);
        free(body);
    }
    /* every report function prints and traps */
    cr_expect_geq(cgt_expect_reports_print_and_trap(ptx, "_report_"), 2, "the debug PTX defines its report functions");
    free(ptx);
}
