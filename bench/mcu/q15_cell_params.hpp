// bench/mcu/q15_cell_params.hpp: the q15 params of the plain cells (sarnn::Gru, sarnn::Lstm) that the Cortex-M
// benchmarks count, at any shape: main.cpp at In 16, grid.cpp over the shape grid (bench/grid.hpp). Written once so
// both count the same model. The values come from the caller's generator `uniform()` (a float in [-1, 1)), drawn
// in this order: W_ih row by row, W_hh row by row, then the biases row by row.
//
// The formats a trained model would have at these weights: int8 weights of about ±0.3 (the row factor 0.3 / 127 =
// 1267449479·2^-(31 + 10) after the factor 1/8 of Q3.12), biases in Q3.12 within ±0.5 (the GRU's b_ih and b_hh
// within ±0.25 each), inputs in Q15 (the input factor 1).
#ifndef SARNN_BENCH_MCU_Q15_CELL_PARAMS_HPP
#define SARNN_BENCH_MCU_Q15_CELL_PARAMS_HPP

#include <cstddef>
#include <cstdint>

#include <sarnn/sarnn.hpp>

namespace sarnn_bench::mcu_params {

/// One int8 weight of about ±0.3 (scale 0.3 / 127), uniform.
template <class Uniform>
std::int8_t weight(Uniform& uniform) {
    return static_cast<std::int8_t>(uniform() * 127.0f);
}

/// Fills the 4·Hidden gate rows of an LSTM: W_ih, W_hh, then b (Q3.12, ±0.5) and the row factors.
template <std::size_t In, std::size_t H, class Uniform>
void fill(sarnn::LstmParams<sarnn::q15, In, H>& p, Uniform&& uniform) {
    for (auto& row : p.W_ih)
        for (auto& w : row) w = weight(uniform);
    for (auto& row : p.W_hh)
        for (auto& w : row) w = weight(uniform);
    for (std::size_t r = 0; r < 4 * H; ++r) {
        p.b[r] = static_cast<std::int32_t>(uniform() * 2048.0f);
        p.m[r] = 1267449479;  // 0.3 / 127 / 8 = 1267449479 · 2^-(31 + 10)
        p.shift[r] = 10;
    }
    p.x_m = 1073741824;  // inputs in Q15: the factor 1
    p.x_shift = -1;
}

/// Fills the 3·Hidden gate rows of a GRU: W_ih, W_hh, then b_ih and b_hh (Q3.12, ±0.25 each) and the row factors.
template <std::size_t In, std::size_t H, class Uniform>
void fill(sarnn::GruParams<sarnn::q15, In, H>& p, Uniform&& uniform) {
    for (auto& row : p.W_ih)
        for (auto& w : row) w = weight(uniform);
    for (auto& row : p.W_hh)
        for (auto& w : row) w = weight(uniform);
    for (std::size_t r = 0; r < 3 * H; ++r) {
        p.b_ih[r] = static_cast<std::int32_t>(uniform() * 1024.0f);
        p.b_hh[r] = static_cast<std::int32_t>(uniform() * 1024.0f);
        p.m[r] = 1267449479;  // 0.3 / 127 / 8 = 1267449479 · 2^-(31 + 10)
        p.shift[r] = 10;
    }
    p.x_m = 1073741824;  // inputs in Q15: the factor 1
    p.x_shift = -1;
}

}  // namespace sarnn_bench::mcu_params

#endif
