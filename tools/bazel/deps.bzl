# SPDX-License-Identifier: BSD-3-Clause
"""cgc_dependencies(): what a workspace that uses cgc as @cgc needs, offline.

In the using project's WORKSPACE:

    local_repository(name = "cgc", path = "/path/to/cgc")
    load("@cgc//tools/bazel:deps.bzl", "cgc_dependencies")
    cgc_dependencies()

It declares, unless the workspace already has them, the four repositories
Debian's Bazel 4.2.3 asks for by name (rules_cc and remote_coverage_tools
from cgc's third_party/, rules_java and platforms from the Debian packages
tools/setup.sh installs) and @local_cuda (the CUDA toolkit at $CUDA_PATH or
/usr/local/cuda). Then depend on "@cgc//:cgc" and, for kernels, load
cuda_library / cuda_binary from "@cgc//tools/bazel:cuda.bzl".
"""

load("//tools/bazel:cuda_configure.bzl", "cuda_configure")

def _cgc_vendored_impl(rctx):
    # A directory of cgc's own tree, found from a file in it, as a repository.
    src = rctx.path(rctx.attr.marker).dirname
    for child in src.readdir():
        rctx.symlink(child, child.basename)

_cgc_vendored = repository_rule(
    implementation = _cgc_vendored_impl,
    attrs = {"marker": attr.label(allow_single_file = True)},
    local = True,
)

def cgc_dependencies():
    existing = native.existing_rules()
    if "rules_cc" not in existing:
        _cgc_vendored(name = "rules_cc", marker = Label("//third_party/rules_cc:WORKSPACE"))
    if "remote_coverage_tools" not in existing:
        _cgc_vendored(name = "remote_coverage_tools", marker = Label("//third_party/remote_coverage_tools:WORKSPACE"))
    if "rules_java" not in existing:
        native.local_repository(name = "rules_java", path = "/usr/share/bazel/rules/java")
    if "platforms" not in existing:
        native.local_repository(name = "platforms", path = "/usr/share/bazel/tools/platforms")
    if "local_cuda" not in existing:
        cuda_configure(name = "local_cuda")
