/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/rdc_compile_test.c — no GPU: cgc's headers in a relocatable-device-
 * code build (separate compilation and a device link, as dynamic parallelism
 * needs). Two translation units that both include cgc and share a __device__
 * function and variable are compiled with -rdc=true and device-linked, in a
 * release and a debug build; nvcc must accept all of it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

TestSuite(rdc_compile, .timeout = 240);

/* Runs one shell command; fails the test with its output when it fails. */
static void run(const char *what, const char *cmd)
{
    char log[8192];
    cr_assert_eq(cgt_run(cmd, log, sizeof log), 0, "%s failed:\n%s\n%s", what, cmd, log);
}

static void rdc_build(const char *defines)
{
    char cmd[4096], dir[600];
    snprintf(dir, sizeof dir, "%s/rdc_%d", cgt_tmpdir(), (int)getpid());
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    run("mkdir", cmd);
    static const char *units[] = {"rdc_a", "rdc_b"};
    for (int i = 0; i < 2; ++i) {
        snprintf(cmd, sizeof cmd,
                 "'%s' -std=c++17 -O3 -gencode=arch=compute_90a,code=sm_90a -rdc=true %s -I. -c tests/cg/%s.cu "
                 "-o '%s/%s.o' 2>&1",
                 cgt_nvcc(), defines, units[i], dir, units[i]);
        run(units[i], cmd);
    }
    snprintf(cmd, sizeof cmd,
             "'%s' -gencode=arch=compute_90a,code=sm_90a -dlink '%s/rdc_a.o' '%s/rdc_b.o' -o '%s/dlink.o' 2>&1",
             cgt_nvcc(), dir, dir, dir);
    run("the device link", cmd);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    run("cleanup", cmd);
}

Test(rdc_compile, release_build_links)
{
    rdc_build("");
}

Test(rdc_compile, debug_build_links)
{
    rdc_build("-DCG_DEBUG=1");
}
