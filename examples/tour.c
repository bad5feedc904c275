/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/tour.c — runs every cgc example on the GPU and says what each one
 * verified. `bazel run //examples:tour`. Exits 0 when all examples verified
 * their results, 1 when any was wrong, 2 when there is no sm_90 device.
 * Built with --define=cuda_arch=compute_80 it holds only the examples that
 * need no Hopper feature, as PTX the driver JIT-compiles (sm_80 or newer):
 * it lists them, runs them and skips the Hopper ones by name (exit 0 when
 * every example it holds verified).
 */
#include <cuda_runtime_api.h>
#include <stdio.h>
#include <string.h>

#include "examples/examples.h"

#if CGX_ARCH_MAJOR < 9
/* A build for a target before Hopper compiles no Hopper example: their
 * references resolve to NULL (weak), and the tour skips them by name. */
#define CGX__WEAK(name, needs) extern int cgx_##name(char *detail, size_t detail_len) __attribute__((weak));
CGX_HOPPER_EXAMPLES(CGX__WEAK)
#undef CGX__WEAK
#endif

static const cgx_example_t examples[] = {
#define CGX__ROW(name, origin) {#name, origin, cgx_##name},
    CGX_EXAMPLE_TABLE(CGX__ROW)
#undef CGX__ROW
};

/* What a Hopper example needs, or NULL for the others. */
static const char *hopper_needs(const char *name)
{
#define CGX__NEEDS(n, needs)                                                                       \
    if (strcmp(name, #n) == 0)                                                                     \
        return needs;
    CGX_HOPPER_EXAMPLES(CGX__NEEDS)
#undef CGX__NEEDS
    return NULL;
}

int main(void)
{
    const int min_major = CGX_ARCH_MAJOR;
    size_t count = sizeof(examples) / sizeof(examples[0]);
    if (min_major < 9) {
        /* Say what this build holds before anything can fail. */
        printf("cgc tour, a build for sm_%d0 (compute_%d0 PTX, JIT-compiled by the driver, or sm_%d0 code): runs",
               min_major, min_major, min_major);
        for (size_t i = 0; i < count; ++i)
            if (!hopper_needs(examples[i].name))
                printf(" %s", examples[i].name);
        printf("; skips the Hopper examples");
        for (size_t i = 0; i < count; ++i)
            if (hopper_needs(examples[i].name))
                printf(" %s", examples[i].name);
        printf("\n");
    }
    int n = 0;
    cudaError_t err = cudaGetDeviceCount(&n);
    if (err != cudaSuccess || n == 0) {
        printf("cgc tour: no CUDA device here (%s).\n"
               "The examples need an sm_%d0 GPU or newer; nothing was run.\n",
               err != cudaSuccess ? cudaGetErrorString(err) : "device count is 0", min_major);
        return 2;
    }
    struct cudaDeviceProp prop;
    if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.major < min_major) {
        printf("cgc tour: device 0 (%s) is sm_%d%d; this build's examples need sm_%d0 or newer.\n", prop.name,
               prop.major, prop.minor, min_major);
        return 2;
    }
    printf("cgc tour on %s (sm_%d%d, %d SMs)\n", prop.name, prop.major, prop.minor,
           prop.multiProcessorCount);
    int failed = 0, skipped = 0, left_out = 0;
    for (size_t i = 0; i < count; ++i) {
        char detail[512];
        detail[0] = '\0';
        const char *needs = hopper_needs(examples[i].name);
        int rc;
        if (examples[i].run == NULL) {
            /* Only a Hopper example may be missing, and only from an older
             * target's build; anything else is a build mistake. */
            rc = needs && min_major < 9 ? 3 : 1;
            snprintf(detail, sizeof detail, "%s%s", needs ? "not in this build: it needs " : "not built",
                     needs ? needs : " (examples/BUILD.bazel and CGX_HOPPER_EXAMPLES disagree)");
        } else {
            rc = examples[i].run(detail, sizeof detail);
        }
        const char *tag = rc == 0 ? "ok" : rc == 1 ? "FAIL" : "SKIP";
        printf("[%s] %-22s %s\n       %s\n", tag, examples[i].name, examples[i].origin, detail);
        failed += rc == 1;
        skipped += rc == 2;
        left_out += rc == 3;
    }
    printf("%zu examples: %zu verified, %d wrong, %d could not run", count,
           count - (size_t)failed - (size_t)skipped - (size_t)left_out, failed, skipped);
    if (left_out)
        printf(", %d not in this sm_%d0 build (need sm_90)", left_out, min_major);
    printf("\n");
    return failed ? 1 : skipped ? 2 : 0;
}
