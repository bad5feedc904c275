#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""The A p loop of the CG solver kernels, from their SASS: how many dependent
global-load round trips one warp spends on one row.

    tools/gpu/ap_loop_model.py SASS.TXT [KERNEL-REGEX]

SASS.TXT is what tools/gpu/run.sh writes for CGC_SASS (sass.txt, in
extras.tar.gz): "--- kernel NAME" sections of cuobjdump -sass output. For
every kernel (or non-inlined function) whose name matches KERNEL-REGEX
(default: all) and that holds the A p row loop of
examples/conjugate_gradient.cuh, it prints the round trips for rows of 4 to
12 nonzeros and their mean over the rows cgs_make_system draws (4 +
Poisson(3) nonzeros: the diagonal, 3 own pairs, the mirrored ones).

The model (docs/design/workloads.md, "The CG solver's gain"): a warp issues
in program order, one instruction a cycle; an instruction waits until its
sources are ready and until an earlier write of its destination has landed;
a global load takes one latency L (the same for every load: no L1 hits, no
bandwidth limit), a DFMA 8 cycles, a constant load 20, anything else 4. The
row's path through ptxas's unrolled loop follows the row length: up to 3
single nonzeros (length mod 4), then blocks of 16, 8 and 4. Round trips =
the row's cycles / L, with L = 500 cycles. Crude on purpose: it orders
kernels by their schedule, it does not predict times.

