/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/groupapi/ptx_test.c — what the group API compiles to (host test,
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
 *   - cg_wait on a tile: wait_group 0, then bar.warp.sync, no bar.sync.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/groupapi/ptx_probes.ptx"

TestSuite(groupapi_ptx, .timeout = 30);

/* Instruction lines of `name`, its own name (in its parameter names) and
 * the function number in branch labels ($L__BB<n>_<k>) replaced, so two
 * functions with the same code compare equal. */
static char *normalized(const char *ptx, const char *name)
{
    char *body = cgt_ptx_function(ptx, name);
    char *ins = cgt_ptx_instructions(body);
    size_t nlen = strlen(name), o = 0;
    char *out = malloc(strlen(ins) + 1);
    cr_assert(out != NULL);
    for (const char *p = ins; *p;) {
        if (strncmp(p, name, nlen) == 0) {
            out[o++] = '@';
            p += nlen;
        } else if (strncmp(p, "$L__BB", 6) == 0) {
            memcpy(out + o, "$L__BB", 6);
            o += 6;
            p += 6;
            while (isdigit((unsigned char)*p))
                p++;
        } else {
            out[o++] = *p++;
        }
    }
    out[o] = '\0';
    free(body);
    free(ins);
    return out;
}

static void expect_same_code(const char *ptx, const char *a, const char *b)
{
    char *ia = normalized(ptx, a), *ib = normalized(ptx, b);
    cr_expect_str_eq(ia, ib, "%s and %s differ:\n--- %s\n%s\n--- %s\n%s", a, b, a, ia, b, ib);
    free(ia);
    free(ib);
}

Test(groupapi_ptx, thread_group_in_sight_is_the_typed_call)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    expect_same_code(ptx, "tg_tile_calls", "typed_tile_calls");
    expect_same_code(ptx, "tg_block_calls", "typed_block_calls");
    free(ptx);
}

Test(groupapi_ptx, thread_group_of_a_wide_tile_in_sight_is_one_named_barrier)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    expect_same_code(ptx, "tg_wide_calls", "typed_wide_calls");
    const char *names[] = {"tg_wide_calls", "tg_wide_generic_sync"};
    for (int i = 0; i < 2; ++i) {
        char *f = cgt_ptx_function(ptx, names[i]);
        char *ins = cgt_ptx_instructions(f);
        cr_expect_eq(cgt_count(ins, "barrier.sync"), 1u, "%s: want exactly one barrier.sync (the wide tile's):\n%s",
                     names[i], ins);
        cr_expect_eq(cgt_count(ins, "bar.sync"), 0u, "%s: a block barrier (bar.sync) is left:\n%s", names[i], ins);
        cr_expect_eq(cgt_count(ins, "bar.warp.sync"), 0u, "%s: a warp sync is left:\n%s", names[i], ins);
        cr_expect_eq(cgt_count(ins, "brx.idx"), 0u, "%s: a jump table (the kind switch) is left:\n%s", names[i], ins);
        free(ins);
        free(f);
    }
    free(ptx);
}

Test(groupapi_ptx, a_run_time_kind_keeps_the_switch)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *f = cgt_ptx_function(ptx, "tg_any_sync");
    cr_expect_gt(cgt_count(f, "bar.sync"), 0u, "no block sync in the type-erased sync:\n%s", f);
    cr_expect_gt(cgt_count(f, "bar.warp.sync"), 0u, "no warp sync in the type-erased sync:\n%s", f);
    cr_expect_gt(cgt_count(f, "barrier.sync"), 0u, "no wide tile (named barrier) sync in the type-erased sync:\n%s", f);
    free(f);
    free(ptx);
}

Test(groupapi_ptx, generic_invoke_one_is_the_typed_call)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    expect_same_code(ptx, "generic_invoke", "typed_invoke");
    char *f = cgt_ptx_function(ptx, "typed_invoke");
    cr_expect_eq(cgt_count(f, "elect.sync"), 2u, "want one elect.sync per call (2):\n%s", f);
    cr_expect_eq(cgt_count(f, "shfl.sync.idx"), 1u, "want one shuffle for the broadcast:\n%s", f);
    cr_expect_eq(cgt_count(f, "call"), 0u, "the named functions were not inlined (a call is left):\n%s", f);
    free(f);
    free(ptx);
}

Test(groupapi_ptx, wait_prior_with_a_constant_is_one_instruction)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *f = cgt_ptx_function(ptx, "wait_prior_constant");
    cr_expect_eq(cgt_count(f, "cp.async.wait_group"), 1u, "want exactly one cp.async.wait_group:\n%s", f);
    cr_expect_eq(cgt_count(f, "cp.async.wait_group 2;"), 1u, "want cp.async.wait_group 2:\n%s", f);
    cr_expect_eq(cgt_count(f, "cp.async.commit_group"), 3u, "want one commit per staged copy (3):\n%s", f);
    cr_expect_gt(cgt_count(f, "bar.sync"), 0u, "no block sync after the wait:\n%s", f);
    free(f);
    f = cgt_ptx_function(ptx, "wait_prior_runtime");
    for (int n = 0; n <= 7; ++n) {
        char want[64];
        snprintf(want, sizeof want, "cp.async.wait_group %d;", n);
        cr_expect_eq(cgt_count(f, want), 1u, "a run-time n lacks %s:\n%s", want, f);
    }
    free(f);
    free(ptx);
}

Test(groupapi_ptx, wait_on_a_tile_is_a_warp_sync)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *f = cgt_ptx_function(ptx, "wait_tile");
    cr_expect_eq(cgt_count(f, "cp.async.wait_group 0;"), 1u, "want cp.async.wait_group 0:\n%s", f);
    cr_expect_gt(cgt_count(f, "bar.warp.sync"), 0u, "no warp sync after the wait:\n%s", f);
    cr_expect_eq(cgt_count(f, "bar.sync"), 0u, "a block sync in a tile's wait:\n%s", f);
    free(f);
    free(ptx);
}
