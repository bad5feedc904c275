/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/sm80_compile_test.c — no GPU: what needs no Hopper feature builds
 * for sm_80 (Ampere), machine code included; a Hopper-only call in an sm_80
 * build stops nvcc with the message that names the requirement.
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

Test(sm80_compile, a_cluster_call_in_an_sm_80_build_names_the_requirement)
{
    char log[8192];
    int rc = build("-gencode=arch=compute_80,code=sm_80", "-DCGT_USE_CLUSTER", log, sizeof log);
    cr_expect_neq(rc, 0, "a cluster call built for sm_80");
    cr_expect(strstr(log, "needs_sm90_or_newer") != NULL, "nvcc said:\n%s", log);
}
