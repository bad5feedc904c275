# SPDX-License-Identifier: BSD-3-Clause
"""CUDA for Bazel 4.2.3, the project's own: nvcc compiles .cu files to objects or
PTX, and the objects link into ordinary cc_* targets.

  cuda_library(name, srcs, hdrs, deps, copts)   .cu -> objects -> cc_library
  cuda_binary(name, srcs, deps, copts)          .cu and .c -> static cc_binary
  cuda_ptx(name, src, deps, copts)              .cu -> <name>.ptx (for PTX checks)
  cgc_test(name, srcs, kernels, deps, gpu, ...) Criterion test (+ nvcc kernels)
  cgc_header_check(name, hdrs, deps)            each header compiles alone

Target architecture: sm_90a unless `--define=cuda_arch=sm_XY` names another, or a
comma-separated list (machine code for each, PTX for the newest). A
`compute_XY` entry gives PTX only for that target (`--define=cuda_arch=compute_80`:
-gencode=arch=compute_80,code=compute_80, which the driver JIT-compiles on any
GPU from sm_80 up).
Debug device checks (CG_DEBUG=1): `--config=cgdebug` or a target's copts.
No -rdc: every kernel and the device code it calls live in one .cu.
"""

load("@local_cuda//:defs.bzl", "NVCC")
load("//tools/bazel:copts.bzl", "CGC_C_COPTS", "CGC_NVCC_FLAGS")

_DEFAULT_ARCH = "sm_90a"

def _arch_digits(a):
    # "sm_90a" -> "90a", "compute_80" -> "80".
    return a[len("compute_"):] if a.startswith("compute_") else a[len("sm_"):]

def _arch_list(arch):
    # "sm_90a" or a comma-separated list "sm_90a,sm_100a"; compute_XY: PTX only.
    archs = [a.strip() for a in arch.split(",") if a.strip()]
    for a in archs:
        if not (a.startswith("sm_") or a.startswith("compute_")) or not _arch_digits(a)[0:2].isdigit():
            fail("cuda_arch must list targets like sm_90a, sm_80 or compute_80 (comma-separated), got '%s'" % arch)
    if not archs:
        fail("cuda_arch is empty")
    return archs

def _arch_number(a):
    digits = ""
    for c in _arch_digits(a).elems():
        if c.isdigit():
            digits += c
    return int(digits)

def _gencode(arch):
    # "sm_90a" -> -gencode=arch=compute_90a,code=sm_90a: real machine code for
    # the named target (Hopper-only instructions need the "a" variant). A list
    # gives machine code for each and, for the newest, PTX too, so the binary
    # also runs (JIT-compiled) on GPUs newer than any listed.
    # A compute_XY entry: PTX only, -gencode=arch=compute_XY,code=compute_XY.
    archs = _arch_list(arch)
    flags = []
    for a in archs:
        code = "compute_" + _arch_digits(a) if a.startswith("compute_") else a
        flags.append("-gencode=arch=compute_%s,code=%s" % (_arch_digits(a), code))
    machine = [a for a in archs if a.startswith("sm_")]
    if len(machine) > 1:
        newest = machine[0]
        for a in machine:
            if _arch_number(a) > _arch_number(newest):
                newest = a
        ptx = "-gencode=arch=compute_%s,code=compute_%s" % (_arch_digits(newest), _arch_digits(newest))
        if ptx not in flags:
            flags.append(ptx)
    return flags

def _ptx_arch(arch):
    # PTX checks read one file: the first target listed.
    return "-arch=compute_%s" % _arch_digits(_arch_list(arch)[0])

def _compile_flags(ctx, ccs):
    arch = ctx.var.get("cuda_arch", _DEFAULT_ARCH)
    # cgc's warning policy (warnings are errors) holds for cgc's own code only.
    own = getattr(ctx.attr, "own", True)
    flags = [f for f in CGC_NVCC_FLAGS if own or not f.startswith("-Werror")]
    # --config=cgdebug turns on device debug checks in objects; PTX probes
    # pin the release instruction forms, so they opt in only by their copts.
    if ctx.var.get("cg_debug", "0") == "1" and not getattr(ctx.attr, "ptx", False):
        flags.append("-DCG_DEBUG=1")
    search = ["-I.", "-I" + ctx.bin_dir.path]
    # nvcc has no -iquote, so quote includes become -I. Bazel lists each
    # repository's root among them; cgc's root (external/cgc) is left out for
    # other projects' code, whose path gets cgc's headers only under cgc/
    # (//:cgc), so generic names like barrier/barrier.h do not shadow theirs.
    cgc_root = Label("//:BUILD.bazel").workspace_root
    hidden = [] if own or not cgc_root else [cgc_root, ctx.bin_dir.path + "/" + cgc_root, ctx.genfiles_dir.path + "/" + cgc_root]
    for cc in ccs:
        search += ["-D" + d for d in cc.defines.to_list()]
        search += ["-I" + i for i in cc.includes.to_list() + cc.quote_includes.to_list() if i not in hidden]
        search += ["-isystem=" + i for i in cc.system_includes.to_list()]
    seen = {}
    for f in search:
        if f not in seen:
            seen[f] = True
            flags.append(f)
    return arch, flags

