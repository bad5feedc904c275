/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/dsmem/dsmem_ptx_test.c — CI, no GPU: every dsmem/dsmem.h wrapper (and
 * the proxy fences of base/fence.h) emits exactly its PTX instruction form,
 * with the memory order and scope spelled out. Probes: dsmem_probe.cu. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

TestSuite(dsmem_ptx, .timeout = 30);

/* Each wrapper's one form, the collective push and cg_dsmem_release: rows of
 * dsmem_ptx.tbl. */
Test(dsmem_ptx, each_wrapper_emits_exactly_its_form)
{
    cgt_check_expectations("tests/dsmem/dsmem_probe.ptx", "tests/dsmem/dsmem_ptx.tbl");
}
