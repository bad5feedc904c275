# SPDX-License-Identifier: BSD-3-Clause
"""The test stanzas tests/**/BUILD.bazel repeat, as one short call each.

Every test is a cgc_test (cuda.bzl: Criterion, static link, --verbose); these
macros only fill in what the packages wrote again and again:

  cgc_gpu_test(name, ...)    GPU test (tag gpu): <name>.c and <stem>_kernels.cu
  cgc_debug_test(name, ...)  the same in a debug build (CG_DEBUG=1, 0.3 s waits)
  cgc_nvcc_test(name, ...)   host test that runs nvcc/gcc outside the sandbox
                             (tag local) on the public headers in its runfiles

<stem> is the name without its "_test" suffix: dsmem_test's kernels are
dsmem_kernels.cu unless `kernels` names others.
"""

load(":cuda.bzl", "cgc_test")

# The debug tests' wait bound: a misuse must report and trap well inside a
# test's timeout, and a correct wait in these kernels never takes this long.
DEBUG_WAIT_TIMEOUT_NS = "300000000ull"  # 0.3 s

def _sources(name, srcs, kernels):
    stem = name[:-len("_test")] if name.endswith("_test") else name
    return (srcs if srcs != None else [name + ".c"]), (kernels if kernels != None else [stem + "_kernels.cu"])

def cgc_gpu_test(name, deps = [], size = "small", srcs = None, kernels = None, copts = [], args = [], data = []):
    """A GPU Criterion test (tag gpu; skips with the reason where there is no
    sm_90 device): srcs default to [<name>.c], kernels to [<stem>_kernels.cu]."""
    srcs, kernels = _sources(name, srcs, kernels)
    cgc_test(name = name, srcs = srcs, kernels = kernels, deps = deps, data = data, copts = copts, args = args, size = size, gpu = True)

def cgc_debug_test(name, deps = [], size = "small", srcs = None, kernels = None, wait_timeout_ns = DEBUG_WAIT_TIMEOUT_NS, one_at_a_time = False):
    """cgc_gpu_test with the kernels and the test built with CG_DEBUG=1 and,
    unless wait_timeout_ns is None, a bounded wait of that many ns: misuse
    reports and traps instead of hanging. one_at_a_time passes --jobs=1 (one
    trapping kernel at a time: see tests/cg:debug_test)."""
    copts = ["-DCG_DEBUG=1"] + (["-DCG_DEBUG_WAIT_TIMEOUT_NS=" + wait_timeout_ns] if wait_timeout_ns else [])
    args = ["--jobs=1"] if one_at_a_time else []
    cgc_gpu_test(name = name, deps = deps, size = size, srcs = srcs, kernels = kernels, copts = copts, args = args)

def cgc_nvcc_test(name, data = [], deps = [], size = "medium", srcs = None, headers = "//:public_headers"):
    """A host test (no GPU: CI runs it) that runs the toolkit's nvcc (or gcc,
    python3) itself on files of its runfiles: the public headers (headers) and
    data. Tagged "local" because those tools run outside Bazel's sandbox.
    size "medium": each run compiles whole translation units."""
    cgc_test(name = name, srcs = srcs if srcs != None else [name + ".c"], data = data + ([headers] if headers else []), deps = deps, size = size, tags = ["local"])
