#!/usr/bin/python3
"""bench/plot.py: turn sarnn_bench's Google Benchmark JSON into CSV files, a markdown table and PNG plots.

Usage: /usr/bin/python3 bench/plot.py RESULTS.json [OUTDIR]      (OUTDIR defaults to the JSON's folder)

Writes into OUTDIR:
  sarnn_bench.csv   one row per benchmark (the median when the run had repetitions): time, GFLOP/s,
                    items/s, and the fraction of the ISA's peak and of the machine's peak
  complexity.csv    the Google Benchmark complexity fits (coefficient, big-O, RMS) per family
  table.md          the short table printed on stdout (ours per arch vs Eigen vs naive, targets; the GRU and
                    LSTM steps per Hidden, which have no plot)
  step_time_dot.png, step_time_scaled_dot.png   time per step against n (log-log), one panel per Hidden
  step_time_bilinear.png, step_time_keyquery16.png, step_time_additive16.png, step_time_lstmn16.png
                                                the parameterised aligns and the LSTMN (Hidden = 64, K = 16)
  window_time.png                               the full Window memory: time per step against steps taken
  context_time.png                              the context computation alone against n
  fraction_of_peak.png                          context GFLOP/s as a fraction of the machine's FMA peak
  sequence_time.png                             whole sequence from reset() against N (log-log)
Needs Debian's python3-matplotlib (run with /usr/bin/python3); uses the Agg backend (no display).
"""
import csv
import math
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

TO_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
# The ceiling of each kernel set: the peak microbenchmark of the same ISA (bench/bench_peak.cpp).
ISA_PEAK = {
    "ours_avx512": "fma_avx512",
    "ours_avx2fma": "fma_avx2",
    "ours_sse2": "muladd_sse2",
    "ours_scalar": "fma_scalar",
    "ours_neon": "fma_vec128",
    "ours_neon64": "fma_vec128",
}
TABLE_N = (16, 256, 1024)
TABLE_HIDDEN = 64
# The parameterised aligns and the LSTMN (bench/bench_scored.cpp): Hidden = 64, K = 16, n = 1, 4, ..., 4096.
ATTN_FAMILIES = ("bilinear", "keyquery16", "additive16", "lstmn16")
ATTN_LABEL = {"bilinear": "bilinear", "keyquery16": "key/query K=16", "additive16": "additive K=16",
              "lstmn16": "LSTMN K=16"}
# The plain cells (bench/bench_cell.cpp): one step, In = 32, Hidden = 16, 32, 64, 128.
CELL_FAMILIES = ("gru", "lstm")
CELL_LABEL = {"gru": "GRU", "lstm": "LSTM"}
WINDOW_FLAT = 0.10  # the Window memory counts as flat when max/min - 1 over the steps taken stays below this
STYLE = {"eigen": dict(color="black", linestyle="--"), "naive": dict(color="gray", linestyle=":")}


def parse_name(run_name):
    """'step/dot/H64/ours_avx512/n:1024' -> dict(kind, align, hidden, variant, n, capacity).

    The arguments after the variant are 'name:value' pairs: n (memory length), N (sequence length) or steps
    (steps taken before timing, window/) become n; C (window capacity) becomes capacity; Google Benchmark's
    own (iterations:...) are ignored."""
    parts = run_name.split("/")
    if parts[0] == "peak":
        return dict(kind="peak", align="", hidden=0, variant=parts[1], n=0, capacity=0)
    kind, align, h, variant = parts[:4]
    args = dict(p.split(":", 1) for p in parts[4:] if ":" in p)
    n = int(args.get("n", args.get("N", args.get("steps", 0))))
    return dict(kind=kind, align=align, hidden=int(h[1:]), variant=variant, n=n, capacity=int(args.get("C", 0)))


