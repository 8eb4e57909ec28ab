#!/usr/bin/env python3
"""bench/mcu/grid_fit.py: where the shape grid's ratios come from (scripts/bench-mcu appends its output to mcu.md).

For each core, model and number type of the grid tables in an mcu.md (the "### ...: the shape grid" sections), fit
the instructions of one step over the shapes with Hidden >= 12 by least squares as

    instructions = a * MACs + b * Hidden + c

a: per multiply-add (the products), b: per hidden lane (the rows finished for it: requantise, bias, saturate,
activation, and the cell's own work on the lane), c: per step (for the attention models: the per-state work of the
scores and the softmax, n = 64 states, which does not grow with Hidden). The ratio the grid reports for a shape s is
(a + (b * H_s + c) / MAC_s) / (a + (b * H_ref + c) / MAC_ref): with b and c fixed, a shape with few multiply-adds per
lane (small In + Hidden) or per state (small Hidden) is dearer per multiply-add whatever the loops do. The last
columns say what b (with a and c as fitted) and what c (with a and b as fitted) would have to be for the worst shape
with Hidden >= 12 to meet the 1.2x bound: "none" where no value does.

A second table bounds the fixed work from above, whatever the loops: give a step only multiply-adds (a each) and
one kind of fixed work u per unit (dot: per attended state, the softmax's exp, max, sum and normalisation; Lstmn: per
attended state and key lane, the additive score's add, tanh and v-product, which the MAC formula of bench/grid.hpp
does not count; Gru, Lstm: per hidden lane, the gates' activations and the cell's update). The worst shape meets the
bound only if u <= (B - 1)·a / (U_s/MAC_s - B·U_ref/MAC_ref), U the units per step; that limit, in multiply-adds and
in instructions (the core's a), stands beside what a step spends per unit now (from the fit).

Usage: grid_fit.py mcu.md   (prints a markdown section)
"""
import re
import sys

BOUND = 1.2
MIN_HIDDEN = 12
MODELS = ("SelfAttentionRnn dot", "Lstmn K 16", "Gru", "Lstm")
STATES, KEYS = 64, 16  # the grid's n (bench/grid.hpp) and the Lstmn's K; a Lstmn step attends n - 1 tape entries


def grids(text):
    """{(core, model, type): [(In, Hidden, instructions, MACs)]} from the grid tables."""
    out, core = {}, None
    for line in text.splitlines():
        m = re.match(r"### (.+?): the shape grid", line)
        if m:
            core = m.group(1).split(" (")[0]
            continue
        if line.startswith("## "):
            core = None
        if core is None:
            continue
        p = [x.strip() for x in line.split("|")[1:-1]]
        if len(p) == 8 and p[2].isdigit() and p[0] in MODELS:
            out.setdefault((core, p[0], p[1]), []).append(tuple(int(v) for v in p[2:6]))
    return out


def least_squares(x, y):
    """The 3 coefficients minimising |x·k - y| (normal equations, Gauss-Jordan; the plain Python needs no numpy)."""
    m = [[sum(r[i] * r[j] for r in x) for j in range(3)] + [sum(r[i] * v for r, v in zip(x, y))] for i in range(3)]
    for i in range(3):
        p = max(range(i, 3), key=lambda k: abs(m[k][i]))
        m[i], m[p] = m[p], m[i]
        for k in range(3):
            if k != i:
                f = m[k][i] / m[i][i]
                m[k] = [u - f * w for u, w in zip(m[k], m[i])]
    return [m[i][3] / m[i][i] for i in range(3)]


def allowed(a, b, c, s, ref):
    """The largest b, then the largest c, that meet BOUND at shape s against ref (None: none does)."""
    (hs, ms), (hr, mr) = s, ref
    den_b = hs / ms - BOUND * hr / mr
    num_b = (BOUND - 1) * a + c * (BOUND / mr - 1 / ms)
    max_b = num_b / den_b if den_b > 0 else float("inf")
    den_c = 1 / ms - BOUND / mr
    num_c = (BOUND - 1) * a + b * (BOUND * hr / mr - hs / ms)
    max_c = num_c / den_c if den_c > 0 else float("inf")
    return (max_b if max_b >= 0 else None), (max_c if max_c >= 0 else None)


