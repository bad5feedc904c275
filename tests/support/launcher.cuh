/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/support/launcher.cuh — the one-line launchers of the tests' kernel
 * files (nvcc only): a test .c calls an extern "C" function that launches a
 * kernel and returns the launch's cudaError_t as int.
 */
#ifndef CGT_LAUNCHER_CUH
#define CGT_LAUNCHER_CUH

#include <cuda_runtime.h>

/* Defines `extern "C" int name(void)`: kernel<<<grid, block>>>(args...) on
 * the default stream, then cudaGetLastError() (the launch's error, as int;
 * the test synchronizes and judges the kernel's end itself). */
#define CGT_LAUNCHER(name, kernel, grid, block, ...)                                                          \
    extern "C" int name(void)                                                                                  \
    {                                                                                                          \
        kernel<<<grid, block>>>(__VA_ARGS__);                                                                  \
        return (int)cudaGetLastError();                                                                        \
    }

#endif /* CGT_LAUNCHER_CUH */
