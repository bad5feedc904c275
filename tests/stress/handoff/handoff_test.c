/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/handoff/handoff_test.c — cross-CTA write-after-read handoffs of
 * shared memory (handoff.h): the library's releases must never let a refill
 * overtake a read, over many more handoffs than a weaker release needs to be
 * caught; the weaker releases (positive controls) are run beside them and
 * their failure rates logged, so a reader can see what each test could catch.
 *
 * The push and pull shapes' controls MUST fail (both did on every run on the
 * H100 and the H200, at 2-3% of the words read, nearly every handoff): a run
 * where one does not cannot tell a good release from a bad one, and the test
 * says so by failing (push_controls_fail, pull_controls_fail). The sliced
 * multicast and the cluster barrier's read-then-overwrite controls have never
 * failed on either GPU: on those shapes there is no detector on this
 * hardware, and the tests claim nothing beyond "the library's form was not
 * wrong in practice" (the log and docs/design/cross_cta_release.md say so).
 * The barrier's write-then-read control failed rarely (1 handoff in 584 on
 * the H100, once on the H200): logged, not required.
 *
 * CGT_QUICK=1 (sanitizer passes) runs a few rounds of the library's forms only.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tests/stress/handoff/handoff.h"
#include "tests/support/cgtest.h"

#define HO_FORM_LIB_WARP 4
#define HO_FORM_LIB_WHOLE_WARP 5

static const char *const k_form[] = {"relaxed arrive, no fence (control)", "CTA-scope release (control)",
                                     "release.cluster", "library (shared-memory-restricted release)",
                                     "library (shared-memory-restricted release), warp form",
                                     "library (shared-memory-restricted release), caller-declared whole warp"};
static const char *const k_shape[] = {"push (st.async refill)", "pull (DSMEM reads)", "sliced multicast pipeline",
                                      "cluster barrier, read then overwrite", "cluster barrier, write then read"};

static int quick(void)
{
    const char *q = getenv("CGT_QUICK");
    return q && *q && *q != '0';
}

/* Runs `launches` launches; sums them. Returns 0 when the size does not fit. */
static int run(int shape, int form, unsigned csize, unsigned rounds, int launches, ho_result_t *sum)
{
    ho_result_t r;
    *sum = (ho_result_t){0};
    for (int i = 0; i < launches; ++i) {
        const unsigned seed = (unsigned)cgt_seed() + (unsigned)i * 7919u;
        const int e = ho_run(shape, form, csize, rounds, seed, &r);
        if (e == HO_DOES_NOT_FIT) {
            cr_log_info("%s, %s, cluster %u: one cluster does not fit this device", k_shape[shape], k_form[form],
                        csize);
            return 0;
        }
        CGT_CUDA((cudaError_t)e);
        if (r.wrong && !sum->wrong) {
            sum->first_block = r.first_block;
            sum->first_round = r.first_round;
            sum->first_word = r.first_word;
            sum->first_got = r.first_got;
            sum->first_want = r.first_want;
        }
        sum->words += r.words;
        sum->wrong += r.wrong;
        sum->handoffs += r.handoffs;
        sum->timeouts += r.timeouts;
    }
    cr_log_info("%s, %s, cluster %u: %llu wrong of %llu words over %llu handoffs (%.3g%% of words)%s",
                k_shape[shape], k_form[form], csize, sum->wrong, sum->words, sum->handoffs,
                sum->words ? 100.0 * (double)sum->wrong / (double)sum->words : 0.0, sum->timeouts ? ", TIMEOUTS" : "");
    if (sum->wrong)
        cr_log_info("  first: block %u round %u word %u: got 0x%08x want 0x%08x", sum->first_block,
                    sum->first_round, sum->first_word, sum->first_got, sum->first_want);
    /* every reader word of every round was compared, and nothing timed out */
    cr_expect(sum->timeouts == 0, "%s, %s, cluster %u: %llu bounded waits gave up", k_shape[shape], k_form[form],
              csize, sum->timeouts);
    cr_expect(sum->handoffs > 0 && sum->words == sum->handoffs * 512ull * 32ull,
              "%s, %s, cluster %u: %llu words compared, %llu handoffs x 512 readers x 32 words expected",
              k_shape[shape], k_form[form], csize, sum->words, sum->handoffs);
    return 1;
}

/* The library's form on `shape`: 0 wrong at every cluster size, over at least
 * 30 times the handoffs per failure of the worst control (when one failed). */
