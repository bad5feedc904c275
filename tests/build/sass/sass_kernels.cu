/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/build/sass/sass_kernels.cu — one small kernel per cross-CTA release path
 * of the library, for sass_test.c to disassemble (cuobjdump) and search for a
 * GPU-wide memory barrier. Each kernel's name says the call it holds; the
 * control kernel holds mbarrier.arrive.release.cluster, whose SASS must show
 * the barrier (or the check could not see one).
 */
#include <cuda_runtime.h>

#include "async/pipeline.h"
#include "barrier/mbarrier.h"
#include "cg/groups.h"
#include "dsmem/dsmem.h"

/* Keeps a pipeline state alive across the call (its fields from memory). */
static __device__ cg_pipeline_t sass_pipe(unsigned char *smem, const uint32_t *in)
{
    cg_pipeline_t p = cg_pipeline_attach_cluster(smem, 2, 1024, in[0] & 7u);
    p.tail = in[1] & 1u;
    p.tail_phase = in[2] & 1u;
    return p;
}

/* A kernel named `name` that holds `body` once: a pipeline p (sass_pipe), an
 * mbarrier mb, or the cluster cl, as its kind says; in[] keeps the values
 * out of the compiler's reach. */
#define SASS_PIPELINE_KERNEL(name, body)                                                               \
    extern "C" __global__ void name(const uint32_t *in)                                                \
    {                                                                                                  \
        __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 1024)];                 \
        cg_pipeline_t p = sass_pipe(smem, in);                                                         \
        body;                                                                                          \
    }
#define SASS_MBARRIER_KERNEL(name, body)                                                               \
    extern "C" __global__ void name(const uint32_t *in)                                                \
    {                                                                                                  \
        __shared__ cg_mbarrier_t mb;                                                                   \
        body;                                                                                          \
    }
#define SASS_CLUSTER_KERNEL(name, body)                                                                \
    extern "C" __global__ void name(const uint32_t *in)                                                \
    {                                                                                                  \
        (void)in;                                                                                      \
        cg_cluster_t cl = cg_this_cluster();                                                           \
        body;                                                                                          \
    }

SASS_PIPELINE_KERNEL(sass_pipeline_consumer_release, cg_pipeline_cluster_consumer_release(&p))
SASS_PIPELINE_KERNEL(sass_pipeline_consumer_release_warp, cg_pipeline_cluster_consumer_release_warp(&p))
SASS_PIPELINE_KERNEL(sass_pipeline_consumer_release_all, cg_pipeline_cluster_consumer_release_all(&p, (uint16_t)in[3]))
SASS_PIPELINE_KERNEL(sass_pipeline_consumer_release_all_warp,
                     cg_pipeline_cluster_consumer_release_all_warp(&p, (uint16_t)in[3]))

SASS_MBARRIER_KERNEL(sass_dsmem_release, cg_dsmem_release(&mb, in[0]))
SASS_MBARRIER_KERNEL(sass_mbarrier_release_smem_remote, cg_mbarrier_release_smem_remote(&mb, in[0]))
SASS_MBARRIER_KERNEL(sass_mbarrier_release_smem_remote_async, cg_mbarrier_release_smem_remote_async(&mb, in[0]))

SASS_CLUSTER_KERNEL(sass_cluster_sync_smem, cg_cluster_sync_smem(&cl))
SASS_CLUSTER_KERNEL(sass_cluster_barrier_arrive_smem, cg_cluster_barrier_wait(&cl, cg_cluster_barrier_arrive_smem(&cl)))

/* The control: the full cluster-scope release must show MEMBAR.ALL.GPU. */
SASS_MBARRIER_KERNEL(sass_control_arrive_remote, cg_mbarrier_arrive_remote(&mb, in[0]))

/* The full cluster barrier, for the record (its release is GPU-wide too). */
SASS_CLUSTER_KERNEL(sass_control_cluster_sync, cg_cluster_sync(&cl))

/* The sass test links these; nothing launches them. */
extern "C" int sass_kernels_linked(void) { return 1; }
