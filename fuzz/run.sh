#!/usr/bin/env bash
# fuzz/run.sh FUZZER CORPUS WORK FLOOR: runs one libFuzzer target for SARNN_FUZZ_SECONDS (default 60) on a copy of
# the committed corpus CORPUS (which stays untouched) in WORK, prints
#   fuzz_xxx: N execs in S s (floor F)
# (N and S from libFuzzer's "Done N runs in S second(s)", else stat::number_of_executed_units and the wall time;
# F = FLOOR executions per second times SARNN_FUZZ_SECONDS), and exits non-zero on any finding (crash, sanitizer
# report, trap, timeout, out of memory) and when N < F: a target that hangs or barely runs tests nothing.
#
# fuzz/run.sh --canary FUZZER CORPUS WORK: the tolerance canary. Runs the target for SARNN_FUZZ_CANARY_SECONDS
# (default 10) with SARNN_FUZZ_TOL_C=0 (fuzz_support.hpp: the SIMD set must then equal the scalar set exactly),
# and exits 0 only when the fuzzer fails on a "SIMD vs scalar" comparison: that shows the comparisons run. It
# needs a SIMD set on this CPU (else there is nothing to compare and the canary fails).
set -uo pipefail
canary=0
if [[ ${1:-} == --canary ]]; then canary=1; shift; fi
fuzzer=$1 corpus=$2 work=$3 floor=${4:-0}
name=$(basename "$fuzzer")
if ((canary)); then secs=${SARNN_FUZZ_CANARY_SECONDS:-10}; export SARNN_FUZZ_TOL_C=0; else secs=${SARNN_FUZZ_SECONDS:-60}; fi
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
if [[ -d $corpus ]]; then cp -r "$corpus"/. "$work/corpus/"; fi
t0=$SECONDS
"$fuzzer" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=30 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log.txt" 2>&1
rc=$?
wall=$((SECONDS - t0))
found=$(find "$work/artifacts" -type f | wc -l)

if ((canary)); then
  what=$(grep -m 1 -o 'invariant violated: .*' "$work/log.txt")
  if ((rc != 0)) && [[ $what == "invariant violated: SIMD vs scalar"* ]]; then
    echo "$name canary: SARNN_FUZZ_TOL_C=0 failed as it must, after ${wall} s ($what)"
    exit 0
  fi
  echo "$name canary: FAILED: with SARNN_FUZZ_TOL_C=0 the fuzzer must fail on a SIMD vs scalar comparison within" \
    "$secs s; it exited $rc after ${wall} s (${what:-no invariant violated})"
  echo "---- last lines of $work/log.txt ----"
  tail -n 30 "$work/log.txt"
  exit 1
fi

execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log.txt" | grep -o '[0-9]*$' | tail -n 1)
took=$wall
if [[ $(grep -o 'Done [0-9]* runs in [0-9]* second' "$work/log.txt" | tail -n 1) =~ Done\ ([0-9]+)\ runs\ in\ ([0-9]+) ]]; then
  execs=${BASH_REMATCH[1]} took=${BASH_REMATCH[2]}
fi
min=$((floor * secs))
seed=$(grep -o 'Seed: [0-9]*' "$work/log.txt" | head -n 1)
echo "$name: ${execs:-?} execs in $took s (floor $min)"
echo "  ($seed, corpus $(find "$work/corpus" -type f | wc -l) files, exit $rc, findings $found)"
if ((rc != 0 || found != 0)); then
  echo "---- last lines of $work/log.txt ----"
  tail -n 60 "$work/log.txt"
  find "$work/artifacts" -type f -exec echo "finding: {}" \;
  exit 1
fi
if [[ -z $execs ]] || ((execs < min)); then
  echo "$name: FAILED: ${execs:-no count of} executions, below the floor of $min ($floor per second for $secs s):" \
    "the target hangs or barely runs"
  exit 1
fi
