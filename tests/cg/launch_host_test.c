/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/launch_host_test.c — every bad launch configuration that can be
 * told without a device gets its own status and a detail with the numbers.
 * Host test: runs in CI with no GPU (then a valid shape must report
 * CG_ERROR_NO_DEVICE; with an sm_90 device, the fake kernel pointer must be
 * refused as CG_ERROR_KERNEL_IMAGE). */
#include <string.h>

#include "cg/launch.h"
#include "tests/support/cgtest.h"

TestSuite(cg_launch_host, .timeout = 30);

/* Not a kernel: an object whose address is never launched successfully. */
static const char fake_kernel = 0;
#define FAKE ((const void *)&fake_kernel)

static cg_launch_config_t valid(void)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
    c.grid.x = 128;
    c.block.x = 256;
    return c;
}

/* The status a configuration with a valid shape gets on this machine. */
static cg_status_t shape_ok_status(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    (void)cudaGetLastError();
    if (e != cudaSuccess || n == 0)
        return CG_ERROR_NO_DEVICE;
    return cgt_have_sm90() ? CG_ERROR_KERNEL_IMAGE : CG_ERROR_DEVICE_TOO_OLD;
}

/* cg_launch (and cg_launch_check) on c with kernel k give `want`, with a
 * detail that holds needle1 and needle2 (each when not NULL); `what` names
 * the case in every message. */
static void expect_status(const char *what, const cg_launch_config_t *c, const void *k, cg_status_t want,
                          const char *needle1, const char *needle2)
{
    cg_status_t got = cg_launch(c, k, NULL);
    const char *d = cg_last_error_detail();
    cr_expect_eq(got, want, "%s: got %s (%s), want %s", what, cg_status_name(got), d, cg_status_name(want));
    cr_expect(d != NULL && d[0] != '\0', "%s: no detail for %s", what, cg_status_name(want));
    if (needle1)
        cr_expect(strstr(d, needle1) != NULL, "%s: detail '%s' lacks '%s'", what, d, needle1);
    if (needle2)
        cr_expect(strstr(d, needle2) != NULL, "%s: detail '%s' lacks '%s'", what, d, needle2);
    /* cg_launch_check agrees with cg_launch. */
    cr_expect_eq(cg_launch_check(c, k), want, "%s: cg_launch_check disagrees for %s", what, cg_status_name(want));
}

/* One shape for the fake kernel: grid, block and cluster as given (a 0
 * field: its default), the status it must get (shape_ok: the status of a
 * valid shape on this machine) and two pieces of its detail (NULL: none). */
typedef struct shape_case {
    const char *what;
    cg_dim3_t grid, block, cluster;
    int shape_ok;
    cg_status_t want;
    const char *needle1, *needle2;
} shape_case_t;

#define NCASES(t) (sizeof(t) / sizeof(t)[0])

static void expect_shapes(const shape_case_t *cs, size_t n)
{
    for (size_t i = 0; i < n; ++i) {
        cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT;
        c.grid = cs[i].grid;
        c.block = cs[i].block;
        c.cluster = cs[i].cluster;
        expect_status(cs[i].what, &c, FAKE, cs[i].shape_ok ? shape_ok_status() : cs[i].want, cs[i].needle1,
                      cs[i].needle2);
    }
}

Test(cg_launch_host, init_is_all_zero)
{
    cg_launch_config_t c = CG_LAUNCH_CONFIG_INIT, z;
    memset(&z, 0, sizeof z);
    cr_expect_eq(c.grid.x | c.grid.y | c.grid.z | c.block.x | c.block.y | c.block.z, 0u);
    cr_expect_eq(c.cluster.x | c.cluster.y | c.cluster.z, 0u);
    cr_expect_eq(c.dynamic_smem, 0u);
    cr_expect(c.stream == z.stream);
    cr_expect_eq(c.cooperative, 0);
}

Test(cg_launch_host, null_config_and_null_kernel)
{
    cg_launch_config_t c = valid();
    expect_status("NULL config", NULL, FAKE, CG_ERROR_INVALID_ARGUMENT, "NULL", NULL);
    expect_status("NULL kernel", &c, NULL, CG_ERROR_KERNEL_NULL, "NULL", NULL);
}

#define D3(x, y, z) ((cg_dim3_t){(x), (y), (z)})

Test(cg_launch_host, bad_block_sizes)
{
    static const shape_case_t cs[] = {
        {"block.x 0", D3(128, 0, 0), D3(0, 0, 0), D3(0, 0, 0), 0, CG_ERROR_BLOCK_SIZE, "block.x is 0", NULL},
        {"block 1025", D3(128, 0, 0), D3(1025, 0, 0), D3(0, 0, 0), 0, CG_ERROR_BLOCK_SIZE, "1025x1x1", "1024"},
        {"block 32x32x2", D3(128, 0, 0), D3(32, 32, 2), D3(0, 0, 0), 0, CG_ERROR_BLOCK_SIZE, "2048 threads", NULL},
        {"block 1x1x65", D3(128, 0, 0), D3(1, 1, 65), D3(0, 0, 0), 0, CG_ERROR_BLOCK_SIZE, "1x1x65", NULL},
    };
    expect_shapes(cs, NCASES(cs));
}

