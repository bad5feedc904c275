/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/nvrtc/jit_sm80_gpu_test.c — cgc's sm_80 code paths, run: a kernel is
 * compiled through NVRTC for compute_80 (so every `#if CG_ARCH_HAS_SM90`
 * takes its sm_80 branch: mbarrier arrive without .release, a count as
 * noComplete arrivals plus one, test_wait instead of try_wait, parity waits), loaded as PTX (the driver JIT-compiles it
 * for the GPU present) and run cooperatively; every value it publishes is
 * checked on the host. It also proves a JIT user's kernel runs, not just
 * compiles. Needs a GPU (any sm_80+; the CI has none and skips).
 */
#include <cuda_runtime_api.h>

#include "barrier/device_barrier.h"
#include "tests/build/nvrtc/nvrtc_loader.h"
#include "tests/support/cgtest.h"

TestSuite(jit_sm80, .timeout = 120);

static const char kernel_src[] =
    "#include <cgc/barrier/barrier_fn.h>\n"
    "#include <cgc/barrier/device_barrier.h>\n"
    "#include <cgc/cg/cg.h>\n"
    "#include <cgc/cg/coalesced.h>\n"
    "#include <cgc/cg/collectives.h>\n"
    "#include <cgc/cg/grid.h>\n"
    "__device__ unsigned jit_hash(unsigned p, unsigned g) { unsigned x = p * 0x9E3779B9u ^ g * 0x85EBCA6Bu;\n"
    "    x ^= x >> 15; x *= 0x2C1B3C6Du; x ^= x >> 12; return x | 1u; }\n"
    "__device__ void jit_done(void *arg) { ++*(unsigned *)arg; }\n"
    "extern \"C\" __global__ void jit80(unsigned *out, unsigned *gslot, cg_device_barrier_t *gbar, unsigned phases)\n"
    "{\n"
    "    __shared__ cg_barrier_t bar;\n"
    "    __shared__ cg_mbarrier_t mb;\n"
    "    __shared__ cg_barrier_fn_t fnbar;\n"
    "    __shared__ unsigned done, slot[2][1024];\n"
    "    cg_thread_block_t b = cg_this_thread_block();\n"
    "    const unsigned r = cg_thread_block_thread_rank(&b), n = cg_thread_block_num_threads(&b);\n"
    "    const unsigned g = blockIdx.x * n + r, gn = gridDim.x * n;\n"
    "    if (r == 0) {\n"
    "        done = 0;\n"
    "        cg_barrier_init(&bar, n + (n + 2) / 4);\n"
    "        cg_mbarrier_init(&mb, n);\n"
    "        cg_barrier_fn_init(&fnbar, n, jit_done, &done);\n"
    "    }\n"
    "    cg_thread_block_sync(&b);\n"
    "    unsigned errors = 0;\n"
    "    for (unsigned p = 0; p < phases; ++p) {\n"
    "        slot[p & 1][r] = jit_hash(p, r);\n"
    "        gslot[(p & 1) * gn + g] = jit_hash(p, g);\n"
    /* The barrier expects n + (n + 2) / 4 arrivals: r % 4 == 1 arrives with a
     * count of 2 (the sm_80 count form); r % 4 == 2 arrives once and waits by
     * parity (its own arrival keeps the barrier within one phase of it). */
    "        if (r % 4 == 0) cg_barrier_wait_token(&bar, cg_barrier_arrive_one(&bar));\n"
    "        else if (r % 4 == 1) cg_barrier_wait_token(&bar, cg_barrier_arrive_n(&bar, 2));\n"
    "        else if (r % 4 == 2) { (void)cg_barrier_arrive_one(&bar); cg_barrier_wait_parity(&bar, p & 1u); }\n"
    "        else { cg_token_t tk = cg_barrier_arrive_one(&bar); while (!cg_barrier_try_wait_for(&bar, tk, 1000u)) {} }\n"
    "        const unsigned q = (r + 1 + p) % n;\n"
    "        errors += slot[p & 1][q] != jit_hash(p, q);\n"
    "        cg_mbarrier_wait(&mb, cg_mbarrier_arrive_warp(&mb));\n"
    "        cg_barrier_fn_wait(&fnbar, cg_barrier_fn_arrive(&fnbar));\n"
    "        cg_device_barrier_wait(gbar, cg_device_barrier_arrive(gbar));\n"
    "        const unsigned gq = (g + n * (1 + p % 7)) % gn;\n"
    "        errors += *(volatile unsigned *)&gslot[(p & 1) * gn + gq] != jit_hash(p, gq);\n"
    "    }\n"
    "    cg_tile_t t = cg_tiled_partition(&b, 8);\n"
    "    const unsigned tv = cg_tile_reduce_u32(&t, r, CG_OP_PLUS) * 1000u + cg_tile_inclusive_scan_u32(&t, r, "
    "CG_OP_PLUS);\n"
    "    unsigned cv = 0;\n"
    "    if (r & 1) { cg_coalesced_group_t c = cg_coalesced_threads(); cv = cg_coalesced_shfl_u32(&c, r, 0) + 1u; }\n"
    "    cg_grid_t grid = cg_this_grid();\n"
    "    cg_grid_sync(&grid);\n"
    "    out[4 * g + 0] = errors;\n"
    "    out[4 * g + 1] = done;\n"
    "    out[4 * g + 2] = tv;\n"
    "    out[4 * g + 3] = cv;\n"
    "}\n";

