/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/example_util.h — host helpers the examples share (CUDA C, host
 * code of .cu files). Each example keeps its own kernel and its own check.
 */
#ifndef CGX_EXAMPLE_UTIL_H
#define CGX_EXAMPLE_UTIL_H

#include <cuda_runtime.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "examples/examples.h"

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

/* Nonzero when CGT_QUICK is set (the compute-sanitizer passes of
 * tools/gpu/run.sh set it): examples whose full size would take a sanitizer
 * minutes run a smaller problem then. */
static inline int cgx_quick(void) { return getenv("CGT_QUICK") != NULL; }

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
