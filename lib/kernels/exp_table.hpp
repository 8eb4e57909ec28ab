// lib/kernels/exp_table.hpp: exp_q16's table (lib/fixed.cpp) with external linkage, for the q15 kernels' vector
// loops that compute exp_q16 several values at a time (lib/kernels/q15_mve.hpp).
#ifndef SARNN_LIB_KERNELS_EXP_TABLE_HPP
#define SARNN_LIB_KERNELS_EXP_TABLE_HPP

#include <cstdint>

namespace sarnn::fixed::detail {

/// 2^(-i / 256) in Q16, i = 0..256 (lib/fixed_tables.inc, defined in lib/fixed.cpp)
extern const std::uint32_t kExp2Table[257];

}  // namespace sarnn::fixed::detail

#endif
