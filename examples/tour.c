/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/tour.c — runs every cgc example on the GPU and says what each one
 * verified. `bazel run //examples:tour`. Exits 0 when all examples verified
 * their results, 1 when any was wrong, 2 when there is no sm_90 device.
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "examples/examples.h"

static const cgx_example_t examples[] = {
#define CGX__ROW(name, origin) {#name, origin, cgx_##name},
    CGX_EXAMPLE_TABLE(CGX__ROW)
#undef CGX__ROW
};

int main(void)
{
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        printf("cgc tour: no CUDA device here (%s).\n"
               "The examples need an sm_90 (Hopper) GPU; nothing was run.\n",
               err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0");
        return 2;
    }
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.major < 9) {
        printf("cgc tour: device 0 (%s) is sm_%d%d; the examples need sm_90 or newer.\n", prop.name,
               prop.major, prop.minor);
        return 2;
    }
    printf("cgc tour on %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount);
    int failed = 0, skipped = 0;
    size_t count = sizeof(examples) / sizeof(examples[0]);
    for (size_t i = 0; i < count; ++i) {
        char detail[512];
        detail[0] = '\0';
        int rc = examples[i].run(detail, sizeof detail);
        const char *tag = rc == 0 ? "ok" : rc == 1 ? "FAIL" : "SKIP";
        printf("[%s] %-22s %s\n       %s\n", tag, examples[i].name, examples[i].origin, detail);
        failed += rc == 1;
        skipped += rc == 2;
    }
    printf("%zu examples: %zu verified, %d wrong, %d could not run\n", count,
           count - (size_t)failed - (size_t)skipped, failed, skipped);
    return failed ? 1 : skipped ? 2 : 0;
}