Exit status: 0 when some kernel's loop was modelled, 1 when none matched or
held the loop, 2 on bad arguments.
"""
import collections
import math
import re
import sys

LAT_MEM = 500
LAT = {"DFMA": 8, "DMUL": 8, "DADD": 8, "LDC": 20}
INSN = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?)\s*;?\s*(/\*.*)?$")


def sections(path, name_re):
    """{kernel name: [instruction text lines]} of the kernels that match."""
    out, name = {}, None
    with open(path, errors="replace") as f:
        for line in f:
            if line.startswith("--- kernel "):
                name = line.split()[2]
                if not re.search(name_re, name):
                    name = None
                else:
                    out[name] = []
            elif line.startswith("=== "):
                name = None
            elif name is not None:
                out[name].append(line)
    return out


def parse(lines):
    ins = []
    for line in lines:
        m = INSN.match(line)
        if not m:
            continue
        text = m.group(2).rstrip(" ;")
        pred = None
        pm = re.match(r"(@!?U?P\w+)\s+(.*)", text)
        if pm:
            pred, text = pm.group(1), pm.group(2)
        parts = text.split(None, 1)
        if not parts:
            continue
        args = [a.strip() for a in parts[1].split(",")] if len(parts) > 1 else []
        ins.append({"addr": int(m.group(1), 16), "pred": pred, "op": parts[0], "args": args})
    return ins


def regs(tok, wide):
    out = []
    for m in re.finditer(r"\bR(\d+)(\.64)?", tok):
        k = int(m.group(1))
        out += [k, k + 1] if (m.group(2) or wide) else [k]
    return out


def operands(i):
    """(registers written, registers read) of one instruction."""
    op, a = i["op"], i["args"]
    base = op.split(".")[0]
    if base in ("BRA", "BSSY", "BSYNC", "PLOP3", "YIELD", "NOP") or not a:
        return [], []
    if base in ("STG", "ST"):
        return [], regs(a[0], False) + (regs(a[1], ".64" in op) if len(a) > 1 else [])
    if base == "ISETP":
        return [], [r for t in a[2:] for r in regs(t, False)]
    if a[0].startswith("P") and len(a) > 1:  # a predicate written first (LOP3.LUT P5, R69, ...)
        a = a[1:]
    double = base in ("DFMA", "DMUL", "DADD")
    wide_dst = ".64" in op or double or op.startswith("IMAD.WIDE") or base == "CS2R"
    src = []
    for j, t in enumerate(a[1:]):
        src += regs(t, double or (op.startswith("IMAD.WIDE") and j == 2))
    return regs(a[0], wide_dst), src


def is_bra(i):
    return i["op"] == "BRA"


def is_bsync(i):
    return i["op"] == "BSYNC"


def find(ins, pred, frm):
    for k in range(frm, len(ins)):
        if pred(ins[k]):
            return k
    raise ValueError("not found")


def row_top(ins):
    """Index of the row loop's rowptr[i] load: an LDG.E whose next LDG.E reads
    the same address + 4 (rowptr[i + 1]) and is followed by the row's empty
    test."""
    for k, i in enumerate(ins):
        if i["op"] != "LDG.E" or len(i["args"]) < 2:
            continue
        m = re.search(r"\[(R\d+)\.64\]$", i["args"][1])
        if not m:
            continue
        for j in range(k + 1, min(k + 4, len(ins))):
            if ins[j]["op"] == "LDG.E" and ins[j]["args"][1].endswith("[%s.64+0x4]" % m.group(1)):
                return k
    raise ValueError("no rowptr[i], rowptr[i + 1] pair")


def segments(ins):
    """The pieces of the row loop, by their markers (the same structure in
    every kernel of 2026-11-28): the row's top, the prologue of 1 and of 2-3
    single nonzeros, the 16-block loop, the 8-block, the 4-block, the row's
    bottom (the Ap store, p[i] . Ap[i])."""
    start = row_top(ins)
    k_empty = find(ins, is_bra, start)
    k_pro0 = find(ins, is_bra, k_empty + 1)
    k_pro1 = find(ins, is_bra, k_pro0 + 1)
    k_prosync = find(ins, is_bsync, k_pro1 + 1)
    k_done0 = find(ins, is_bra, k_prosync + 1)
    k_l16skip = find(ins, is_bra, k_done0 + 1)
    k_l16back = find(ins, is_bra, k_l16skip + 1)
    k_l16sync = find(ins, is_bsync, k_l16back + 1)
    k_b8skip = find(ins, is_bra, k_l16sync + 1)
    k_b8sync = find(ins, is_bsync, k_b8skip + 1)
    k_done8 = find(ins, is_bra, k_b8sync + 1)
    k_rowsync = find(ins, is_bsync, k_done8 + 1)
    top = ins[start]["addr"]
    k_rowback = find(ins, lambda i: is_bra(i) and int(i["args"][-1], 16) <= top, k_rowsync + 1)
    return {
        "top": ins[start:k_empty],
        "pro_setup": ins[k_empty + 1:k_pro0],
        "pro1": ins[k_pro0 + 1:k_pro1],
        "pro23": ins[k_pro1 + 1:k_prosync],
        "l16_setup": ins[k_done0 + 1:k_l16skip],
        "l16": ins[k_l16skip + 1:k_l16back],
        "b8": ins[k_l16sync + 1:k_b8sync],
        "b4": ins[k_done8 + 1:k_rowsync],
        "bottom": ins[k_rowsync + 1:k_rowback],
    }


def cycles(seq):
    ready = collections.defaultdict(int)
    t = 0
    for i in seq:
        dst, src = operands(i)
        issue = max([t + 1] + [ready[r] for r in src + dst])
        base = i["op"].split(".")[0]
        lat = LAT_MEM if base in ("LDG", "LD") else LAT.get(base, 4)
        for r in dst:
            ready[r] = issue + lat
        t = issue
    return max([t] + list(ready.values()))


def row(seg, length):
    """Round trips of one row of `length` nonzeros."""
    r = length % 4
    seq = seg["top"] + seg["pro_setup"]
    if r >= 1:
        seq += seg["pro1"]
    if r >= 2:  # the third single nonzero is the predicated part
        seq += [i for i in seg["pro23"] if r == 3 or i["pred"] is None]
    rem = length - r
    if rem > 0:
        seq += seg["l16_setup"]
        while rem > 12:
            seq += seg["l16"]
            rem -= 16
        if rem > 4:
            seq += seg["b8"]
            rem -= 8
        if rem > 0:
            seq += seg["b4"]
    seq += seg["bottom"]
    return cycles(seq) / LAT_MEM


def main(argv):
    if len(argv) not in (2, 3):
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    name_re = argv[2] if len(argv) == 3 else ""
    weights = {n: math.exp(-3) * 3 ** (n - 4) / math.factorial(n - 4) for n in range(4, 20)}
    done = 0
    for name, lines in sections(argv[1], name_re).items():
        try:
            seg = segments(parse(lines))
        except (ValueError, IndexError):
            print("%s: no A p row loop found" % name)
            continue
        mean = sum(w * row(seg, n) for n, w in weights.items()) / sum(weights.values())
        per = " ".join("%d:%.1f" % (n, row(seg, n)) for n in range(4, 13))
        print("%s: mean %.1f round trips a row | by nonzeros %s" % (name, mean, per))
        done += 1
    return 0 if done else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
