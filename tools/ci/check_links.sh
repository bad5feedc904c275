#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Links and file references in the documentation resolve, no GPU needed.
# Over README.md, CHANGELOG.md, bench/README.md, examples/README.md and
# docs/**/*.md (the generated reference pages included):
#  - a Markdown link or an <img src="..."> to a file ([x](docs/PORTING.md), [x](../../cg/cg.h#L12))
#    names a file or folder that exists, and a #anchor one of its headings;
#  - a path in backquotes that starts with one of the repository's folders
#    (`bench/tools/bench_chart.py`, `examples/python/cupy_tile_stats.py`) exists,
#    as a file, a folder or a Bazel target (`bench/workloads/wl_gemm`);
#    (not in CHANGELOG.md, whose paths are history);
#  - a bare script or page name in backquotes (`cupy_tile_stats.py`) is a
#    file somewhere in the repository, unless the text around it is a user's
#    file (listed below).
#  - docs/README.md lists every page of docs/ and docs/design/.
# Exit 0 when every reference resolves; else one line per broken one.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
python3 - <<'PY'
import os, re, subprocess, sys

files = ["README.md", "CHANGELOG.md", "bench/README.md", "examples/README.md"]
for d, _, fs in os.walk("docs"):
    files += [os.path.join(d, f) for f in sorted(fs) if f.endswith(".md")]
files = [f for f in files if os.path.exists(f)]
tracked = subprocess.run(["git", "ls-files"], capture_output=True, text=True).stdout.split()
basenames = {os.path.basename(t) for t in tracked}
# Headers of the CUDA toolkit (`cooperative_groups.h`, `cuda.h`, CG's `scan.h`) are references too.
cuda = os.environ.get("CUDA_PATH") or "/usr/local/cuda"
for d, _, fs in os.walk(os.path.join(cuda, "include")):
    basenames.update(fs)
top = {t.split("/")[0] for t in tracked if "/" in t}
# Files a user writes (the README's quick start, the examples' snippets), not the repository's.
USER_FILES = {"kernel.cu", "main.c", "app.cu", "ranks.cu", "unguarded.cu", "fat.cu", "kernel.o", "app",
              "CMakeLists.txt", "run.py", "cgc_torch.cu", "tile_stats.cuh", "WORKSPACE", "BUILD.bazel",
              "summary.txt", "bench.csv", "bench.json", "bench.log", "workloads.csv", "tours.log",
              "selftest.log", "sanitizers.log", "test.xml", "test.log", "contracts.h", "index.html"}

def slug(h):
    h = re.sub(r"[`*_\[\]]|\(.*?\)(?=\s|$)", lambda m: "" if m.group(0) in "`*[]" else m.group(0), h)
    h = h.strip().lower()
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")

_anchors = {}
def anchors(path):
    if path not in _anchors:
        found = set()
        in_code = False
        for l in open(path, encoding="utf-8"):
            if l.startswith("```"):
                in_code = not in_code
            elif not in_code and l.startswith("#"):
                base = slug(l.lstrip("#").strip())
                n = 0
                while (base if n == 0 else "%s-%d" % (base, n)) in found:
                    n += 1
                found.add(base if n == 0 else "%s-%d" % (base, n))
        _anchors[path] = found
    return _anchors[path]

bad = 0
def report(f, n, msg):
    global bad
    bad += 1
    print("%s:%d: %s" % (f, n, msg))

for f in files:
    text = open(f, encoding="utf-8").read()
    in_code = False
    old_table = False  # a table of renamed paths: its first column names what no longer exists
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            in_code = not in_code
            continue
        if in_code:
            continue
        if not line.strip():
            old_table = False
        if re.match(r"^\|\s*old ", line):
            old_table = True
        if old_table:
            line = re.sub(r"^\|[^|]*\|", "|", line)
        for m in re.finditer(r"\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"", line):
            target = m.group(1) or m.group(2)
            if re.match(r"^[a-z]+:", target):
                continue
            path, _, frag = target.partition("#")
            full = os.path.normpath(os.path.join(os.path.dirname(f), path)) if path else f
            if not os.path.exists(full):
                report(f, n, "link to %s: no such file" % target)
            elif frag and full.endswith(".md") and not frag.startswith("L") and frag not in anchors(full):
                report(f, n, "link to %s: no heading #%s in %s" % (target, frag, full))
        # CHANGELOG.md names files that a release removed or moved: its
        # links are checked, its paths in backquotes are history.
        for m in re.finditer(r"`([^`\s]+)`", "" if f == "CHANGELOG.md" else line):
            tok = m.group(1)
            if any(c in tok for c in "*{}$<>") or "..." in tok or tok.startswith("-"):
                continue
            tok = re.sub(r"(:\d+(-\d+)?|#.*|,)$", "", tok).rstrip("/")
            if "/" in tok:
                if tok.split("/")[0] in top and not tok.startswith("//") and "(" not in tok and ":" not in tok:
                    build = os.path.join(os.path.dirname(tok), "BUILD.bazel")
                    target = os.path.exists(build) and ('name = "%s"' % os.path.basename(tok)) in open(build).read()
                    if not target and not any(os.path.exists(tok + ext) for ext in ("", ".cu", ".c", ".sh", ".py")):
                        report(f, n, "`%s`: no such file or folder" % tok)
            elif re.match(r"^[\w.-]+\.(py|sh|md|cu|cuh|h|c|bzl)$", tok):
                if tok not in basenames and tok not in USER_FILES:
                    report(f, n, "`%s`: no file of that name in the repository" % tok)
# The index: every page of docs/ and docs/design/ is linked from docs/README.md.
index = open("docs/README.md", encoding="utf-8").read() if os.path.exists("docs/README.md") else ""
for d in ("docs", "docs/design"):
    for fn in sorted(os.listdir(d)):
        if fn.endswith(".md") and fn != "README.md":
            rel = os.path.relpath(os.path.join(d, fn), "docs")
            if "](%s)" % rel not in index:
                report("docs/README.md", 1, "does not list %s" % os.path.join(d, fn))
print("link check: %d files, %d broken references" % (len(files), bad))
sys.exit(1 if bad else 0)
PY