def _cuda_compile_impl(ctx):
    ccs = [d[CcInfo].compilation_context for d in ctx.attr.deps if CcInfo in d]
    inputs = depset(ctx.files.srcs + ctx.files.hdrs, transitive = [c.headers for c in ccs])
    arch, flags = _compile_flags(ctx, ccs)
    outs = []
    for src in ctx.files.srcs:
        stem = src.basename[:-len(src.extension) - 1]
        if ctx.attr.ptx:
            out = ctx.actions.declare_file(ctx.attr.out_stem + ".ptx")
            mode = ["-ptx", _ptx_arch(arch)]
        else:
            out = ctx.actions.declare_file("_cuda_objs/%s/%s.o" % (ctx.label.name, stem))
            mode = ["-c"] + _gencode(arch) + ["-Xcompiler", "-fPIC"]
        args = mode + flags + ctx.attr.copts + [src.path, "-o", out.path]
        ctx.actions.run(
            executable = NVCC,
            arguments = args,
            inputs = inputs,
            outputs = [out],
            mnemonic = "Nvcc",
            progress_message = "nvcc %s (%s)" % (src.short_path, arch),
            use_default_shell_env = True,
        )
        outs.append(out)
    # PTX files are read by tests at run time; objects are only linked.
    runfiles = ctx.runfiles(files = outs) if ctx.attr.ptx else None
    return [DefaultInfo(files = depset(outs), runfiles = runfiles)]

_cuda_compile = rule(
    implementation = _cuda_compile_impl,
    attrs = {
        "srcs": attr.label_list(allow_files = [".cu"]),
        "hdrs": attr.label_list(allow_files = [".h", ".cuh"]),
        "deps": attr.label_list(providers = [CcInfo]),
        "copts": attr.string_list(),
        "ptx": attr.bool(default = False),
        "out_stem": attr.string(),
        "own": attr.bool(default = True),
    },
)

def _is_cgc_package():
    # True for a package of cgc itself, whether cgc is the main workspace or
    # an external one (@cgc); false for a package of a project that uses
    # cgc's macros. A Label in this file names cgc's repository.
    repo = native.repository_name()
    return repo == "@cgc" or (repo == "@" and Label("//:BUILD.bazel").workspace_name == "")

def cuda_library(name, srcs, hdrs = [], deps = [], copts = [], visibility = None, testonly = False, alwayslink = False):
    """A cc_library whose .cu sources nvcc compiles; links static cudart."""
    all_deps = deps + ["@local_cuda//:cuda_headers"]
    _cuda_compile(
        name = name + "_nvcc",
        srcs = srcs,
        hdrs = hdrs,
        deps = all_deps,
        copts = copts,
        own = _is_cgc_package(),
        testonly = testonly,
        visibility = ["//visibility:private"],
    )
    native.cc_library(
        name = name,
        srcs = [":" + name + "_nvcc"],
        hdrs = hdrs,
        deps = deps + ["@local_cuda//:cudart"],
        # Objects only: no shared library, so binaries can travel alone.
        linkstatic = True,
        alwayslink = alwayslink,
        visibility = visibility,
        testonly = testonly,
    )

def cuda_ptx(name, src, deps = [], copts = [], visibility = None, testonly = True):
    """Compiles one .cu to <name>.ptx in this package, for instruction checks."""
    _cuda_compile(
        name = name,
        srcs = [src],
        deps = deps + ["@local_cuda//:cuda_headers"],
        copts = copts,
        own = _is_cgc_package(),
        ptx = True,
        out_stem = name,
        visibility = visibility,
        testonly = testonly,
    )

def cuda_binary(name, srcs, deps = [], copts = [], visibility = None, args = [], data = [], testonly = False):
    """A static cc_binary from .cu (nvcc) and .c/.cc (host compiler) sources."""
    cu = [s for s in srcs if s.endswith(".cu")]
    host = [s for s in srcs if not s.endswith(".cu")]
    lib_deps = []
    if cu:
        cuda_library(
            name = name + "_cu",
            srcs = cu,
            deps = deps,
            copts = copts,
            testonly = testonly,
            visibility = ["//visibility:private"],
        )
        lib_deps = [":" + name + "_cu"]
    native.cc_binary(
        name = name,
        srcs = host,
        deps = deps + lib_deps + ["@local_cuda//:cudart"],
        copts = CGC_C_COPTS if _is_cgc_package() else [],
        linkstatic = True,
        visibility = visibility,
        args = args,
        data = data,
        testonly = testonly,
    )

