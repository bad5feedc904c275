/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/grid_split.cu — the split grid probe rows' hooks (bench.cu's row_t
 * prepare / verify). The probe kernels (BENCH_GRID_SPLIT_BODY with `probe`
 * 1, bench_device.h) add, per block, thread 0's and thread 32's clock64
 * cycles spent in the arrive, in the FMAs between, and in the wait, and the
 * phases they timed, into a.acc[8 * side + ...] (side 0 the cgc kernel or a
 * setting, 1 the C++ CG anchor). The verify hook prints the means per phase
 * into the row's note: where the split barrier's time goes, side by side.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"

#define PROBE_WORDS 16u

extern "C" int bench_grid_probe_prepare(bench_args_t *a, char *note, size_t n)
{
    const cudaError_t e = cudaMemset(a->acc, 0, PROBE_WORDS * sizeof(unsigned long long));
    if (e != cudaSuccess) {
        snprintf(note, n, "probe: cudaMemset: %s", cudaGetErrorString(e));
        return 1;
    }
    return 0;
}

extern "C" int bench_grid_probe_verify(const bench_args_t *a, unsigned grid, char *note, size_t n)
{
    (void)grid;
    unsigned long long v[PROBE_WORDS];
    cudaError_t e = cudaDeviceSynchronize();
    if (e == cudaSuccess)
        e = cudaMemcpy(v, a->acc, sizeof v, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) {
        snprintf(note, n, "; probe: %s", cudaGetErrorString(e));
        return 1;
    }
    size_t used = 0;
    static const char *const side[2] = {"cgc", "CG"};
    for (unsigned s = 0; s < 2; ++s) {
        const unsigned long long *t0 = v + 8u * s, *w1 = t0 + 4;
        if (t0[3] == 0 || w1[3] == 0) {
            snprintf(note + used, n - used, "; probe: the %s kernel timed no phase", side[s]);
            return 1;
        }
        const double p0 = (double)t0[3], p1 = (double)w1[3];
        const int k = snprintf(note + used, n - used,
                               "; %s cycles/phase: thread 0 arrive %.0f, work %.0f, wait %.0f; warp 1 arrive %.0f, "
                               "work %.0f, wait %.0f",
                               side[s], (double)t0[0] / p0, (double)t0[1] / p0, (double)t0[2] / p0,
                               (double)w1[0] / p1, (double)w1[1] / p1, (double)w1[2] / p1);
        if (k < 0 || (size_t)k >= n - used)
            break;
        used += (size_t)k;
    }
    return 0;
}
