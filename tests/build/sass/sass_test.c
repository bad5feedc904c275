/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/sass/sass_test.c — the machine code of every cross-CTA release path
 * (sass_kernels.cu) holds no GPU-wide memory barrier (issue 21): it is
 * disassembled with cuobjdump and searched, kernel by kernel, for a MEMBAR of
 * GPU or system level. Each must still hold its CTA-level barrier (the
 * shared-memory-restricted fence) and its arrive, and the control kernel
 * (mbarrier.arrive.release.cluster) must show MEMBAR.ALL.GPU, or the search
 * could not see one. cuobjdump is on the GPU machine, not on CI machines:
 * there the test skips and says so.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/support/cgtest.h"

int sass_kernels_linked(void);

/* cuobjdump from $CUDA_PATH, /usr/local/cuda or PATH; NULL when none. */
static const char *cuobjdump(void)
{
    static char path[512];
    const char *cuda = getenv("CUDA_PATH");
    snprintf(path, sizeof path, "%s/bin/cuobjdump", cuda && *cuda ? cuda : "/usr/local/cuda");
    FILE *f = fopen(path, "r");
    if (f) {
        fclose(f);
        return path;
    }
    char log[64];
    if (cgt_run("command -v cuobjdump >/dev/null 2>&1", log, sizeof log) == 0)
        return "cuobjdump";
    return NULL;
}

/* The SASS of this binary's kernels (malloc'd; the caller frees). */
static char *dump_sass(void)
{
    const char *tool = cuobjdump();
    if (!tool)
        cr_skip_test("no cuobjdump on this machine (the GPU machine has it): the SASS check runs there");
    char cmd[700];
    snprintf(cmd, sizeof cmd, "%s -sass /proc/%d/exe 2>&1", tool, (int)getpid());
    size_t cap = 8u << 20;
    char *out = malloc(cap);
    cr_assert(out, "out of memory");
    const int rc = cgt_run(cmd, out, cap);
    cr_assert(rc == 0, "%s failed (%d): %.400s", cmd, rc, out);
    return out;
}

/* The text of kernel `name`'s section: from its "Function : name" line to the
 * next "Function :" (NUL-terminated copy; NULL when absent). */
static char *section(const char *sass, const char *name)
{
    char key[256];
    snprintf(key, sizeof key, "Function : %s\n", name);
    const char *a = strstr(sass, key);
    if (!a)
        return NULL;
    const char *b = strstr(a + strlen(key), "Function : ");
    const size_t n = b ? (size_t)(b - a) : strlen(a);
    char *s = malloc(n + 1);
    memcpy(s, a, n);
    s[n] = 0;
    return s;
}

/* Copies the line that starts at l into buf (cap bytes: a longer line is cut,
 * NUL-terminated) and returns where the next line starts (NULL after the last). */
static const char *next_line(const char *l, char *buf, size_t cap)
{
    const char *e = strchr(l, '\n');
    const size_t n = e ? (size_t)(e - l) : strlen(l);
    const size_t m = n < cap - 1 ? n : cap - 1;
    memcpy(buf, l, m);
    buf[m] = 0;
    return e ? e + 1 : NULL;
}

/* Does any line of `s` contain both `x` and `y`? */
static int line_has(const char *s, const char *x, const char *y)
{
    char buf[512];
    for (const char *l = s; l && *l;) {
        l = next_line(l, buf, sizeof buf);
        if (strstr(buf, x) && (!y || strstr(buf, y)))
            return 1;
    }
    return 0;
}

/* Log the memory-ordering instructions of a kernel (for docs/design). */
static void log_fences(const char *name, const char *s)
{
    char acc[1024] = "", buf[256];
    for (const char *l = s; l && *l;) {
        l = next_line(l, buf, sizeof buf);
        char *ins = strstr(buf, "*/");
        if (ins && (strstr(buf, "MEMBAR") || strstr(buf, "FENCE") || strstr(buf, "ERRBAR") || strstr(buf, "SYNCS") ||
                    strstr(buf, "CGABAR") || strstr(buf, "CCTL"))) {
            ins += 2;
            while (*ins == ' ')
                ++ins;
            char *semi = strchr(ins, ';');
            if (semi)
                *semi = 0;
            if (strlen(acc) + strlen(ins) + 4 < sizeof acc) {
                strcat(acc, ins);
                strcat(acc, " ; ");
            }
        }
    }
    cr_log_info("%s: %s", name, acc);
}

TestSuite(sass, .timeout = 120);

Test(sass, cross_cta_releases_have_no_gpu_wide_barrier)
{
    cr_assert(sass_kernels_linked(), "the probe kernels are linked");
    char *sass = dump_sass();
    static const char *const lib[] = {
        "sass_pipeline_consumer_release",       "sass_pipeline_consumer_release_warp",
        "sass_pipeline_consumer_release_all",   "sass_pipeline_consumer_release_all_warp",
        "sass_dsmem_release",                   "sass_mbarrier_release_smem_remote",
        "sass_mbarrier_release_smem_remote_async", "sass_cluster_sync_smem",
        "sass_cluster_barrier_arrive_smem",
    };
    for (size_t i = 0; i < sizeof lib / sizeof lib[0]; ++i) {
        char *s = section(sass, lib[i]);
        cr_assert(s, "%s: not found in the SASS of this binary", lib[i]);
        log_fences(lib[i], s);
        cr_expect(!line_has(s, "MEMBAR", ".GPU") && !line_has(s, "MEMBAR", ".SYS"),
                  "%s: a GPU- or system-wide MEMBAR in a cross-CTA release", lib[i]);
        cr_expect(line_has(s, "MEMBAR", ".CTA"),
                  "%s: no CTA-level MEMBAR: the shared-memory release fence is missing", lib[i]);
        cr_expect(line_has(s, "SYNCS.ARRIVE", NULL) || line_has(s, "CGABAR", NULL),
                  "%s: no arrive instruction found (did the kernel compile away?)", lib[i]);
        free(s);
    }
    static const char *const ctl[] = {"sass_control_arrive_remote", "sass_control_cluster_sync"};
    for (size_t i = 0; i < sizeof ctl / sizeof ctl[0]; ++i) {
        char *s = section(sass, ctl[i]);
        cr_assert(s, "%s: not found in the SASS of this binary", ctl[i]);
        log_fences(ctl[i], s);
        free(s);
    }
    char *c = section(sass, "sass_control_arrive_remote");
    cr_expect(line_has(c, "MEMBAR", ".GPU"),
              "the control (mbarrier.arrive.release.cluster) shows no MEMBAR .GPU: the search cannot see one");
    free(c);
    free(sass);
}
