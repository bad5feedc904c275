/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/pipeline_deep12.cu — as designs/pipeline_deep.cu with a
 * 12-stage ring (208 KiB of shared memory: the deepest that fits an SM
 * beside the 16 KiB of weights).
 */
#define PJ_STAGES 12u
#include "bench/project_forms.cuh"

BD_SLICED_PAIR(d_project_sliced_s12)
BD_TWIN_PAIR(d_project_local_s12)
