#!/usr/bin/python3
"""tests/plan/test_plan.py: scripts/plan once on a small shape (In 3, Hidden 8, Capacity 8: dot, key_query K 4 and the
SimpleRnn, the Gru and the Lstm; the Cortex-M4F and this host with the scalar set), its tables checked against figures
worked out here:
  - weights: the params' bytes from the formulas (float: Hidden·(In + Hidden) + Hidden, and 2·K·Hidden for key_query;
    the Gru 3·Hidden·(In + Hidden) + 6·Hidden, the Lstm 4·Hidden·(In + Hidden) + 4·Hidden);
  - RAM: at least the memory's Capacity·Hidden floats (the SimpleRnn: its state of Hidden floats, twice; the Gru: h
    twice and its gate rows gi, gh, 8·Hidden floats; the Lstm: h and c twice and its gate rows z, 8·Hidden floats);
  - flash: at least the weights, less than 64 KiB;
  - instructions: one row per n = 1, 4, 8, growing with n; at least one an M4F multiply-add of the step (the floor:
    one multiply-add per instruction at best), at most 40 an multiply-add plus 3000 (a step is far below);
  - host: a time per row;
and bad arguments (unknown align, Capacity 0, q15 sizes past the int32 headroom, a size that is not a number) refused
with exit status 2 and a message saying what is wrong. Prints "N passed, N failed"; exit status 0 when all pass.
"""
import argparse
import re
import subprocess
import sys

IN, H, C, K = 3, 8, 8, 4


def tables(text):
    """The markdown tables of the output, as lists of dicts keyed by the header."""
    out, cur, head = [], None, None
    for line in text.splitlines():
        if not line.startswith("|"):
            cur = None
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cur is None:
            head, cur = cells, []
            out.append(cur)
        elif not re.fullmatch(r"[-:|]+", line.replace(" ", "")):
            cur.append(dict(zip(head, cells)))
    return out


def num(s):
    return float(s.replace(",", ""))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--plan", required=True)
    ap.add_argument("--build-dir", required=True)
    a = ap.parse_args()
    failures, checks = [], 0

    def check(ok, what):
        nonlocal checks
        checks += 1
        if not ok:
            failures.append(what)
            print(f"FAIL: {what}")

    # ---- refused arguments (no build) ----
    bad = [(["--in", "3", "--hidden", "8", "--capacity", "8", "--align", "cosine"], "unknown"),
           (["--in", "3", "--hidden", "8", "--capacity", "0"], "at least 1"),
           (["--in", "3", "--hidden", "300", "--capacity", "8", "--align", "additive", "--q15"], "at most 256"),
           (["--in", "3", "--hidden", "8", "--capacity", "8", "--align", "lstmn", "--k", "257", "--q15"], "at most 256"),
           (["--in", "3", "--hidden", "257", "--align", "gru", "--q15"], "at most 256"),
           (["--in", "512", "--hidden", "8", "--align", "lstm", "--q15"], "at most 511"),
           (["--in", "3", "--hidden", "8", "--align", "gru,dot"], "--capacity is needed"),
           (["--in", "3", "--hidden", "eight", "--capacity", "8"], "not a whole number"),
           (["--in", "3", "--hidden", "8"], "--capacity is needed"),
           (["--in", "3", "--hidden", "8", "--capacity", "8", "--cores", "m3"], "unknown")]
    for args, msg in bad:
        p = subprocess.run([a.plan] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and msg in p.stderr, f"{' '.join(args)}: exit {p.returncode}, stderr {p.stderr!r}, "
                                                     f"wanted exit 2 and '{msg}'")

    # ---- one run ----
    cmd = [a.plan, "--in", str(IN), "--hidden", str(H), "--capacity", str(C), "--align",
           "dot,key_query,simple,gru,lstm", "--k", str(K), "--cores", "m4", "--host-kernels", "scalar", "--repeats", "21", "--build-dir", a.build_dir]
    print("$ " + " ".join(cmd))
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    print(p.stdout)
    check(p.returncode == 0, f"scripts/plan exit status {p.returncode}")
    t = tables(p.stdout)
    check(len(t) == 2, f"two tables, got {len(t)}")
    if len(t) == 2:
        sizes, steps = t
        weights = {"dot": 4 * (H * (IN + H) + H), f"key_query K {K}": 4 * (H * (IN + H) + H + 2 * K * H),
                   "SimpleRnn": 4 * (H * (IN + H) + H), "Gru": 4 * (3 * H * (IN + H) + 6 * H),
                   "Lstm": 4 * (4 * H * (IN + H) + 4 * H)}
        ram_floor = {"SimpleRnn": 4 * 2 * H, "Gru": 4 * 8 * H, "Lstm": 4 * 8 * H}  # the rest: the memory's states
        check([r["model"] for r in sizes] == list(weights), f"the size rows: {[r['model'] for r in sizes]}")
        for r in sizes:
            m = r["model"]
            check(num(r["weights"]) == weights.get(m), f"{m}: weights {r['weights']}, wanted {weights.get(m)}")
            floor = ram_floor.get(m, 4 * C * H)
            for col in ("RAM m4", "RAM host"):
                check(num(r.get(col, "0")) >= floor, f"{m}: {col} {r.get(col)} below {floor}")
            check(weights.get(m, 0) <= num(r.get("flash m4", "0")) < 65536, f"{m}: flash m4 {r.get('flash m4')}")
        cell_macs = {"SimpleRnn": H * (IN + H), "Gru": 3 * H * (IN + H), "Lstm": 4 * H * (IN + H)}  # memoryless
        for m, ns in (("dot", [1, 4, 8]), (f"key_query K {K}", [1, 4, 8]), ("SimpleRnn", ["–"]), ("Gru", ["–"]),
                      ("Lstm", ["–"])):
            rows = [r for r in steps if r["model"] == m]
            check([r["n"] if r["n"] == "–" else int(r["n"]) for r in rows] == ns, f"{m}: step rows {rows}")
            counts = []
            for r in rows:
                n = 0 if r["n"] == "–" else int(r["n"])
                # multiply-adds: the cell H·(In + H); dot 2·n·H; key_query 2·K·H and n·(K + H) (cached keys, 4·K <= H
                # does not hold here: folded, 2·n·H)
                macs = cell_macs[m] if m in cell_macs else H * (IN + H) + 2 * n * H + (2 * K * H if "key" in m else 0)
                v = num(r["m4"])
                counts.append(v)
                check(macs <= v <= 40 * macs + 3000, f"{m} n {r['n']}: {v} instructions for {macs} multiply-adds")
                check(num(r["host ns"]) > 0, f"{m} n {r['n']}: host ns {r['host ns']}")
            check(counts == sorted(counts) and len(set(counts)) == len(counts), f"{m}: counts not growing: {counts}")
    print(f"\n{checks - len(failures)} passed, {len(failures)} failed")
    return 0 if not failures else 1


if __name__ == "__main__":
    sys.exit(main())
