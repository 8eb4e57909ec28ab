// bench/bench_dot_h32.cpp: the context, step and sequence benchmarks and the agreement check for Hidden = 32
// (one translation unit per Hidden so the build runs in parallel; see dot_families.hpp for what is timed).
#include "dot_families.hpp"

SARNN_BENCH_INSTANTIATE(32)
