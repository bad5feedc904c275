#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The API reference is complete and current, no GPU needed:
#  1. tools/ci/gen_reference.py --check: docs/reference/api.md and ptx_forms.md
#     are what the headers give (regenerate with tools/ci/gen_reference.py), and
#     every public name (from nvcc -E of cg/cg.h: every function not ending in
#     `_`, table-stamped ones included, and the generic-call macros) has a
#     contract comment in its header;
#  2. Doxygen (Doxyfile: the headers with their macros expanded, no graphviz)
#     builds the HTML reference into build/reference/html, and its XML holds
#     every one of those names, documented.
# Exit 0 when all of it holds.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 2
fail() { echo "reference check: FAILED: $1"; exit 1; }

python3 tools/ci/gen_reference.py --check --doxygen build/reference || fail "the generated pages (above)"
command -v doxygen >/dev/null || fail "no doxygen (tools/setup.sh installs it)"
rm -rf build/reference/html build/reference/xml
doxygen Doxyfile >build/reference/doxygen.log 2>&1 || { tail -n 20 build/reference/doxygen.log; fail "doxygen"; }
[ -f build/reference/html/index.html ] || fail "doxygen wrote no build/reference/html/index.html"

python3 - build/reference/xml <<'PY' || fail "names missing or undocumented in Doxygen's output (above)"
import os, subprocess, sys
import xml.etree.ElementTree as ET

xmldir = sys.argv[1]
names = subprocess.run([sys.executable, "tools/ci/gen_reference.py", "--names"], capture_output=True, text=True,
                       check=True).stdout.split()
seen, documented = set(), set()
for fn in os.listdir(xmldir):
    if not fn.endswith(".xml") or fn == "index.xml":
        continue
    for m in ET.parse(os.path.join(xmldir, fn)).getroot().iter("memberdef"):
        if m.get("kind") not in ("function", "define"):
            continue
        name = m.findtext("name")
        seen.add(name)
        text = "".join(m.find("detaileddescription").itertext()) + "".join(m.find("briefdescription").itertext())
        if text.strip():
            documented.add(name)
bad = 0
for n in names:
    if n not in seen:
        print("reference: %s is public (nvcc -E) but Doxygen found no such function or macro" % n)
        bad += 1
    elif n not in documented:
        print("reference: %s has no documentation in Doxygen's output" % n)
        bad += 1
print("reference: %d public names, %d in Doxygen's XML with their contract" % (len(names), len(names) - bad))
sys.exit(1 if bad else 0)
PY
echo "reference check: pages current, every public name documented, HTML in build/reference/html"
