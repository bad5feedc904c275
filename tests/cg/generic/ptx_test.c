/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/cg/generic/ptx_test.c — the generic calls (cg/generic.h) compile to
 * exactly the typed calls (host test: reads the PTX the build made from
 * ptx_probes.cu; runs everywhere, no GPU):
 *   - every typed_X kernel of the probes has a generic_X twin whose
 *     instructions are the same, line for line: every group kind, collective
 *     and element type the generic calls take, the value types that borrow a
 *     row's typed call, CG_TILED_PARTITION against the typed constructors,
 *     and a body templated over the element type and the tile size against
 *     the same body written with typed calls;
 *   - the templated body picks the warp form at N <= 32 and the wide form
 *     above (no branch in the source): one redux.sync and no named barrier
 *     for int at N = 16, named barriers for N = 64 and 512.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

#define PTX_PATH "tests/cg/generic/ptx_probes.ptx"

TestSuite(generic_ptx, .timeout = 60);

/* Twins the probes define: 6 types x (9 tile + 8 coalesced + 4 wide-tile
 * value calls) + 8 votes + 6 meta-group queries + 2 x 3 partitions + 6
 * other value types + 3 CG_TILED_PARTITION + 4 templated bodies. */
#define EXPECTED_TWINS (6 * (9 + 8 + 4) + 8 + 6 + 6 + 6 + 3 + 4)

Test(generic_ptx, every_generic_call_is_its_typed_call)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    int twins = 0, differ = 0;
    const char *key = ".entry typed_";
    for (const char *p = ptx; (p = strstr(p, key)) != NULL; p += strlen(key)) {
        const char *name = p + strlen(".entry ");
        size_t len = strcspn(name, "( \n");
        char typed[160], generic[160];
        cr_assert_lt(len, sizeof typed - 8);
        memcpy(typed, name, len);
        typed[len] = '\0';
        snprintf(generic, sizeof generic, "generic_%s", typed + strlen("typed_"));
        ++twins;
        differ += !cgt_expect_same_code(ptx, typed, generic, 2);
    }
    cr_expect_eq(twins, EXPECTED_TWINS, "%d typed/generic twins in the probes, expected %d", twins, EXPECTED_TWINS);
    cr_expect_eq(differ, 0, "%d of %d generic calls compile to other instructions than their typed call (above)",
                 differ, twins);
    free(ptx);
}

/* The comparison can fail: calls of different types are told apart. */
Test(generic_ptx, the_comparison_tells_different_calls_apart)
{
    char *ptx = cgt_ptx_read(PTX_PATH);
    char *a = cgt_ptx_normalized(ptx, "typed_tile_reduce_i32");
    char *b = cgt_ptx_normalized(ptx, "generic_tile_reduce_f32");
    char *c = cgt_ptx_normalized(ptx, "generic_coal_shfl_up_u32");
    char *d = cgt_ptx_normalized(ptx, "generic_tile_shfl_up_u32");
    cr_expect_str_neq(a, b, "an i32 and an f32 reduce compiled alike");
    cr_expect_str_neq(c, d, "a coalesced group's and a tile's shfl_up compiled alike");
    free(a);
    free(b);
    free(c);
    free(d);
    free(ptx);
}

/* One templated body, two forms: the warp tile below 33, the wide tile above. */
Test(generic_ptx, the_templated_body_takes_the_tile_form_of_its_size)
{
    cgt_check_expectations(PTX_PATH, "tests/cg/generic/ptx_test.tbl");
}