Test(cg_launch_host, bad_grid_sizes)
{
    static const shape_case_t cs[] = {
        {"grid.x 0", D3(0, 0, 0), D3(256, 0, 0), D3(0, 0, 0), 0, CG_ERROR_GRID_SIZE, "grid.x is 0", NULL},
        {"grid 4x65536", D3(4, 65536, 0), D3(256, 0, 0), D3(0, 0, 0), 0, CG_ERROR_GRID_SIZE, "4x65536x1", NULL},
    };
    expect_shapes(cs, NCASES(cs));
}

Test(cg_launch_host, cluster_too_large)
{
    static const shape_case_t cs[] = {
        {"cluster 17", D3(17 * 4, 0, 0), D3(256, 0, 0), D3(17, 0, 0), 0, CG_ERROR_CLUSTER_TOO_LARGE, "17x1x1", "16"},
        {"cluster 4x4x2", D3(8, 8, 2), D3(256, 0, 0), D3(4, 4, 2), 0, CG_ERROR_CLUSTER_TOO_LARGE, "32 blocks", NULL},
    };
    expect_shapes(cs, NCASES(cs));
}

/* Sides whose product overflows 64 bits are too large, not a shape that
 * "does not divide" (issue 15). */
Test(cg_launch_host, cluster_sides_that_overflow_the_product)
{
    static const shape_case_t cs[] = {
        {"cluster 2^22 cubed", D3(1u << 22, 0, 0), D3(256, 0, 0), D3(1u << 22, 1u << 22, 1u << 22), 0,
         CG_ERROR_CLUSTER_TOO_LARGE, "4194304x4194304x4194304", "side above 16"},
        {"cluster 1x1x17", D3(1u << 22, 0, 0), D3(256, 0, 0), D3(1, 1, 17), 0, CG_ERROR_CLUSTER_TOO_LARGE, "1x1x17",
         NULL},
    };
    expect_shapes(cs, NCASES(cs));
}

Test(cg_launch_host, cluster_shape_not_dividing_grid)
{
    static const shape_case_t cs[] = {
        {"cluster 3 of 128", D3(128, 0, 0), D3(256, 0, 0), D3(3, 0, 0), 0, CG_ERROR_CLUSTER_SHAPE, "3x1x1",
         "128x1x1 in x"},
        {"cluster 1x2 of 4x3", D3(4, 3, 0), D3(256, 0, 0), D3(1, 2, 0), 0, CG_ERROR_CLUSTER_SHAPE, "1x2x1", "in y"},
    };
    expect_shapes(cs, NCASES(cs));
}

/* Zero means default: y/z of grid, block and cluster left 0 are 1, so these
 * shapes pass every device-free check and reach the device stage. */
Test(cg_launch_host, zero_fields_mean_default)
{
    static const shape_case_t cs[] = {
        {"grid 64, block 128", D3(64, 0, 0), D3(128, 0, 0), D3(0, 0, 0), 1, CG_SUCCESS, NULL, NULL},
        /* y, z zero: a 16x1x1 cluster, which divides 64 */
        {"cluster 16", D3(64, 0, 0), D3(128, 0, 0), D3(16, 0, 0), 1, CG_SUCCESS, NULL, NULL},
        /* only z given: x, y default to 1 */
        {"cluster z 1", D3(64, 0, 0), D3(128, 0, 0), D3(0, 0, 1), 1, CG_SUCCESS, NULL, NULL},
    };
    expect_shapes(cs, NCASES(cs));
}

