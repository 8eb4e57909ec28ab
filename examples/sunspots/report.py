"""examples/sunspots/report.py: the example's table and plots from what `run` collected.

    flash  = .init + .text + .rodata + the load image of .data (tools/footprint's rule: its sections() and
             flash_ram()), footprint.cpp's model ELF minus its baseline ELF: the model's code, weights and readout
    RAM    = sizeof the model, as forecast.cpp prints it (its memory of states, its context: all of its RAM)
    instructions per step(): sarnn_sunspots_count.elf under qemu -icount, counted as bench/mcu counts them
    RMSE, MAE: of the C++ forecasts on the host over 1921 .. 2008, in sunspots
    max |h - PyTorch's h|: the largest error of the host's h_t over the test years and the lanes, against PyTorch's
             float h_t of the same model (float: its own run; q15: the float model's, h = raw / 32768)

Writes <out>/sunspots.md (the table), <out>/sunspots_forecasts.png (forecasts against the truth, one panel per
model) and <out>/sunspots_q15_gap.png (q15 minus float forecast, per model).

The rows are the models of R.json (train.py --models).

    python3 report.py --results R.json --host host.txt --core M4=count.txt=<fp dir> --core M0+=... --out DIR
"""
import argparse
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "tools", "footprint"))

from footprint_report import flash_ram, sections  # noqa: E402

MODELS = (("simple", "SimpleRNN(1, 16)"), ("attention", "SelfAttentionRNN(1, 16, scaled_dot, Window 16)"),
          ("gru", "torch.nn.GRU(1, 16)"), ("lstm", "torch.nn.LSTM(1, 16)"))
TYPES = ("float", "q15")


def parse(path):
    """(results, forecasts) of forecast.cpp's output: results[(model, type)] = dict of the "result" line,
    forecasts[(model, type)] = [(year, value), ...]."""
    results, forecasts = {}, {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            w = line.split()
            if len(w) == 5 and w[0] == "forecast":
                forecasts.setdefault((w[1], w[2]), []).append((int(w[3]), float(w[4])))
            elif w and w[0] == "result":
                m = re.findall(r"(rmse|mae|sizeof|instructions|max\|dh\|) (\S+)", line)
                results[(w[1], w[2])] = {k: float(v) for k, v in m}
    return results, forecasts


def flash(size_tool, fp_dir, models):
    """{(model, type): flash bytes} from sarnn_sunspots_fp_<model>_<type>.elf minus sarnn_sunspots_fp_base.elf."""
    def f(variant):
        return flash_ram(sections(size_tool, os.path.join(fp_dir, f"sarnn_sunspots_fp_{variant}.elf")))[0]
    base = f("base")
    return {(key, t): f(f"{key}_{t}") - base for key, _ in models for t in TYPES}, base


def plots(out, r, forecasts, models):
    import matplotlib  # pylint: disable=import-outside-toplevel
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt  # pylint: disable=import-outside-toplevel
    years = list(range(r["first_test_year"], r["first_test_year"] + len(r["truth"])))
    fig, axes = plt.subplots(len(models), 1, figsize=(10, 1.2 + 2.9 * len(models)), sharex=True, squeeze=False)
    axes = axes[:, 0]
    for ax, (key, label) in zip(axes, models):
        ax.plot(years, r["truth"], color="black", lw=1.6, label="truth")
        ax.plot(years, [v for _, v in forecasts[(key, "float")]], color="tab:blue", lw=1.2, label="sarnn float")
        ax.plot(years, [v for _, v in forecasts[(key, "q15")]], color="tab:orange", lw=1.0, ls="--",
                label="sarnn q15")
        ax.plot(years, [r["x"][r["warm"] + i] * 100 for i in range(len(years))], color="0.6", lw=0.8, ls=":",
                label="persistence")
        ax.set_title(f"{label}: next-year forecast, host C++", fontsize=10)
        ax.set_ylabel("sunspot number")
        ax.legend(fontsize=8, ncol=4, loc="upper left")
    axes[-1].set_xlabel("year")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "sunspots_forecasts.png"), dpi=90)
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(10, 3.2))
    for (key, label), color in zip(models, ("tab:blue", "tab:red", "tab:green", "tab:purple")):
        gap = [q - f for (_, q), (_, f) in zip(forecasts[(key, "q15")], forecasts[(key, "float")])]
        ax.plot(years, gap, color=color, lw=1.0, label=label)
    ax.axhline(0, color="0.5", lw=0.6)
    ax.set_title(f"q15 minus float forecast (checked: within ±{r['q15_gap']:g})", fontsize=10)
    ax.set_xlabel("year")
    ax.set_ylabel("sunspot number")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "sunspots_q15_gap.png"), dpi=90)
    plt.close(fig)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--results", required=True, help="train.py's sunspots_results.json")
    p.add_argument("--host", required=True, help="output of sarnn_sunspots on the host")
    p.add_argument("--core", action="append", default=[],
                   help="LABEL=<output of sarnn_sunspots_count.elf>=<folder of sarnn_sunspots_fp*.elf>")
    p.add_argument("--size", default="arm-none-eabi-size")
    p.add_argument("--out", required=True)
    args = p.parse_args()
    with open(args.results, encoding="utf-8") as f:
        r = json.load(f)
    host, forecasts = parse(args.host)
    models = [(key, label) for key, label in MODELS if key in r["models"]]
    cores = []
    for spec in args.core:
        label, count, fp_dir = spec.split("=")
        fl, base = flash(args.size, fp_dir, models)
        cores.append((label, parse(count)[0], fl, base))

    head = "| model | type | test RMSE | test MAE | max \\|h − PyTorch's h\\| | RAM B (sizeof: Cortex-M, x86-64) |"
    rule = "|---|---|---:|---:|---:|---:|"
    for label, *_ in cores:
        head += f" flash B {label} |"
        rule += "---:|"
    for label, *_ in cores:
        head += f" instructions/step {label} |"
        rule += "---:|"
    lines = [head, rule]
    base = r["persistence"]
    lines.append(f"| persistence (next = last) | - | {base['rmse']:.2f} | {base['mae']:.2f} | - | - |"
                 + " - |" * (2 * len(cores)))
    for key, label in models:
        for t in TYPES:
            h = host[(key, t)]
            ram = ", ".join(str(int(c[1][(key, t)]["sizeof"])) for c in cores[:1]) + f", {int(h['sizeof'])}"
            row = f"| {label} | {t} | {h['rmse']:.2f} | {h['mae']:.2f} | {h['max|dh|']:.1e} | {ram} |"
            row += "".join(f" {c[2][(key, t)]} |" for c in cores)
            row += "".join(f" {int(c[1][(key, t)]['instructions']):,} |" for c in cores)
            lines.append(row)
    lines.append("")
    lines.append(f"Trained with train.py --seed {r['seed']} --steps {r['steps']}; RMSE and MAE of the host's C++ "
                 f"forecasts of {r['first_test_year']} .. {r['first_test_year'] + len(r['truth']) - 1} in sunspots. "
                 "Baselines of the flash differences (footprint.cpp without a model): "
                 + ", ".join(f"{c[0]} {c[3]} B" for c in cores) + ".")
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "sunspots.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    plots(args.out, r, forecasts, models)
    print("\n".join(lines))
    print(f"wrote {args.out}/sunspots.md, sunspots_forecasts.png, sunspots_q15_gap.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
