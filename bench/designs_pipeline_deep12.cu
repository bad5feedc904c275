/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_deep12.cu — the multicast example's kernel and its
 * twin with a 12-stage ring of 16 KiB tiles (208 KiB of shared memory, the
 * deepest that fits an SM beside the 16 KiB of weights);
 * bench/designs_pipeline_deep.cuh says why.
 */
#define PJ_STAGES 12u
#include "bench/designs_pipeline_deep.cuh"

BD_DEEP_KERNELS(12)