#define CK(x) CGT_CUDA(x)

Test(jit_sm80, sm_80_paths_run_and_agree)
{
    cgt_require_sm90();
    char *ptx = compile_for("the sm_80 JIT kernel", kernel_src, "-arch=compute_80");
    cr_assert(strstr(ptx, ".target sm_80") != NULL, "PTX for sm_80");
    cr_expect(strstr(ptx, "mbarrier.test_wait.shared.b64") != NULL, "the sm_80 wait form");
    cr_expect(strstr(ptx, "mbarrier.test_wait.parity.shared.b64") != NULL, "the sm_80 parity wait");
    cr_expect(strstr(ptx, "mbarrier.arrive.noComplete.shared.b64") != NULL, "arrive_n's sm_80 form");
    cr_expect(strstr(ptx, "try_wait") == NULL && strstr(ptx, ".release.cta") == NULL, "no sm_90 form");

    cudaLibrary_t lib;
    cudaKernel_t kernel;
    CK(cudaLibraryLoadData(&lib, ptx, NULL, NULL, 0, NULL, NULL, 0));
    CK(cudaLibraryGetKernel(&kernel, lib, "jit80"));
    free(ptx);

    const unsigned threads = 96, phases = 2000;
    int per_sm = 0;
    CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, (const void *)kernel, (int)threads, 0));
    cr_assert_geq(per_sm, 1);
    const unsigned blocks = (unsigned)cgt_device_props()->multiProcessorCount;
    const unsigned gn = blocks * threads;
    unsigned *out = NULL, *gslot = NULL;
    cg_device_barrier_t *gbar = NULL;
    CK(cudaMalloc((void **)&out, 4u * gn * sizeof *out));
    CK(cudaMemset(out, 0xFF, 4u * gn * sizeof *out)); /* poison */
    CK(cudaMalloc((void **)&gslot, 2u * gn * sizeof *gslot));
    CK(cudaMalloc((void **)&gbar, sizeof *gbar));
    CGT_OK(cg_device_barrier_init_host(gbar, gn));

    cudaLaunchConfig_t lc;
    cudaLaunchAttribute attr;
    memset(&lc, 0, sizeof lc);
    lc.gridDim.x = blocks, lc.gridDim.y = lc.gridDim.z = 1;
    lc.blockDim.x = threads, lc.blockDim.y = lc.blockDim.z = 1;
    attr.id = cudaLaunchAttributeCooperative;
    attr.val.cooperative = 1;
    lc.attrs = &attr;
    lc.numAttrs = 1;
    unsigned ph = phases;
    void *args[] = {&out, &gslot, &gbar, &ph};
    CK(cudaLaunchKernelExC(&lc, (const void *)kernel, args));
    CK(cudaDeviceSynchronize());

    unsigned *h = malloc(4u * gn * sizeof *h);
    CK(cudaMemcpy(h, out, 4u * gn * sizeof *h, cudaMemcpyDeviceToHost));
    unsigned long long bad = 0;
    for (unsigned g = 0; g < gn; ++g) {
        const unsigned r = g % threads, base = r / 8 * 8;
        unsigned sum = 0, scan = 0;
        for (unsigned k = base; k < base + 8; ++k) {
            sum += k;
            if (k <= r)
                scan += k;
        }
        const unsigned warp0 = r / 32 * 32;
        const unsigned want_cv = (r & 1) ? warp0 + 1u + 1u : 0u; /* the warp's lowest odd lane, + 1 */
        const unsigned want[4] = {0u, phases, sum * 1000u + scan, want_cv};
        for (int k = 0; k < 4; ++k)
            if (h[4 * g + k] != want[k] && bad++ < 8)
                cr_log_error("thread %u field %d: got %u, want %u", g, k, h[4 * g + k], want[k]);
    }
    cr_expect_eq(bad, 0ull, "%llu wrong values of %u", bad, 4u * gn);
    free(h);
    CK(cudaFree(out));
    CK(cudaFree(gslot));
    CK(cudaFree(gbar));
    CK(cudaLibraryUnload(lib));
}
