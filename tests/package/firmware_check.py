#!/usr/bin/python3
"""tests/package/firmware_check.py MODE ...: builds a package of scripts/package the way its tool builds a library, for
one Cortex-M core, links it into a program and runs that under qemu-system-arm (semihosting).

  platformio  library.json read as PlatformIO reads it: the files of build.srcDir that build.srcFilter selects (its
              +<glob>/-<glob> in order, ** recursive, a folder meaning every file under it; .c/.cpp/.S only),
              compiled with build.flags (-I relative to the library) and build.includeDir and build.srcDir on the
              path; the program (--program, examples/firmware/main.cpp) sees those two folders.
  arduino     the zip unpacked, every .c/.cpp/.S under src/ compiled with -I src (the Arduino builder's rule for a
              1.5-format library), and the example sketch compiled as the builder compiles a sketch (its .ino as
              C++ after #include <Arduino.h>) against tests/package/arduino/ (a stand-in Arduino.h and main());
              first, a file of src/ compiled with -std=gnu++14 (a core without C++17) must stop at sarnn's #error.

Passes when every file compiles with the project's warnings as errors, the program exits 0 after printing
"N passed, 0 failed" (N >= 1), and its ELF holds the functions of the kernel set --expect-set and of no other
Cortex-M set (the core's default one, chosen by packaging/include/sarnn/config.hpp).
"""
import argparse
import json
import re
import shlex
import subprocess
import sys
import zipfile

sys.dont_write_bytecode = True  # nothing written into the checkout
from pathlib import Path

from pio_filter import SOURCE_EXTS, pio_select

HERE = Path(__file__).resolve().parent
WARNINGS = ["-Wall", "-Wextra", "-Wpedantic", "-Werror", "-Wshadow", "-Wconversion", "-Wno-sign-conversion",
            "-Wdouble-promotion", "-Wcast-align"]


