#!/usr/bin/env bash
# fuzz/run.sh FUZZER CORPUS WORK: runs one libFuzzer target for SARNN_FUZZ_SECONDS (default 60) on a copy of the
# committed corpus CORPUS (which stays untouched) in WORK, prints its executions (stat::number_of_executed_units),
# and exits non-zero on any finding (crash, sanitizer report, trap, timeout, out of memory).
set -uo pipefail
fuzzer=$1 corpus=$2 work=$3
secs=${SARNN_FUZZ_SECONDS:-60}
name=$(basename "$fuzzer")
rm -rf "$work"
mkdir -p "$work/corpus" "$work/artifacts"
if [[ -d $corpus ]]; then cp -r "$corpus"/. "$work/corpus/"; fi
"$fuzzer" -max_total_time="$secs" -rss_limit_mb=2048 -timeout=30 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" >"$work/log.txt" 2>&1
rc=$?
execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$work/log.txt" | grep -o '[0-9]*$' | tail -n 1)
seed=$(grep -o 'Seed: [0-9]*' "$work/log.txt" | head -n 1)
found=$(find "$work/artifacts" -type f | wc -l)
echo "fuzz $name: stat::number_of_executed_units ${execs:-?} in $secs s ($seed, corpus $(find "$work/corpus" -type f | wc -l) files, exit $rc, findings $found)"
if ((rc != 0 || found != 0)); then
  echo "---- last lines of $work/log.txt ----"
  tail -n 60 "$work/log.txt"
  find "$work/artifacts" -type f -exec echo "finding: {}" \;
  exit 1
fi
