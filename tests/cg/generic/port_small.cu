/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/generic/port_small.cu — the ported kernel at N = 16, 32, 64 (a .cu
 * of its own so the instantiations compile in parallel), and the launcher
 * over every size. */
#include "tests/cg/generic/port_kernels.cuh"

extern "C" cudaError_t cgp_port_large_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                       const uint64_t *val, const uint32_t *arg, uint64_t *out);

extern "C" cudaError_t cgp_port(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    if (n > 64)
        return cgp_port_large_(n, type, blocks, bx, by, bz, val, arg, out);
    return cgt_launch_vao<CGP_NTYPES, 16, 32, 64>(cgp_port_of(), n, type, blocks, bx, by, bz, val, arg, out);
}
