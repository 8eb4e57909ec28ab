// tests/firmware/q15_main.cpp: the q15 models on a bare-metal Cortex-M, with no float anywhere in the program.
// Runs the digest of many runs of SimpleRnn<q15>, SelfAttentionRnn<q15> and Lstmn<q15> (tests/shared/q15_digest.hpp),
// of Gru<q15> (tests/shared/q15_gru_digest.hpp), of SelfAttentionRnn<q15, ..., GruCell> (tests/shared/
// q15_gru_cell_digest.hpp), of Lstm<q15> (tests/shared/q15_lstm_digest.hpp), of Lstm<q15> and Gru<q15> whose x factor
// is 1 (tests/shared/q15_one_digest.hpp: the rows' finishing passes finish_sum and finish_gru) and of the integer
// activations (tests/shared/fixed_digest.hpp), and compares them with what the Python twin computes
// (python/sarnn/q15.py): the board computes the same integers, with this target's q15 loops (kernel::Q15) and with
// the plain C++ ones (kernel::Q15Plain) in the same run; and affine_tanh against 64-bit
// integer arithmetic (tests/shared/q15_affine_check.hpp: the rows' paths the digest's params never take). Prints
// with puts only (a printf would link the float formatting), so that the ELF's symbols show whether the q15 path
// pulls in soft float:
// ctest's no-float check of this ELF (cmake/SarnnFirmwareCheck.cmake, MODE=nofloat) fails on any __aeabi_f*/d*;
// q15_float_canary.cpp is this program plus one float multiply, whose check must fail.
#include <cstddef>
#include <cstdio>

#include <sarnn/sarnn.hpp>

#include "shared/fixed_digest.hpp"
#include "shared/q15_affine_check.hpp"
#include "shared/q15_digest.hpp"
#include "shared/q15_gru_cell_digest.hpp"
#include "shared/q15_gru_digest.hpp"
#include "shared/q15_lstm_digest.hpp"
#include "shared/q15_one_digest.hpp"

#ifdef SARNN_Q15_FLOAT_CANARY
volatile float g_canary = 3.0f;
#endif

int main() {
    int failed = 0;
    if (test::q15_digest() == test::kQ15Digest) {
        std::puts("q15_digest               ok");
    } else {
        std::puts("q15_digest               FAILED");
        ++failed;
    }
    if (test::q15_digest<sarnn::kernel::Q15Plain>() == test::kQ15Digest) {
        std::puts("q15_digest (plain loops) ok");
    } else {
        std::puts("q15_digest (plain loops) FAILED");
        ++failed;
    }
    if (test::q15_gru_digest() == test::kQ15GruDigest) {
        std::puts("q15_gru_digest           ok");
    } else {
        std::puts("q15_gru_digest           FAILED");
        ++failed;
    }
    if (test::q15_gru_digest<sarnn::kernel::Q15Plain>() == test::kQ15GruDigest) {
        std::puts("q15_gru_digest (plain)   ok");
    } else {
        std::puts("q15_gru_digest (plain)   FAILED");
        ++failed;
    }
    if (test::q15_gru_cell_digest() == test::kQ15GruCellDigest) {
        std::puts("q15_gru_cell_digest      ok");
    } else {
        std::puts("q15_gru_cell_digest      FAILED");
        ++failed;
    }
    if (test::q15_gru_cell_digest<sarnn::kernel::Q15Plain>() == test::kQ15GruCellDigest) {
        std::puts("q15_gru_cell_digest (pl) ok");
    } else {
        std::puts("q15_gru_cell_digest (pl) FAILED");
        ++failed;
    }
    if (test::fixed_digest() == test::kFixedDigest) {
        std::puts("fixed_digest             ok");
    } else {
        std::puts("fixed_digest             FAILED");
        ++failed;
    }
    if (test::q15_lstm_digest() == test::kQ15LstmDigest) {
        std::puts("q15_lstm_digest          ok");
    } else {
        std::puts("q15_lstm_digest          FAILED");
        ++failed;
    }
    if (test::q15_lstm_digest<sarnn::kernel::Q15Plain>() == test::kQ15LstmDigest) {
        std::puts("q15_lstm_digest (plain)  ok");
    } else {
        std::puts("q15_lstm_digest (plain)  FAILED");
        ++failed;
    }
    if (test::q15_one_digest() == test::kQ15OneDigest) {
        std::puts("q15_one_digest           ok");
    } else {
        std::puts("q15_one_digest           FAILED");
        ++failed;
    }
    if (test::q15_one_digest<sarnn::kernel::Q15Plain>() == test::kQ15OneDigest) {
        std::puts("q15_one_digest (plain)   ok");
    } else {
        std::puts("q15_one_digest (plain)   FAILED");
        ++failed;
    }
    if (test::q15_affine_mismatches() == 0) {
        std::puts("q15_affine               ok");
    } else {
        std::puts("q15_affine               FAILED");
        ++failed;
    }
#ifdef SARNN_Q15_FLOAT_CANARY
    g_canary = g_canary * 1.5f;
#endif
    // "N passed, M failed" of the kChecks checks above, with puts
    constexpr int kChecks = 10;
    char summary[24];
    std::size_t at = 0;
    const auto number = [&](int v) {  // (below 100)
        if (v >= 10) summary[at++] = static_cast<char>('0' + v / 10);
        summary[at++] = static_cast<char>('0' + v % 10);
    };
    const auto text = [&](const char* t) {
        while (*t != '\0') summary[at++] = *t++;
    };
    number(kChecks - failed);
    text(" passed, ");
    number(failed);
    text(" failed");
    summary[at] = '\0';
    std::puts(summary);
    return failed == 0 ? 0 : 1;
}
