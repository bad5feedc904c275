/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic_compile_time_test.c — no GPU needed: compiles
 * generic_compile_probe.cu (every group's generic and typed calls together,
 * in loops and branches, the block barrier's lazy setup in the loop, group
 * copies and pushes) with nvcc at -O3 for sm_90a, in a release and a debug
 * (CG_DEBUG=1) build, and fails when either takes longer than
 * COMPILE_LIMIT_S or does not compile.
 *
 * Why: the generic calls once switched at run time over every group kind;
 * in a debug build of this probe cicc then ran for more than 100 s (killed;
 * measured on the development machine, 2 cores, at commit 9879ae5). With
 * the calls resolved on the static type each build takes about 1-1.5 s
 * there. nvcc runs under `timeout`, so a regression fails the test instead
 * of stalling CI.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "tests/support/cgtest.h"

/* About 15x the time measured on a 2-core machine (1-1.5 s). */
#define COMPILE_LIMIT_S 20.0

TestSuite(generic_compile_time, .timeout = 150);

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void compile_probe(const char *what, const char *defines)
{
    char cmd[4096], out[512];
    const char *nvcc = cgt_nvcc();
    snprintf(out, sizeof out, "%s/generic_probe_%d.o", cgt_tmpdir(), (int)getpid());
    snprintf(cmd, sizeof cmd,
             "timeout %d '%s' -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a %s -I. -c "
             "tests/cg/generic_compile_probe.cu -o '%s' 2>&1",
             (int)(COMPILE_LIMIT_S * 3), nvcc, defines, out);
    double t0 = now_s();
    FILE *p = popen(cmd, "r");
    cr_assert(p != NULL, "popen failed");
    char line[512];
    while (fgets(line, sizeof line, p))
        cr_log_info("%s nvcc: %s", what, line);
    int rc = pclose(p);
    double secs = now_s() - t0;
    unlink(out);
    cr_log_info("%s build of the generic-call probe: %.2f s (limit %.0f s)", what, secs, COMPILE_LIMIT_S);
    cr_expect_eq(rc, 0, "%s build: nvcc failed or was killed at %.0f s (status %d)", what, COMPILE_LIMIT_S * 3,
                 rc);
    cr_expect_lt(secs, COMPILE_LIMIT_S, "%s build took %.1f s, limit %.0f s", what, secs, COMPILE_LIMIT_S);
}

Test(generic_compile_time, release_build_of_every_generic_call_is_quick)
{
    compile_probe("release", "");
}

Test(generic_compile_time, debug_build_of_every_generic_call_is_quick)
{
    compile_probe("debug", "-DCG_DEBUG=1");
}
