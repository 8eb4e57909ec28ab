#!/usr/bin/python3
"""tests/package/config_targets.py --source DIR --clang CLANG: the kernel sets the packages' config.hpp
(packaging/include/sarnn/config.hpp) picks for cores whose compilers are not installed here, from clang's predefined
macros for each (clang targets every one of them; only the preprocessor runs, so no C library is needed). The cores
and the sets they must get are those docs/build.md ("Packages") lists; Xtensa (ESP32, S3) is missing: clang 14 has
no Xtensa target. Exit status 77 (ctest: skipped) without clang."""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

SOFT = "X(scalar, Scalar, scalar) X(cortex_m0, CortexM0, scalar)"
HARD = SOFT + " X(cortex_m, CortexM, scalar)"
CORES = [  # (core, clang flags, SARNN_SETS, SARNN_BUILD_DEFAULT_SET)
    ("Cortex-M0+", "--target=thumbv6m-none-eabi -mcpu=cortex-m0plus -mfloat-abi=soft", SOFT, "CortexM0"),
    ("Cortex-M3", "--target=thumbv7m-none-eabi -mcpu=cortex-m3 -mfloat-abi=soft", SOFT, "CortexM0"),
    ("Cortex-M4 soft float", "--target=thumbv7em-none-eabi -mcpu=cortex-m4 -mfloat-abi=soft", SOFT, "CortexM0"),
    ("Cortex-M4F", "--target=thumbv7em-none-eabihf -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=hard", HARD,
     "CortexM"),
    ("Cortex-M4F softfp", "--target=thumbv7em-none-eabi -mcpu=cortex-m4 -mfpu=fpv4-sp-d16 -mfloat-abi=softfp", HARD,
     "CortexM"),
    ("Cortex-M7", "--target=thumbv7em-none-eabihf -mcpu=cortex-m7 -mfpu=fpv5-d16 -mfloat-abi=hard", HARD, "CortexM"),
    ("Cortex-M33", "--target=thumbv8m.main-none-eabihf -mcpu=cortex-m33 -mfloat-abi=hard", HARD, "CortexM"),
    ("Cortex-M55", "--target=thumbv8.1m.main-none-eabihf -mcpu=cortex-m55 -mfloat-abi=hard", HARD, "CortexM"),
    ("ESP32-C3/C6 (rv32imc)", "--target=riscv32-unknown-elf -march=rv32imc -mabi=ilp32", SOFT, "CortexM0"),
    ("RISC-V with F (rv32imafc)", "--target=riscv32-unknown-elf -march=rv32imafc -mabi=ilp32f", HARD, "CortexM"),
    ("RP2040 (Cortex-M0+)", "--target=thumbv6m-none-eabi -mcpu=cortex-m0plus", SOFT, "CortexM0"),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("--clang", default="clang++")
    args = ap.parse_args()
    if not shutil.which(args.clang):
        print(f"SARNN-SKIP: the packages' config.hpp for other cores ({args.clang} not found)")
        sys.exit(77)
    config = args.source / "packaging/include/sarnn/config.hpp"
    failed = 0
    for core, flags, sets, default in CORES:
        out = subprocess.run([args.clang, *flags.split(), "-std=c++17", "-E", "-dM", "-x", "c++", str(config)],
                             capture_output=True, text=True, check=True).stdout
        got_sets = " ".join(re.search(r"^#define SARNN_SETS\(X\) (.*)$", out, re.M).group(1).split())
        got_default = re.search(r"^#define SARNN_BUILD_DEFAULT_SET (\S+)", out, re.M).group(1)
        ok = got_sets == sets and got_default == default
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'}  {core:28} default {got_default:9} sets {got_sets}")
    if failed:
        sys.exit(f"{failed} core(s) get other kernel sets than docs/build.md says")


if __name__ == "__main__":
    main()
