/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/example_util.h — host helpers the examples share (CUDA C, host
 * code of .cu files). Each example keeps its own kernel and its own check,
 * and is a program of its own: copy its .cu and this header, include cgc as
 * <cgc/cg/cg.h>, build it for sm_90a (examples/CMakeLists.txt builds every
 * one against an installed cgc). The tour (tour.c, built with CGX_TOUR
 * defined) calls each example's entry function instead of its main.
 */
#ifndef CGX_EXAMPLE_UTIL_H
#define CGX_EXAMPLE_UTIL_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The oldest compute capability (major) this build's device code targets:
 * 9 (sm_90a) unless the build says otherwise (the tour's compute_80 build
 * passes 8). */
#if !defined(CGX_ARCH_MAJOR)
#define CGX_ARCH_MAJOR 9
#endif

/* CGX_MAIN(entry): the example's main() when it is built as a program of its
 * own: runs it, prints "verified", "WRONG" or "not run" with its one-line
 * summary, and exits with its code (0 verified, 1 wrong, 2 could not run,
 * e.g. no sm_90 device). Nothing in the tour build (CGX_TOUR), whose main
 * runs every example. */
#if defined(CGX_TOUR)
#define CGX_MAIN(entry)
#else
#define CGX_MAIN(entry)                                                                            \
    int main(void)                                                                                 \
    {                                                                                              \
        char detail[512] = "";                                                                     \
        int rc = entry(detail, sizeof detail);                                                     \
        printf("%s: %s\n", rc == 0 ? "verified" : rc == 1 ? "WRONG" : "not run", detail);          \
        return rc;                                                                                 \
    }
#endif


/* 0 when device 0 can run this build's device code (sm_90 or newer; sm_80 or
 * newer in a build for compute_80, CGX_ARCH_MAJOR 8); otherwise 2 with `detail`
 * saying why (`needs` names what the example uses, e.g. "clusters and DSMEM"). */
static int cgx_require_sm90(const char *needs, char *detail, size_t detail_len)
{
    int dev = 0, major = 0;
    if (cudaGetDevice(&dev) != cudaSuccess ||
        cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev) != cudaSuccess) {
        cudaGetLastError();
        snprintf(detail, detail_len, "no CUDA device");
        return 2;
    }
    if (major < CGX_ARCH_MAJOR) {
        snprintf(detail, detail_len, "device is sm_%d0: %s need sm_%d0", major, needs, CGX_ARCH_MAJOR);
        return 2;
    }
    return 0;
}

/* Nonzero when CGT_QUICK asks for a quick pass (the compute-sanitizer passes
 * of tools/gpu/run.sh set CGT_QUICK=1; CGT_QUICK=0 or empty means the full
 * size): examples whose full size would take a sanitizer minutes run a
 * smaller problem then. */
static inline int cgx_quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && q[0] && !(q[0] == '0' && q[1] == '\0');
}

/* In an example's host function with `char *detail, size_t detail_len`, an
 * `int rc` and a `done:` label: a failing CUDA call says which, sets rc = 2
 * and jumps to the cleanup. */
#define CGX_CUDA(call)                                                                             \
    do {                                                                                           \
        cudaError_t e_ = (call);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            snprintf(detail, detail_len, "CUDA error in %s: %s", #call, cudaGetErrorString(e_));   \
            rc = 2;                                                                                \
            goto done;                                                                             \
        }                                                                                          \
    } while (0)

#endif /* CGX_EXAMPLE_UTIL_H */
