#!/usr/bin/env python3
"""tools/footprint/footprint_report.py: flash, RAM and step() stack of sarnn's reference models on a Cortex-M.

Run by the CMake target `sarnn_footprint` (and the ctest test of the same name) with the ELFs built from
footprint.cpp: a baseline (start-up, semihosting printf, the input loop; no model) and one ELF per model.

  flash  = .init + .text (code and read-only data: picolibc.ld puts .rodata in .text) + the load image of .data
  RAM    = .data + .bss (+ TLS), without the stack reserve (.stack)
  model cost = model ELF minus baseline ELF, from `arm-none-eabi-size -A`
  step() stack, static: from the -fstack-usage / -fcallgraph-info=su files of sarnn and of the footprint
         program: do_step() (step() inlined into it) plus its deepest call chain. step() calls its kernels
         directly (the model's kernel set is a compile-time policy); the kernels each model calls are named on
         the command line (CMake: "name" a float kernel of the set, "Q15::name" one of kernel::Q15, the q15
         models') and checked to be reached from do_step(). libm/libgcc functions (expf, tanhf, ...) were not
         compiled here and count 0.
  q15 models: measured against a second baseline, the same program with q15 input (raw int16 from integers).
  step() stack, measured: the ELF run under qemu paints the free stack, steps the model Capacity times
         and reports the lowest word that changed (libm included).
"""
import argparse
import os
import re
import subprocess
import sys


# The parts that Helium's inlined shaped forms call (include/sarnn/kernels/mve/shaped.hpp), by the kernel they make.
MVE_SHAPED_PARTS = {"affine_tanh": ["rows_product"], "gemv": ["rows_product"], "gemv_add": ["rows_product"],
                    "attend_dot": ["dot_scores"]}


def run(cmd, **kw):
    return subprocess.run(cmd, check=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw).stdout


FLASH = (".init", ".text", ".rodata", ".ARM.exidx", ".ARM.extab", ".data", ".tdata")
RAM = (".data", ".tdata", ".bss", ".tbss_space", ".noinit", ".preserve")


def sections(size_tool, elf):
    out = {}
    for line in run([size_tool, "-A", elf]).splitlines():
        m = re.match(r"^(\.\S+)\s+(\d+)\s+(\d+)", line)
        if m:
            out[m.group(1)] = int(m.group(2))
    return out


def flash_ram(secs):
    return sum(secs.get(s, 0) for s in FLASH), sum(secs.get(s, 0) for s in RAM)


def symbols(nm_tool, elf):
    """name -> size of every sized symbol (demangled)."""
    out = {}
    for line in run([nm_tool, "-C", "-S", "--size-sort", elf]).splitlines():
        parts = line.split(None, 3)
        if len(parts) == 4:
            out[parts[3]] = int(parts[1], 16)
    return out


def is_weights(name):
    """The const params objects of footprint.cpp (kParams, kAlignParams)."""
    return re.search(r"::k(Align)?Params$", name) is not None


def run_elf(emulator, elf, timeout=60):
    p = subprocess.run(emulator + [elf], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       timeout=timeout)
    vals = dict(re.findall(r"footprint: ([a-z() ]+?) (\d+)\s*$", p.stdout, re.M))
    if p.returncode != 0:
        raise SystemExit(f"footprint: {elf} exited with {p.returncode}:\n{p.stdout}")
    return {k: int(v) for k, v in vals.items()}


# ---- static stack from -fcallgraph-info=su (.ci files, VCG) ---------------------------------------------


def load_callgraph(ci_files, cxxfilt):
    text = ""
    for f in ci_files:
        with open(f) as fh:
            text += fh.read() + "\n"
    text = run([cxxfilt], input=text)
    strip = re.compile(r"^[^ :]+\.(?:cpp|cc|cxx|c|hpp|h):(?!:)")
    norm = lambda t: strip.sub("", t)
    frames, edges = {}, {}
    for m in re.finditer(r'node: \{ title: "(.*?)" label: "(.*?)"', text):
        title, label = norm(m.group(1)), m.group(2)
        s = re.search(r"\\n(\d+) bytes \((\w+)\)", label)
        if s:
            frames[title] = (int(s.group(1)), s.group(2))
    for m in re.finditer(r'edge: \{ sourcename: "(.*?)" targetname: "(.*?)"', text):
        edges.setdefault(norm(m.group(1)), set()).add(norm(m.group(2)))
    return frames, edges


