// bench/mcu/counter.hpp: executed instructions under qemu-system-arm -icount shift=6, read from SysTick.
//
// With -icount shift=N qemu's virtual clock advances 2^N ns per executed instruction, and SysTick counts down
// on the board's system clock (25 MHz on the MPS2 boards). shift=0 gives one tick per 40 instructions; shift=6
// (64 ns an instruction) gives 1.6 ticks per instruction, so a span's count is exact to the instruction (a span
// must stay under 2^24 ticks, about 10 million instructions; the M0+ runs at shift=5: 0.8 ticks an instruction,
// spans up to 21 million). calibrate() times a
// loop of known length (2 instructions an iteration) to learn instructions per tick instead of trusting the
// clock, and the cost of two back-to-back reads. The figures are instructions, not cycles, and exact: the same
// ELF gives the same count on every run, whatever the host does.
#ifndef SARNN_BENCH_MCU_COUNTER_HPP
#define SARNN_BENCH_MCU_COUNTER_HPP

#include <cstdint>

namespace mcu {

struct SysTick {
    static volatile std::uint32_t& csr() { return *reinterpret_cast<volatile std::uint32_t*>(0xE000E010u); }
    static volatile std::uint32_t& rvr() { return *reinterpret_cast<volatile std::uint32_t*>(0xE000E014u); }
    static volatile std::uint32_t& cvr() { return *reinterpret_cast<volatile std::uint32_t*>(0xE000E018u); }
    static void start() {
        rvr() = 0xFFFFFFu;
        cvr() = 0u;
        csr() = 5u;  // processor clock, enabled, no interrupt
    }
    /// Ticks elapsed between two reads (the counter counts down, 24 bits).
    static std::uint32_t since(std::uint32_t earlier, std::uint32_t later) { return (earlier - later) & 0xFFFFFFu; }
    static std::uint32_t now() { return cvr(); }
};

/// n iterations of `subs; bne`: exactly 2·n instructions in the loop.
__attribute__((noinline)) inline void spin(std::uint32_t n) {
    __asm__ volatile(".syntax unified\n1: subs %0, %0, #1\n bne 1b\n" : "+r"(n) : : "cc");
}

/// Instructions per tick (as a fixed-point ratio: instructions per 1024 ticks) and the ticks of an empty span.
struct Calibration {
    std::uint64_t instr_per_1024_ticks = 0;
    std::uint32_t empty_ticks = 0;
};

inline Calibration calibrate() {
    SysTick::start();
    auto span = [](std::uint32_t n) {
        const std::uint32_t t0 = SysTick::now();
        spin(n);
        const std::uint32_t t1 = SysTick::now();
        return SysTick::since(t0, t1);
    };
    // 2·(300000 - 100000) instructions more in the longer loop
    const std::uint32_t a = span(100000), b = span(300000);
    Calibration c;
    c.instr_per_1024_ticks = (std::uint64_t{400000} * 1024u + (b - a) / 2) / (b - a);
    const std::uint32_t t0 = SysTick::now();
    const std::uint32_t t1 = SysTick::now();
    c.empty_ticks = SysTick::since(t0, t1);
    return c;
}

/// Instructions in `ticks` ticks summed over `spans` spans, less the spans' read overhead, per span.
inline std::uint32_t instructions(const Calibration& c, std::uint64_t ticks, std::uint32_t spans) {
    const std::uint64_t overhead = std::uint64_t{c.empty_ticks} * spans;
    const std::uint64_t net = ticks > overhead ? ticks - overhead : 0;
    return static_cast<std::uint32_t>((net * c.instr_per_1024_ticks / 1024u + spans / 2) / spans);
}

}  // namespace mcu

#endif
