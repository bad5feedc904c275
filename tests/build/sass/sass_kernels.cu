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

extern "C" __global__ void sass_pipeline_consumer_release(const uint32_t *in)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 1024)];
    cg_pipeline_t p = sass_pipe(smem, in);
    cg_pipeline_cluster_consumer_release(&p);
}

extern "C" __global__ void sass_pipeline_consumer_release_warp(const uint32_t *in)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 1024)];
    cg_pipeline_t p = sass_pipe(smem, in);
    cg_pipeline_cluster_consumer_release_warp(&p);
}

extern "C" __global__ void sass_pipeline_consumer_release_all(const uint32_t *in)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 1024)];
    cg_pipeline_t p = sass_pipe(smem, in);
    cg_pipeline_cluster_consumer_release_all(&p, (uint16_t)in[3]);
}

extern "C" __global__ void sass_pipeline_consumer_release_all_warp(const uint32_t *in)
{
    __shared__ __align__(128) unsigned char smem[CG_PIPELINE_SMEM_BYTES(2, 1024)];
    cg_pipeline_t p = sass_pipe(smem, in);
    cg_pipeline_cluster_consumer_release_all_warp(&p, (uint16_t)in[3]);
}

extern "C" __global__ void sass_dsmem_release(const uint32_t *in)
{
    __shared__ cg_mbarrier_t empty;
    cg_dsmem_release(&empty, in[0]);
}

extern "C" __global__ void sass_mbarrier_release_smem_remote(const uint32_t *in)
{
    __shared__ cg_mbarrier_t mb;
    cg_mbarrier_release_smem_remote(&mb, in[0]);
}

extern "C" __global__ void sass_mbarrier_release_smem_remote_async(const uint32_t *in)
{
    __shared__ cg_mbarrier_t mb;
    cg_mbarrier_release_smem_remote_async(&mb, in[0]);
}

extern "C" __global__ void sass_cluster_sync_smem(const uint32_t *in)
{
    (void)in;
    cg_cluster_t cl = cg_this_cluster();
    cg_cluster_sync_smem(&cl);
}

extern "C" __global__ void sass_cluster_barrier_arrive_smem(const uint32_t *in)
{
    (void)in;
    cg_cluster_t cl = cg_this_cluster();
    cg_token_t t = cg_cluster_barrier_arrive_smem(&cl);
    cg_cluster_barrier_wait(&cl, t);
}

/* The control: the full cluster-scope release must show MEMBAR.ALL.GPU. */
extern "C" __global__ void sass_control_arrive_remote(const uint32_t *in)
{
    __shared__ cg_mbarrier_t mb;
    cg_mbarrier_arrive_remote(&mb, in[0]);
}

/* The full cluster barrier, for the record (its release is GPU-wide too). */
extern "C" __global__ void sass_control_cluster_sync(const uint32_t *in)
{
    (void)in;
    cg_cluster_t cl = cg_this_cluster();
    cg_cluster_sync(&cl);
}

/* The sass test links these; nothing launches them. */
extern "C" int sass_kernels_linked(void) { return 1; }
