#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Host check of wl_stencil_deep's row ranges (kw_dj), no GPU: every CTA's
two level buffers hold (global row, level) tags instead of values, and each
step of the kernel (the rows that need nothing from outside, the halo rows
from the neighbours, the rows that need them, the pushes, at an epoch's
start the ghost rows from global memory and the rows that need them, the
rows written for other groups) is replayed in sweep order over all CTAs. Every read must find the row and the
level it expects, every band must end at level `sweeps`, nothing may land
outside a buffer or on the domain's fixed rows. It checks the index
arithmetic only (the ordering between CTAs is the kernel's barriers' and
mbarriers' job, docs/design/workloads.md).

    python3 bench/workloads/wl_stencil_deep_rows.py     # prints "ok N"

Keep band_lo, NR and the steps in run() in step with dj_band_lo,
dj_buffer_rows and kw_dj. ("cgc" is both cgc kinds: the empty handshake
moves no row.)
"""
import sys

FIXED = "fixed"  # the domain's first and last rows: the same at every level


def tdiv(a, b):
    """C's integer division (truncates toward zero)."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def band_lo(g, ny, G, C, k, balance):
    """dj_band_lo."""
    uniform = g * ny // G
    if not balance or C < 2 or g % C == 0:
        return uniform
    r = g % C
    g0 = g - r
    GLO, GHI = g0 * ny // G, (g0 + C) * ny // G
    e0 = k - 1 if g0 > 0 else 0
    e1 = k - 1 if g0 + C < G else 0
    T = 2 * (GHI - GLO) + e0 + e1

    def group_lo(q):
        return GLO + tdiv(q * T - e0 * C + C, 2 * C)

    prev = GLO
    for q in range(1, C + 1):
        nxt = GHI if q == C else group_lo(q)
        if nxt - prev < 2:
            return uniform
        prev = nxt
    return group_lo(r)


def run(ny, G, C, k, S, mode, balance):
    """Replay kw_dj<mode> (cgc, pull, push: clusters of C; glob: no cluster)."""
    clustered = mode in ("cgc", "pull", "push")
    CC = C if clustered else 1
    NR = max(band_lo(g + 1, ny, G, CC, k, balance) - band_lo(g, ny, G, CC, k, balance) for g in range(G)) + 2 * k + 2  # dj_buffer_rows
    ctas = []
    for g in range(G):
        rank = g % CC
        lo, hi = band_lo(g, ny, G, CC, k, balance), band_lo(g + 1, ny, G, CC, k, balance)
        assert hi - lo >= 2, ("band below 2 rows", g, lo, hi)
        top = "N" if g == 0 else ("D" if rank > 0 else "G")
        bot = "N" if g == G - 1 else ("D" if rank + 1 < CC else "G")
        base = lo - k - 1
        bufs = [dict(), dict()]
        for i in range(max(base, 0), min(base + NR, ny)):
            fixed = i == 0 or i == ny - 1
            bufs[0][i - base] = (i, FIXED if fixed else 0)
            if fixed:
                bufs[1][i - base] = (i, FIXED)
        ctas.append(dict(g=g, lo=lo, hi=hi, GLO=(g - rank) * ny // G, GHI=(g - rank + CC) * ny // G, top=top,
                         bot=bot, base=base, bufs=bufs))
    xg = [dict(), dict()]

    def get(c, b, i, level):
        li = i - c["base"]
        assert 0 <= li < NR, ("read outside the buffer", c["g"], i)
        v = c["bufs"][b].get(li)
        assert v is not None and v[0] == i and v[1] in (level, FIXED), ("read", c["g"], b, i, level, v)

    def put(c, b, i, v):
        li = i - c["base"]
        assert 0 <= li < NR, ("write outside the buffer", c["g"], i)
        old = c["bufs"][b].get(li)
        assert not (old and old[1] == FIXED), ("write on a fixed row", c["g"], i)
        c["bufs"][b][li] = v

    def rows(c, src, dst, i0, i1, m):
        for i in range(i0, i1):
            assert 1 <= i <= ny - 2
            for r in (i - 1, i, i + 1):
                get(c, src, r, m)
            put(c, dst, i, (i, m + 1))

    for m in range(S):
        e, j = m // k, m % k
        d = min(k, S - e * k)
        src, dst = m & 1, (m & 1) ^ 1
        epoch_start = j == 0 and m > 0
        reach = d - 1 - j
        plan = {}
        for c in ctas:  # 1. the rows that need nothing from outside
            lo, hi = c["lo"], c["hi"]
            r0 = 1 if c["top"] == "N" else lo if c["top"] == "D" else max(lo - reach, 1)
            r1 = ny - 1 if c["bot"] == "N" else hi if c["bot"] == "D" else min(hi + reach, ny - 1)
            tdep = c["top"] == "D" or (c["top"] == "G" and epoch_start)
            bdep = c["bot"] == "D" or (c["bot"] == "G" and epoch_start)
            plan[c["g"]] = (r0, r1, tdep, bdep)
            rows(c, src, dst, lo + 1 if tdep else r0, hi - 1 if bdep else r1, m)
        for c in ctas:  # 2. halo rows, 3. the rows that need them
            lo, hi = c["lo"], c["hi"]
            r0, r1, tdep, bdep = plan[c["g"]]
            if m > 0 and mode == "pull":
                if c["top"] == "D":
                    get(ctas[c["g"] - 1], src, lo - 1, m)
                    put(c, src, lo - 1, (lo - 1, m))
                if c["bot"] == "D":
                    get(ctas[c["g"] + 1], src, hi, m)
                    put(c, src, hi, (hi, m))
            if c["top"] == "D":
                rows(c, src, dst, r0, lo + 1, m)
            if c["bot"] == "D":
                rows(c, src, dst, hi - 1, r1, m)
        for c in ctas:  # 4. pushes (not in the last sweep)
            lo, hi = c["lo"], c["hi"]
            if m + 1 < S and mode in ("cgc", "push"):
                if c["top"] == "D":
                    get(c, dst, lo, m + 1)
                    put(ctas[c["g"] - 1], dst, lo, (lo, m + 1))
                if c["bot"] == "D":
                    get(c, dst, hi - 1, m + 1)
                    put(ctas[c["g"] + 1], dst, hi - 1, (hi - 1, m + 1))
        for c in ctas:  # 5. epoch start: ghost rows, the rows that need them
            lo, hi = c["lo"], c["hi"]
            r0, r1, tdep, bdep = plan[c["g"]]
            if epoch_start:
                ghosts = []
                if c["top"] == "G":
                    ghosts += range(max(lo - d, 1), lo)
                if c["bot"] == "G":
                    ghosts += range(hi, min(hi + d, ny - 1))
                for i in ghosts:
                    v = xg[e & 1].get(i)
                    assert v == (i, m), ("ghost row", c["g"], i, v, m)
                    put(c, src, i, v)
                if c["top"] == "G":
                    rows(c, src, dst, r0, lo + 1, m)
                if c["bot"] == "G":
                    rows(c, src, dst, hi - 1, r1, m)
        if m + 1 >= S:
            break
        for c in ctas:  # 6. rows for other groups
            lo, hi = c["lo"], c["hi"]
            if j + 1 == d:
                d2 = min(k, S - (m + 1))
                for i in range(lo, hi):
                    if (c["GLO"] > 0 and i < c["GLO"] + d2) or (c["GHI"] < ny and i >= c["GHI"] - d2):
                        get(c, dst, i, m + 1)
                        xg[(e + 1) & 1][i] = (i, m + 1)
    for c in ctas:
        for i in range(c["lo"], c["hi"]):
            get(c, S & 1, i, S)


def main():
    n = 0
    for ny, G in ((256, 16), (250, 16), (40, 16), (96, 16), (1024, 128), (1024, 120)):
        for mode, clusters in (("cgc", (2, 4, 8)), ("pull", (2, 4, 8)), ("push", (2, 4, 8)), ("glob", (1,))):
            for C in clusters:
                if G % C:
                    continue
                for k in (1, 2, 3, 4, 8, 16):
                    for S in (1, 2, 3, 7, 8, 9, 17, 53):
                        for balance in (0, 1) if mode != "glob" else (0,):
                            run(ny, G, C, k, S, mode, balance)
                            n += 1
    print("ok", n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
