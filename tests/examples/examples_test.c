/* SPDX-License-Identifier: BSD-3-Clause */
/* Every example, as a GPU test: it must verify its own result on the device
 * (each example checks every output element against a host reference). */
#include <string.h>

#include "examples/examples.h"
#include "tests/support/cgtest.h"

TestSuite(examples, .timeout = 120);

/* Examples whose synchronization compute-sanitizer racecheck has no model of;
 * they still run in the plain, memcheck and synccheck passes. */
static void skip_if_racecheck_cannot_follow(const char *name)
{
    if (strcmp(name, "psum_completion") == 0)
        cgt_skip_under_sanitizer("racecheck",
                                 "cg_barrier_fn_t: the last arrival acquires the others with "
                                 "fence.acq_rel.cta after its own mbarrier.arrive.noComplete; "
                                 "racecheck models mbarrier synchronization only as arrive -> wait");
    if (strcmp(name, "pipeline_stream") == 0 || strcmp(name, "pipeline_multicast") == 0)
        cgt_skip_under_sanitizer("racecheck",
                                 "a pipeline stage is refilled by a bulk copy after the consumers' release is "
                                 "acquired by the producer's wait (tests/async/pipeline says why racecheck cannot "
                                 "follow that edge)");
    if (strcmp(name, "gemm_multicast") == 0)
        cgt_skip_under_sanitizer("racecheck",
                                 "a stage is read by wgmma (async proxy) and refilled by tensor TMA multicast after "
                                 "the consumers' remote release is acquired by the producer's wait: as for the "
                                 "pipeline examples, racecheck cannot follow that edge");
    if (strcmp(name, "jacobi_cluster") == 0)
        cgt_skip_under_sanitizer("racecheck",
                                 "a halo buffer is refilled by the neighbour's st.async after this CTA handed it "
                                 "back with a remote mbarrier arrive (cg_dsmem_release); racecheck has no model of "
                                 "a remote mbarrier arrive (tests/stress/handoff skips for the same reason)");
}

#define CGX__TEST(name, origin)                                          \
    Test(examples, name, .description = origin)                          \
    {                                                                    \
        cgt_require_sm90();                                              \
        skip_if_racecheck_cannot_follow(#name);                          \
        char detail[512] = "";                                           \
        int rc = cgx_##name(detail, sizeof detail);                      \
        cr_log_info("%s: %s", #name, detail);                            \
        cr_expect_eq(rc, 0, "%s returned %d: %s", #name, rc, detail);    \
    }
CGX_EXAMPLE_TABLE(CGX__TEST)
