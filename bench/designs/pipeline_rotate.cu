/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/pipeline_rotate.cu — the multicast example's kernel in its
 * rotating-root form (examples/pipeline_project.cuh, PJ_ROTATE): CTA k % C
 * loads every use of stage k whole and multicasts it, consumers release
 * stage k to that CTA alone. Against the sliced form it trades C slice
 * copies per stage for one whole-tile copy (a stage no longer waits for the
 * slowest of C copies) and C remote arrivals per consumer warp for one.
 * 4 stages here (at cluster 8 only CTAs 0-3 root a stage), 8 in
 * designs/pipeline_rotate8.cu; HBM-bound stream and L2-resident input.
 */
#include "bench/project_forms.cuh"

BD_ROTATE_PAIR(d_project_rotate)
