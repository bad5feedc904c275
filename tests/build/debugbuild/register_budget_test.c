/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/debugbuild/register_budget_test.c — no GPU: what a debug build
 * costs in registers, from ptxas's own report (nvcc --resource-usage).
 *   - The every-wait kernel (every_wait_kernels.cu, 1024-thread blocks, no
 *     __launch_bounds__) built with CG_DEBUG=1 needs at most 64 registers a
 *     thread, so a debug build launches the 1024-thread shape its release
 *     build launches (65536 registers an SM).
 *   - Each small per-wait kernel of wait_sites.cu needs at most
 *     CGT_DEBUG_SITE_BUDGET registers more in its debug build than in its
 *     release build (the deadlock reports are out of line: a site costs its
 *     timer check and an untaken call; before that, 10 to 21 more).
 *   - Each combination kernel of combo_kernels.cu (the waits, releases and
 *     reports one ported program holds at once: the sliced multicast
 *     pipeline with warp releases inside the split grid barrier, a pipeline
 *     with DSMEM pushes and releases, the DSMEM ring alone, all of them;
 *     issue 34.9) needs at most 64 registers in its debug build (so its
 *     1024-thread shape launches), and at most its recorded debug-over-
 *     release cost (CGT_COMBO_BUDGET, the counts of the commit that added
 *     the test plus 3 registers of ptxas noise): a debug build that grows
 *     fails here before a user's launch does.
 * Every count is printed (docs/design/debug_builds.md keeps the table).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

TestSuite(register_budget, .timeout = 300);

#define CGT_DEBUG_SITE_BUDGET 12
#define MAX_KERNELS 32

typedef struct {
    char name[96];
    int regs;
} kregs_t;

/* Compiles `src` (release or debug) and reads each entry function's
 * register count from ptxas's report. Returns the number of kernels. */
static int compile_and_read(const char *src, int debug, kregs_t *out)
{
    static char log[1 << 16];
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "'%s' -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -DCG_DEBUG=%d -I. --resource-usage -c %s "
             "-o '%s/regs_%d_%d.o' 2>&1",
             cgt_nvcc(), debug, src, cgt_tmpdir(), (int)getpid(), debug);
    int rc = cgt_run(cmd, log, sizeof log);
    cr_assert_eq(rc, 0, "nvcc failed:\n%s\n%s", cmd, log);
    int n = 0;
    const char *p = log;
    char current[96] = "";
    while ((p = strstr(p, "ptxas info")) != NULL) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *e = strstr(p, "Compiling entry function '");
        const char *u = strstr(p, "Used ");
        if (e != NULL && e < p + len) {
            e += strlen("Compiling entry function '");
            const char *q = strchr(e, '\'');
            size_t k = q ? (size_t)(q - e) : 0;
            if (k >= sizeof current)
                k = sizeof current - 1;
            memcpy(current, e, k);
            current[k] = '\0';
        } else if (u != NULL && u < p + len && current[0] != '\0' && n < MAX_KERNELS) {
            snprintf(out[n].name, sizeof out[n].name, "%s", current);
            out[n].regs = atoi(u + 5);
            ++n;
            current[0] = '\0';
        }
        p += len;
    }
    cr_assert_gt(n, 0, "no register counts in ptxas's report:\n%s", log);
    return n;
}

static int find(const kregs_t *k, int n, const char *name)
{
    for (int i = 0; i < n; ++i)
        if (strcmp(k[i].name, name) == 0)
            return k[i].regs;
    cr_assert_fail("ptxas reported no kernel %s", name);
    return -1;
}

Test(register_budget, debug_every_wait_kernel_fits_1024_threads)
{
    kregs_t rel[MAX_KERNELS], dbg[MAX_KERNELS];
    int nr = compile_and_read("tests/build/debugbuild/every_wait_kernels.cu", 0, rel);
    int nd = compile_and_read("tests/build/debugbuild/every_wait_kernels.cu", 1, dbg);
    int r = find(rel, nr, "ew_every_wait_kernel"), d = find(dbg, nd, "ewd_every_wait_kernel");
    cr_log_info("every-wait kernel: %d registers (release), %d (debug)", r, d);
    cr_expect_leq(r, 64, "the release every-wait kernel needs %d registers: it no longer fits 1024 threads", r);
    cr_expect_leq(d, 64, "the debug every-wait kernel needs %d registers a thread (release: %d): a debug build "
                         "would refuse the 1024-thread launch its release build makes", d, r);
}

Test(register_budget, debug_wait_sites_stay_near_release)
{
    kregs_t rel[MAX_KERNELS], dbg[MAX_KERNELS];
    int nr = compile_and_read("tests/build/debugbuild/wait_sites.cu", 0, rel);
    int nd = compile_and_read("tests/build/debugbuild/wait_sites.cu", 1, dbg);
    cr_assert_eq(nr, nd, "release and debug builds report different kernel counts (%d, %d)", nr, nd);
    for (int i = 0; i < nr; ++i) {
        int d = find(dbg, nd, rel[i].name);
        cr_log_info("%-34s release %3d  debug %3d  (+%d)", rel[i].name, rel[i].regs, d, d - rel[i].regs);
        cr_expect_leq(d - rel[i].regs, CGT_DEBUG_SITE_BUDGET,
                      "%s: the debug build needs %d registers, %d more than the release build's %d", rel[i].name, d,
                      d - rel[i].regs, rel[i].regs);
    }
}

/* The combinations (issue 34.9): name, and the most registers its debug
 * build may take over its release build (measured at this test's commit:
 * +24, +7, +9, +19, +8; docs/design/debug_builds.md says where they go). */
static const struct {
    const char *name;
    int budget;
} combos[] = {
    {"cb_sliced_grid", 27},       {"cb_pipeline_dsmem", 10}, {"cb_dsmem_ring", 12},
    {"cb_sliced_grid_live8", 22}, {"cb_everything", 11},
};

Test(register_budget, debug_combinations_fit_1024_threads)
{
    kregs_t rel[MAX_KERNELS], dbg[MAX_KERNELS];
    int nr = compile_and_read("tests/build/debugbuild/combo_kernels.cu", 0, rel);
    int nd = compile_and_read("tests/build/debugbuild/combo_kernels.cu", 1, dbg);
    cr_expect_eq(nr, (int)(sizeof combos / sizeof combos[0]), "%d kernels in combo_kernels.cu, the table has %d", nr,
                 (int)(sizeof combos / sizeof combos[0]));
    for (size_t i = 0; i < sizeof combos / sizeof combos[0]; ++i) {
        int r = find(rel, nr, combos[i].name), d = find(dbg, nd, combos[i].name);
        cr_log_info("%-22s release %3d  debug %3d  (+%d, budget +%d)", combos[i].name, r, d, d - r, combos[i].budget);
        cr_expect_leq(d, 64, "%s: the debug build needs %d registers a thread (release: %d): it would refuse the "
                             "1024-thread launch its release build makes", combos[i].name, d, r);
        cr_expect_leq(d - r, combos[i].budget, "%s: the debug build costs %d registers over the release build's %d "
                                               "(recorded: +%d at most)", combos[i].name, d - r, r, combos[i].budget);
    }
}
