/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * bench/designs/pipeline_deep.cu — the multicast example's kernel and its
 * twin with an 8-stage ring of the same 16 KiB tiles (144 KiB of shared
 * memory, one CTA per SM as at 4 stages), on the HBM-bound stream and on the
 * L2-resident input. More bytes in flight per SM, and more slack between the
 * CTAs of a cluster: every stage of the sliced form waits for the slowest
 * CTA's consumers (its empty barrier counts them all), and the design rows
 * measured with a CTA-scope release (no fence at all) still ran 1.13 / 1.22
 * of the twin at clusters 4 and 8 (H100): the release alone cannot close the
 * gap (issue 32 item 4).
 */
#define PJ_STAGES 8u
#include "bench/project_forms.cuh"

BD_SLICED_PAIR(d_project_sliced_s8)
BD_TWIN_PAIR(d_project_local_s8)