def units(model, hidden):
    """(units of fixed work per step, what one unit is, its cost now from the fit's b or c)."""
    if model == "SelfAttentionRnn dot":
        return STATES, "attended state", lambda b, c: c / STATES
    if model.startswith("Lstmn"):
        return (STATES - 1) * KEYS, "attended state x key lane", lambda b, c: c / ((STATES - 1) * KEYS)
    return hidden, "hidden lane", lambda b, c: b


def unit_limit(a, u_s, m_s, u_r, m_r):
    """The largest cost of one unit of fixed work at which shape s meets BOUND against ref (None: no cost does)."""
    den = u_s / m_s - BOUND * u_r / m_r
    return (BOUND - 1) * a / den if den > 0 else None


def fmt(v):
    return "none" if v is None else ("any" if v == float("inf") else f"{v:,.0f}")


def main(argv):
    text = open(argv[1]).read()
    print("## The shape grid: a fit of its costs\n")
    print("Each model's instructions per step over the grid's shapes with Hidden >= 12 fitted as a·MACs + b·Hidden + c")
    print("(bench/mcu/grid_fit.py: a per multiply-add, b per hidden lane, c per step, the per-state work of n = 64")
    print("states in it). The worst shape's ratio comes from b and c: a lane with few multiply-adds (small In + Hidden)")
    print("or a state with few (small Hidden) carries the same fixed work. The last two columns: the b (a, c as")
    print("fitted) and the c (a, b as fitted) at which the worst shape would meet 1.2x.\n")
    print("| core | model | type | a /MAC | b /lane | c /step | fit error, max | worst shape | x ref | b for 1.2x | c for 1.2x |")
    print("|---|---|---|---:|---:|---:|---:|---|---:|---:|---:|")
    floors = []
    for (core, model, typ), rows in grids(text).items():
        rows = [r for r in rows if r[1] >= MIN_HIDDEN]
        ref = [r for r in rows if (r[0], r[1]) == (16, 32)]
        if len(rows) < 4 or not ref:
            continue
        ref = ref[0]
        x = [(float(r[3]), float(r[1]), 1.0) for r in rows]
        y = [float(r[2]) for r in rows]
        a, b, c = least_squares(x, y)
        err = max(abs(a * u[0] + b * u[1] + c - v) / v for u, v in zip(x, y))
        per = lambda r: r[2] / r[3]
        worst = max(rows, key=lambda r: per(r) / per(ref))
        max_b, max_c = allowed(a, b, c, (worst[1], worst[3]), (ref[1], ref[3]))
        print(f"| {core} | {model} | {typ} | {a:.2f} | {b:,.1f} | {c:,.0f} | {100 * err:.0f}% | In {worst[0]}, "
              f"Hidden {worst[1]} | {per(worst) / per(ref):.2f} | {fmt(max_b)} | {fmt(max_c)} |")
        u_w, what, now = units(model, worst[1])
        u_r = units(model, ref[1])[0]
        lim = unit_limit(a, u_w, worst[3], u_r, ref[3])
        floors.append((core, model, typ, worst, what, lim, a, now(b, c)))
    print()
    print("### The bound against the fixed work it leaves room for\n")
    print("Idealised: every instruction of a step outside one kind of fixed work counted as multiply-adds at the")
    print("fitted a. \"limit\": the most one unit of that work may cost for the worst shape to meet 1.2x, in")
    print("multiply-adds (a property of the shapes alone) and in instructions; \"now\": what a unit costs today (fit).")
    print("A limit below the cost of the unit's own arithmetic (an exp; an add, a tanh and a product; 3 or 5")
    print("activations) cannot be met by any loop.\n")
    print("| core | model | type | worst shape | unit | limit, MACs | limit, instructions | now, instructions |")
    print("|---|---|---|---|---|---:|---:|---:|")
    for core, model, typ, worst, what, lim, a, now in floors:
        lm = "none" if lim is None else f"{lim / a:.2f}"
        li = "none" if lim is None else f"{lim:,.1f}"
        print(f"| {core} | {model} | {typ} | In {worst[0]}, Hidden {worst[1]} | {what} | {lm} | {li} | {now:,.1f} |")
    print()


if __name__ == "__main__":
    main(sys.argv)