def load(path):
    with open(path) as f:
        data = json.load(f)
    rows, fits = [], []
    for b in data["benchmarks"]:
        if b.get("error_occurred"):
            continue
        run_type = b.get("run_type", "iteration")
        agg = b.get("aggregate_name", "")
        if run_type == "aggregate" and agg in ("BigO", "RMS"):
            family = b["name"].rsplit("_", 1)[0]
            info = parse_name(family + "/n:0")
            fit = next((f for f in fits if f["family"] == family), None)
            if fit is None:
                fit = dict(family=family, kind=info["kind"], align=info["align"], hidden=info["hidden"],
                           variant=info["variant"])
                fits.append(fit)
            if agg == "BigO":
                fit["big_o"] = b["big_o"]
                fit["coefficient_ns"] = b["cpu_coefficient"] * TO_NS[b["time_unit"]]
            else:
                fit["rms"] = b["rms"]
            continue
        if run_type == "aggregate" and agg != "median":
            continue
        info = parse_name(b["run_name"])
        info.update(
            # CPU time: the benchmarks are single-threaded, and CPU time does not count the time the OS gave
            # the core to another process (Google Benchmark's rate counters use it too).
            time_ns=b["cpu_time"] * TO_NS[b["time_unit"]],
            gflops=b.get("GFLOPS", float("nan")),  # the counter is already in GFLOP/s
            items_per_second=b.get("items_per_second", float("nan")),
            repetitions=b.get("repetitions", 1),
        )
        rows.append(info)
    return data["context"], rows, fits


def add_peaks(rows):
    peaks = {r["variant"]: r["gflops"] for r in rows if r["kind"] == "peak"}
    # fma_l1_*: FMAs fed from L1, a ceiling for the context rather than the machine's peak
    machine = max((v for k, v in peaks.items() if not k.startswith("fma_l1")), default=float("nan"))
    for r in rows:
        isa = ISA_PEAK.get(r["variant"])
        r["peak_isa"] = isa or ""
        r["isa_peak_gflops"] = peaks.get(isa, float("nan")) if isa else float("nan")
        r["fraction_of_isa_peak"] = r["gflops"] / r["isa_peak_gflops"] if isa in peaks else float("nan")
        r["fraction_of_machine_peak"] = r["gflops"] / machine if peaks else float("nan")
    return peaks, machine


def write_csv(path, rows, fields):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})


def variant_order(variants):
    ours = sorted(v for v in variants if v.startswith("ours_"))
    arch_rank = ["ours_scalar", "ours_sse2", "ours_avx2fma", "ours_avx512", "ours_neon", "ours_neon64"]
    ours.sort(key=lambda v: arch_rank.index(v) if v in arch_rank else 99)
    return ours + [v for v in ("eigen", "naive") if v in variants]


def fmt_time(ns):
    if ns != ns:
        return "–"
    if ns >= 1e6:
        return f"{ns / 1e6:.3g} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.3g} µs"
    return f"{ns:.0f} ns"


def find(rows, **kw):
    for r in rows:
        if all(r[k] == v for k, v in kw.items()):
            return r
    return None


