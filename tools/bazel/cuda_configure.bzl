# SPDX-License-Identifier: BSD-3-Clause
"""Repository rule that finds the CUDA toolkit: $CUDA_PATH, else /usr/local/cuda.

It creates @local_cuda with:
  :cuda_headers  the toolkit's include/ (cuda_runtime_api.h, ...)
  :cudart        static cudart plus the system libraries it needs
  defs.bzl       CUDA_PATH and NVCC, for the nvcc actions in cuda.bzl
A missing toolkit stops the build here with a message that says what to do.
"""

def _cuda_configure_impl(rctx):
    path = rctx.os.environ.get("CUDA_PATH", "") or "/usr/local/cuda"
    nvcc = rctx.path(path + "/bin/nvcc")
    if not nvcc.exists:
        fail(("cgc: no CUDA toolkit at '%s' (looked for %s). Install CUDA 12.4 or newer " +
              "there, or point CUDA_PATH at the toolkit root (bazel build " +
              "--repo_env=CUDA_PATH=/path/to/cuda).") % (path, nvcc))
    for sub in ["include", "lib64"]:
        if not rctx.path(path + "/" + sub).exists:
            fail("cgc: CUDA toolkit at '%s' has no %s/ directory" % (path, sub))
    rctx.symlink(path + "/include", "include")
    rctx.symlink(path + "/lib64", "lib64")
    rctx.file("defs.bzl", "CUDA_PATH = \"%s\"\nNVCC = \"%s\"\n" % (path, nvcc))
    rctx.file("BUILD.bazel", """\
package(default_visibility = ["//visibility:public"])

exports_files(["defs.bzl"])

cc_library(
    name = "cuda_headers",
    hdrs = glob(["include/*.h", "include/crt/*.h", "include/crt/*.hpp"]),
    includes = ["include"],
)

cc_import(
    name = "cudart_static_lib",
    static_library = "lib64/libcudart_static.a",
)

cc_library(
    name = "cudart",
    linkopts = ["-ldl", "-lpthread", "-lrt"],
    deps = [":cuda_headers", ":cudart_static_lib"],
)
""")

cuda_configure = repository_rule(
    implementation = _cuda_configure_impl,
    environ = ["CUDA_PATH"],
    local = True,
)
