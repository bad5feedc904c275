/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_timed.cu — probe rows: the multicast example's
 * kernel (examples/pipeline_project.cuh) with 8 consumer warps (as
 * designs_pipeline_warps8.cu) built with PJ_TIMED 1, so every consumer warp
 * and producer adds the SM cycles of each step of a stage use (consumer:
 * wait for full, read and multiply, release; producer: wait for empty,
 * issue the copy and the commit) into acc[PJ_TIME_SLOT + ...];
 * bench_stream_row prints the per-use means of the last timed launch in the
 * row's note. The sliced form and the twin, on the HBM-bound stream and on
 * the L2-resident input: does the 8-warp twin wait on data (consumer wait
 * up, producer acquire down), which is where multicast can pay? (The
 * 4-warp probe's numbers from the first GPU run are in
 * docs/design/pipeline.md.) The clock reads cost a few cycles per step;
 * compare these rows with each other, not with the untimed rows.
 */
#define PJ_TIMED 1
#define PJ_WARPS 8u
#include "bench/project_forms.cuh"

BD_SLICED_PAIR(p_project_timed_sliced)
BD_TWIN_PAIR(p_project_timed_local)
