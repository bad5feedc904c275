/* tests/cg/ptx_test.c — what the group calls compile to (host test, reads the
 * PTX that the build made from ptx_probes.cu; runs everywhere, no GPU):
 *   - block sync is bar.sync 0 and nothing else (same as __syncthreads)
 *   - the cluster split barrier emits barrier.cluster.arrive.release and
 *     barrier.cluster.wait.acquire (non-aligned) and nothing else, the
 *     relaxed arrive barrier.cluster.arrive.relaxed
 *   - the block split barrier is an mbarrier arrive + try_wait, not bar.sync
 *     alone; the grid barrier is atom.add.acq_rel.gpu + ld.acquire.gpu
 *   - every generic call compiles to exactly the typed call's instructions. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/cg/ptx_probes.ptx"

TestSuite(cg_ptx, .timeout = 30);

/* Instruction lines of `name`, with the function's own name (its parameter
 * names) and the function number inside branch labels ($L__BB<n>_<k>)
 * replaced, so two functions with the same code compare equal. */
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

static size_t lines(const char *s)
{
    size_t n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

Test(cg_ptx, block_sync_is_one_bar_sync)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *ours = normalized(ptx, "probe_block_sync");
    char *builtin = normalized(ptx, "probe_syncthreads");
    cr_expect_eq(cgt_count(ours, "bar.sync"), 1u, "block sync: %s", ours);
    cr_expect_eq(cgt_count(ours, "bar.sync \t0;") + cgt_count(ours, "bar.sync 0;") +
                     cgt_count(ours, "barrier.sync 0;") + cgt_count(ours, "barrier.sync \t0;"),
                 1u, "block sync must be barrier 0: %s", ours);
    /* bar.sync 0 and ret, nothing else */
    cr_expect_eq(lines(ours), 2u, "block sync has extra instructions:\n%s", ours);
    cr_expect_str_eq(ours, builtin, "block sync differs from __syncthreads:\n%s\nvs\n%s", ours, builtin);
    free(ours);
    free(builtin);
    free(ptx);
}

Test(cg_ptx, cluster_split_barrier_forms)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *aw = normalized(ptx, "probe_cluster_arrive_wait");
    char *rl = normalized(ptx, "probe_cluster_relaxed");
    char *sync = normalized(ptx, "typed_cluster_sync");
    const char *a = strstr(aw, "barrier.cluster.arrive.release;");
    const char *w = strstr(aw, "barrier.cluster.wait.acquire;");
    cr_expect(a != NULL && w != NULL && a < w, "arrive.release then wait.acquire expected:\n%s", aw);
    cr_expect_eq(cgt_count(aw, ".aligned"), 0u, "the split cluster barrier must use the non-aligned forms:\n%s", aw);
    cr_expect_eq(lines(aw), 3u, "cluster arrive+wait has extra instructions:\n%s", aw);
    cr_expect_eq(cgt_count(rl, "barrier.cluster.arrive.relaxed;"), 1u, "relaxed arrive:\n%s", rl);
    cr_expect_eq(cgt_count(rl, "barrier.cluster.wait.acquire;"), 1u, "relaxed arrive + wait:\n%s", rl);
    cr_expect_eq(lines(rl), 3u, "relaxed arrive+wait has extra instructions:\n%s", rl);
    cr_expect_str_eq(sync, aw, "cluster sync should be arrive.release + wait.acquire:\n%s", sync);
    free(aw);
    free(rl);
    free(sync);
    free(ptx);
}

Test(cg_ptx, block_split_barrier_is_an_mbarrier)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *b = normalized(ptx, "probe_block_split");
    const char *arrive = strstr(b, "mbarrier.arrive.release.cta.shared::cta.b64");
    const char *store = strstr(b, "st.global.u32");
    const char *wait = strstr(b, "mbarrier.try_wait");
    cr_expect(arrive && store && wait, "mbarrier arrive / work / try_wait expected:\n%s", b);
    /* The work sits between arrive and wait: real overlap, no bar.sync there. */
    cr_expect(arrive && store && wait && arrive < store && store < wait, "order arrive < work < wait:\n%s", b);
    /* Only the one-time setup holds a CTA barrier, before the arrive. */
    cr_expect_eq(cgt_count(b, "bar.sync") + cgt_count(b, "barrier.sync"), 1u, "%s", b);
    if (arrive)
        cr_expect_eq(cgt_count(arrive, "bar.sync") + cgt_count(arrive, "barrier.sync"), 0u,
                     "CTA barrier after the arrive:\n%s", b);
    free(b);
    free(ptx);
}

Test(cg_ptx, grid_barrier_forms)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *g = normalized(ptx, "probe_grid_sync");
    cr_expect_eq(cgt_count(g, "atom.add.acq_rel.gpu.global.u32"), 1u, "%s", g);
    cr_expect_geq(cgt_count(g, "ld.acquire.gpu.global.u32"), 1u, "%s", g);
    cr_expect_eq(cgt_count(g, "%envreg1"), 1u, "workspace from the driver ABI:\n%s", g);
    cr_expect_eq(cgt_count(g, "%envreg2"), 1u, "workspace from the driver ABI:\n%s", g);
    /* The block barriers around thread 0's part are the non-aligned form
     * (thread 0 reaches the second one from its polling loop). */
    cr_expect_eq(cgt_count(g, "barrier.sync 0;"), 2u, "%s", g);
    cr_expect_eq(cgt_count(g, "bar.sync"), 0u, "%s", g);
    free(g);
    free(ptx);
}

static void expect_twins(const char *ptx, const char *which)
{
    char typed[64], generic[64];
    snprintf(typed, sizeof typed, "typed_%s", which);
    snprintf(generic, sizeof generic, "generic_%s", which);
    char *t = normalized(ptx, typed);
    char *g = normalized(ptx, generic);
    cr_expect_gt(lines(t), 1u, "%s: empty body", typed);
    cr_expect_str_eq(t, g, "%s: generic call differs from typed call:\n--- typed\n%s--- generic\n%s", which, t, g);
    free(t);
    free(g);
}

Test(cg_ptx, generic_equals_typed)
{
    static const char *const twins[] = {"block_sync",  "block_split", "cluster_sync",  "cluster_split",
                                        "grid_sync",   "grid_split",  "tile_sync",     "ranks_block",
                                        "ranks_cluster", "ranks_grid", "ranks_tile"};
    char *ptx = cgt_ptx_read(PTX_PATH);
    for (size_t i = 0; i < sizeof twins / sizeof twins[0]; i++)
        expect_twins(ptx, twins[i]);
    free(ptx);
}
