/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/release_elected_s8.cu — the elected one-release-per-CTA
 * sliced kernel (bench/designs/release_elected.cuh) with an 8-stage ring;
 * its twin is d_project_local_s8 (bench/designs/pipeline_deep.cu).
 */
#define PJ_STAGES 8u
#include "bench/designs/release_elected.cuh"

BD_SLICED_PAIR(d_project_release_elected_s8)
