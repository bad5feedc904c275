/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/sm80_compile_test.c — no GPU: what needs no Hopper feature builds
 * for sm_80 (Ampere), machine code included; every library header compiles
 * for compute_80 (release and CG_DEBUG); a Hopper-only call in an sm_80 build,
 * SASS or PTX-only, stops nvcc at the caller's file and line with the message
 * that names the requirement (base/config.h, CG_DEVICE_SM90).
 * tests/cg/sm80_probe.cu lists what the sm_80 build covers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

TestSuite(sm80_compile, .timeout = 240);

/* Runs nvcc on the probe for `gencode` with `defines`; returns its exit
 * status and its output in `log`. */
static int build(const char *gencode, const char *defines, char *log, size_t cap)
{
    char cmd[4096], out[512];
    snprintf(out, sizeof out, "%s/sm80_probe_%d.o", cgt_tmpdir(), (int)getpid());
    snprintf(cmd, sizeof cmd, "timeout 200 '%s' -O3 -std=c++17 %s %s -I. -c tests/cg/sm80_probe.cu -o '%s' 2>&1",
             cgt_nvcc(), gencode, defines, out);
    int rc = cgt_run(cmd, log, cap);
    unlink(out);
    return rc;
}

Test(sm80_compile, groups_barriers_and_collectives_build_for_sm_80)
{
    char log[8192];
    int rc = build("-gencode=arch=compute_80,code=sm_80", "", log, sizeof log);
    cr_expect_eq(rc, 0, "the sm_80 build failed:\n%s", log);
}

/* The line of sm80_probe.cu that holds `needle`, or 0. */
static int probe_line(const char *needle)
{
    FILE *f = fopen("tests/cg/sm80_probe.cu", "r");
    cr_assert(f != NULL, "no tests/cg/sm80_probe.cu in the runfiles");
    char line[512];
    int n = 0, found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        ++n;
        if (strstr(line, needle))
            found = n;
    }
    fclose(f);
    return found;
}

/* A cluster call built for sm_80 (`gencode`) must fail, naming the probe's
 * file and the calling line, the function and the requirement. */
static void expect_caller_reported(const char *gencode)
{
    char log[16384], where[128];
    const int line = probe_line("cg_cluster_sync(&cl);");
    cr_assert_gt(line, 0, "sm80_probe.cu has no cg_cluster_sync(&cl) line");
    int rc = build(gencode, "-DCGT_USE_CLUSTER", log, sizeof log);
    cr_expect_neq(rc, 0, "a cluster call built with %s; nvcc said:\n%s", gencode, log);
    snprintf(where, sizeof where, "sm80_probe.cu(%d): error", line);
    cr_expect(strstr(log, where) != NULL, "%s: expected the caller's location \"%s\" in nvcc's output:\n%s", gencode,
              where, log);
    cr_expect(strstr(log, "\"cg_cluster_sync\"") != NULL, "%s: the function is not named:\n%s", gencode, log);
    cr_expect(strstr(log, "needs sm_90 or newer") != NULL, "%s: the requirement is not named:\n%s", gencode, log);
    /* The note under the error quotes the called function's declaration: one
     * short line of a generated form or a hand-written call (a function
     * stamped from a macro table quoted the whole table, thousands of
     * characters on one line; tools/ptx/gen.py). */
    size_t longest = 0;
    for (const char *p = log; *p;) {
        const char *e = strchr(p, '\n');
        const size_t n = e ? (size_t)(e - p) : strlen(p);
        longest = n > longest ? n : longest;
        p += n + (e != NULL);
    }
    cr_expect_lt(longest, 1000, "%s: a line of nvcc's output has %zu characters (a note quoting a macro table?):\n%s",
                 gencode, longest, log);
}

Test(sm80_compile, a_cluster_call_in_an_sm_80_build_names_the_caller_line)
{
    expect_caller_reported("-gencode=arch=compute_80,code=sm_80");
}

/* A PTX-only build runs no ptxas: it must fail at build time all the same
 * (it used to pass and fail at load time). */
Test(sm80_compile, a_cluster_call_in_a_compute_80_ptx_build_names_the_caller_line)
{
    expect_caller_reported("-gencode=arch=compute_80,code=compute_80");
}

/* Every library header, in one unit, for compute_80: no sm_90-only wrapper
 * is left unmarked (its CG_REQUIRE_SM90() fallback would stop this build at
 * the header's line), and no marked one is called by an unmarked one. */
static void include_line(const char *folder, const char *file, void *out)
{
    fprintf((FILE *)out, "#include \"%s/%s\"\n", folder, file);
}

static void all_headers_build(const char *defines)
{
    char src[512], obj[512], cmd[4096], log[16384];
    snprintf(src, sizeof src, "%s/sm80_all_%d.cu", cgt_tmpdir(), (int)getpid());
    snprintf(obj, sizeof obj, "%s/sm80_all_%d.o", cgt_tmpdir(), (int)getpid());
    FILE *f = fopen(src, "w");
    cr_assert(f != NULL);
    const int headers = cgt_each_library_header(include_line, f);
    fputs("__global__ void cgt_sm80_all(void) {}\n", f);
    fclose(f);
    snprintf(cmd, sizeof cmd,
             "timeout 200 '%s' -std=c++17 -Werror=all-warnings %s -I. -gencode=arch=compute_80,code=compute_80 -c "
             "'%s' -o '%s' 2>&1",
             cgt_nvcc(), defines, src, obj);
    int rc = cgt_run(cmd, log, sizeof log);
    cr_expect_gt(headers, 20, "only %d headers found", headers);
    cr_expect_eq(rc, 0,
                 "%d headers %s for compute_80 (warnings are errors) failed: a function that reaches an sm_90-only call must be "
                 "declared CG_DEVICE_SM90 (base/config.h); nvcc said:\n%s",
                 headers, defines, log);
    unlink(src);
    unlink(obj);
}

Test(sm80_compile, every_header_builds_for_compute_80)
{
    all_headers_build("");
}

Test(sm80_compile, every_header_builds_for_compute_80_with_debug_checks)
{
    all_headers_build("-DCG_DEBUG=1");
}