def run(cmd, **kw):
    print("+ " + " ".join(shlex.quote(str(c)) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kw)


def compile_all(cxx, common, sources, objdir):
    objs = []
    for src in sources:
        obj = objdir / f"{len(list(objdir.iterdir())):02d}_{Path(src).stem}.o"
        lang = ["-x", "c++"] if str(src).endswith(".ino") else []
        run([cxx, *common, *lang, "-c", src, "-o", obj])
        objs.append(obj)
    return objs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["platformio", "arduino"])
    ap.add_argument("--source", type=Path, required=True, help="the sarnn checkout")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--cpu", required=True, help="-mcpu/-mfloat-abi/-mfpu of the core")
    ap.add_argument("--link", required=True, help="linker flags (memory map, crt0)")
    ap.add_argument("--emulator", required=True, help="qemu command up to -kernel, words separated by |")
    ap.add_argument("--program", type=Path, help="platformio: the program linked with the library")
    ap.add_argument("--expect-set", required=True, help="the kernel set the program must run: CortexM or CortexM0")
    ap.add_argument("--cxx", default="arm-none-eabi-g++")
    ap.add_argument("--nm", default="arm-none-eabi-nm")
    args = ap.parse_args()

    work = args.work.resolve()
    subprocess.run(["rm", "-rf", str(work)], check=True)
    objdir = work / "obj"
    objdir.mkdir(parents=True)
    run([sys.executable, args.source / "scripts/package", "--out", work / "out"], stdout=subprocess.DEVNULL)
    base = [*shlex.split(args.cpu), "-Os", "-DNDEBUG", "-ffunction-sections", "-fdata-sections",
            "--specs=picolibc.specs", "-fno-exceptions", "-fno-rtti", "-fno-threadsafe-statics", *WARNINGS]

    if args.mode == "platformio":
        pkg = work / "out/platformio/sarnn"
        build = json.loads((pkg / "library.json").read_text())["build"]
        src_dir, inc_dir = pkg / build["srcDir"], pkg / build["includeDir"]
        flags = []
        for f in build.get("flags", []):
            words = shlex.split(f)
            if words[0] == "-I":  # PlatformIO: -I paths are relative to the library's folder
                words = ["-I", str(pkg / words[1])]
            flags += words
        flags = [f for f in flags if f not in build.get("unflags", [])]
        sources = [src_dir / s for s in pio_select(src_dir, build["srcFilter"])]
        print("PlatformIO's srcFilter selects: " + " ".join(str(s.relative_to(src_dir)) for s in sources))
        objs = compile_all(args.cxx, base + flags + ["-I", inc_dir, "-I", src_dir], sources, objdir)
        objs += compile_all(args.cxx, base + ["-std=gnu++17", "-I", inc_dir, "-I", src_dir], [args.program], objdir)
    else:
        ver = re.search(r"^version=(.*)$", (work / "out/arduino/sarnn/library.properties").read_text(), re.M).group(1)
        with zipfile.ZipFile(work / f"out/sarnn-arduino-{ver}.zip") as z:
            z.extractall(work / "unzipped")
        lib = work / "unzipped/sarnn"
        src = lib / "src"
        sources = sorted(p for p in src.rglob("*") if p.suffix in SOURCE_EXTS)
        print("the Arduino builder compiles: " + " ".join(str(s.relative_to(src)) for s in sources))
        # a core that compiles C++14 (STM32duino, the Mbed cores) or older must stop at sarnn's #error, saying why
        old = subprocess.run([args.cxx, *base, "-std=gnu++14", "-I", str(src), "-fsyntax-only", str(sources[0])],
                             capture_output=True, text=True)
        if old.returncode == 0 or "sarnn needs C++17" not in old.stderr:
            sys.exit(f"-std=gnu++14: no #error \"sarnn needs C++17\" from {sources[0]}:\n{old.stderr[:2000]}")
        print("ok: with -std=gnu++14 the library stops at its #error \"sarnn needs C++17 ...\"")
        lib_flags = base + ["-std=gnu++17", "-I", src]
        objs = compile_all(args.cxx, lib_flags, sources, objdir)
        sketches = sorted(lib.glob("examples/*/*.ino"))
        if not sketches:
            sys.exit("no examples/<name>/<name>.ino in the Arduino library")
        sketch_flags = lib_flags + ["-I", HERE / "arduino", "-include", "Arduino.h"]
        objs += compile_all(args.cxx, sketch_flags, [sketches[0]], objdir)
        objs += compile_all(args.cxx, lib_flags + ["-I", HERE / "arduino"], [HERE / "arduino/main.cpp"], objdir)

    elf = work / "program.elf"
    run([args.cxx, *shlex.split(args.cpu), "--specs=picolibc.specs", *objs, "-o", elf, *shlex.split(args.link)])
    out = subprocess.run([*args.emulator.split("|"), str(elf)], capture_output=True, text=True, timeout=120)
    text = out.stdout + out.stderr  # semihosting's output comes on either, depending on qemu's version
    print(text)
    if out.returncode != 0 or not re.search(r"(^|\n)[1-9][0-9]* passed, 0 failed", text):
        sys.exit(f"{elf}: exit status {out.returncode}, or no \"N passed, 0 failed\" line")

    names = subprocess.run([args.nm, "-C", str(elf)], capture_output=True, text=True, check=True).stdout
    sets = set(re.findall(r"sarnn::kernel::(CortexM0|CortexM)::", names))
    # the CortexM set's forms shaped at compile time (kernels/cortex_m/shaped.hpp) are that set's code too: an image
    # whose every kernel is shaped holds no run-time CortexM:: symbol
    if re.search(r"sarnn::kernel::cortex_m::Shaped::", names):
        sets.add("CortexM")
    if sets != {args.expect_set}:
        sys.exit(f"{elf}: runs the kernel sets {sorted(sets)}, expected {args.expect_set} alone")
    print(f"ok: the {args.mode} package built, ran under qemu and used the {args.expect_set} kernel set")


if __name__ == "__main__":
    main()
