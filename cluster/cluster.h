/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * cluster/cluster.h — the raw Hopper cluster hardware: the cluster barrier
 * (barrier.cluster.*), and the cluster special registers, which live on the
 * ground floor (base/sreg.h: the mbarrier core's and mapa's debug checks
 * read the cluster size) and come with this header.
 *
 * One wrapper per PTX form, generated into cluster_forms.h from
 * cluster_forms.tbl (tools/ptx/gen.py): the PTX line it emits, the PTX ISA
 * version that introduced it and the lowest SM. Everything here needs sm_90:
 * a build for an older target that calls one of these fails at compile time
 * with the message CG_REQUIRE_SM90() carries (see base/config.h).
 *
 * Most code wants the group API of cg/cluster_group.h (cg_this_cluster(),
 * cg_cluster_sync(), ...); these wrappers are its building blocks.
 *
 * Hardware facts this header relies on:
 *   - Every kernel on sm_90 runs in clusters. A launch without a cluster shape
 *     runs in implicit 1x1x1 clusters: %cluster_nctarank reads 1,
 *     %cluster_ctarank 0, %is_explicit_cluster false, and barrier.cluster
 *     works (it synchronizes the one CTA with itself).
 *   - Cluster size: at most 8 CTAs portably, 16 with the non-portable opt-in
 *     (cudaFuncAttributeNonPortableClusterSizeAllowed, done by cg_launch).
 *   - The cluster barrier counts every non-exited thread of every CTA of the
 *     cluster; each thread arrives once per phase and then waits once.
 *
 * Aligned vs non-aligned forms. `.aligned` promises that every thread of the
 * warp executes the same barrier.cluster instruction (warp-converged, like
 * bar.sync); the hardware may then arrive once per warp. The non-aligned form
 * is correct under divergence at some extra cost. Both forms are wrapped; the
 * group API picks the one whose contract it can keep (cg/cluster_group.h
 * explains the choice).
 */
#ifndef CG_CLUSTER_CLUSTER_H
#define CG_CLUSTER_CLUSTER_H

#include "../base/config.h"
#include "../base/ptx_form.h"
#include "../base/sreg.h" /* the cluster special registers (cg_hw_cluster_ctarank, ...) */

#if CG_DEVICE_CODE_VISIBLE


/* The barrier.cluster forms (cluster_forms.h, written by tools/ptx/gen.py from cluster_forms.tbl): every one
 * MEM, with a "memory" clobber. */
#include "cluster_forms.h"

#endif /* CG_DEVICE_CODE_VISIBLE */
#endif /* CG_CLUSTER_CLUSTER_H */
