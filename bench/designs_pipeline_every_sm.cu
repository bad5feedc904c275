/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs_pipeline_every_sm.cu — the multicast example's sliced kernel
 * and its twin, exactly the library rows' code, under their own names so
 * that bench/stream.cu launches them with the grid the first GPU run used
 * (every SM, rounded down to whole clusters: 132 CTAs at clusters 2 and 4,
 * 128 at 8) instead of the one-wave grid the library rows now get (the
 * clusters that fit at once at one CTA per SM). On the H200 only 30
 * clusters of 4 and 15 of 8 fit at once at one CTA per SM, so 33 clusters
 * of 4 or 16 of 8 leave a few clusters to a partial second wave (or to
 * SMs that then run two CTAs): this row says what that costs
 * (docs/design/pipeline.md, "Phase B").
 */
#include "bench/project_forms.cuh"

BD_SLICED_PAIR(d_project_sliced_every_sm)
BD_TWIN_PAIR(d_project_local_every_sm)
