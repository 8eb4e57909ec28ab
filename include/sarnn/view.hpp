// sarnn/view.hpp: a read-only window onto a model's own storage (no copy, no ownership).
#ifndef SARNN_VIEW_HPP
#define SARNN_VIEW_HPP

#include <cstddef>

namespace sarnn {

/// Read-only span of `size()` values. It points into the model (no copy) and is valid, showing the current values,
/// until the next call that changes the model: a `step()` that returns Status::ok, `run()` or `reset()` (a refused
/// step changes nothing). The models switch buffers at a step, so take the view again after it; copy the values to
/// keep them.
template <class T>
class View {
public:
    constexpr View() noexcept = default;
    constexpr View(const T* data, std::size_t size) noexcept : data_(data), size_(size) {}

    constexpr std::size_t size() const noexcept { return size_; }
    constexpr bool empty() const noexcept { return size_ == 0; }
    /// Unchecked, like std::array::operator[]: i must be < size().
    constexpr const T& operator[](std::size_t i) const noexcept { return data_[i]; }
    constexpr const T* data() const noexcept { return data_; }
    constexpr const T* begin() const noexcept { return data_; }
    constexpr const T* end() const noexcept { return data_ + size_; }

private:
    const T* data_ = nullptr;
    std::size_t size_ = 0;
};

}  // namespace sarnn

#endif
