#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# tools/ptx/ptxdiff.sh OLD NEW — is the PTX of every kernel in the tree the same
# at two commits? Compiles every .cu under tests/, examples/ and bench/ that
# exists at both commits to PTX (nvcc -ptx -arch=compute_90a -O3, release and
# CG_DEBUG=1; -I. for the tests' "cg/cg.h", -Iinclude for the examples'
# <cgc/cg/cg.h>) in a temporary worktree of each, normalizes away what a
# reorganization may change (comments and line info, the names of mangled
# internal symbols, the order of top-level definitions) and diffs the rest.
# Prints "PTX identical: N files x 2 builds" or the differences; exit 1 if any.
#   PTXDIFF_ONLY=re    only the .cu files whose path matches the extended regex
#   PTXDIFF_JOBS=n     compiles at once (default: the machine's cores)
#   PTXDIFF_CACHE=dir  where each commit's PTX is kept, so a second comparison
#                      against the same commit compiles only the other side
#                      (default ~/.cache/cgc-ptxdiff; keyed by commit id)
set -euo pipefail
old=${1:?usage: tools/ptx/ptxdiff.sh OLD NEW}
new=${2:?usage: tools/ptx/ptxdiff.sh OLD NEW}
cd "$(dirname "$0")/../.."
nvcc="${CUDA_PATH:-/usr/local/cuda}/bin/nvcc"
work=$(mktemp -d)
trap 'git worktree remove --force "$work/old" >/dev/null 2>&1; git worktree remove --force "$work/new" >/dev/null 2>&1; rm -rf "$work"' EXIT
git worktree add -q --detach "$work/old" "$old"
git worktree add -q --detach "$work/new" "$new"
only=${PTXDIFF_ONLY:-.}
cache=${PTXDIFF_CACHE:-$HOME/.cache/cgc-ptxdiff}
nvcc_id=$("$nvcc" --version | tail -n 1 | tr -c 'A-Za-z0-9.\n' _)
old_id=$(git rev-parse "$old^{commit}")
new_id=$(git rev-parse "$new^{commit}")

# One PTX file -> its normalized form: top-level definitions, each with its
# mangled names replaced by placeholders in order of appearance, sorted;
# internal names of the old convention (cg__x) spelled as the new (cg_x_).
normalize() {
    python3 - "$1" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
# Internal names renamed by the layering (cg__x -> cg_x_, CG__X -> CG_X_).
text = re.sub(r'\b(cg|CG)__([A-Za-z0-9_]+)', lambda m: m.group(1) + '_' + m.group(2) + '_', text)
lines = [l for l in text.split('\n')
         if not l.lstrip().startswith('//') and not l.lstrip().startswith('.loc')
         and not l.lstrip().startswith('.file')]
text = '\n'.join(lines)
# Split into top-level chunks at blank lines outside braces.
chunks, cur, depth = [], [], 0
for l in text.split('\n'):
    depth += l.count('{') - l.count('}')
    cur.append(l)
    if depth == 0 and l.strip() == '':
        chunks.append('\n'.join(cur).strip()); cur = []
chunks.append('\n'.join(cur).strip())
names = {}
def canon(m):
    return names.setdefault(m.group(0), '_Z@%d' % len(names))
out = []
for c in chunks:
    if not c:
        continue
    names.clear()
    out.append(re.sub(r'\b_Z[A-Za-z0-9_]+', canon, c))
print('\n\n'.join(sorted(out)))
PY
}

# Compile what the cache does not hold, PTXDIFF_JOBS at a time (default: the
# machine's cores), then compare file by file.
compile_one() { # tree commit-id cu debug key (key: the file's path at NEW)
    local tree=$1 id=$2 cu=$3 debug=$4 key=$5
    local out="$work/ptx/$tree/$(echo "$key" | tr / _).$debug.ptx"
    local kept="$cache/$nvcc_id/$id/$(echo "$cu" | tr / _).$debug.ptx.norm"
    if [ -f "$kept" ]; then
        cp "$kept" "$out.norm"
        return
    fi
    # A failed compile (or one killed) is compared but never kept.
    if (cd "$work/$tree" && "$nvcc" -ptx -arch=compute_90a -O3 -std=c++17 -DCG_DEBUG=$debug -I. -Iinclude \
        "$cu" -o "$out" 2>/dev/null); then
        normalize "$out" >"$out.norm"
        mkdir -p "$(dirname "$kept")" && cp "$out.norm" "$kept.$$" && mv "$kept.$$" "$kept"
    else
        echo "compile failed: $cu (CG_DEBUG=$debug)" >"$out.norm"
    fi
}
export -f compile_one normalize
export work cache nvcc nvcc_id

files=0
diffs=0
unbuilt="" # builds that compile at neither commit (a file meant for one build only): compared as equal
for tree in old new; do mkdir -p "$work/ptx/$tree"; done
# A file moved between the commits (tools/ci/relayout.py) is compared with
# itself at its old path.
declare -A from=()
while IFS=$'\t' read -r _ a b; do
    from[$b]=$a
done < <(git diff -M --name-status --diff-filter=R "$old_id" "$new_id" -- '*.cu')
list=()
while IFS= read -r cu; do
    was=${from[$cu]:-$cu}
    [ -f "$work/old/$was" ] || continue
    [[ "$cu" =~ $only ]] || continue
    list+=("$cu")
done < <(cd "$work/new" && git ls-files 'tests/*.cu' 'examples/*.cu' 'bench/*.cu' | sort)
for cu in "${list[@]}"; do
    for debug in 0 1; do
        printf '%s %s %s %s %s\n' old "$old_id" "${from[$cu]:-$cu}" "$debug" "$cu" new "$new_id" "$cu" "$debug" "$cu"
    done
done | xargs -P "${PTXDIFF_JOBS:-$(nproc)}" -L 1 bash -c 'compile_one "$@"' _
for cu in "${list[@]}"; do
    files=$((files + 1))
    for debug in 0 1; do
        a="$work/ptx/old/$(echo "$cu" | tr / _).$debug.ptx.norm"
        b="$work/ptx/new/$(echo "$cu" | tr / _).$debug.ptx.norm"
        if grep -q '^compile failed' "$a" && grep -q '^compile failed' "$b"; then
            unbuilt="$unbuilt $cu:$debug"
            continue # the same at both (a moved file's message names its own path)
        fi
        if ! cmp -s "$a" "$b"; then
            diffs=$((diffs + 1))
            echo "=== $cu (CG_DEBUG=$debug) differs:"
            diff "$a" "$b" | head -n 40 || true
        fi
    done
done

if [ -n "$unbuilt" ]; then
    echo "built at neither commit (file:CG_DEBUG, not compared):$unbuilt"
fi
if [ "$diffs" -eq 0 ]; then
    echo "PTX identical: $files files x 2 builds (release, CG_DEBUG=1), $old vs $new"
else
    echo "PTX differs in $diffs of $((files * 2)) builds, $old vs $new"
    exit 1
fi
