/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/async/tensor/tensor_ptx_test.c — CI, no GPU: each async/tensor.h call emits
 * exactly its PTX instruction form and none of the others (probes:
 * tensor_probe.cu); the run-time-rank forms compile to a switch over the same
 * five forms. */
#include <stdlib.h>
#include <string.h>

#include "tests/support/cgtest.h"
#include "tests/support/ptxcheck.h"

TestSuite(tensor_ptx, .timeout = 30);

/* Each call's one form and the run-time-rank load's five: rows of
 * tensor_ptx.tbl. */
Test(tensor_ptx, each_call_emits_exactly_its_form)
{
    cgt_check_expectations("tests/async/tensor/tensor_probe.ptx", "tests/async/tensor/tensor_ptx.tbl");
}