def table(ctx, rows, fits, peaks, machine):
    out = []
    default = ctx.get("sarnn_default_variant", "")
    out.append(f"## sarnn_bench on {ctx.get('cpu_model', '?')} ({ctx.get('num_cpus', '?')} CPUs), "
               f"{ctx.get('date', '?')}")
    out.append("")
    reps = {r["repetitions"] for r in rows if r["kind"] == "step"}
    out.append(f"Per-step time, dot align, Hidden = {TABLE_HIDDEN}, In = 32, float, memory holding n states "
               f"(median of {max(reps) if reps else 1} repetitions). sarnn's default kernel set here: "
               f"{default or '?'}.")
    out.append("")
    vs = variant_order({r["variant"] for r in rows if r["kind"] == "step"})
    step = lambda v, n: find(rows, kind="step", align="dot", hidden=TABLE_HIDDEN, variant=v, n=n)  # noqa: E731
    out.append("| variant | " + " | ".join(f"n = {n}" for n in TABLE_N) + " |")
    out.append("|---|" + "---:|" * len(TABLE_N))
    for v in vs:
        cells = [fmt_time(step(v, n)["time_ns"]) if step(v, n) else "–" for n in TABLE_N]
        out.append(f"| {v} | " + " | ".join(cells) + " |")
    out.append("")
    out.append("Speed-up of ours over each peer (peer time / our time; above 1 means ours is faster):")
    out.append("")
    out.append("| ours | " + " | ".join(f"vs Eigen n={n}" for n in TABLE_N) + " | "
               + " | ".join(f"vs naive n={n}" for n in TABLE_N) + " |")
    out.append("|---|" + "---:|" * (2 * len(TABLE_N)))
    ratio = {}
    for v in vs:
        if not v.startswith("ours_"):
            continue
        cells = []
        for peer in ("eigen", "naive"):
            for n in TABLE_N:
                a, b = step(v, n), step(peer, n)
                x = b["time_ns"] / a["time_ns"] if a and b else float("nan")
                ratio[(v, peer, n)] = x
                cells.append(f"{x:.2f}x" if x == x else "–")
        out.append(f"| {v} | " + " | ".join(cells) + " |")
    out.append("")
    attn_tables(out, rows, fits, default)
    cell_ratio = cell_tables(out, rows, default)
    window_table(out, rows, default)
    peak_txt = ", ".join(f"{k} {v:.1f}" for k, v in sorted(peaks.items(), key=lambda kv: -kv[1])) or "not measured"
    out.append(f"The context computation alone (context/dot, Hidden = {TABLE_HIDDEN}): GFLOP/s (4·n·Hidden flops) "
               f"and fraction of the machine's measured FMA peak ({machine:.1f} GFLOP/s; peaks: {peak_txt}):")
    out.append("")
    ctx_n = (256, 1024, 4096)
    out.append("| variant | " + " | ".join(f"n = {n}" for n in ctx_n) + " |")
    out.append("|---|" + "---:|" * len(ctx_n))
    for v in vs:
        cells = []
        for n in ctx_n:
            r = find(rows, kind="context", align="dot", hidden=TABLE_HIDDEN, variant=v, n=n)
            cells.append(f"{r['gflops']:.1f} ({100 * r['fraction_of_machine_peak']:.0f}%)" if r else "–")
        out.append(f"| {v} | " + " | ".join(cells) + " |")
    out.append("")
    # Targets of issue 5, for sarnn's default kernel set.
    if default:
        out.append(f"Targets (ours = {default}):")
        out.append("")
        checks = [
            (f"step dot H{TABLE_HIDDEN} n=1024 vs Eigen", 1024,
             ratio.get((default, "eigen", 1024), float("nan")), 1.5),
            (f"step dot H{TABLE_HIDDEN} n=16 vs Eigen", 16, ratio.get((default, "eigen", 16), float("nan")), 1.2),
        ]
        for n in TABLE_N:
            checks.append((f"step dot H{TABLE_HIDDEN} n={n} vs naive", n, ratio.get((default, "naive", n),
                                                                                   float("nan")), 10.0))
        for cell in CELL_FAMILIES:
            checks.append((f"{CELL_LABEL[cell]} step H{TABLE_HIDDEN} vs Eigen", 0,
                           cell_ratio.get((cell, "eigen", TABLE_HIDDEN), float("nan")), 1.3))
        for label, n, x, goal in checks:
            if x == x:
                line = f"- {label}: {x:.2f}x (target >= {goal}x) {'met' if x >= goal else 'NOT met'}"
                r = step(default, n) if n else None
                if x < goal and r and r.get("gflops") and machine == machine:
                    # the rate a step would need to meet the target: our flops in peer time / goal
                    need = r["gflops"] * goal / x
                    line += f" (would need {need:.1f} GFLOP/s, {100 * need / machine:.0f}% of the FMA peak)"
                out.append(line)
            else:
                out.append(f"- {label}: not measured in this run")
        fr = [r["fraction_of_machine_peak"] for r in rows
              if r["kind"] == "context" and r["variant"] == default and r["n"] >= 256]
        if fr:
            out.append(f"- context at n >= 256, every Hidden: {100 * min(fr):.0f}%..{100 * max(fr):.0f}% of the FMA "
                       f"peak (target >= 50%) {'met' if min(fr) >= 0.5 else 'NOT met'}")
            l1 = peaks.get("fma_l1_avx512") if default == "ours_avx512" else None
            if l1:
                g = [r["gflops"] for r in rows
                     if r["kind"] == "context" and r["variant"] == default and r["n"] >= 256]
                out.append(f"  - the same against the ceiling of FMAs that each load their operand from L1 "
                           f"(peak/fma_l1_avx512, {l1:.1f} GFLOP/s = {100 * l1 / machine:.0f}% of the FMA peak; "
                           f"the context loads every stored value once per multiply-add): "
                           f"{100 * min(g) / l1:.0f}%..{100 * max(g) / l1:.0f}%")
        flat = window_spread(rows, default)
        if flat:
            worst_c, worst = max(flat.items(), key=lambda kv: kv[1])
            out.append(f"- Window memory once full: per-step time over C, 4C, 16C steps taken varies by at most "
                       f"{100 * worst:.1f}% (C = {worst_c}) (flat: < {100 * WINDOW_FLAT:.0f}%) "
                       f"{'met' if worst < WINDOW_FLAT else 'NOT met'}")
        rms = [f for f in fits if f["kind"] == "step" and f["variant"] == default and "rms" in f]
        if rms:
            worst = max(rms, key=lambda f: f["rms"])
            out.append(f"- per-step linear fit (Google Benchmark's oN, t = b·n) RMS, worst over Hidden and align: "
                       f"{100 * worst['rms']:.1f}% ({worst['family']}) (target < 10%) "
                       f"{'met' if worst['rms'] < 0.1 else 'NOT met'}; worst per Hidden: "
                       + ", ".join(f"H{h} {100 * max(f['rms'] for f in rms if f['hidden'] == h):.1f}%"
                                   for h in sorted({f["hidden"] for f in rms})))
            affine = [affine_fit(rows, "step", f["align"], f["hidden"], default) for f in rms]
            affine = [a for a in affine if a]
            if affine:
                w = max(affine, key=lambda a: a["rms"])
                out.append(f"  - t = a + b·n (a: the O(1) part of a step, the recurrent matrix-vector product), "
                           f"least squares: RMS worst {100 * w['rms']:.1f}% ({w['family']}); worst per Hidden: "
                           + ", ".join(f"H{h} {100 * max(a['rms'] for a in affine if a['hidden'] == h):.1f}%"
                                       for h in sorted({a["hidden"] for a in affine})))
    return "\n".join(out) + "\n"


