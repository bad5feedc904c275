/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/wide_tile/ptx_test.c — what the wide tile compiles to (host test,
 * reads the PTX that the build made from ptx_probes.cu; runs everywhere):
 *   - cg_wide_tile_sync is one non-aligned `barrier.sync id, n;` with both
 *     operands registers and nothing else that synchronizes (no bar.sync 0,
 *     no __syncwarp, no atomics);
 *   - a reduce holds exactly two such barriers and no block barrier or
 *     atomic; the 32-bit integer reduce's warp step is redux.sync. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/cg/wide_tile/ptx_probes.ptx"

TestSuite(wide_tile_ptx, .timeout = 30);

static char *body(const char *ptx, const char *name)
{
    char *b = cgt_ptx_function(ptx, name);
    char *ins = cgt_ptx_instructions(b);
    free(b);
    return ins;
}

/* Lines of `ins` whose opcode (after an optional @predicate) starts with `op`. */
static size_t ops(const char *ins, const char *op)
{
    size_t n = 0, len = strlen(op);
    for (const char *p = ins; *p;) {
        const char *e = strchr(p, '\n');
        const char *s = p;
        if (*s == '@') {
            while (*s && *s != ' ' && *s != '\t' && *s != '\n')
                s++;
            while (*s == ' ' || *s == '\t')
                s++;
        }
        n += strncmp(s, op, len) == 0;
        if (!e)
            break;
        p = e + 1;
    }
    return n;
}

/* Every synchronizing instruction of a body, counted. */
static size_t syncs(const char *ins)
{
    return ops(ins, "bar.") + ops(ins, "barrier.") + ops(ins, "mbarrier.") + ops(ins, "atom.") + ops(ins, "red.") +
           ops(ins, "membar") + ops(ins, "fence");
}

static void expect_one_named_barrier(const char *name)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *ins = body(ptx, name);
    cr_expect_eq(cgt_count(ins, "barrier.sync %r"), 1u, "%s: one `barrier.sync %%r.., %%r..;` expected:\n%s", name,
                 ins);
    cr_expect_eq(cgt_count(ins, "barrier.sync.aligned"), 0u, "%s: the non-aligned form expected:\n%s", name, ins);
    cr_expect_eq(syncs(ins), 1u, "%s: the named barrier must be the only synchronizing instruction:\n%s", name, ins);
    free(ins);
    free(ptx);
}

Test(wide_tile_ptx, sync_is_one_named_barrier) { expect_one_named_barrier("probe_wide_sync"); }

Test(wide_tile_ptx, sync_with_runtime_n_is_one_named_barrier) { expect_one_named_barrier("probe_wide_sync_n"); }

Test(wide_tile_ptx, reduce_has_two_tile_barriers)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *f = body(ptx, "probe_wide_reduce");
    char *i = body(ptx, "probe_wide_reduce_int");
    cr_expect_eq(cgt_count(f, "barrier.sync %r"), 2u, "float reduce: two tile barriers expected:\n%s", f);
    cr_expect_eq(syncs(f), 2u, "float reduce: nothing but the two tile barriers synchronizes:\n%s", f);
    cr_expect_eq(cgt_count(i, "barrier.sync %r"), 2u, "int reduce: two tile barriers expected:\n%s", i);
    cr_expect_eq(syncs(i), 2u, "int reduce: nothing but the two tile barriers synchronizes:\n%s", i);
    cr_expect_geq(cgt_count(i, "redux.sync.add.s32"), 1u, "int reduce: the warp step should be redux.sync:\n%s", i);
    free(f);
    free(i);
    free(ptx);
}
