/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/release_elected.cu — the sliced multicast kernel with one
 * remote release per CTA per stage, made by the last consumer warp to finish
 * the stage (bench/designs/release_elected.cuh), 4 stages; on the HBM-bound
 * stream and on the L2-resident input.
 */
#include "bench/designs/release_elected.cuh"

BD_SLICED_PAIR(d_project_release_elected)
