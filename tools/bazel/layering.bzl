# SPDX-License-Identifier: BSD-3-Clause
"""The sources a package shows tests/build/layering."""

def layering_sources():
    """Every C/CUDA source of the package (and of its folders that are no
    package), as :layering_sources, for tests/build/layering's check that no file
    outside a library folder uses that folder's internal (`_`) names. A new
    package of bench/, tests/ or examples/ calls it and is listed in
    tests/build/layering/BUILD.bazel."""
    native.filegroup(
        name = "layering_sources",
        srcs = native.glob(["**/*.c", "**/*.h", "**/*.cu", "**/*.cuh"]),
        visibility = ["//tests/build/layering:__pkg__"],
    )
