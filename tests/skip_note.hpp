// tests/skip_note.hpp: what the tests leave out on this machine, said once per process on stdout as
//   SARNN-SKIP: <what> (<why>)
// ctest keeps the output of every test in Testing/Temporary/LastTest.log; scripts/test copies these lines into
// the job's log and lists them, deduplicated, in its closing summary, so that a skip does not pass unseen.
// No Catch2 here: tests/python/roundtrip.cpp includes it too.
#ifndef SARNN_TESTS_SKIP_NOTE_HPP
#define SARNN_TESTS_SKIP_NOTE_HPP

#include <sarnn/sarnn.hpp>

#include <cstdio>

namespace test {

/// Whether lib/ holds the kernel set of `a`: a set compiled in but not available is one the CPU lacks; a set not
/// compiled in is not part of this target at all.
inline bool compiled_in(sarnn::Arch a) noexcept { return sarnn::arch_compiled_in(a); }

/// For a kernel set that is not available: "SARNN-SKIP: avx512 kernel set (CPU lacks it)" when this build holds
/// it, once per process and set; nothing for a set the target never has.
inline void note_unavailable(sarnn::Arch a) {
    static bool noted[8] = {};
    const auto i = static_cast<unsigned>(a);
    if (!compiled_in(a) || i >= 8 || noted[i]) return;
    noted[i] = true;
    std::printf("SARNN-SKIP: %s kernel set (CPU lacks it)\n", sarnn::arch_name(a));
    std::fflush(stdout);
}

}  // namespace test

#endif