def affine_fit(rows, kind, align, hidden, variant):
    """Least-squares t = a + b·n over one series; RMS of the residuals relative to the mean time, as Google
    Benchmark reports it for its own fits."""
    pts = sorted((r["n"], r["time_ns"]) for r in rows if r["kind"] == kind and r["align"] == align
                 and r["hidden"] == hidden and r["variant"] == variant)
    if len(pts) < 3:
        return None
    k = len(pts)
    sn = sum(n for n, _ in pts)
    st = sum(t for _, t in pts)
    snn = sum(n * n for n, _ in pts)
    snt = sum(n * t for n, t in pts)
    b = (k * snt - sn * st) / (k * snn - sn * sn)
    a = (st - b * sn) / k
    rms = math.sqrt(sum((t - a - b * n) ** 2 for n, t in pts) / k) / (st / k)
    return dict(family=f"{kind}/{align}/H{hidden}/{variant}", hidden=hidden, a=a, b=b, rms=rms)


def attn_tables(out, rows, fits, default):
    """The per-step time of the parameterised aligns and the LSTMN at TABLE_N, every variant, and the speed-up
    of sarnn's default kernel set over the peers. Returns {(family, peer, n): peer time / our time}."""
    ratio = {}
    present = [f for f in ATTN_FAMILIES if any(r["kind"] == "step" and r["align"] == f for r in rows)]
    if not present:
        return ratio
    step = lambda f, v, n: find(rows, kind="step", align=f, hidden=TABLE_HIDDEN, variant=v, n=n)  # noqa: E731
    out.append(f"Per-step time, the parameterised aligns and the LSTMN (K = 16), Hidden = {TABLE_HIDDEN}, In = 32, "
               f"float (the LSTMN at n attends over its n - 1 tape entries); the peers cache keys as the textbook "
               f"forms do (bench/naive_scored.hpp):")
    out.append("")
    out.append("| model | variant | " + " | ".join(f"n = {n}" for n in TABLE_N) + " | fit (oN) RMS |")
    out.append("|---|---|" + "---:|" * (len(TABLE_N) + 1))
    for f in present:
        for v in variant_order({r["variant"] for r in rows if r["kind"] == "step" and r["align"] == f}):
            cells = [fmt_time(step(f, v, n)["time_ns"]) if step(f, v, n) else "–" for n in TABLE_N]
            fit = next((x for x in fits if x["family"] == f"step/{f}/H{TABLE_HIDDEN}/{v}" and "rms" in x), None)
            cells.append(f"{100 * fit['rms']:.0f}%" if fit else "–")
            out.append(f"| {ATTN_LABEL.get(f, f)} | {v} | " + " | ".join(cells) + " |")
    out.append("")
    if default:
        out.append(f"Speed-up of {default} over each peer (peer time / our time):")
        out.append("")
        out.append("| model | " + " | ".join(f"vs Eigen n={n}" for n in TABLE_N) + " | "
                   + " | ".join(f"vs naive n={n}" for n in TABLE_N) + " |")
        out.append("|---|" + "---:|" * (2 * len(TABLE_N)))
        for f in present:
            cells = []
            for peer in ("eigen", "naive"):
                for n in TABLE_N:
                    a, b = step(f, default, n), step(f, peer, n)
                    x = b["time_ns"] / a["time_ns"] if a and b else float("nan")
                    ratio[(f, peer, n)] = x
                    cells.append(f"{x:.2f}x" if x == x else "–")
            out.append(f"| {ATTN_LABEL.get(f, f)} | " + " | ".join(cells) + " |")
        out.append("")
    return ratio


