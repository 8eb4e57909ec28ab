// bench/bench_h64.cpp: the context, step and sequence benchmarks and the agreement check for Hidden = 64
// (one translation unit per Hidden so the build runs in parallel; see families.hpp for what is timed).
#include "families.hpp"

SARNN_BENCH_INSTANTIATE(64)
