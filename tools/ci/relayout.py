#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""tools/ci/relayout.py — moves tests/, tools/ and the bench's design
experiments into the layout of issue 36 (tests on one axis, tools split by
use, the bench's lab apart from its product), and rewrites every reference to
a moved path in the tracked files: Bazel labels, includes, paths in scripts,
docs, .ci/run, the README, the layering test's package list.

    python3 tools/ci/relayout.py          # move and rewrite (git mv; stages)
    python3 tools/ci/relayout.py --check  # exit 1 if anything is left to move

Repeatable: it moves whole folders (a file added later to an old folder moves
too, beside the ones moved before) and file patterns, and a second run on a
relaid tree does nothing. Run it after merging a branch that still wrote the
old places, then `bazel test //...`.

The table below is the one place the mapping is written. A folder row moves
everything under the folder; a pattern row (a regular expression over a
tracked file's path) moves each file it matches. References are rewritten
where the old path stands as a path of its own: at the start of a word, after
`//` (labels), or after a build-output or runfiles root (`bazel-bin/`,
`bazel-testlogs/`, `.runfiles/cgc/`); never inside a longer path
(`bench/tools/x` is not `tools/x`). CHANGELOG.md keeps the paths of its time.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# --- the layout: old folder -> new folder ------------------------------------
# tests/<library folder>/ for what tests a library folder; tests/build/ for
# what checks the build (headers, layering, NVRTC, porting, SASS, debug build,
# tools, consumers, the toolchain smoke test); tests/stress/ for adversarial
# schedules, contracts and cross-CTA handoffs; tests/examples/ for the
# examples; tests/support/ stays.
FOLDERS = [
    ("tests/adversarial", "tests/stress/adversarial"),
    ("tests/contracts", "tests/stress/contracts"),
    ("tests/handoff", "tests/stress/handoff"),
    ("tests/host", "tests/base/status"),
    ("tests/pipeline", "tests/async/pipeline"),
    ("tests/tensor", "tests/async/tensor"),
    ("tests/collectives", "tests/cg/collectives"),
    ("tests/generic", "tests/cg/generic"),
    ("tests/groupapi", "tests/cg/groupapi"),
    ("tests/wide_tile", "tests/cg/wide_tile"),
    ("tests/consumer", "tests/build/consumer"),
    ("tests/debugbuild", "tests/build/debugbuild"),
    ("tests/headers", "tests/build/headers"),
    ("tests/layering", "tests/build/layering"),
    ("tests/nvrtc", "tests/build/nvrtc"),
    ("tests/porting", "tests/build/porting"),
    ("tests/sass", "tests/build/sass"),
    ("tests/smoke", "tests/build/smoke"),
    ("tests/tools", "tests/build/tools"),
    ("tests/python", "tests/examples/python"),
    ("tools/compile_time", "tools/ci/compile_time"),
]

# old path (regular expression, whole path) -> new path (its replacement).
# Order matters: the first row that matches a file moves it.
PATTERNS = [
    # bench tooling beside the bench
    (r"tools/(bench_chart\.py|bench_compare\.py|check_chart\.sh)", r"bench/tools/\1"),
    # PTX tooling with the generator
    (r"tools/(ptxdiff\.sh|check_ptx_gen\.sh)", r"tools/ptx/\1"),
    # CI checks and the source-maintenance scripts they rely on
    (r"tools/(check_\w+\.sh|test_summary\.sh|compile_time\.py|gen_reference\.py|"
     r"mark_sm90_only\.py|relative_includes\.sh)", r"tools/ci/\1"),
    # the bench's design experiments (lab) apart from its product rows
    (r"bench/designs_(\w+\.cuh?)", r"bench/designs/\1"),
]

# Bare names of moved files (package-relative in bench/BUILD.bazel, or named
# without their folder in prose): a design file `designs_x.cu` is `designs/x.cu`.
BARE_NAMES = [
    (r"(?:(?<![A-Za-z0-9_/])|(?<=bench/))designs_([A-Za-z0-9_*]+)", r"designs/\1"),
]

# Paths spelled in pieces (os.path.join) that the path rules cannot see.
LITERALS = [
    ('"tools", "compile_time"', '"tools", "ci", "compile_time"'),
]

# The record of the move (its table of old -> new) and the history keep the
# old paths on purpose.
SKIP_REWRITE = {"CHANGELOG.md", "tools/ci/relayout.py", "tools/ci/relayout_test.py", "docs/design/layout.md"}

# What may stand right before an old path for it to be that path: nothing
# path-like, `//` (a label), or a build-output / runfiles root.
ROOTS = re.compile(r"(?:(?:^|[^\w./-])(?://|@cgc//|bazel-bin/|bazel-testlogs/|bazel-out/[\w-]+/bin/|"
                   r"\$\(pwd\)/|\$ROOT/|\$root/|\$\{ROOT\}/)?|\.runfiles/cgc/)$")


def git(*args, capture=True):
    r = subprocess.run(["git", *args], cwd=ROOT, check=True, text=True,
                       stdout=subprocess.PIPE if capture else None)
    return r.stdout if capture else ""


def tracked():
    return [p for p in git("ls-files", "-z").split("\0") if p]


def plan(files):
    """(old file, new file) for every tracked file a row moves."""
    moves = []
    for f in files:
        new = None
        for old_dir, new_dir in FOLDERS:
            if f.startswith(old_dir + "/"):
                new = new_dir + f[len(old_dir):]
                break
        if new is None:
            for pat, rep in PATTERNS:
                if re.fullmatch(pat, f):
                    new = re.sub(pat, rep, f)
                    break
        if new is not None and new != f:
            moves.append((f, new))
    return moves


def path_rules():
    """(compiled regex, replacement function) for every old path."""
    rules = []
    for old_dir, new_dir in FOLDERS:
        rules.append((re.escape(old_dir), lambda m, n=new_dir: n))
    for pat, rep in PATTERNS:
        rules.append((pat, lambda m, p=pat, r=rep: re.sub(p, r, m.group(0))))
    out = []
    for pat, fn in rules:
        # not followed by more of a name (".md" ends a sentence; ".x" goes on)
        rx = re.compile(r"(?:%s)(?![\w-]|\.[A-Za-z0-9_])" % pat)
        out.append((rx, fn))
    return out


def rewrite_text(text, rules):
    for rx, fn in rules:
        pieces, last = [], 0
        for m in rx.finditer(text):
            before = ("\n" + text[:m.start()])[-41:]
            if not ROOTS.search(before):
                continue
            pieces.append(text[last:m.start()])
            pieces.append(fn(m))
            last = m.end()
        if pieces:
            pieces.append(text[last:])
            text = "".join(pieces)
    return text


def deepen_root(text, levels):
    """A script moved `levels` folders deeper finds the checkout's root one
    `..` / one dirname further up."""
    for _ in range(levels):
        text = re.sub(r'\$\(dirname "\$0"\)/\.\.((?:/\.\.)*)"', r'$(dirname "$0")/../..\1"', text)
        text = text.replace("ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))",
                            "ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))")
    return text


def main(argv):
    os.chdir(ROOT)
    files = tracked()
    moves = plan(files)
    if "--check" in argv:
        for old, new in moves:
            print(f"not relaid: {old} -> {new}")
        return 1 if moves else 0
    for old, new in moves:
        os.makedirs(os.path.dirname(new), exist_ok=True)
        if os.path.exists(new):
            sys.exit(f"relayout: {new} exists and {old} would move onto it")
        git("mv", old, new)
        print(f"moved {old} -> {new}")
    moved_to = {new: old for old, new in moves}
    rules = path_rules()
    changed = 0
    for f in tracked():
        if f in SKIP_REWRITE or not os.path.isfile(f) or os.path.islink(f):
            continue
        try:
            with open(f, encoding="utf-8") as fh:
                text = fh.read()
        except (UnicodeDecodeError, OSError):
            continue
        new_text = rewrite_text(text, rules)
        for old_lit, new_lit in LITERALS:
            new_text = new_text.replace(old_lit, new_lit)
        for pat, rep in BARE_NAMES:
            new_text = re.sub(pat, rep, new_text)
        if f in moved_to:
            depth = f.count("/") - moved_to[f].count("/")
            if depth > 0 and (f.endswith(".sh") or f.endswith(".py")):
                new_text = deepen_root(new_text, depth)
        if new_text != text:
            with open(f, "w", encoding="utf-8") as fh:
                fh.write(new_text)
            changed += 1
    git("add", "-u")
    print(f"relayout: {len(moves)} files moved, {changed} files rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