def cell_tables(out, rows, default):
    """The per-step time of the GRU and the LSTM at every Hidden measured, every variant, and the speed-up of
    sarnn's default kernel set over the peers. Returns {(cell, peer, hidden): peer time / our time}."""
    ratio = {}
    cell_rows = [r for r in rows if r["kind"] == "step" and r["align"] in CELL_FAMILIES]
    if not cell_rows:
        return ratio
    hiddens = sorted({r["hidden"] for r in cell_rows})
    step = lambda f, v, h: find(rows, kind="step", align=f, hidden=h, variant=v)  # noqa: E731
    out.append("Per-step time, the GRU and the LSTM, In = 32, float (bench/bench_cell.cpp; peers: "
               "bench/naive_cell.hpp, bench/eigen_cell.hpp):")
    out.append("")
    out.append("| model | variant | " + " | ".join(f"Hidden = {h}" for h in hiddens) + " |")
    out.append("|---|---|" + "---:|" * len(hiddens))
    for f in CELL_FAMILIES:
        for v in variant_order({r["variant"] for r in cell_rows if r["align"] == f}):
            cells = [fmt_time(step(f, v, h)["time_ns"]) if step(f, v, h) else "–" for h in hiddens]
            out.append(f"| {CELL_LABEL[f]} | {v} | " + " | ".join(cells) + " |")
    out.append("")
    if default:
        out.append(f"Speed-up of {default} over each peer (peer time / our time):")
        out.append("")
        out.append("| model | " + " | ".join(f"vs Eigen H{h}" for h in hiddens) + " | "
                   + " | ".join(f"vs naive H{h}" for h in hiddens) + " |")
        out.append("|---|" + "---:|" * (2 * len(hiddens)))
        for f in CELL_FAMILIES:
            cells = []
            for peer in ("eigen", "naive"):
                for h in hiddens:
                    a, b = step(f, default, h), step(f, peer, h)
                    x = b["time_ns"] / a["time_ns"] if a and b else float("nan")
                    ratio[(f, peer, h)] = x
                    cells.append(f"{x:.2f}x" if x == x else "–")
            out.append(f"| {CELL_LABEL[f]} | " + " | ".join(cells) + " |")
        out.append("")
    return ratio


