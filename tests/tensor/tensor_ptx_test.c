/* tests/tensor/tensor_ptx_test.c — CI, no GPU: each async/tensor.h wrapper
 * emits exactly its PTX form, with as many coordinates as its rank. Probes:
 * tensor_probe.cu (which the build also assembles with ptxas). */
#include <stdio.h>
#include <string.h>

#include "tests/dsmem/ptx_forms.h"

static const probe_t k_probes[] = {
    {"tnp_load_1d", "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnp_load_2d", "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnp_load_3d", "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnp_load_4d", "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnp_load_5d", "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"},
    {"tnp_load_1d_multicast",
     "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnp_load_2d_multicast",
     "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnp_load_3d_multicast",
     "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnp_load_4d_multicast",
     "cp.async.bulk.tensor.4d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnp_load_5d_multicast",
     "cp.async.bulk.tensor.5d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster"},
    {"tnp_store_1d", "cp.async.bulk.tensor.1d.global.shared::cta.tile.bulk_group"},
    {"tnp_store_2d", "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"},
    {"tnp_store_3d", "cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group"},
    {"tnp_store_4d", "cp.async.bulk.tensor.4d.global.shared::cta.tile.bulk_group"},
    {"tnp_store_5d", "cp.async.bulk.tensor.5d.global.shared::cta.tile.bulk_group"},
    {"tnp_prefetch_1d", "cp.async.bulk.prefetch.tensor.1d.L2.global.tile"},
    {"tnp_prefetch_2d", "cp.async.bulk.prefetch.tensor.2d.L2.global.tile"},
    {"tnp_prefetch_3d", "cp.async.bulk.prefetch.tensor.3d.L2.global.tile"},
    {"tnp_prefetch_4d", "cp.async.bulk.prefetch.tensor.4d.L2.global.tile"},
    {"tnp_prefetch_5d", "cp.async.bulk.prefetch.tensor.5d.L2.global.tile"},
    {"tnp_map_prefetch", "prefetch.tensormap"},
};
#define NPROBES (sizeof k_probes / sizeof k_probes[0])

TestSuite(tensor_ptx, .timeout = 30);

Test(tensor_ptx, each_wrapper_emits_exactly_its_form)
{
    cgt_check_probe_table("tests/tensor/tensor_probe.ptx", k_probes, NPROBES);
}

/* The coordinate list of an Nd form has N entries: "{a, b}" has N - 1 commas. */
Test(tensor_ptx, coordinates_match_the_rank)
{
    char *ptx = cgt_ptx_read("tests/tensor/tensor_probe.ptx");
    for (size_t i = 0; i < NPROBES - 1; ++i) {
        const int rank = strstr(k_probes[i].form, "tensor.")[strlen("tensor.")] - '0'; /* "tensor.Nd" */
        char *ins = cgt_ptx_instructions(cgt_ptx_function(ptx, k_probes[i].probe));
        const char *line = strstr(ins, k_probes[i].form);
        cr_assert(line != NULL, "%s present", k_probes[i].probe);
        const char *open = strchr(line, '{'), *close = open ? strchr(open, '}') : NULL;
        cr_assert(open && close, "%s: a coordinate list", k_probes[i].probe);
        int commas = 0;
        for (const char *p = open; p < close; ++p)
            commas += *p == ',';
        cr_expect_eq(commas + 1, rank, "%s: %d coordinates for a %dd form", k_probes[i].probe, commas + 1, rank);
        free(ins);
    }
    free(ptx);
}

/* Loads and stores order memory ("memory" clobber: the compiler keeps the
 * surrounding shared-memory accesses in place); nothing else (no fence, no
 * mbarrier operation) hides inside a wrapper. */
Test(tensor_ptx, wrappers_add_nothing)
{
    char *ptx = cgt_ptx_read("tests/tensor/tensor_probe.ptx");
    for (size_t i = 0; i < NPROBES; ++i) {
        char *ins = cgt_ptx_instructions(cgt_ptx_function(ptx, k_probes[i].probe));
        cr_expect_eq(cgt_count(ins, "mbarrier."), (size_t)0, "%s: no mbarrier operation", k_probes[i].probe);
        cr_expect_eq(cgt_count(ins, "fence"), (size_t)0, "%s: no fence", k_probes[i].probe);
        free(ins);
    }
    free(ptx);
}
