/* SPDX-License-Identifier: BSD-3-Clause */
/* tests/cg/wide_tile/oracle_large.cu — the oracle kernel for tiles of 256, 512
 * and 1024. */
#include "tests/cg/wide_tile/oracle.cuh"

extern "C" cudaError_t cgw_oracle_large_(unsigned n, int type, unsigned blocks, unsigned bx, unsigned by, unsigned bz,
                                         const uint64_t *val, const uint32_t *arg, uint64_t *out)
{
    return cgt_launch_vao<CGW_NTYPES, 256, 512, 1024>(cgw_oracle_of(), n, type, blocks, bx, by, bz, val, arg, out);
}
