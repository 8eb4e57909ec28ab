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

/// Declared here and never defined by the library: a benchmark that must put a model's memory in a given state
/// (to time step() at memory length n, again and again: bench/ours.hpp) defines it. Ring and the attention models
/// name it a friend; nothing else can reach their private members through it unless a program defines it.
struct Access;

/// Which physical rows of a store hold states, oldest first. Storage lives with its owner (`rows` padded rows);
/// this is two indices. Memory is Bounded or Window.
///
/// The row a new state goes to is never one that holds a state: Bounded refuses once Capacity rows are used,
/// and Window keeps one spare row beyond Capacity (rows = Capacity + 1), so when it is full the new state is
/// written next to the newest and the oldest is dropped only by push(). A step can therefore compute the new
/// state in place, check it, and refuse it without losing anything.
template <std::size_t Capacity, class Memory>
class Ring {
    static_assert(Capacity > 0, "sarnn: Capacity (states the memory holds) must be at least 1");

public:
    static constexpr bool window = std::is_same_v<Memory, Window>;
    static_assert(window || std::is_same_v<Memory, Bounded>, "sarnn: Memory must be sarnn::Bounded or sarnn::Window");
    /// Physical rows the owner allocates: Capacity, plus Window's spare row.
    static constexpr std::size_t rows = Capacity + (window ? 1 : 0);

    void reset() noexcept { first_ = count_ = 0; }
    /// True when a push is refused (Bounded and full).
    bool refuses() const noexcept { return !window && count_ == Capacity; }
    bool full() const noexcept { return count_ == Capacity; }
    /// The physical row the next state goes to: a row that holds no state (see above).
    std::size_t next_slot() const noexcept { return wrap(first_ + count_); }
    /// Records the state written to next_slot(); a full Window drops its oldest state.
    void push() noexcept {
        if (count_ < Capacity)
            ++count_;
        else
            first_ = wrap(first_ + 1);
    }
    /// Physical row of the newest state (count() >= 1).
    std::size_t newest() const noexcept { return wrap(first_ + count_ - 1); }
    std::size_t first() const noexcept { return first_; }
    std::size_t count() const noexcept { return count_; }

private:
    friend struct Access;
    static std::size_t wrap(std::size_t p) noexcept { return p < rows ? p : p - rows; }

    std::size_t first_ = 0;
    std::size_t count_ = 0;
};

}  // namespace detail
}  // namespace sarnn

#endif
