/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/nvrtc/nvrtc_test.c — cgc under NVRTC, the JIT compiler CuPy's
 * RawKernel and similar tools use: no C library headers, device code only.
 * libnvrtc is loaded at run time (dlopen) from the toolkit, so the test needs
 * no GPU; without libnvrtc it skips and says why.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <criterion/criterion.h>

#include "tests/support/cgtest.h"

#include "tests/build/nvrtc/nvrtc_loader.h"

/* Every header of the library folders, alone, for `arch`, without a warning:
 * nothing reaches for a C library header or declares a host function NVRTC
 * cannot take, and (for compute_80) no unmarked wrapper calls an sm_90-only
 * one (that would warn in the header, not at a user's call). */
static void header_alone(const char *folder, const char *file, void *arg)
{
    const char *arch = arg;
    char src[512], what[300];
    snprintf(src, sizeof src, "#include <cgc/%s/%s>\n__global__ void cgc_nvrtc_empty(void) {}\n", folder, file);
    snprintf(what, sizeof what, "%s/%s (%s)", folder, file, arch);
    char *log = NULL, *ptx = NULL;
    const int rc = try_compile(what, "cgc_nvrtc.cu", src, arch, NULL, &log, &ptx);
    cr_expect_eq(rc, 0, "%s: NVRTC could not compile it (result %d):\n%s", what, rc, log);
    cr_expect(strstr(log, "warning") == NULL, "%s: NVRTC warns (a user would see it too):\n%s", what, log);
    free(log);
    free(ptx);
}

static void every_header_alone(const char *arch)
{
    const int headers = cgt_each_library_header(header_alone, (void *)arch);
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

/* cgc beside libcu++ (CCCL) and C++ CG headers, in either order, compiles
 * without a warning: the fixed-width types agree, and cgc defines no limit
 * macro that libcu++ defines with other tokens (#47-D: incompatible
 * redefinition of UINT32_MAX / UINT64_MAX, before). */
Test(nvrtc, beside_cccl_and_cooperative_groups_in_either_order_without_warnings)
{
    static const char *const headers[] = {"cuda/std/cstdint", "cuda/std/atomic", "cuda/std/type_traits",
                                          "cuda/barrier",     "cuda/pipeline",   "cooperative_groups.h"};
    char inc[1200], cccl[1200], cuda_inc[1200];
    snprintf(inc, sizeof inc, "-I%s", prefix_dir());
    snprintf(cccl, sizeof cccl, "-I%s/include/cccl", cuda_root());
    snprintf(cuda_inc, sizeof cuda_inc, "-I%s/include", cuda_root());
    /* every header for sm_90a; the first and the last for compute_80 too */
    static const char *const archs[] = {"-arch=sm_90a", "-arch=compute_80"};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; ++a) {
        const char *opts[] = {inc, cccl, cuda_inc, archs[a], "-std=c++17"};
        for (size_t h = 0; h < sizeof headers / sizeof headers[0]; ++h) {
            if (a == 1 && h != 0 && h + 1 != sizeof headers / sizeof headers[0])
                continue;
            for (int cgc_first = 0; cgc_first < 2; ++cgc_first) {
                char src[1024], what[256];
                if (cgc_first)
                    snprintf(src, sizeof src, "#include <cgc/cg/cg.h>\n#include <%s>\n", headers[h]);
                else
                    snprintf(src, sizeof src, "#include <%s>\n#include <cgc/cg/cg.h>\n", headers[h]);
                strncat(src,
                        "extern \"C\" __global__ void k(unsigned *out)\n"
                        "{\n"
                        "    cg_thread_block_t b = cg_this_thread_block();\n"
                        "    cg_tile_t t = cg_tiled_partition(&b, 32);\n"
                        "    out[threadIdx.x] = cg_reduce(&t, (uint32_t)threadIdx.x, CG_OP_PLUS);\n"
                        "}\n",
                        sizeof src - strlen(src) - 1);
                snprintf(what, sizeof what, "<%s> %s cgc (%s)", headers[h], cgc_first ? "after" : "before", archs[a]);
                char *log = NULL, *ptx = NULL;
                char lowered[1][256];
                const int rc = try_compile_opts(what, "user.cu", src, opts, 5, NULL, 0, lowered, &log, &ptx);
                cr_expect_eq(rc, 0, "%s: NVRTC could not compile it:\n%s", what, log);
                cr_expect(strstr(log, "warning") == NULL, "%s: NVRTC warns:\n%s", what, log);
                free(log);
                free(ptx);
            }
        }
    }
}

