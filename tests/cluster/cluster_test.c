/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cluster/cluster_test.c — the raw cluster wrappers:
 *   PTX (host, runs everywhere): each barrier wrapper emits exactly its form;
 *   GPU: every special register against the launch shape (host arithmetic)
 *   and C++ CG, with and without an explicit cluster. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

cudaError_t cgt_launch_cluster_registers(dim3 grid, dim3 cluster, int explicit_cluster, uint32_t *out);

TestSuite(cluster_hw, .timeout = 60);

Test(cluster_hw, each_wrapper_emits_its_form)
{
    static const char *const forms[][2] = {
        {"probe_arrive_release", "barrier.cluster.arrive.release;"},
        {"probe_arrive_release_aligned", "barrier.cluster.arrive.release.aligned;"},
        {"probe_arrive_relaxed", "barrier.cluster.arrive.relaxed;"},
        {"probe_arrive_relaxed_aligned", "barrier.cluster.arrive.relaxed.aligned;"},
        {"probe_wait_acquire", "barrier.cluster.wait.acquire;"},
        {"probe_wait_acquire_aligned", "barrier.cluster.wait.acquire.aligned;"},
    };
    char *ptx = cgt_ptx_read("tests/cluster/cluster_probes.ptx");
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        char *body = cgt_ptx_function(ptx, forms[i][0]);
        char *ins = cgt_ptx_instructions(body);
        char want[96];
        snprintf(want, sizeof want, "%s\nret;\n", forms[i][1]);
        cr_expect_str_eq(ins, want, "%s emits:\n%s", forms[i][0], ins);
        free(ins);
        free(body);
    }
    free(ptx);
}

static void check_registers(dim3 grid, dim3 cl, int explicit_cluster)
{
    uint32_t nb = grid.x * grid.y * grid.z, *out;
    dim3 c = explicit_cluster ? cl : (dim3){1, 1, 1};
    CGT_CUDA(cudaMallocManaged((void **)&out, 16u * nb * sizeof *out, cudaMemAttachGlobal));
    memset(out, CGT_POISON_BYTE, 16u * nb * sizeof *out);
    CGT_CUDA(cgt_launch_cluster_registers(grid, cl, explicit_cluster, out));
    CGT_SYNC();
    for (uint32_t z = 0; z < grid.z; z++)
        for (uint32_t y = 0; y < grid.y; y++)
            for (uint32_t x = 0; x < grid.x; x++) {
                const uint32_t *o = out + 16u * ((z * grid.y + y) * grid.x + x);
                uint32_t want[16] = {(x % c.x) + (y % c.y) * c.x + (z % c.z) * c.x * c.y,
                                     c.x * c.y * c.z,
                                     x % c.x, y % c.y, z % c.z,
                                     c.x, c.y, c.z,
                                     x / c.x, y / c.y, z / c.z,
                                     grid.x / c.x, grid.y / c.y, grid.z / c.z,
                                     (uint32_t)(explicit_cluster != 0),
                                     1};
                for (int f = 0; f < 16; f++)
                    cr_expect_eq(o[f], want[f], "grid %ux%ux%u cluster %ux%ux%u%s block %u,%u,%u field %d: %u want %u",
                                 grid.x, grid.y, grid.z, c.x, c.y, c.z, explicit_cluster ? "" : " (implicit)", x, y, z,
                                 f, o[f], want[f]);
            }
    CGT_CUDA(cudaFree(out));
}

Test(cluster_hw, special_registers)
{
    cgt_require_sm90();
    check_registers((dim3){8, 1, 1}, (dim3){1, 1, 1}, 0);
    check_registers((dim3){6, 4, 2}, (dim3){1, 1, 1}, 1);
    check_registers((dim3){8, 4, 2}, (dim3){4, 2, 1}, 1);
    check_registers((dim3){4, 6, 4}, (dim3){2, 3, 1}, 1);
    check_registers((dim3){16, 2, 2}, (dim3){8, 1, 1}, 1);
    check_registers((dim3){2, 2, 8}, (dim3){1, 2, 4}, 1);
}
