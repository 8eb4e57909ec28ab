#!/usr/bin/python3
"""tests/package/config_check.py --source DIR --generated FILE --cxx CXX --cpu FLAGS: the packages' config.hpp
(packaging/include/sarnn/config.hpp, which decides from the compiler's predefined macros) says, for this core, what
CMake's configure wrote for it (FILE: the build's include/sarnn/config.hpp, from cmake/SarnnArch.cmake's checks):
every macro of FILE, preprocessed with the core's flags (-E -dM), has the same value. Also: the packages' config stops
a C++14 build with its #error naming C++17."""
import argparse
import re
import shlex
import subprocess
import sys
from pathlib import Path


def macros(text):
    """NAME -> body of the #define lines of text (whitespace folded)."""
    out = {}
    for name, body in re.findall(r"^\s*#\s*define\s+([A-Za-z_][A-Za-z0-9_]*(?:\([^)]*\))?)(.*)$", text, re.M):
        out[name] = " ".join(body.split())
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--source", type=Path, required=True)
    ap.add_argument("--generated", type=Path, required=True)
    ap.add_argument("--cxx", required=True)
    ap.add_argument("--cpu", required=True)
    args = ap.parse_args()
    portable = args.source / "packaging/include/sarnn/config.hpp"
    cmd = [args.cxx, *shlex.split(args.cpu), "-std=gnu++17", "-E", "-dM", "-x", "c++", str(portable)]
    got = macros(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    want = macros(args.generated.read_text())
    want.pop("SARNN_CONFIG_HPP", None)
    bad = [f"  {k}: CMake's '{v}', the packages' '{got.get(k)}'" for k, v in sorted(want.items()) if got.get(k) != v]
    for k, v in sorted(want.items()):
        print(f"{'ok  ' if got.get(k) == v else 'FAIL'}  {k} {v}")
    old = subprocess.run([args.cxx, *shlex.split(args.cpu), "-std=gnu++14", "-fsyntax-only", "-x", "c++", str(portable)],
                         capture_output=True, text=True)
    refused = old.returncode != 0 and "sarnn needs C++17" in old.stderr
    print(f"{'ok  ' if refused else 'FAIL'}  -std=gnu++14 stops at the #error \"sarnn needs C++17 ...\"")
    if bad or not refused:
        sys.exit("packaging/include/sarnn/config.hpp differs from CMake's config.hpp for this core:\n" + "\n".join(bad))
    print(f"ok: the packages' config.hpp is CMake's {args.generated} for {args.cpu}")


if __name__ == "__main__":
    main()
