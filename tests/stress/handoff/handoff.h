/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tests/stress/handoff/handoff.h — write-after-read handoffs of shared memory
 * between the CTAs of a cluster, run with the library's release and with
 * weaker ones (positive controls). Shared by the kernels (nvcc) and the
 * Criterion test (C).
 *
 * Every shape is a ring: CTA r hands a buffer to CTA r+1 (or takes one from
 * r-1) round after round; the side that reads a buffer issues its shared
 * loads, RELEASES the buffer, and only then uses the values it loaded, while
 * the side that writes refills the buffer the moment it sees the release.
 * 16 reader warps first queue bank-conflicted "noise" loads, so the loads
 * that matter wait behind thousands of cycles of shared-memory work: a
 * release that does not wait for them lets the refill overtake them, and
 * the reader sees the next round's data. Every word read is compared with
 * the value of its round.
 */
#ifndef CGT_HANDOFF_H
#define CGT_HANDOFF_H

/* What the reader's release is. */
enum ho_form {
    HO_FORM_NONE = 0,    /* control: relaxed remote arrive, no fence */
    HO_FORM_CTA = 1,     /* control: mbarrier.arrive.release.cta.shared::cluster (CTA scope: not enough) */
    HO_FORM_CLUSTER = 2, /* mbarrier.arrive.release.cluster (cg_mbarrier_arrive_remote; GPU-wide fence) */
    HO_FORM_LIB = 3,     /* the library's call for the shape (shared-memory-restricted release) */
};

/* Who reads and who writes. */
enum ho_shape {
    HO_SHAPE_PUSH = 0,    /* reader loads its own buffer; the writer refills it with st.async (cg_dsmem_release) */
    HO_SHAPE_PULL = 1,    /* reader loads the writer's buffer through DSMEM; the writer refills it with st.shared */
    HO_SHAPE_TMA = 2,     /* sliced multicast pipeline: consumers release, producers refill with multicast TMA */
    HO_SHAPE_BAR_WAR = 3, /* cluster barrier: read own buffer, barrier, the previous CTA overwrites it (DSMEM stores) */
    HO_SHAPE_BAR_RAW = 4, /* cluster barrier: write own buffer, barrier, the next CTA reads it through DSMEM */
};

/* ho_run's answer when one cluster of that size does not fit the device. */
#define HO_DOES_NOT_FIT (-1)

/* What one run saw (summed over every CTA). */
typedef struct ho_result {
    unsigned long long words;    /* 32-bit words compared */
    unsigned long long wrong;    /* of those, not the value of their round */
    unsigned long long handoffs; /* buffers handed over (rounds x reading CTAs) */
    unsigned long long timeouts; /* bounded waits that gave up (a protocol bug: must be 0) */
    unsigned first_block, first_round, first_word, first_got, first_want; /* the first mismatch */
} ho_result_t;

#ifdef __cplusplus
extern "C" {
#endif
/* One launch: as many clusters of `csize` as fit at once, `rounds` rounds
 * each, values salted with `seed`. Returns a cudaError_t (0 = ran) or
 * HO_DOES_NOT_FIT; the counts land in *out. */
int ho_run(int shape, int form, unsigned csize, unsigned rounds, unsigned seed, ho_result_t *out);
#ifdef __cplusplus
}
#endif

#endif /* CGT_HANDOFF_H */