def deepest(root, frames, edges, indirect):
    """(bytes, path, unanalysed callees, notes) of the deepest chain from root."""
    memo, unknown, notes = {}, set(), set()

    def cost(fn, stack):
        if fn in memo:
            return memo[fn]
        if fn in stack:
            notes.add("recursion: " + fn)
            return 0, [fn]
        if fn == "__indirect_call":
            best = (0, [fn])
            for t in indirect:
                c, p = cost(t, stack | {fn})
                if c > best[0]:
                    best = (c, ["(indirect) " + p[0]] + p[1:])
            memo[fn] = best
            return best
        if fn not in frames:
            unknown.add(fn)
            return 0, [fn]
        own, kind = frames[fn]
        if kind != "static":
            notes.add(f"{kind} frame: {fn}")
        best = (0, [])
        for callee in sorted(edges.get(fn, ())):
            c, p = cost(callee, stack | {fn})
            if c > best[0] or not best[1]:
                best = (c, p)
        memo[fn] = (own + best[0], [fn] + best[1])
        return memo[fn]

    total, path = cost(root, frozenset())
    return total, path, unknown, notes


def short(name, width=90):
    """The name without its parameter list (the last balanced "(...)") and return type."""
    end = name.rstrip()
    if end.endswith(" const"):
        end = end[:-6]
    if end.endswith(")"):
        depth = 0
        for i in range(len(end) - 1, -1, -1):
            depth += {")": 1, "(": -1}.get(end[i], 0)
            if depth == 0:
                name = end[:i] + "()"
                break
    depth, cut = 0, 0
    for i, ch in enumerate(name):  # drop a return type: the last space outside <...>
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if ch == " " and depth == 0 and "(" not in name[:i]:
            cut = i + 1
    name = name[cut:]
    return name if len(name) <= width else name[: width - 3] + "..."


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--core", required=True)
    ap.add_argument("--compiler", default="")
    ap.add_argument("--flags", default="")
    ap.add_argument("--size", required=True)
    ap.add_argument("--nm", required=True)
    ap.add_argument("--cxxfilt", required=True)
    ap.add_argument("--emulator", default="", help="'|'-separated command that runs an ELF (empty: no run)")
    ap.add_argument("--baseline", required=True)
    ap.add_argument("--variant", action="append", default=[],
                    help="label=ELF=dir with its .ci files=kernels its step() calls (comma-separated)"
                         "[=its baseline ELF, if not --baseline]")
    ap.add_argument("--skipped", action="append", default=[], help="a variant left out, and why")
    ap.add_argument("--lib-ci-dir", required=True, help="object dir of the sarnn library (its .ci files)")
    ap.add_argument("--markdown", help="also write the table here")
    args = ap.parse_args()
    emulator = [a for a in args.emulator.split("|") if a]

    def ci_files(d):
        return [os.path.join(r, f) for r, _, fs in os.walk(d) for f in fs if f.endswith(".ci")]

    lib_ci = ci_files(args.lib_ci_dir)
    if not lib_ci:
        raise SystemExit(f"footprint: no .ci files under {args.lib_ci_dir} (sarnn built without -fcallgraph-info?)")

    bf, br = flash_ram(sections(args.size, args.baseline))
    base_run = run_elf(emulator, args.baseline) if emulator else {}
    baselines = {args.baseline: (bf, br, symbols(args.nm, args.baseline))}
    rows, details = [], []
    for spec in args.variant:
        label, elf, objdir, kernels, *base = spec.split("=", 4)
        base_elf = base[0] if base else args.baseline
        if base_elf not in baselines:
            bfr = flash_ram(sections(args.size, base_elf))
            baselines[base_elf] = (bfr[0], bfr[1], symbols(args.nm, base_elf))
        vbf, vbr, base_syms = baselines[base_elf]
        secs = sections(args.size, elf)
        f, r = flash_ram(secs)
        syms = symbols(args.nm, elf)
        sarnn_code = sum(s for n, s in syms.items() if "sarnn::" in n and not is_weights(n) and "g_model" not in n
                         and n not in base_syms)
        weights = sum(s for n, s in syms.items() if is_weights(n))
        model_obj = sum(s for n, s in syms.items() if "g_model" in n)
        libm = sum(s for n, s in syms.items() if n not in base_syms and "sarnn::" not in n and not is_weights(n)
                   and "g_model" not in n and "do_step" not in n)
        frames, edges = load_callgraph(lib_ci + ci_files(objdir), args.cxxfilt)
        root = next((n for n in frames if re.search(r"\bdo_step\(", n)), None)
        if root is None:
            raise SystemExit(f"footprint: no do_step() in the call graph of {objdir}")
        # step() calls its kernels directly: each one named must be in the call graph under do_step()
        reach, todo = set(), [root]
        while todo:
            fn = todo.pop()
            if fn not in reach:
                reach.add(fn)
                todo += sorted(edges.get(fn, ()))
        indirect = []
        for k in kernels.split(","):
            # "name": a float kernel of the model's set; "Q15::name": kernel::Q15's (a q15 model's), which is
            # Q15Set<TargetLoops> (kernels_q15.hpp), any template arguments after the name, or its forms by stride
            # and shaped forms name_at<...> (attend_dot_at<(Q15Stride)32>, affine_tanh_at<32u, 16u, 32u>: the latter
            # the models' where the q15 loops are chosen at compile time, include/sarnn/kernels/q15/target.hpp) and
            # name_shaped<...> (attend_dot_shaped<32u, (Q15Stride)32>: where those loops have scores by size)
            if k.startswith("Q15::"):
                pat = r"sarnn::kernel::Q15Set<sarnn::kernel::TargetLoops>::%s(?:_at|_shaped)?(<.*?>)?\(" % re.escape(
                    k[len("Q15::"):])
            elif "::" in k:
                pat = r"sarnn::kernel::%s\(" % re.escape(k)
            else:
                # the set's run-time operation (sarnn::kernel::CortexM::affine_tanh(float const*, ...)) or its shaped
                # form (sarnn::kernel::cortex_m::Shaped::affine_tanh<32u, 16u, 32u>(float const*, ...)); Helium's shaped
                # forms are inlined into the model and call their parts (kernels/mve/shaped.hpp): those name the kernel
                names = [k] + MVE_SHAPED_PARTS.get(k, [])
                pat = r"sarnn::kernel::(?:\w+::)+(?:%s)(?:<[^>]*>)?\([^)]*float" % "|".join(map(re.escape, names))
            found = [n for n in reach if re.search(pat, n)]
            if not found:
                raise SystemExit(f"footprint: kernel {k} not called from do_step() in sarnn's call graph")
        st, path, unknown, notes = deepest(root, frames, edges, indirect)
        measured = run_elf(emulator, elf) if emulator else {}
        rows.append((label, f - vbf, r - vbr, measured.get("sizeof(model)"), st, measured.get("stack below main"),
                     weights, sarnn_code, libm))
        details.append((label, [(fn, frames.get(fn.replace("(indirect) ", ""), (0, ""))[0]) for fn in path],
                        unknown, notes, f, r))

    title = f"sarnn footprint on {args.core}"
    lines = [title, "=" * len(title), f"compiler: {args.compiler}", f"flags: {args.flags}", "",
             f"baseline (start-up, semihosting printf, input loop; no model): flash {bf} B, RAM {br} B "
             f"(+ the stack reserve)"]
    for elf, (f, r, _) in baselines.items():
        if elf != args.baseline:
            lines.append(f"  {os.path.basename(elf)} (the same with the input in q15): flash {f} B, RAM {r} B")
    lines += [""]
    hdr = (f"{'model (In 16, Hidden 32, Capacity 64; float or q15)':<52} {'flash':>7} {'RAM':>7} {'sizeof':>7} "
           f"{'stack static':>12} {'measured':>9}   flash = weights + sarnn code + libm etc.")
    lines += [hdr, "-" * len(hdr)]
    for label, df, dr, so, st, ms, w, code, libm in rows:
        lines.append(f"{label:<52} {df:>7} {dr:>7} {so if so is not None else '-':>7} {st:>12} "
                     f"{ms if ms is not None else '-':>9}   {w} + {code} + {libm}")
    for sk in args.skipped:
        lines.append(f"{'(left out) ' + sk}")
    lines += ["", "flash, RAM: bytes the model adds to the baseline (arm-none-eabi-size -A);"
              " sizeof: the model object (in RAM);",
              "stack static: deepest step() chain from -fstack-usage, libm not counted;"
              " measured: stack painting under qemu, libm included.", ""]
    for label, path, unknown, notes, f, r in details:
        lines.append(f"{label}: total flash {f} B, RAM {r} B; deepest static chain:")
        for fn, own in path:
            tag = "(indirect) " if fn.startswith("(indirect) ") else ""
            lines.append(f"    {own:>5} B  {tag}{short(fn[len(tag):])}")
        if unknown:
            lines.append("    not analysed (no stack info: libm/libgcc/libc): " + ", ".join(sorted(unknown)))
        for n in sorted(notes):
            lines.append("    note: " + n)
    print("\n".join(lines))

    if args.markdown:
        md = [f"| {args.core}: model (In 16, Hidden 32, Capacity 64; float or q15) | flash B (weights + code) "
              f"| RAM B (the model object) | step() stack B (static / measured) |", "|---|---:|---:|---:|"]
        for label, df, dr, so, st, ms, w, code, libm in rows:
            md.append(f"| {label} | {df} ({w} + {df - w}) | {dr} ({so if so is not None else '-'}) "
                      f"| {st} / {ms if ms is not None else '-'} |")
        for sk in args.skipped:
            label, why = sk.split(": ", 1)
            md.append(f"| {label} | - | - ({why}) | - |")
        md.append(f"| baseline program without a model (start-up, printf) | {bf} | {br} | - |")
        for elf, (f, r, _) in baselines.items():
            if elf != args.baseline:
                md.append(f"| the same, input in q15 (the q15 models' baseline) | {f} | {r} | - |")
        with open(args.markdown, "w") as fh:
            fh.write("\n".join(md) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
