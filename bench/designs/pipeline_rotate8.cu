/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/pipeline_rotate8.cu — the rotating-root form
 * (bench/designs/pipeline_rotate.cu) with an 8-stage ring: every CTA of a
 * cluster of 8 roots one stage; its twin is d_project_local_s8.
 */
#define PJ_STAGES 8u
#include "bench/project_forms.cuh"

BD_ROTATE_PAIR(d_project_rotate_s8)
