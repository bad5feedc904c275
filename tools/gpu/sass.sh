#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# The SASS of some kernels of a binary, on the GPU machine (cuobjdump is
# there, not on the build machines):
#
#   tools/gpu/sass.sh KERNEL-REGEX BINARY
#
# prints, for every kernel of BINARY whose mangled name matches the extended
# regex KERNEL-REGEX, first a line counting its fence and barrier
# instructions (MEMBAR, FENCE, ERRBAR, CCTL, BAR, SYNCS, RED/ATOM, strong
# loads and stores: what tells a __threadfence() from an acquire/release),
# then its whole SASS. tools/gpu/run.sh calls it for CGC_SASS="BIN:REGEX".
# Exit status: 0 when at least one kernel matched, 1 when none did, 2 when
# cuobjdump failed.
set -uo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 KERNEL-REGEX BINARY" >&2
    exit 2
fi
re=$1
bin=$2
dump=${CUOBJDUMP:-cuobjdump}
command -v "$dump" >/dev/null 2>&1 || dump=/usr/local/cuda/bin/cuobjdump
sass=$(mktemp)
trap 'rm -f "$sass"' EXIT
if ! "$dump" -sass "$bin" >"$sass" 2>&1; then
    echo "sass.sh: $dump -sass $bin failed:"
    head -n 20 "$sass"
    exit 2
fi
# A kernel's SASS runs from its "Function : NAME" line to the next one (or
# the next ELF section header).
awk -v re="$re" '
    function flush() {
        if (name == "") return
        line = ""
        for (k in cnt) line = line " " k "=" cnt[k]
        printf "--- kernel %s\nfence/barrier instructions:%s\n%s\n", name, line == "" ? " none" : line, body
        ++found
        name = ""; body = ""; delete cnt
    }
    /Function : / { flush(); n = $0; sub(/.*Function : /, "", n); if (n ~ re) name = n; next }
    /^[ \t]*(Fatbin|=+|\.+)[ \t]*$/ || /^Fatbin / { flush(); next }
    name != "" {
        body = body $0 "\n"
        # the opcode: the first word after the address comment, predicate dropped
        if (match($0, /\*\/ +(@!?U?P[0-9T] +)?[A-Z][A-Z0-9_.]*/)) {
            op = substr($0, RSTART, RLENGTH); sub(/^\*\/ +/, "", op); sub(/^@!?U?P[0-9T] +/, "", op)
            if (op ~ /^(MEMBAR|FENCE|ERRBAR|CCTL|BAR|SYNCS|CGAERRBAR|CGABAR|UCGABAR|WARPSYNC|BSYNC|DEPBAR|RED|ATOM)/ ||
                op ~ /^(LDG|STG|LD|ST)[.].*(STRONG|MMIO)/)
                cnt[op]++
        }
    }
    END { flush(); if (!found) { print "sass.sh: no kernel matches /" re "/"; exit 1 } }' "$sass"
