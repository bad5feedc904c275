/* tests/pipeline/pipeline_ptx_test.c — CI, no GPU: each async/pipeline.h call
 * emits the mbarrier, fence and copy forms its comment promises (memory
 * order and scope spelled out, proxy fence before the copy that overwrites a
 * stage, expect before copy), nothing more in a release build, and the
 * bounded wait and the checks in a debug build. Probes: pipeline_probe.cu. */
#include <string.h>

#include "tests/dsmem/ptx_forms.h"

TestSuite(pipeline_ptx, .timeout = 30);

#define REL "tests/pipeline/pipeline_probe.ptx"
#define DBG "tests/pipeline/pipeline_probe_debug.ptx"

#define TRY_WAIT "mbarrier.try_wait.parity.acquire.cta.shared::cta.b64"
#define ARRIVE "mbarrier.arrive.release.cta.shared::cta.b64"
#define ARRIVE_TX "mbarrier.arrive.expect_tx.release.cta.shared::cta.b64"
#define EXPECT_TX "mbarrier.expect_tx.relaxed.cta.shared::cta.b64"
#define FENCE "fence.proxy.async.shared::cta"
#define BULK "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"

/* The instruction lines of one probe (caller frees). */
static char *probe(const char *path, const char *name)
{
    char *ptx = cgt_ptx_read(path);
    char *body = cgt_ptx_function(ptx, name);
    char *ins = cgt_ptx_instructions(body);
    free(body);
    free(ptx);
    return ins;
}

/* How many lines of each of the forms above a probe has. */
typedef struct {
    const char *name;
    int try_wait, arrive, arrive_tx, expect_tx, fence, bulk;
} expect_t;

static const expect_t k_release[] = {
    {"plp_acquire", 1, 0, 0, 0, 1, 0},         {"plp_copy", 0, 0, 0, 0, 0, 1},
    {"plp_commit", 0, 0, 1, 0, 0, 0},          {"plp_wait", 1, 0, 0, 0, 0, 0},
    {"plp_release", 0, 1, 0, 0, 0, 0},         {"plp_release_warp", 0, 1, 0, 0, 0, 0},
    {"plp_producer_acquire", 1, 0, 0, 0, 0, 0}, {"plp_producer_copy", 0, 0, 0, 1, 1, 1},
    {"plp_producer_commit", 0, 1, 0, 0, 0, 0}, {"plp_consumer_wait", 1, 0, 0, 0, 0, 0},
    {"plp_consumer_release", 0, 1, 0, 0, 0, 0},
};

Test(pipeline_ptx, each_call_emits_its_forms_and_nothing_else)
{
    for (size_t i = 0; i < sizeof k_release / sizeof k_release[0]; ++i) {
        const expect_t *e = &k_release[i];
        char *ins = probe(REL, e->name);
        cr_expect_eq(cgt_count_mnemonic(ins, TRY_WAIT), (size_t)e->try_wait, "%s: %s\n%s", e->name, TRY_WAIT, ins);
        cr_expect_eq(cgt_count_mnemonic(ins, ARRIVE), (size_t)e->arrive, "%s: %s\n%s", e->name, ARRIVE, ins);
        cr_expect_eq(cgt_count_mnemonic(ins, ARRIVE_TX), (size_t)e->arrive_tx, "%s: %s\n%s", e->name, ARRIVE_TX, ins);
        cr_expect_eq(cgt_count_mnemonic(ins, EXPECT_TX), (size_t)e->expect_tx, "%s: %s\n%s", e->name, EXPECT_TX, ins);
        cr_expect_eq(cgt_count_mnemonic(ins, FENCE), (size_t)e->fence, "%s: %s\n%s", e->name, FENCE, ins);
        cr_expect_eq(cgt_count_mnemonic(ins, BULK), (size_t)e->bulk, "%s: %s\n%s", e->name, BULK, ins);
        /* No other mbarrier form (a relaxed arrive or an unscoped wait would
         * order nothing), no debug code in a release build. */
        cr_expect_eq(cgt_count(ins, "mbarrier."), (size_t)(e->try_wait + e->arrive + e->arrive_tx + e->expect_tx),
                     "%s: only the expected mbarrier forms\n%s", e->name, ins);
        cr_expect_eq(cgt_count(ins, "%globaltimer"), (size_t)0, "%s: no bounded wait in a release build", e->name);
        cr_expect_eq(cgt_count(ins, "trap"), (size_t)0, "%s: no trap in a release build", e->name);
        cr_expect_eq(cgt_count(ins, "vprintf"), (size_t)0, "%s: no printf in a release build", e->name);
        free(ins);
    }
}

/* a before b in ins (both present). */
static void expect_order(const char *ins, const char *a, const char *b, const char *what)
{
    const char *pa = strstr(ins, a), *pb = strstr(ins, b);
    cr_expect(pa && pb && pa < pb, "%s: %s before %s\n%s", what, a, b, ins);
}

Test(pipeline_ptx, proxy_fence_sits_between_the_empty_wait_and_the_copy)
{
    char *ins = probe(REL, "plp_acquire");
    expect_order(ins, TRY_WAIT, FENCE, "cg_pipeline_acquire: fence after the stage is seen empty");
    free(ins);
    ins = probe(REL, "plp_producer_copy");
    expect_order(ins, FENCE, EXPECT_TX, "cg_pipeline_producer_copy");
    expect_order(ins, EXPECT_TX, BULK, "cg_pipeline_producer_copy: bytes expected before the copy");
    free(ins);
}

Test(pipeline_ptx, release_warp_syncs_the_warp_before_its_one_arrival)
{
    char *ins = probe(REL, "plp_release_warp");
    expect_order(ins, "bar.warp.sync", ARRIVE, "cg_pipeline_release_warp");
    free(ins);
}

Test(pipeline_ptx, init_fences_the_barriers_into_the_async_proxy)
{
    char *ins = probe(REL, "plp_init");
    cr_expect_eq(cgt_count_mnemonic(ins, "mbarrier.init.shared::cta.b64"), (size_t)8, "two barriers per stage\n%s",
                 ins);
    const char *last_init = NULL;
    for (const char *s = ins; (s = strstr(s, "mbarrier.init")) != NULL; ++s)
        last_init = s;
    const char *fence = strstr(ins, FENCE);
    cr_expect(last_init && fence && last_init < fence, "fence.proxy.async after every init\n%s", ins);
    free(ins);
}

Test(pipeline_ptx, debug_build_bounds_the_waits_and_checks_the_commit)
{
    static const char *waits[] = {"plp_acquire", "plp_wait", "plp_producer_acquire", "plp_consumer_wait"};
    for (size_t i = 0; i < sizeof waits / sizeof waits[0]; ++i) {
        char *ins = probe(DBG, waits[i]);
        cr_expect_gt(cgt_count(ins, "%globaltimer"), (size_t)0, "%s: bounded by %%globaltimer\n%s", waits[i], ins);
        cr_expect_gt(cgt_count(ins, "trap"), (size_t)0, "%s: traps on expiry", waits[i]);
        free(ins);
    }
    static const char *checked[] = {"plp_commit", "plp_copy", "plp_producer_copy"};
    for (size_t i = 0; i < sizeof checked / sizeof checked[0]; ++i) {
        char *ins = probe(DBG, checked[i]);
        cr_expect_gt(cgt_count(ins, "trap"), (size_t)0, "%s: checks its arguments in a debug build", checked[i]);
        free(ins);
    }
}
