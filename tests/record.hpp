// tests/record.hpp: what a model shows after a step, for every model (SimpleRnn, SelfAttentionRnn with any align
// and memory, Lstmn), as doubles and as raw bytes; a recorded run and the first step where two runs differ.
#ifndef SARNN_TESTS_RECORD_HPP
#define SARNN_TESTS_RECORD_HPP

#include <sarnn/sarnn.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "reference.hpp"
#include "shared/state_bytes.hpp"
#include "support.hpp"

namespace test {

/// What a model showed after one step (or in a snapshot, status ok). SimpleRnn: c and alpha empty, attended 0.
/// Lstmn: `c` is cell(), `alpha` is attention() (s), `attended` is stored(). `bytes`: kit::state_bytes.
struct Record {
    sarnn::Status status = sarnn::Status::ok;
    std::uint64_t length = 0;
    std::size_t attended = 0;
    bool full = false;
    ref::Vec h, c, alpha;
    std::vector<unsigned char> bytes;
};

template <class T, std::size_t In, std::size_t Hidden>
Record record(const sarnn::SimpleRnn<T, In, Hidden>& m, sarnn::Status s) {
    Record r;
    r.status = s;
    r.length = m.length();
    r.h = to_vec(m.hidden());
    r.bytes = kit::state_bytes(m);
    return r;
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
Record record(const sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>& m, sarnn::Status s) {
    Record r;
    r.status = s;
    r.length = m.length();
    r.attended = m.attended();
    r.full = m.full();
    r.h = to_vec(m.hidden());
    r.c = to_vec(m.context());
    r.alpha = to_vec(m.attention());
    r.bytes = kit::state_bytes(m);
    return r;
}
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
Record record(const sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>& m, sarnn::Status s) {
    Record r;
    r.status = s;
    r.length = m.length();
    r.attended = m.stored();
    r.full = m.full();
    r.h = to_vec(m.hidden());
    r.c = to_vec(m.cell());
    r.alpha = to_vec(m.attention());
    r.bytes = kit::state_bytes(m);
    return r;
}

/// Steps the model over xs, recording after every step.
template <class Model, class T>
std::vector<Record> run_and_record(Model& m, const std::vector<std::vector<T>>& xs) {
    std::vector<Record> trace;
    trace.reserve(xs.size());
    for (const auto& x : xs) {
        const sarnn::Status s = m.step(x.data());
        trace.push_back(record(m, s));
    }
    return trace;
}

/// The first step (1-based) where two runs differ in status or bytes, 0 when they never do.
inline std::size_t first_difference(const std::vector<Record>& a, const std::vector<Record>& b) {
    const std::size_t n = std::max(a.size(), b.size());
    for (std::size_t i = 0; i < n; ++i) {
        if (i >= a.size() || i >= b.size() || a[i].status != b[i].status || a[i].bytes != b[i].bytes) return i + 1;
    }
    return 0;
}

template <class T>
std::vector<ref::Vec> to_vecs(const std::vector<std::vector<T>>& xs) {
    std::vector<ref::Vec> out;
    out.reserve(xs.size());
    for (const auto& x : xs) out.push_back(to_vec(x));
    return out;
}

}  // namespace test

#endif
