# SPDX-License-Identifier: BSD-3-Clause
"""What every library folder's BUILD.bazel has in common (base/ ... cg/).

Each folder is one package whose default visibility is //:__subpackages__:
its targets are internal to cgc unless declared public. What users depend on
is //:cgc, or a folder's public targets: cgc_header_library and
cgc_host_library declare those.

cgc_header_library(): a public cc_library of headers only (device code, or
macros and types shared by host and device). `families` names PTX wrapper
families: each brings its hand header and the one tools/ptx/gen.py writes
(<family>.h, <family>_forms.h). Outside base/ it depends on //base:config
(build config and the arch gate, which every header includes) unasked.

cgc_folder_files(): the folder's two file lists, which //:public_headers and
//:sources gather for the tests that read or compile the library from their
runfiles (layering, NVRTC, header and sm_80 build checks) and //:cgc exports
under the cgc/ prefix.

cgc_host_library(): a folder's part of the host library, plain C built with
cgc's warning flags and linked statically into what depends on it.
"""

load(":copts.bzl", "CGC_C_COPTS")

def cgc_folder_files():
    """Declares :public_headers (every *.h, public) and :sources (every *.h and
    *.c, internal to cgc) in the calling package."""
    native.filegroup(
        name = "public_headers",
        visibility = ["//visibility:public"],
        srcs = native.glob(["*.h"]),
    )
    native.filegroup(
        name = "sources",
        srcs = native.glob(["*.h", "*.c"]),
    )

def cgc_header_library(name, hdrs = [], deps = [], families = []):
    """A public cc_library of headers only: `hdrs`, and <f>.h and <f>_forms.h
    for each f in `families`; `deps`, and //base:config outside base/."""
    config = [] if native.package_name() == "base" else ["//base:config"]
    native.cc_library(
        name = name,
        visibility = ["//visibility:public"],
        hdrs = hdrs + [h for f in families for h in [f + ".h", f + "_forms.h"]],
        deps = config + deps,
    )

def cgc_host_library(name, srcs, hdrs, deps):
    """A public cc_library of host C: srcs compiled with CGC_C_COPTS, linked
    statically."""
    native.cc_library(
        name = name,
        visibility = ["//visibility:public"],
        srcs = srcs,
        hdrs = hdrs,
        copts = CGC_C_COPTS,
        linkstatic = True,
        deps = deps,
    )
