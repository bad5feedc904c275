/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/release_whole_warp.cu — the multicast example's sliced kernel
 * with the caller-declared whole-warp release
 * (cg_pipeline_cluster_consumer_release_all_whole_warp: no lane test, lane i
 * arrives for CTA i; the kernel's warps are whole). It times what the
 * general warp release's run-time test of the block's shape costs
 * (async/pipeline.h, docs/design/cross_cta_release.md), on the HBM-bound
 * stream and on the L2-resident input.
 */
#include "cg/cg.h"

#define PJ_RELEASE_ALL_WARP cg_pipeline_cluster_consumer_release_all_whole_warp
#include "bench/project_forms.cuh"

BD_SLICED_PAIR(d_project_release_whole_warp)
