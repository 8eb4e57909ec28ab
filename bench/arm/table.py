"""bench/arm/table.py TITLE COUNTS [TARGET]: the markdown tables of one target from sarnn_bench_arm's output under the
plugin (lines "count <i> <label>" from the program, "region <i> <instructions>" from tools/qemu-count/insn_regions.c).
Region 0 is empty: the markers' own cost, subtracted from every other region.

The labels "grid <model> In <i> Hidden <h> n <n> macs <m> <ours|eigen>" (bench/arm/grid.cpp) make the grid table:
instructions per multiply-add (MACs from bench/grid.hpp's formulas, printed by the program), relative to the same
model at the reference shape (In 16, Hidden 32), and sarnn / Eigen; then each model's worst ratios. TARGET: the
sarnn / Eigen ratio the target should not exceed on any grid shape (issue 32: 0.85 on AArch64, 1.0 on ARMv7)."""
import re
import sys

REFERENCE = ("16", "32")  # bench/grid.hpp's kReference (In, Hidden)
UNATTENDED = ("simple", "gru", "lstm")  # the models that attend over nothing: no n in their rows


def main(title, path, target=None):
    labels, regions = {}, {}
    for line in open(path):
        m = re.match(r"count (\d+) (.*)", line)
        if m:
            labels[int(m.group(1))] = m.group(2).strip()
        m = re.match(r"region (\d+) (\d+)", line)
        if m:
            regions[int(m.group(1))] = int(m.group(2))
    if labels.get(0) != "empty" or 0 not in regions or len(regions) != len(labels):
        sys.exit(f"table.py: {path}: {len(labels)} labels, {len(regions)} regions, or no empty region 0")
    base = regions[0]
    rows = {}  # (model, shape) -> {variant: instructions}
    grid = {}  # (model, In, Hidden, n, macs) -> {variant: instructions}
    for i, label in labels.items():
        if i == 0:
            continue
        m = re.match(r"grid (\S+) In (\d+) Hidden (\d+) n (\d+) macs (\d+) (\S+)$", label)
        if m:
            grid.setdefault(m.groups()[:5], {})[m.group(6)] = regions[i] - base
            continue
        *shape, variant = label.split()
        rows.setdefault(" ".join(shape), {})[variant] = regions[i] - base
    print(f"## {title}\n")
    if rows:
        print("| step | ours | Eigen | naive | ours / Eigen | ours / naive |")
        print("|---|---:|---:|---:|---:|---:|")
        for shape, v in rows.items():
            o, e, n = v.get("ours"), v.get("eigen"), v.get("naive")
            print(f"| {shape} | {o:,} | {e:,} | {n:,} | {o / e:.2f} | {o / n:.2f} |")
        print()
    if grid:
        print_grid(grid, target)


def print_grid(grid, target):
    ref = {}  # model -> (ours /MAC, Eigen /MAC) at the reference shape
    for (model, i, h, n, macs), v in grid.items():
        if (i, h) == REFERENCE:
            ref[model] = (v["ours"] / int(macs), v["eigen"] / int(macs))
    print("**Shape grid** (bench/grid.hpp): one step attending n = 64 states (the LSTMN: 63 tape entries), Capacity 64,")
    print("K 16 (simple, gru, lstm: no attention; the cells' 16th step). /MAC: instructions per multiply-add; x ref:")
    print("/MAC over the same model's at In 16, Hidden 32.\n")
    print("| model | In | Hidden | n | MACs | ours | Eigen | ours / Eigen | ours /MAC | Eigen /MAC | ours x ref | Eigen x ref |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    worst = {}  # model -> [(ours / Eigen, shape), (ours x ref over Hidden >= 12, shape)]
    models = list(dict.fromkeys(key[0] for key in grid))  # rows by model, each in the grid's order of shapes
    for (model, i, h, n, macs), v in sorted(grid.items(), key=lambda kv: models.index(kv[0][0])):
        o, e, macs = v["ours"], v["eigen"], int(macs)
        ro, re_ = ref[model]
        xo, xe = o / macs / ro, e / macs / re_
        print(f"| {model} | {i} | {h} | {'–' if model in UNATTENDED else n} | {macs:,} | {o:,} | {e:,} | {o / e:.2f} | {o / macs:.2f} | {e / macs:.2f} "
              f"| {xo:.2f} | {xe:.2f} |")
        w = worst.setdefault(model, [(0.0, ""), (0.0, "")])
        if o / e > w[0][0]:
            w[0] = (o / e, f"In {i}, Hidden {h}")
        if int(h) >= 12 and xo > w[1][0]:
            w[1] = (xo, f"In {i}, Hidden {h}")
    print()
    goal = f" (target: at most {target} on every grid shape)" if target else ""
    print(f"**Grid summary**: each model's worst sarnn / Eigen over the grid{goal}, and its worst ours x ref over Hidden >= 12.\n")
    print("| model | ours /MAC at the reference | worst ours / Eigen | target | worst ours x ref, Hidden >= 12 |")
    print("|---|---:|---:|---|---:|")
    for model, ((r, at), (x, xat)) in worst.items():
        met = f"<= {target}: {'met' if round(r, 2) <= float(target) else 'not met'}" if target else "–"
        print(f"| {model} | {ref[model][0]:.2f} | {r:.2f} ({at}) | {met} | {x:.2f} ({xat}) |")
    print()


if __name__ == "__main__":
    main(*sys.argv[1:4])