/* The CuPy example's kernel (examples/python/tile_stats.cuh), compiled the way
 * examples/python/cupy_tile_stats.py has cupy.RawModule compile it: the same
 * source line, options and name expressions, plus the -arch CuPy adds for an
 * H100 (compute_90) and an explicit sm_90a. Every instantiation is in the
 * PTX under its lowered name, with a tile reduction and no warning. */
Test(nvrtc, the_cupy_example_kernel_compiles_as_cupy_compiles_it)
{
    static const char *const names[] = {"tile_stats<float, 32>", "tile_stats<float, 256>", "tile_stats<int, 16>",
                                        "tile_stats<long long, 128>", "tile_stats<double, 512>"};
    enum { NNAMES = sizeof names / sizeof names[0] };
    char inc[1200], here[1200], root[1024];
    cr_assert(getcwd(root, sizeof root) != NULL);
    snprintf(inc, sizeof inc, "-I%s", prefix_dir());
    snprintf(here, sizeof here, "-I%s/examples/python", root);
    static const char *const archs[] = {"-arch=compute_90", "-arch=sm_90a"};
    for (size_t a = 0; a < sizeof archs / sizeof archs[0]; ++a) {
        const char *opts[] = {inc, here, "-std=c++17", archs[a]};
        char *log = NULL, *ptx = NULL;
        char lowered[NNAMES][256];
        const int rc = try_compile_opts("the CuPy example", "tile_stats.cu", "#include \"tile_stats.cuh\"\n", opts, 4,
                                        names, NNAMES, lowered, &log, &ptx);
        cr_assert_eq(rc, 0, "%s: NVRTC could not compile the CuPy example's kernel:\n%s", archs[a], log);
        cr_expect(strstr(log, "warning") == NULL, "%s: NVRTC warns:\n%s", archs[a], log);
        for (int i = 0; i < NNAMES; ++i) {
            cr_expect(lowered[i][0] != '\0', "%s: no lowered name for %s", archs[a], names[i]);
            char entry[300];
            snprintf(entry, sizeof entry, ".entry %s(", lowered[i]);
            cr_expect(strstr(ptx, entry) != NULL, "%s: %s (%s) is not in the PTX", archs[a], names[i], lowered[i]);
        }
        cr_expect(strstr(ptx, "redux.sync.add.s32") != NULL, "%s: the int tile of 16 is not one redux.sync", archs[a]);
        cr_expect(strstr(ptx, "barrier.sync") != NULL, "%s: the wide tiles have no named barrier", archs[a]);
        free(log);
        free(ptx);
    }
}

/* A group passed by value to a generic call: under NVRTC too, one error at
 * the user's line whose text names the accepted types (cg/generic.h's
 * catch-all, an incomplete return type). */
Test(nvrtc, a_group_by_value_is_an_error_at_the_users_line)
{
    static const char src[] = "#include <cgc/cg/cg.h>\n"
                              "extern \"C\" __global__ void k(unsigned *out)\n"
                              "{\n"
                              "    cg_thread_block_t cta = cg_this_thread_block();\n"
                              "    cg_sync(cta);\n" /* line 5 */
                              "    out[0] = 1;\n"
                              "}\n";
    char *log = NULL, *ptx = NULL;
    const int rc = try_compile("cg_sync(cta)", "user_kernel.cu", src, "-arch=sm_90a", NULL, &log, &ptx);
    cr_expect_neq(rc, 0, "cg_sync(cta) compiled under NVRTC");
    cr_expect(strstr(log, "user_kernel.cu(5): error") != NULL, "not an error at the user's line:\n%s", log);
    cr_expect(strstr(log, "cg_sync_takes_a_pointer_to_a_group_cg_thread_block_t") != NULL,
              "the accepted types are not named:\n%s", log);
    free(log);
    free(ptx);
}
