/* SPDX-License-Identifier: BSD-3-Clause */
/* Every public header compiles on its own: with nvcc for the default target
 * (warnings are errors) and, for its host part, as C11 with gcc -Wall -Wextra
 * -pedantic -Werror. The compiles happen at build time (cgc_header_check);
 * a header that fails stops the build. This test checks that each header on
 * the list really went through both compilers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

TestSuite(headers, .timeout = 10);

Test(headers, every_public_header_compiles_alone)
{
    FILE *f = fopen("tests/build/headers/public_headers.manifest", "r");
    cr_assert(f != NULL, "manifest of header checks missing");
    char hdr[512], stamp[512];
    int n = 0;
    while (fscanf(f, "%511s %511s", hdr, stamp) == 2) {
        char *text = cgt_ptx_read(stamp); /* any text file */
        cr_expect(strstr(text, "nvcc") && strstr(text, "gcc -std=c11"), "%s: %s", hdr, text);
        free(text);
        ++n;
    }
    fclose(f);
    cr_log_info("%d headers checked", n);
    cr_expect_geq(n, 20, "the manifest lists %d headers", n);
}
