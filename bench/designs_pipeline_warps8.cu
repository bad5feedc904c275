/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_warps8.cu — the multicast example's sliced kernel
 * and its twin with 8 consumer warps instead of 4 (288 threads; each thread
 * reads 4 of a tile's 16-byte words per use instead of 8), on the HBM-bound
 * stream and on the L2-resident input. Why: the first run's clock64 probe
 * showed the 4-warp twin CONSUMER-bound, not L2-bound (its consumers waited
 * 65 cycles a use for data while its producer waited ~405 for a free
 * stage), so cutting L2 reads with multicast could not pay. With the
 * consumers twice as fast the twin should wait on L2 -> SM bandwidth, the
 * case multicast is for (docs/design/pipeline.md, "Phase B").
 */
#define PJ_WARPS 8u
#include "bench/project_forms.cuh"

BD_SLICED_PAIR(d_project_sliced_w8)
BD_TWIN_PAIR(d_project_local_w8)