def window_rows(rows):
    return [r for r in rows if r["kind"] == "window"]


def window_spread(rows, variant):
    """{C: max/min - 1 of the per-step time over the steps taken} for one variant."""
    spread = {}
    for c in sorted({r["capacity"] for r in window_rows(rows)}):
        ts = [r["time_ns"] for r in window_rows(rows) if r["capacity"] == c and r["variant"] == variant]
        if len(ts) > 1:
            spread[c] = max(ts) / min(ts) - 1.0
    return spread


def window_table(out, rows, default):
    """Per-step time of the full Window memory (dot align) against the steps already taken, sarnn's default
    kernel set, next to the Bounded step at n = C."""
    w = [r for r in window_rows(rows) if r["variant"] == default]
    if not w:
        return
    caps = sorted({r["capacity"] for r in w})
    out.append(f"Window memory once full (dot align, Hidden = {TABLE_HIDDEN}, {default}): time of one real step() "
               f"after S steps from reset(), timed over the next C steps; the Bounded step at n = C for comparison:")
    out.append("")
    out.append("| C | after C | after 4C | after 16C | spread | Bounded, n = C |")
    out.append("|---:|---:|---:|---:|---:|---:|")
    spread = window_spread(rows, default)
    for c in caps:
        cells = []
        for k in (1, 4, 16):
            r = find(w, capacity=c, n=k * c)
            cells.append(fmt_time(r["time_ns"]) if r else "–")
        cells.append(f"{100 * spread[c]:.1f}%" if c in spread else "–")
        b = find(rows, kind="step", align="dot", hidden=TABLE_HIDDEN, variant=default, n=c)
        cells.append(fmt_time(b["time_ns"]) if b else "–")
        out.append(f"| {c} | " + " | ".join(cells) + " |")
    out.append("")


