#!/usr/bin/env bash
# examples/pytorch_recall/run.sh: the whole example by hand, in about a minute on 2 cores:
#   1. train.py trains a SimpleRNN and two SelfAttentionRNNs in PyTorch (prints the accuracies, the q15 one too)
#   2. python3 -m sarnn.export writes the bilinear attention model as a C++ header, and with --quantize int8 the
#      scaled_dot one and the bilinear one as q15 headers (int8 weights, int16 activations)
#   3. the host: the library (cmake), then recall.cpp compiled with g++ against it, and run
#   4. the firmware, when arm-none-eabi-g++, picolibc and qemu-system-arm are there (scripts/deps cross
#      firmware): the same recall.cpp for the Cortex-M4F, run under qemu-system-arm
#   5. the predictions side by side: PyTorch, sarnn on the host, sarnn on the Cortex-M4F
# Everything goes to build/pytorch_recall (OUT=... for another folder). SEED=n trains with another seed.
# The cmake builds run CMAKE_BUILD_PARALLEL_LEVEL jobs (default 2).
# Exit status 0 only when every prediction equals PyTorch's (the q15 model's: its Python twin's).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-$root/build/pytorch_recall}
seed=${SEED:-0}
jobs=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
py=${PYTHON:-/usr/bin/python3}   # Debian's python3 with python3-torch (scripts/deps python)
start=$SECONDS
mkdir -p "$out"
out=$(cd "$out" && pwd)

if ! "$py" -c 'import torch, numpy' 2>/dev/null; then
  echo "run.sh: $py cannot import torch and numpy (scripts/deps python installs python3-torch)" >&2
  exit 1
fi
say() { printf '\n== %s (t = %d s)\n' "$*" $((SECONDS - start)); }

say "1. train in PyTorch: $py examples/pytorch_recall/train.py --seed $seed"
"$py" "$here/train.py" --out-dir "$out" --seed "$seed"

say "2. export: python3 -m sarnn.export recall_attention.pt --name recall_model --capacity 40"
PYTHONPATH="$root/python" PYTHONDONTWRITEBYTECODE=1 "$py" -m sarnn.export "$out/recall_attention.pt" \
  --name recall_model --out "$out/recall_model.hpp" --capacity 40 --dtype float
say "2b. export q15: python3 -m sarnn.export recall_q15.pt --quantize int8 --calibration recall_calibration.pt ..."
PYTHONPATH="$root/python" PYTHONDONTWRITEBYTECODE=1 "$py" -m sarnn.export "$out/recall_q15.pt" --quantize int8 \
  --calibration "$out/recall_calibration.pt" --name recall_q15 --out "$out/recall_q15.hpp" --capacity 40
say "2c. export q15: python3 -m sarnn.export recall_attention.pt --quantize int8 --calibration recall_bilinear_calibration.pt ..."
PYTHONPATH="$root/python" PYTHONDONTWRITEBYTECODE=1 "$py" -m sarnn.export "$out/recall_attention.pt" --quantize int8 \
  --calibration "$out/recall_bilinear_calibration.pt" --name recall_q15_bilinear --out "$out/recall_q15_bilinear.hpp" \
  --capacity 40

say "3. host: libsarnn.a (cmake), g++ recall.cpp, run"
cmake -S "$root" -B "$out/lib-host" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSARNN_BUILD_TESTS=OFF \
  -DSARNN_BUILD_BENCHMARKS=OFF -DSARNN_BUILD_NOEXCEPT_CHECK=OFF -DSARNN_INSTALL=OFF >"$out/lib-host.log"
cmake --build "$out/lib-host" --target sarnn -j "$jobs" >>"$out/lib-host.log"
(set -x; g++ -std=c++17 -O2 -I "$root/include" -I "$out/lib-host/include" -I "$out" "$here/recall.cpp" \
  "$out/lib-host/libsarnn.a" -o "$out/recall")
"$out/recall" | tee "$out/host.txt"

firmware=""
if command -v arm-none-eabi-g++ >/dev/null && command -v qemu-system-arm >/dev/null &&
   [[ -d /usr/lib/picolibc/arm-none-eabi ]]; then
  say "4. firmware: the same recall.cpp for the Cortex-M4F (preset cortex-m4), under qemu-system-arm"
  # SARNN_RECALL_GENERATED: use the headers of steps 1-2 instead of training again at build time
  (cd "$root" && cmake --preset cortex-m4 -B "$out/cortex-m4" -DSARNN_RECALL_GENERATED="$out") >"$out/cortex-m4.log"
  cmake --build "$out/cortex-m4" --target sarnn_recall_firmware -j "$jobs" >>"$out/cortex-m4.log"
  elf=$out/cortex-m4/examples/pytorch_recall/sarnn_recall_firmware.elf
  arm-none-eabi-size "$elf"
  qemu=(qemu-system-arm -M mps2-an386 -nographic -monitor none -semihosting-config "enable=on,target=native" -kernel)
  echo "+ ${qemu[*]} $elf"
  "${qemu[@]}" "$elf" 2>&1 | tee "$out/firmware.txt"   # semihosting writes to qemu's stderr
  firmware=$out/firmware.txt
else
  say "4. firmware: skipped (no arm-none-eabi-g++, picolibc or qemu-system-arm: scripts/deps cross firmware)"
fi

say "5. the predictions side by side"
grep '^PyTorch test accuracy' "$out/host.txt"
grep '^test accuracy' "$out/host.txt"
host_kernels=$(sed -n 's/.*kernels \([a-z0-9_]*\),.*/\1/p' "$out/host.txt")
if [[ -n $firmware ]]; then
  paste <(grep '^seq' "$out/host.txt") <(grep '^seq' "$firmware") |
    awk -v k="$host_kernels" 'BEGIN { printf "%3s %4s %8s %20s %23s\n", "seq", "key", "PyTorch", "sarnn host (" k ")",
                                      "sarnn Cortex-M4 (qemu)" }
                              { printf "%3s %4s %8s %20s %23s\n", $2, $4, $6, $8, $19 }'
else
  grep '^seq' "$out/host.txt" |
    awk -v k="$host_kernels" 'BEGIN { printf "%3s %4s %8s %20s\n", "seq", "key", "PyTorch", "sarnn host (" k ")" }
                              { printf "%3s %4s %8s %20s\n", $2, $4, $6, $8 }'
fi
# q15_table TAG: the lines "TAG <seq> ..." of the host's run (and of the firmware's, side by side, when it ran)
q15_table() {
  if [[ -n $firmware ]]; then
    paste <(grep -E "^$1 +[0-9]" "$out/host.txt") <(grep -E "^$1 +[0-9]" "$firmware") |
      awk 'BEGIN { printf "%3s %4s %6s %5s %15s %23s\n", "seq", "key", "float", "twin", "sarnn q15 host",
                   "sarnn q15 Cortex-M4" }
           { printf "%3s %4s %6s %5s %15s %23s\n", $2, $4, $6, $8, $11, $25 }'
  else
    grep -E "^$1 +[0-9]" "$out/host.txt" |
      awk 'BEGIN { printf "%3s %4s %6s %5s %15s\n", "seq", "key", "float", "twin", "sarnn q15 host" }
           { printf "%3s %4s %6s %5s %15s\n", $2, $4, $6, $8, $11 }'
  fi
}
echo "q15 model (scaled_dot, int8 weights, int16 activations):"
q15_table q15
echo "q15 model of the bilinear model (int8 weights, int16 activations):"
q15_table q15b
echo "run.sh: done in $((SECONDS - start)) s"