Test(cg_launch_host, helpers_reject_bad_arguments)
{
    uint32_t out = 7;
    cg_launch_config_t c = valid();
    cr_expect_eq(cg_max_cooperative_blocks(FAKE, 128, 0, NULL), CG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(cg_max_cooperative_blocks(NULL, 128, 0, &out), CG_ERROR_KERNEL_NULL);
    cr_expect_eq(out, 0u, "result not cleared on failure");
    cr_expect_eq(cg_max_cooperative_blocks(FAKE, 0, 0, &out), CG_ERROR_BLOCK_SIZE);
    cr_expect_eq(cg_max_cooperative_blocks(FAKE, 2000, 0, &out), CG_ERROR_BLOCK_SIZE);
    cr_expect_eq(cg_max_active_clusters(&c, FAKE, NULL), CG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(cg_max_active_clusters(NULL, FAKE, &out), CG_ERROR_INVALID_ARGUMENT);
    c.cluster.x = 20;
    cr_expect_eq(cg_max_active_clusters(&c, FAKE, &out), CG_ERROR_CLUSTER_TOO_LARGE);
    c.cluster.x = 2;
    cr_expect_eq(cg_max_active_clusters(&c, FAKE, &out), shape_ok_status());
}

/* Each launch error has its own status: distinct values, names, messages. */
Test(cg_launch_host, every_launch_error_is_distinct)
{
    static const cg_status_t s[] = {
        CG_ERROR_INVALID_ARGUMENT,   CG_ERROR_NO_DEVICE,           CG_ERROR_DEVICE_TOO_OLD,
        CG_ERROR_CUDA,               CG_ERROR_CLUSTER_SHAPE,       CG_ERROR_CLUSTER_TOO_LARGE,
        CG_ERROR_CLUSTER_NONPORTABLE_DENIED, CG_ERROR_CLUSTER_UNSCHEDULABLE, CG_ERROR_SHARED_MEMORY,
        CG_ERROR_BLOCK_SIZE,         CG_ERROR_GRID_SIZE,           CG_ERROR_COOPERATIVE_UNSUPPORTED,
        CG_ERROR_COOPERATIVE_TOO_LARGE, CG_ERROR_KERNEL_NULL,      CG_ERROR_LAUNCH_FAILED,
        CG_ERROR_KERNEL_FAILED,      CG_ERROR_KERNEL_IMAGE,        CG_ERROR_LAUNCH_HANDLE_INVALID,
        CG_ERROR_LAUNCH_HANDLE_DEVICE,
    };
    size_t n = sizeof s / sizeof s[0];
    for (size_t i = 0; i < n; i++) {
        cr_expect_neq(s[i], CG_SUCCESS);
        cr_expect_str_neq(cg_status_name(s[i]), "CG_STATUS_UNKNOWN");
        for (size_t j = i + 1; j < n; j++) {
            cr_expect_neq(s[i], s[j]);
            cr_expect_str_neq(cg_status_string(s[i]), cg_status_string(s[j]));
        }
    }
}

/* ---- the launch handle and the one-line cooperative launch (issue 34.6) ---- */

/* A launch through a handle that no successful cg_launch_prepare filled is
 * refused with its own status, whatever the handle holds. */
Test(cg_launch_host, an_unprepared_handle_is_refused)
{
    cg_launch_handle_t h;
    memset(&h, 0, sizeof h);
    cr_expect_eq(cg_launch_prepared(NULL, NULL), CG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(cg_launch_prepared(&h, NULL), CG_ERROR_LAUNCH_HANDLE_INVALID, "a zeroed handle: %s",
                 cg_last_error_detail());
    cr_expect(strstr(cg_last_error_detail(), "cg_launch_prepare") != NULL, "detail: %s", cg_last_error_detail());
    memset(&h, 0x5a, sizeof h);
    cr_expect_eq(cg_launch_prepared(&h, NULL), CG_ERROR_LAUNCH_HANDLE_INVALID, "a garbage handle");
    cr_expect_eq(cg_launch_prepare(NULL, NULL, FAKE), CG_ERROR_INVALID_ARGUMENT);
}

/* cg_launch_prepare runs cg_launch's checks: the same status for every bad
 * configuration, and a handle that failed stays unprepared. */
Test(cg_launch_host, prepare_checks_as_cg_launch_does)
{
    cg_launch_config_t bad[5];
    for (int i = 0; i < 5; ++i)
        bad[i] = valid();
    bad[0].block.x = 0;
    bad[1].grid.x = 0;
    bad[2].cluster.x = 17;
    bad[3].cluster.x = 3; /* does not divide 128 */
    /* bad[4]: a valid shape: no device, a device too old, or a fake kernel */
    for (int i = 0; i < 5; ++i) {
        cg_launch_handle_t h;
        memset(&h, 0x5a, sizeof h);
        cg_status_t want = cg_launch(&bad[i], FAKE, NULL);
        cg_status_t got = cg_launch_prepare(&h, &bad[i], FAKE);
        cr_expect_neq(got, CG_SUCCESS, "case %d prepared", i);
        cr_expect_eq(got, want, "case %d: prepare says %s, cg_launch %s", i, cg_status_name(got), cg_status_name(want));
        cr_expect_eq(cg_launch_prepared(&h, NULL), CG_ERROR_LAUNCH_HANDLE_INVALID, "case %d: a failed handle launches", i);
    }
    cr_expect_eq(cg_launch_prepare(&(cg_launch_handle_t){0}, NULL, FAKE), CG_ERROR_INVALID_ARGUMENT);
    cr_expect_eq(cg_launch_prepare(&(cg_launch_handle_t){0}, &bad[4], NULL), CG_ERROR_KERNEL_NULL);
    cr_expect_eq(bad[4].grid.x, 128u, "cg_launch_prepare changed the configuration");
}

/* The one-line cooperative launch is cg_launch with .cooperative = 1: the
 * same checks. */
Test(cg_launch_host, one_line_cooperative_launch_checks)
{
    cg_dim3_t g = {128, 1, 1}, b = {256, 1, 1}, zero = {0, 0, 0};
    cr_expect_eq(cg_launch_cooperative(NULL, g, b, NULL, 0, 0), CG_ERROR_KERNEL_NULL);
    cr_expect_eq(cg_launch_cooperative(FAKE, g, zero, NULL, 0, 0), CG_ERROR_BLOCK_SIZE);
    cr_expect_eq(cg_launch_cooperative(FAKE, zero, b, NULL, 0, 0), CG_ERROR_GRID_SIZE);
    cr_expect_eq(cg_launch_cooperative(FAKE, g, b, NULL, 0, 0), shape_ok_status());
}