static void library_holds(int shape, int form, const int *controls, int ncontrols)
{
    cgt_require_sm90();
    const unsigned sizes[] = {2, 4, 8, 16};
    const unsigned rounds = quick() ? 20u : 2000u;
    double per_failure = 0; /* handoffs per wrong word of the most-failing control */
    if (!quick()) {
        for (int c = 0; c < ncontrols; ++c) {
            ho_result_t s;
            if (run(shape, controls[c], 2, rounds, 1, &s) && s.wrong) {
                const double h = (double)s.handoffs / (double)s.wrong;
                if (per_failure == 0 || h > per_failure)
                    per_failure = h;
            }
        }
        if (per_failure == 0)
            cr_log_info("%s: no control failed: no detector on this GPU. This shape claims nothing beyond \"the "
                        "library's form was not wrong in practice\"; the PTX model argument is what requires it",
                        k_shape[shape]);
    }
    unsigned long long handoffs = 0;
    int ran = 0;
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; ++i) {
        ho_result_t s;
        const int launches = quick() ? 1 : (sizes[i] == 2 ? 4 : 2);
        if (!run(shape, form, sizes[i], rounds, launches, &s))
            continue;
        ++ran;
        handoffs += s.handoffs;
        cr_expect(s.wrong == 0, "%s, %s, cluster %u: %llu words read after their refill (first: block %u round %u "
                  "word %u got 0x%08x want 0x%08x)",
                  k_shape[shape], k_form[form], sizes[i], s.wrong, s.first_block, s.first_round, s.first_word,
                  s.first_got, s.first_want);
    }
    cr_assert(ran >= 3, "%s: only %d of the cluster sizes 2/4/8/16 could run", k_shape[shape], ran);
    if (per_failure > 0)
        cr_expect((double)handoffs >= 30.0 * per_failure,
                  "%s, %s: %llu handoffs, fewer than 30 x the %.0f handoffs per control failure", k_shape[shape],
                  k_form[form], handoffs, per_failure);
    if (per_failure > 0)
        cr_log_info("%s, %s: 0 wrong expected over %llu handoffs; the worst control failed once per %.3g handoffs",
                    k_shape[shape], k_form[form], handoffs, per_failure);
    else
        cr_log_info("%s, %s: 0 wrong expected over %llu handoffs; no control ran or failed", k_shape[shape],
                    k_form[form], handoffs);
}

TestSuite(handoff, .timeout = 240);

/* The positive controls of `shape` (a relaxed arrive with no fence, a
 * CTA-scope release) must let a refill overtake a read: if one stops
 * failing, the shape no longer tells a good release from a bad one and the
 * library's 0 there means nothing, so the test fails. */
static void controls_must_fail(int shape, const char *name)
{
    cgt_require_sm90();
    cgt_skip_under_sanitizer("any", "the controls race on purpose");
    if (quick())
        cr_skip_test("CGT_QUICK: the controls run in the full pass only");
    const int forms[] = {HO_FORM_NONE, HO_FORM_CTA};
    for (int f = 0; f < 2; ++f) {
        ho_result_t s;
        cr_assert(run(shape, forms[f], 2, 2000, 2, &s), "a cluster of 2 must fit");
        cr_expect(s.wrong > 0,
                  "%s, %s: no word was read after its refill over %llu handoffs: the control lost its power, so "
                  "the test cannot tell a good release from a bad one on this GPU",
                  name, k_form[forms[f]], s.handoffs);
    }
}

/* The positive control: on the push shape, a release that does not order
 * the receiver's loads of its own buffer lets the sender's st.async refill
 * overtake them. */
Test(handoff, push_controls_fail) { controls_must_fail(HO_SHAPE_PUSH, "push"); }

/* The positive control: on the pull shape, a release that does not wait for
 * the reader's DSMEM loads lets the owner's refill overtake them. */
Test(handoff, pull_controls_fail)
{
    controls_must_fail(HO_SHAPE_PULL, "pull");
    /* The shared-memory-restricted release on a DSMEM read: the PTX model does
     * not cover it (the reads are not of the releasing CTA's own memory), so
     * the library never uses it there; its rate is logged for the record. */
    ho_result_t s;
    (void)run(HO_SHAPE_PULL, HO_FORM_LIB, 2, 2000, 2, &s);
}

Test(handoff, pull_cluster_release_holds)
{
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of a remote mbarrier arrive");
    const int controls[] = {HO_FORM_NONE, HO_FORM_CTA};
    library_holds(HO_SHAPE_PULL, HO_FORM_CLUSTER, controls, 2);
}

Test(handoff, push_library_release_holds)
{
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of a remote mbarrier arrive");
    const int controls[] = {HO_FORM_NONE, HO_FORM_CTA};
    library_holds(HO_SHAPE_PUSH, HO_FORM_LIB, controls, 2);
}

Test(handoff, multicast_library_release_holds)
{
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of a remote mbarrier arrive before a multicast");
    const int controls[] = {HO_FORM_NONE, HO_FORM_CTA};
    library_holds(HO_SHAPE_TMA, HO_FORM_LIB, controls, 2);
}

Test(handoff, multicast_library_warp_release_holds)
{
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of a remote mbarrier arrive before a multicast");
    library_holds(HO_SHAPE_TMA, HO_FORM_LIB_WARP, NULL, 0);
}

/* The caller-declared whole-warp release (the same sequence as the warp
 * form's whole-warp path, no test of the block's shape): 0 wrong. */
Test(handoff, multicast_library_whole_warp_release_holds)
{
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of a remote mbarrier arrive before a multicast");
    library_holds(HO_SHAPE_TMA, HO_FORM_LIB_WHOLE_WARP, NULL, 0);
}

Test(handoff, cluster_barrier_smem_read_then_overwrite)
{
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of the shared-memory-restricted release fence "
                                          "before a relaxed cluster barrier (it reports the DSMEM accesses as races)");
    const int controls[] = {HO_FORM_NONE};
    library_holds(HO_SHAPE_BAR_WAR, HO_FORM_LIB, controls, 1);
}

Test(handoff, cluster_barrier_smem_write_then_read)
{
    cgt_skip_under_sanitizer("racecheck", "racecheck has no model of the shared-memory-restricted release fence "
                                          "before a relaxed cluster barrier (it reports the DSMEM accesses as races)");
    const int controls[] = {HO_FORM_NONE};
    library_holds(HO_SHAPE_BAR_RAW, HO_FORM_LIB, controls, 1);
}
