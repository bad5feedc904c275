/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/generic/port_large.cu — the ported kernel at N = 128, 256, 512. */
#include "tests/cg/generic/port_kernels.cuh"

extern "C" cudaError_t cgp_port_large_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                       const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    return cgt_launch_vao<CGP_NTYPES, 128, 256, 512>(cgp_port_of(), n, type, blocks, bx, by, bz, val, arg, out);
}
