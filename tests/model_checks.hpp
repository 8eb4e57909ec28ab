// tests/model_checks.hpp: the checks shared by the SimpleRnn and SelfAttentionRnn tests, written once against
// test::Subject (implemented in model_checks.cpp).
//
// Comparison with the reference, at the tolerances of reference.hpp, in two ways:
//  - teacher-forced, for every weight kind: each step is recomputed in double from the model's own previous
//    state (its h_{i-1}, or its c_{i-1} and the states h_1..h_i it showed), so the check covers exactly one
//    step's arithmetic and float rounding does not compound;
//  - free-running (the reference runs on its own from the zero state), and each SIMD set against the scalar
//    set, for the weight kinds whose dynamics contract. With uniform ±3 weights the recurrence is chaotic (a
//    random tanh network with gain ≈ 14, measured: float and double runs, and any two kernel sets, end up
//    apart by O(1) after some tens of steps), so that kind is checked teacher-forced only.
#ifndef SARNN_TESTS_MODEL_CHECKS_HPP
#define SARNN_TESTS_MODEL_CHECKS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "reference.hpp"
#include "subject.hpp"

namespace test {

/// Which reference model (and align) a subject must match.
enum class Reference { simple, attention_dot, attention_scaled_dot };

struct ReferenceCase {
    Reference which = Reference::simple;
    ref::Weights weights;
    std::vector<ref::Vec> xs;  ///< the sequence; for a SelfAttentionRnn exactly Capacity inputs (fills the memory)
    double tol = 0.0;          ///< on h, c, alpha and the sum of alpha
    double c1_tol = 0.0;       ///< on c_1 - h_1
    bool free_running = true;  ///< also compare free-running and against the scalar set
    std::string label;
};

/// On every available kernel set: runs the sequence from a fresh model, compares with the reference, checks
/// the per-step properties (status ok, length, sizes, alpha a distribution, c_1 = h_1, finite), then full
/// memory (memory_full, state bit-identical), reset() (the fresh state exactly) and a bit-identical re-run.
void check_against_reference(const Factory& make, const ReferenceCase& rc);

/// Null, NaN and ±Inf input on an empty model and mid-sequence: the documented status, state bit-identical,
/// and the sequence then continues exactly as an undisturbed one. xs: a sequence the model accepts in full.
void check_bad_input(const Factory& make, const std::vector<ref::Vec>& xs);

/// step(const std::array<T, In>&) gives bit-identical results to step(const T*).
void check_array_overload(const Factory& make, const std::vector<ref::Vec>& xs);

/// "SelfAttentionRnn<float, In 3, Hidden 7, Capacity 5, DotAlign>, weights scaled" and the like.
std::string model_label(const char* model, std::size_t t_size, std::size_t in, std::size_t hidden,
                        std::size_t capacity, const char* align, Weights kind);

}  // namespace test

#endif