def window_plot(rows, path, title):
    """One panel per capacity C: per-step time against the steps already taken, one line per kernel set,
    with the Bounded step at n = C of the same set as a dotted horizontal line."""
    w = window_rows(rows)
    caps = sorted({r["capacity"] for r in w})
    if not caps:
        return False
    fig, axes = plt.subplots(1, len(caps), figsize=(5.2 * len(caps), 4.4), squeeze=False)
    for ax, c in zip(axes.flat, caps):
        for i, v in enumerate(variant_order({r["variant"] for r in w if r["capacity"] == c})):
            pts = sorted((r["n"], r["time_ns"]) for r in w if r["capacity"] == c and r["variant"] == v)
            line, = ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=4, label=v)
            b = find(rows, kind="step", align="dot", hidden=TABLE_HIDDEN, variant=v, n=c)
            if b:
                ax.axhline(b["time_ns"], color=line.get_color(), linestyle=":", linewidth=1,
                           label=f"{v}, Bounded n = {c}" if i == 0 else None)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(f"Window, C = {c}")
        ax.set_xlabel("steps taken before the timed C steps")
        ax.set_ylabel("time per step (ns)")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=7)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def panel_plot(rows, kind, align, path, title, y, ylabel, logy=True, xlabel="n (states in memory)", hlines=()):
    sub = [r for r in rows if r["kind"] == kind and r["align"] == align]
    hiddens = sorted({r["hidden"] for r in sub})
    if not hiddens:
        return False
    cols = 2 if len(hiddens) > 1 else 1
    nrows = (len(hiddens) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(6.4 * cols, 4.4 * nrows), squeeze=False)
    for ax, h in zip(axes.flat, hiddens):
        for v in variant_order({r["variant"] for r in sub if r["hidden"] == h}):
            pts = sorted((r["n"], y(r)) for r in sub if r["hidden"] == h and r["variant"] == v)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", markersize=3, label=v,
                    **STYLE.get(v, {}))
        ax.set_xscale("log", base=2)
        if logy:
            ax.set_yscale("log")
        for value, label in hlines:
            ax.axhline(value, color="red", linewidth=0.8, linestyle="-.", label=label)
        ax.set_title(f"Hidden = {h}")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(ylabel)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    for ax in list(axes.flat)[len(hiddens):]:
        ax.set_visible(False)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return True


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 1
    src = argv[1]
    outdir = argv[2] if len(argv) > 2 else os.path.dirname(os.path.abspath(src))
    os.makedirs(outdir, exist_ok=True)
    ctx, rows, fits = load(src)
    peaks, machine = add_peaks(rows)
    fields = ["kind", "align", "hidden", "variant", "n", "capacity", "time_ns", "gflops", "items_per_second",
              "peak_isa",
              "isa_peak_gflops", "fraction_of_isa_peak", "fraction_of_machine_peak", "repetitions"]
    write_csv(os.path.join(outdir, "sarnn_bench.csv"), rows, fields)
    write_csv(os.path.join(outdir, "complexity.csv"), fits,
              ["family", "kind", "align", "hidden", "variant", "big_o", "coefficient_ns", "rms"])
    cpu = ctx.get("cpu_model", "")
    for align in ("dot", "scaled_dot"):
        panel_plot(rows, "step", align, os.path.join(outdir, f"step_time_{align}.png"),
                   f"sarnn_bench: one step at memory length n, {align} align, In=32, float ({cpu})",
                   lambda r: r["time_ns"], "time per step (ns)")
    for fam in ATTN_FAMILIES:
        what = "LSTMN step (attends over n - 1 tape entries)" if fam.startswith("lstmn") else f"one step, {fam} align"
        panel_plot(rows, "step", fam, os.path.join(outdir, f"step_time_{fam}.png"),
                   f"sarnn_bench: {what}, K=16, In=32, float\n({cpu})", lambda r: r["time_ns"],
                   "time per step (ns)")
    window_plot(rows, os.path.join(outdir, "window_time.png"),
                f"sarnn_bench: Window memory once full, dot align, Hidden={TABLE_HIDDEN}, In=32, float ({cpu})")
    panel_plot(rows, "context", "dot", os.path.join(outdir, "context_time.png"),
               f"sarnn_bench: context alone over n states (scores, softmax, weighted sum) ({cpu})",
               lambda r: r["time_ns"], "time (ns)")
    panel_plot(rows, "context", "dot", os.path.join(outdir, "fraction_of_peak.png"),
               f"sarnn_bench: context GFLOP/s / machine FMA peak ({machine:.0f} GFLOP/s) ({cpu})",
               lambda r: r["fraction_of_machine_peak"], "fraction of peak", logy=False,
               hlines=[(peaks["fma_l1_avx512"] / machine, "FMAs fed from L1 (peak/fma_l1_avx512)")]
               if "fma_l1_avx512" in peaks else ())
    panel_plot(rows, "sequence", "dot", os.path.join(outdir, "sequence_time.png"),
               f"sarnn_bench: whole sequence of N steps from reset(), dot align ({cpu})",
               lambda r: r["time_ns"] / 1e3, "time (µs)", xlabel="N (steps)")
    text = table(ctx, rows, fits, peaks, machine)
    with open(os.path.join(outdir, "table.md"), "w") as f:
        f.write(text)
    print(text, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
