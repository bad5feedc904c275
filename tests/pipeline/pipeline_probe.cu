/* tests/pipeline/pipeline_probe.cu — probe kernels for pipeline_ptx_test.c,
 * compiled to PTX only (a release and a debug build): one per pipeline call,
 * so the test can check which instructions each emits and in what order. */
#include "async/pipeline.h"

#define PROBE(NAME, BODY)                                                                          \
    extern "C" __global__ void plp_##NAME(const uint4 *g, uint32_t *o, uint32_t x)                \
    {                                                                                              \
        __shared__ cg_pipeline_stage_t ring[4];                                                    \
        __shared__ __align__(128) unsigned char buf[4 * 1024];                                     \
        cg_pipeline_t p = cg_pipeline_make(ring, 4, buf, 1024);                                    \
        void *r = NULL;                                                                            \
        (void)g;                                                                                   \
        (void)x;                                                                                   \
        BODY                                                                                       \
        o[threadIdx.x] = (uint32_t)(uintptr_t)r + cg_pipeline_producer_stage(&p) +                \
                         cg_pipeline_consumer_stage(&p);                                           \
    }

PROBE(init, cg_pipeline_init(ring, 4, 1, x);)
PROBE(acquire, r = cg_pipeline_acquire(&p);)
PROBE(copy, cg_pipeline_copy(&p, buf, g, 1024);)
PROBE(commit, cg_pipeline_commit(&p, x);)
PROBE(wait, r = cg_pipeline_wait(&p);)
PROBE(release, cg_pipeline_release(&p);)
PROBE(release_warp, cg_pipeline_release_warp(&p);)
PROBE(producer_acquire, r = cg_pipeline_producer_acquire(&p);)
PROBE(producer_copy, cg_pipeline_producer_copy(&p, buf, g, 1024);)
PROBE(producer_commit, cg_pipeline_producer_commit(&p);)
PROBE(consumer_wait, r = cg_pipeline_consumer_wait(&p);)
PROBE(consumer_release, cg_pipeline_consumer_release(&p);)
