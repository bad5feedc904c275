/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/groupapi/arg_count_test.c — no GPU: cg_memcpy_async with five
 * arguments (barrier) and four (staged) both build; three stop nvcc with
 * "cg_memcpy_async_takes_4_or_5_arguments" in its message; and
 * cg_memcpy_async_aligned with five (stage) and six (barrier) arguments
 * builds, four or seven name "cg_memcpy_async_aligned_takes_5_or_6_arguments".
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

TestSuite(arg_count, .timeout = 240);

static int build(const char *defines, char *log, size_t cap)
{
    char cmd[4096], out[512];
    snprintf(out, sizeof out, "%s/arg_count_probe_%d.o", cgt_tmpdir(), (int)getpid());
    snprintf(cmd, sizeof cmd,
             "timeout 200 '%s' -O3 -std=c++17 -gencode=arch=compute_90a,code=sm_90a %s -I. -c "
             "tests/cg/groupapi/arg_count_probe.cu -o '%s' 2>&1",
             cgt_nvcc(), defines, out);
    int rc = cgt_run(cmd, log, cap);
    unlink(out);
    return rc;
}

Test(arg_count, four_and_five_arguments_build)
{
    char log[8192];
    int rc = build("", log, sizeof log);
    cr_expect_eq(rc, 0, "the four- and five-argument calls failed to build:\n%s", log);
}

Test(arg_count, three_arguments_name_the_mistake)
{
    char log[8192];
    int rc = build("-DCGT_THREE_ARGS", log, sizeof log);
    cr_expect_neq(rc, 0, "a three-argument cg_memcpy_async built");
    cr_expect(strstr(log, "cg_memcpy_async_takes_4_or_5_arguments") != NULL, "nvcc said:\n%s", log);
}

Test(arg_count, aligned_with_four_or_seven_arguments_names_the_mistake)
{
    static const char *defs[] = {"-DCGT_ALIGNED_FOUR_ARGS", "-DCGT_ALIGNED_SEVEN_ARGS"};
    for (int i = 0; i < 2; ++i) {
        char log[8192];
        int rc = build(defs[i], log, sizeof log);
        cr_expect_neq(rc, 0, "%s: the call built", defs[i]);
        cr_expect(strstr(log, "cg_memcpy_async_aligned_takes_5_or_6_arguments") != NULL, "%s: nvcc said:\n%s",
                  defs[i], log);
    }
}
