// tests/shared/state_bytes.hpp: everything a model shows, as bytes, for the bit-identical comparisons of the
// tests and the fuzz targets (a refused step changes nothing; run() is step() in a loop; one set against another).
#ifndef SARNN_TESTS_SHARED_STATE_BYTES_HPP
#define SARNN_TESTS_SHARED_STATE_BYTES_HPP

#include <sarnn/sarnn.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace kit {

// (resize + memcpy rather than vector::insert: GCC 12 warns falsely about inserting into an empty vector at -O3)
inline void append_bytes(std::vector<unsigned char>& out, const void* p, std::size_t n) {
    const std::size_t at = out.size();
    out.resize(at + n);
    if (n != 0) std::memcpy(out.data() + at, p, n);
}
/// A count as 8 bytes on every target (length() is a std::uint64_t, sizes widen to it).
inline void append_size(std::vector<unsigned char>& out, std::uint64_t n) { append_bytes(out, &n, sizeof n); }
/// Its size, then its values.
template <class T>
void append_view(std::vector<unsigned char>& out, const sarnn::View<T>& v) {
    append_size(out, v.size());
    append_bytes(out, v.data(), v.size() * sizeof(T));
}

/// What a SimpleRnn shows: length, h.
template <class T, std::size_t In, std::size_t Hidden>
std::vector<unsigned char> state_bytes(const sarnn::SimpleRnn<T, In, Hidden>& m) {
    std::vector<unsigned char> out;
    append_size(out, m.length());
    append_view(out, m.hidden());
    return out;
}

/// What a Gru shows: length, h.
template <class T, std::size_t In, std::size_t Hidden>
std::vector<unsigned char> state_bytes(const sarnn::Gru<T, In, Hidden>& m) {
    std::vector<unsigned char> out;
    append_size(out, m.length());
    append_view(out, m.hidden());
    return out;
}

/// Everything a SelfAttentionRnn shows: length, attended, full, h, c, alpha.
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory>
std::vector<unsigned char> state_bytes(const sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory>& m) {
    std::vector<unsigned char> out;
    append_size(out, m.length());
    append_size(out, m.attended());
    append_size(out, m.full() ? 1 : 0);
    append_view(out, m.hidden());
    append_view(out, m.context());
    append_view(out, m.attention());
    return out;
}

/// Everything an Lstmn shows: length, stored, full, h, c, s.
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory>
std::vector<unsigned char> state_bytes(const sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory>& m) {
    std::vector<unsigned char> out;
    append_size(out, m.length());
    append_size(out, m.stored());
    append_size(out, m.full() ? 1 : 0);
    append_view(out, m.hidden());
    append_view(out, m.cell());
    append_view(out, m.attention());
    return out;
}

/// Everything an Lstm shows: length, saturated, h, c.
template <class T, std::size_t In, std::size_t Hidden, class Set>
std::vector<unsigned char> state_bytes(const sarnn::Lstm<T, In, Hidden, Set>& m) {
    std::vector<unsigned char> out;
    append_size(out, m.length());
    append_size(out, m.saturated());
    append_view(out, m.hidden());
    append_view(out, m.cell());
    return out;
}

}  // namespace kit

#endif