def cgc_test(name, srcs, kernels = [], deps = [], data = [], copts = [], gpu = False, size = "small", tags = [], args = [], timeout = None, shard_count = None):
    """A Criterion test in C, with optional nvcc-compiled kernels.

    GPU tests get the tag "gpu" (tools/gpu/bundle.sh selects them by it); they
    skip with a reason where no sm_90 device exists (tests/support/cgtest.h).
    """
    kernel_deps = []
    if kernels:
        cuda_library(
            name = name + "_kernels",
            srcs = kernels,
            deps = deps + [Label("//tests/support")],
            copts = copts,
            testonly = True,
            visibility = ["//visibility:private"],
        )
        kernel_deps = [":" + name + "_kernels"]
    native.cc_test(
        name = name,
        srcs = srcs,
        deps = deps + kernel_deps + [Label("//tests/support")],
        data = data,
        copts = CGC_C_COPTS,
        size = size,
        timeout = timeout,
        tags = tags + (["gpu"] if gpu else []),
        # --verbose prints every test's result line, skip reasons included.
        args = ["--verbose"] + args,
        shard_count = shard_count,
        # Static links so the binary runs on the GPU machine with only
        # Criterion's shared library beside it.
        linkstatic = True,
    )

def _header_check_impl(ctx):
    ccs = [d[CcInfo].compilation_context for d in ctx.attr.deps if CcInfo in d]
    inputs = depset(ctx.files.hdrs, transitive = [c.headers for c in ccs])
    arch, flags = _compile_flags(ctx, ccs)
    outs = []
    for hdr in ctx.files.hdrs:
        path = hdr.short_path
        stem = path.replace("/", "_").replace(".", "_")
        cu = ctx.actions.declare_file("_hdrcheck/%s.cu" % stem)
        c = ctx.actions.declare_file("_hdrcheck/%s.c" % stem)
        include = "#include \"%s\"\n#include \"%s\" /* twice: the guard must hold */\n" % (path, path)
        ctx.actions.write(cu, include)
        ctx.actions.write(c, include)
        stamp = ctx.actions.declare_file("_hdrcheck/%s.ok" % stem)
        # -Wshadow: a user's -Wshadow -Werror build must not trip on cgc.
        nvcc_cmd = "%s -c %s %s -Xcompiler -Wshadow %s -o /dev/null" % (
            NVCC,
            " ".join(_gencode(arch)),
            " ".join(flags),
            cu.path,
        )
        gcc_cmd = "gcc -std=c11 -Wall -Wextra -Wshadow -pedantic -Werror -fsyntax-only %s %s" % (
            " ".join([f.replace("-isystem=", "-isystem ") for f in flags if f.startswith("-I") or f.startswith("-isystem=") or f.startswith("-D")]),
            c.path,
        )
        ctx.actions.run_shell(
            command = "set -e; %s; %s; echo '%s: nvcc (%s, warnings are errors) ok; gcc -std=c11 -pedantic -Werror ok' > %s" % (
                nvcc_cmd,
                gcc_cmd,
                path,
                arch,
                stamp.path,
            ),
            inputs = depset([cu, c], transitive = [inputs]),
            outputs = [stamp],
            mnemonic = "HeaderCheck",
            progress_message = "header check %s" % path,
            use_default_shell_env = True,
        )
        outs.append(stamp)
    # One line per header: "<header> <stamp>", runfiles-relative, for the test.
    manifest = ctx.actions.declare_file(ctx.label.name + ".manifest")
    ctx.actions.write(manifest, "".join([
        "%s %s\n" % (h.short_path, s.short_path)
        for h, s in zip(ctx.files.hdrs, outs)
    ]))
    files = outs + [manifest]
    return [DefaultInfo(files = depset(files), runfiles = ctx.runfiles(files = files))]

cgc_header_check = rule(
    implementation = _header_check_impl,
    doc = "Each header compiles alone: with nvcc (device and host pass, warnings as errors) and as C11 with gcc -pedantic -Werror.",
    attrs = {
        "hdrs": attr.label_list(allow_files = [".h"]),
        "deps": attr.label_list(providers = [CcInfo]),
    },
)

def cgc_ptx_test(name, srcs, probes, deps, debug_probes = {}, test_deps = [], data = [], size = "small"):
    """A host test (no GPU: CI runs it) of what kernels compile to.

    probes maps a target name to the .cu of its probe kernels (extern "C"
    __global__), built to <name>.ptx with CG_DEBUG off whatever the build's
    config (a --config=cgdebug run cannot turn a release probe into a debug
    one); debug_probes the same with CG_DEBUG=1. All are the test's data; its
    srcs read them with tests/support/ptxcheck.h. deps: what the probes
    include; test_deps: what the test itself links besides tests/support;
    data: more files the test reads (an expectations table, see
    cgt_check_expectations in tests/support/ptxcheck.h).
    """
    data = list(data)
    for probe, src in probes.items():
        cuda_ptx(name = probe, src = src, copts = ["-UCG_DEBUG", "-DCG_DEBUG=0"], deps = deps)
        data.append(":" + probe)
    for probe, src in debug_probes.items():
        cuda_ptx(name = probe, src = src, copts = ["-DCG_DEBUG=1"], deps = deps)
        data.append(":" + probe)
    cgc_test(name = name, srcs = srcs, data = data, deps = test_deps, size = size)
