/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/nvrtc/nvrtc_test.c — cgc under NVRTC, the JIT compiler CuPy's
 * RawKernel and similar tools use: no C library headers, device code only.
 * libnvrtc is loaded at run time (dlopen) from the toolkit, so the test needs
 * no GPU; without libnvrtc it skips and says why.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

#include "tests/nvrtc/nvrtc_loader.h"

/* Every header of the library folders, alone, for `arch`, without a warning:
 * nothing reaches for a C library header or declares a host function NVRTC
 * cannot take, and (for compute_80) no unmarked wrapper calls an sm_90-only
 * one (that would warn in the header, not at a user's call). */
static void every_header_alone(const char *arch)
{
    static const char *folders[] = {"base", "barrier", "cluster", "dsmem", "async", "cg"};
    int headers = 0;
    for (size_t i = 0; i < sizeof folders / sizeof *folders; ++i) {
        DIR *d = opendir(folders[i]);
        cr_assert(d != NULL, "cannot list %s/ in the runfiles", folders[i]);
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            const size_t len = strlen(e->d_name);
            if (len < 3 || strcmp(e->d_name + len - 2, ".h") != 0)
                continue;
            char src[512], what[300];
            snprintf(src, sizeof src, "#include <cgc/%s/%s>\n__global__ void cgc_nvrtc_empty(void) {}\n", folders[i],
                     e->d_name);
            snprintf(what, sizeof what, "%s/%s (%s)", folders[i], e->d_name, arch);
            char *log = NULL, *ptx = NULL;
            const int rc = try_compile(what, "cgc_nvrtc.cu", src, arch, NULL, &log, &ptx);
            cr_expect_eq(rc, 0, "%s: NVRTC could not compile it (result %d):\n%s", what, rc, log);
            cr_expect(strstr(log, "warning") == NULL, "%s: NVRTC warns (a user would see it too):\n%s", what, log);
            free(log);
            free(ptx);
            ++headers;
        }
        closedir(d);
    }
    cr_expect_geq(headers, 20, "only %d headers found (is the runfiles tree complete?)", headers);
    cr_log_info("%d headers compiled through NVRTC for %s", headers, arch);
}

Test(nvrtc, every_header_compiles_alone)
{
    every_header_alone("-arch=sm_90a");
}

Test(nvrtc, every_header_compiles_alone_for_compute_80)
{
    every_header_alone("-arch=compute_80");
}

/* A JIT user's cluster call compiled for compute_80 is reported at the
 * user's file and line, naming the call and the requirement: NVRTC's front
 * end has no "unavailable", so it is deprecation warning #1444, which
 * -diag-error=1444 turns into the compile error nvcc gives. */
Test(nvrtc, a_cluster_call_for_compute_80_names_the_callers_line)
{
    static const char src[] = "#include <cgc/cg/cg.h>\n"
                              "extern \"C\" __global__ void k(unsigned *out)\n"
                              "{\n"
                              "    cg_cluster_t cl = cg_this_cluster();\n"
                              "    out[0] = cg_cluster_block_rank(&cl);\n" /* line 5 */
                              "}\n";
    for (int as_error = 0; as_error < 2; ++as_error) {
        char *log = NULL, *ptx = NULL;
        const int rc = try_compile("cluster call, compute_80", "user_kernel.cu", src, "-arch=compute_80",
                                   as_error ? "-diag-error=1444" : NULL, &log, &ptx);
        if (as_error)
            cr_expect_neq(rc, 0, "with -diag-error=1444 a cluster call compiled for compute_80; NVRTC said:\n%s", log);
        cr_expect(strstr(log, as_error ? "user_kernel.cu(5): error" : "user_kernel.cu(5): warning") != NULL,
                  "the caller's line user_kernel.cu(5) is not named (%s):\n%s", as_error ? "error" : "warning", log);
        cr_expect(strstr(log, "cg_cluster_block_rank") != NULL, "the call is not named:\n%s", log);
        cr_expect(strstr(log, "needs sm_90 or newer") != NULL, "the requirement is not named:\n%s", log);
        free(log);
        free(ptx);
    }
}

/* A kernel that uses a block, a tile, a cluster with a DSMEM exchange, an
 * mbarrier-backed barrier, the device barrier and a reduction. */
Test(nvrtc, a_kernel_using_groups_barriers_and_dsmem)
{
    static const char src[] =
        "#include <cgc/cg/cg.h>\n"
        "#include <cgc/cg/collectives.h>\n"
        "#include <cgc/barrier/device_barrier.h>\n"
        "extern \"C\" __global__ void cgc_nvrtc_kernel(unsigned *out, cg_device_barrier_t *gbar)\n"
        "{\n"
        "    __shared__ unsigned slot[32];\n"
        "    __shared__ cg_barrier_t bar;\n"
        "    cg_thread_block_t b = cg_this_thread_block();\n"
        "    cg_cluster_t cl = cg_this_cluster();\n"
        "    cg_tile_t t = cg_tiled_partition(&b, 32);\n"
        "    const unsigned rank = cg_thread_block_thread_rank(&b);\n"
        "    if (rank == 0)\n"
        "        cg_barrier_init(&bar, cg_thread_block_num_threads(&b));\n"
        "    if (rank < 32)\n"
        "        slot[rank] = rank + cg_cluster_block_rank(&cl);\n"
        "    cg_cluster_sync(&cl);\n"
        "    const unsigned *peer = (const unsigned *)cg_cluster_map_shared_rank(&cl, slot,\n"
        "        (cg_cluster_block_rank(&cl) + 1) % cg_cluster_num_blocks(&cl));\n"
        "    unsigned v = peer[rank % 32];\n"
        "    cg_cluster_sync(&cl);\n"
        "    cg_token_t tok = cg_barrier_arrive_one(&bar);\n"
        "    cg_barrier_wait_token(&bar, tok);\n"
        "    cg_device_barrier_wait(gbar, cg_device_barrier_arrive(gbar));\n"
        "    out[blockIdx.x * blockDim.x + rank] = cg_tile_reduce_u32(&t, v, CG_OP_PLUS);\n"
        "}\n";
    char *ptx = compile("groups, barriers and DSMEM", src);
    cr_expect(strstr(ptx, ".entry cgc_nvrtc_kernel") != NULL, "the kernel is in the PTX");
    cr_expect(strstr(ptx, "barrier.cluster.arrive") != NULL, "cluster barrier");
    cr_expect(strstr(ptx, "mapa") != NULL, "DSMEM mapping");
    cr_expect(strstr(ptx, "mbarrier.arrive") != NULL, "mbarrier-backed barrier");
    cr_expect(strstr(ptx, "atom.acq_rel.gpu.global.add.u64") != NULL, "device barrier arrive");
    cr_expect(strstr(ptx, "redux.sync") != NULL || strstr(ptx, "shfl.sync") != NULL, "tile reduction");
    free(ptx);
}
