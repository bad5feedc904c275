/* SPDX-License-Identifier: BSD-3-Clause */
/* Toolchain smoke tests: a real kernel whose every output is checked, and a
 * PTX check, both through the project's own Bazel rules. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

int smoke_saxpy(int n, int a, const int *x, const int *y, int *out);

TestSuite(smoke, .timeout = 60);

Test(smoke, saxpy_every_element)
{
    cgt_require_sm90();
    uint64_t rng = cgt_seed();
    const int n = 1 << 20;
    const int a = (int)(cgt_rand(&rng) % 1000) - 500;
    size_t bytes = (size_t)n * sizeof(int);
    int *hx = malloc(bytes), *hy = malloc(bytes), *hout = malloc(bytes);
    cr_assert(hx && hy && hout);
    cgt_fill_random_int(hx, (size_t)n, -100000, 100000, &rng);
    cgt_fill_random_int(hy, (size_t)n, -100000, 100000, &rng);
    int *dx, *dy, *dout;
    CGT_CUDA(cudaMalloc((void **)&dx, bytes));
    CGT_CUDA(cudaMalloc((void **)&dy, bytes));
    CGT_CUDA(cudaMalloc((void **)&dout, bytes));
    CGT_CUDA(cudaMemcpy(dx, hx, bytes, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemcpy(dy, hy, bytes, cudaMemcpyHostToDevice));
    CGT_CUDA(cudaMemset(dout, CGT_POISON_BYTE, bytes));
    CGT_CUDA((cudaError_t)smoke_saxpy(n, a, dx, dy, dout));
    CGT_SYNC();
    CGT_CUDA(cudaMemcpy(hout, dout, bytes, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        int want = a * hx[i] + hy[i];
        if (hout[i] != want && bad++ < 8)
            cr_expect_eq(hout[i], want, "out[%d] = %d, want %d", i, hout[i], want);
    }
    cr_expect_eq(bad, 0, "%d of %d elements wrong", bad, n);
    cudaFree(dx);
    cudaFree(dy);
    cudaFree(dout);
    CGT_FREE(hx, hy, hout);
}

Test(smoke, ptx_check_sees_mapa)
{
    char *ptx = cgt_ptx_read("tests/build/smoke/smoke_probe.ptx");
    char *body = cgt_ptx_function(ptx, "smoke_probe_mapa");
    cr_expect_eq(cgt_count(body, "mapa.u64"), 1, "one generic mapa");
    cr_expect_eq(cgt_count(body, "barrier.cluster"), 0, "no cluster barrier");
    cr_expect_eq(cgt_count(body, "bar.sync"), 1, "one __syncthreads");
    free(body);
    free(ptx);
}
