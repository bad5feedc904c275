/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_deep.cu — the multicast example's kernel and its
 * twin with an 8-stage ring of 16 KiB tiles (144 KiB of shared memory, one
 * CTA per SM as at 4 stages); bench/designs_pipeline_deep.cuh says why.
 */
#define PJ_STAGES 8u
#include "bench/designs_pipeline_deep.cuh"

BD_DEEP_KERNELS(8)
