// sarnn/memory.hpp: memory policies, the last template parameter of the attention models.
//
//   Bounded: the memory holds up to Capacity states; once full, step() returns Status::memory_full and
//            changes nothing until reset().
//   Window:  the memory keeps the newest Capacity states in a ring and attends over them (oldest first),
//            so an endless stream runs in constant RAM and, once full, constant time per step.
#ifndef SARNN_MEMORY_HPP
#define SARNN_MEMORY_HPP

#include <cstddef>
#include <type_traits>

namespace sarnn {

struct Bounded {};
struct Window {};

namespace detail {

/// Which physical rows of a Capacity-row store hold states, oldest first. Storage lives with its owner; this
/// is two indices. Memory is Bounded or Window.
template <std::size_t Capacity, class Memory>
class Ring {
    static_assert(Capacity > 0, "sarnn: Capacity (states the memory holds) must be at least 1");

public:
    static constexpr bool window = std::is_same_v<Memory, Window>;
    static_assert(window || std::is_same_v<Memory, Bounded>, "sarnn: Memory must be sarnn::Bounded or sarnn::Window");

    void reset() noexcept { first_ = count_ = 0; }
    /// True when a push is refused (Bounded and full).
    bool refuses() const noexcept { return !window && count_ == Capacity; }
    bool full() const noexcept { return count_ == Capacity; }
    /// The physical row the next state goes to: the next free row, or (Window, full) the oldest.
    std::size_t next_slot() const noexcept {
        const std::size_t p = first_ + count_;
        return count_ < Capacity ? (p < Capacity ? p : p - Capacity) : first_;
    }
    /// Records the state written to next_slot().
    void push() noexcept {
        if (count_ < Capacity)
            ++count_;
        else
            first_ = first_ + 1 < Capacity ? first_ + 1 : 0;
    }
    /// Physical row of the newest state (count() >= 1).
    std::size_t newest() const noexcept {
        const std::size_t p = first_ + count_ - 1;
        return p < Capacity ? p : p - Capacity;
    }
    std::size_t first() const noexcept { return first_; }
    std::size_t count() const noexcept { return count_; }

private:
    std::size_t first_ = 0;
    std::size_t count_ = 0;
};

}  // namespace detail
}  // namespace sarnn

#endif
