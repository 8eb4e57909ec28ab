"""bench/arm/table.py TITLE COUNTS: the markdown table of one target from sarnn_bench_arm's output under the plugin
(lines "count <i> <label>" from the program, "region <i> <instructions>" from tools/qemu-count/insn_regions.c).
Region 0 is empty: the markers' own cost, subtracted from every other region."""
import re
import sys


def main(title, path):
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
    for i, label in labels.items():
        if i == 0:
            continue
        *shape, variant = label.split()
        rows.setdefault(" ".join(shape), {})[variant] = regions[i] - base
    print(f"## {title}\n")
    print("| step | ours | Eigen | naive | ours / Eigen | ours / naive |")
    print("|---|---:|---:|---:|---:|---:|")
    for shape, v in rows.items():
        o, e, n = v.get("ours"), v.get("eigen"), v.get("naive")
        print(f"| {shape} | {o:,} | {e:,} | {n:,} | {o / e:.2f} | {o / n:.2f} |")
    print()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
