#!/usr/bin/env bash
# tests/nocmake/check.sh TARGET SOURCE WORK GENERATED PROGRAM
# Runs the "Without CMake" lines of docs/build.md for TARGET (host or m4f) exactly as they are written there: the
# blocks after the markers "<!-- without-cmake: TARGET-config -->" (saved as WORK/config/sarnn/config.hpp) and
# "<!-- without-cmake: TARGET-build -->" (run by bash -e in WORK, with SARNN=SOURCE and PROGRAM copied to
# WORK/main.cpp). The config's #define lines must be those of GENERATED, the config.hpp CMake wrote for the same
# target, so that docs/build.md follows cmake/SarnnArch.cmake. Passes when every line succeeds; the last line runs
# the program, whose exit status is its verdict (the firmware's reaches the host through semihosting).
set -euo pipefail
target=$1 src=$2 work=$3 generated=$4 program=$5

# block NAME: the fenced block after docs/build.md's marker of NAME (empty when the marker is missing)
block() {
  awk -v marker="<!-- without-cmake: $1 -->" '
    $0 == marker { found = 1; next }
    found && /^```/ { if (inside) exit; inside = 1; next }
    found && inside { print }' "$src/docs/build.md"
}

rm -rf "$work"
mkdir -p "$work/config/sarnn"
block "$target-config" >"$work/config/sarnn/config.hpp"
block "$target-build" >"$work/build.sh"
for f in "$work/config/sarnn/config.hpp" "$work/build.sh"; do
  [[ -s $f ]] || {
    echo "docs/build.md: no block after <!-- without-cmake: $target-... --> for $(basename "$f")"
    exit 1
  }
done
if ! diff <(grep '^#define' "$generated") <(grep '^#define' "$work/config/sarnn/config.hpp"); then
  echo "docs/build.md's $target config.hpp (>) differs from the one CMake wrote for this target, $generated (<)"
  exit 1
fi
cp "$program" "$work/main.cpp"
cd "$work"
echo "== docs/build.md lines ($target), in $work with SARNN=$src"
SARNN=$src bash -ex build.sh
echo "== ok: docs/build.md's $target lines built the library and main.cpp, which ran and passed"
