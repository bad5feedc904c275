/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * examples/python/torch_ext/cgc_torch.cu — a PyTorch C++/CUDA extension
 * whose kernel is cgc's (../tile_stats.cuh): tile_stats(x, tile) returns
 * (sums, prefix) for a 1-D CUDA tensor of any integer or floating type.
 * Built by run.py with torch.utils.cpp_extension.load.
 */
#include <torch/extension.h>

#include <ATen/cuda/CUDAContext.h>
#include <c10/cuda/CUDAException.h>

#include "../tile_stats.cuh"

namespace {

constexpr int64_t kThreads = 512; /* a multiple of every tile size below */

template <typename T>
void launch(int64_t tile, const T *in, T *sums, T *prefix, int64_t n, cudaStream_t stream)
{
    const dim3 grid((unsigned)(n / kThreads)), block((unsigned)kThreads);
    switch (tile) {
    case 32: tile_stats<T, 32><<<grid, block, 0, stream>>>(in, sums, prefix); break;
    case 128: tile_stats<T, 128><<<grid, block, 0, stream>>>(in, sums, prefix); break;
    case 512: tile_stats<T, 512><<<grid, block, 0, stream>>>(in, sums, prefix); break;
    default: TORCH_CHECK(false, "tile must be 32, 128 or 512, got ", tile);
    }
    C10_CUDA_KERNEL_LAUNCH_CHECK();
}

} // namespace

std::vector<torch::Tensor> tile_stats_op(torch::Tensor x, int64_t tile)
{
    TORCH_CHECK(x.is_cuda() && x.dim() == 1 && x.is_contiguous(), "x must be a contiguous 1-D CUDA tensor");
    TORCH_CHECK(x.numel() % kThreads == 0, "x.numel() must be a multiple of ", kThreads);
    auto sums = torch::empty({x.numel() / tile}, x.options());
    auto prefix = torch::empty_like(x);
    cudaStream_t stream = at::cuda::getCurrentCUDAStream();
    AT_DISPATCH_ALL_TYPES(x.scalar_type(), "tile_stats", [&] {
        launch<scalar_t>(tile, x.data_ptr<scalar_t>(), sums.data_ptr<scalar_t>(), prefix.data_ptr<scalar_t>(),
                         x.numel(), stream);
    });
    return {sums, prefix};
}

PYBIND11_MODULE(TORCH_EXTENSION_NAME, m)
{
    m.def("tile_stats", &tile_stats_op, "per tile: the sum, and each element's exclusive prefix sum (cgc)");
}
