// tests/model_checks.hpp: the checks every model's tests share, written once against test::Subject
// (subject.hpp; implemented in model_checks.cpp). How a run is compared with the double reference (teacher-forced
// and free-running, and each set against the scalar set): trace_checks.hpp.
#ifndef SARNN_TESTS_MODEL_CHECKS_HPP
#define SARNN_TESTS_MODEL_CHECKS_HPP

#include <cstdint>
#include <string>
#include <vector>

#include "reference.hpp"
#include "subject.hpp"

namespace test {

/// A run to compare with the reference the subject carries (its weights and align).
struct ReferenceCase {
    std::vector<ref::Vec> xs;  ///< the sequence; for a Bounded memory exactly Capacity inputs (fills it)
    double tol = 0.0;          ///< on h, c, alpha and the sum of alpha
    double c1_tol = 0.0;       ///< on c_1 - h_1
    bool free_running = true;  ///< also compare free-running and against the scalar set
    std::string label;
};

/// On every available kernel set: runs the sequence from a fresh model and checks it against the reference and
/// the per-step properties (Subject::check_trace), then, for a Bounded memory, full memory (memory_full, state
/// bit-identical), then reset() (the fresh state exactly) and a bit-identical re-run.
void check_against_reference(const Factory& make, const ReferenceCase& rc);

/// Null, NaN and ±Inf input on an empty model and mid-sequence: the documented status, state bit-identical,
/// and the sequence then continues exactly as an undisturbed one. xs: a sequence the model accepts in full.
void check_bad_input(const Factory& make, const std::vector<ref::Vec>& xs);

/// step(const std::array<T, In>&) gives bit-identical results to step(const T*).
void check_array_overload(const Factory& make, const std::vector<ref::Vec>& xs);

/// "SelfAttentionRnn<float, In 3, Hidden 7, Capacity 5, DotAlign>, weights scaled" and the like.
std::string model_label(const char* model, std::size_t t_size, std::size_t in, std::size_t hidden, std::size_t capacity,
                        const std::string& align, Weights kind);

}  // namespace test

#endif
