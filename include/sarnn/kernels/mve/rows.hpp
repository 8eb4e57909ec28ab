// sarnn/kernels/mve/rows.hpp: y = A·[v1; v2] (+ b) with the shape known at compile time, on Helium (MVE float): A
// is Rows x (N1 + N2) (rows Ld floats apart), v1 has N1 values, v2 N2 (N2 may be 0). Eight rows per pass: their
// addresses in two vectors (VIDUP, clamped to the last row so that the last pass reads nothing past A), then for
// each column k the k-th values of the eight rows by two gathers at the immediate offset 4·k (VLDRW.U32 Qd, [Qm,
// #4k]) and two multiply-adds by v_k held in a core register (seven values a load, LDM into r5-r11): the sums of
// four rows come out in the lanes of a vector, no transpose (MVE float has no add across a vector). The last pass
// (Rows % 8 rows) loads b and stores y under a tail predicate (VCTP). Cost per eight rows: 4·(N1 + N2) + (N1 + N2)/7
// + about 16 instructions, 0.5 per multiply-add in the loop (the run-time set's four-row passes: 0.56 and a transpose
// per four rows). Assembly, measured: the same pass in intrinsics (vldrwq_gather_base_f32, vfmaq_n_f32 by v[k]; GCC
// 12.2 -O3) made the reference SimpleRnn step (In 16, Hidden 32) 1,469 instructions, against 1,245 with the first
// form of this pass (four values a load; 15% fewer).
#ifndef SARNN_KERNELS_MVE_ROWS_HPP
#define SARNN_KERNELS_MVE_ROWS_HPP

#include <cstddef>
#include <cstdint>

// The loops name core registers themselves (r4-r11 among them): an unoptimised build (-O0) keeps r7 for its frame,
// so these functions are built without a frame pointer there (else GCC: "r7 cannot be used in 'asm' here").
#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC push_options
#pragma GCC optimize("omit-frame-pointer")
#endif

namespace sarnn::kernel::mve_shaped {

/// How rows_product ends each row: y = A·v, y = A·v + b, or y += A·v (b is y).
enum class RowsEnd { none, add_b };

// One column of the pass (the assembler's .Lsarnn_c, offset .Lsarnn_o): the column's values of the eight rows,
// times v_c (R), onto q2 (rows 0-3) and q3 (rows 4-7); the pass's first column by multiplies. A half pass
// (.Lsarnn_half: the last 1 to 4 rows) has q2 only.
#define SARNN_MVE_ROWS_COL_(R)                         \
    "vldrw.u32 q4, [q0, #.Lsarnn_o]\n\t"               \
    ".if .Lsarnn_half == 0\n\t"                        \
    "vldrw.u32 q5, [q1, #.Lsarnn_o]\n\t"               \
    ".endif\n\t"                                       \
    ".if (.Lsarnn_o == 0) && (.Lsarnn_binit == 0)\n\t" \
    "vmul.f32 q2, q4, " R                              \
    "\n\t"                                             \
    ".if .Lsarnn_half == 0\n\t"                        \
    "vmul.f32 q3, q5, " R                              \
    "\n\t"                                             \
    ".endif\n\t"                                       \
    ".else\n\t"                                        \
    "vfma.f32 q2, q4, " R                              \
    "\n\t"                                             \
    ".if .Lsarnn_half == 0\n\t"                        \
    "vfma.f32 q3, q5, " R                              \
    "\n\t"                                             \
    ".endif\n\t"                                       \
    ".endif\n\t"                                       \
    ".set .Lsarnn_o, .Lsarnn_o + 4\n\t"

// The core registers of [v1; v2]'s values: seven (r5-r11, a load fills them: SARNN_MVE_ROWS_LDM_ the first n); at -O0
// four (r8-r11), as the frame there keeps r7 and the allocator wants the other registers for the operands.
#if defined(__OPTIMIZE__)
#define SARNN_MVE_ROWS_PER_ 7
#define SARNN_MVE_ROWS_VALUES_ "r5", "r6", "r7", "r8", "r9", "r10", "r11"
#define SARNN_MVE_ROWS_LDM_(V)   \
    ".if .Lsarnn_n == 7\n\t"     \
    "ldm " V                     \
    "!, {r5-r11}\n\t"            \
    ".elseif .Lsarnn_n == 6\n\t" \
    "ldm " V                     \
    "!, {r5-r10}\n\t"            \
    ".elseif .Lsarnn_n == 5\n\t" \
    "ldm " V                     \
    "!, {r5-r9}\n\t"             \
    ".elseif .Lsarnn_n == 4\n\t" \
    "ldm " V                     \
    "!, {r5-r8}\n\t"             \
    ".elseif .Lsarnn_n == 3\n\t" \
    "ldm " V                     \
    "!, {r5-r7}\n\t"             \
    ".elseif .Lsarnn_n == 2\n\t" \
    "ldm " V                     \
    "!, {r5-r6}\n\t"             \
    ".else\n\t"                  \
    "ldr r5, [" V                \
    "], #4\n\t"                  \
    ".endif\n\t"
#define SARNN_MVE_ROWS_COLS_ \
    ".if (.Lsarnn_c %% .Lsarnn_per) == 0\n\t" SARNN_MVE_ROWS_COL_("r5")       \
    ".elseif (.Lsarnn_c %% .Lsarnn_per) == 1\n\t" SARNN_MVE_ROWS_COL_("r6")   \
    ".elseif (.Lsarnn_c %% .Lsarnn_per) == 2\n\t" SARNN_MVE_ROWS_COL_("r7")   \
    ".elseif (.Lsarnn_c %% .Lsarnn_per) == 3\n\t" SARNN_MVE_ROWS_COL_("r8")   \
    ".elseif (.Lsarnn_c %% .Lsarnn_per) == 4\n\t" SARNN_MVE_ROWS_COL_("r9")   \
    ".elseif (.Lsarnn_c %% .Lsarnn_per) == 5\n\t" SARNN_MVE_ROWS_COL_("r10")  \
    ".else\n\t" SARNN_MVE_ROWS_COL_("r11") ".endif\n\t"
#else
#define SARNN_MVE_ROWS_PER_ 4
#define SARNN_MVE_ROWS_VALUES_ "r8", "r9", "r10", "r11"
#define SARNN_MVE_ROWS_LDM_(V)   \
    ".if .Lsarnn_n == 4\n\t"     \
    "ldm " V                     \
    "!, {r8-r11}\n\t"            \
    ".elseif .Lsarnn_n == 3\n\t" \
    "ldm " V                     \
    "!, {r8-r10}\n\t"            \
    ".elseif .Lsarnn_n == 2\n\t" \
    "ldm " V                     \
    "!, {r8-r9}\n\t"             \
    ".else\n\t"                  \
    "ldr r8, [" V                \
    "], #4\n\t"                  \
    ".endif\n\t"
#define SARNN_MVE_ROWS_COLS_ \
    ".if (.Lsarnn_c %% .Lsarnn_per) == 0\n\t" SARNN_MVE_ROWS_COL_("r8")       \
    ".elseif (.Lsarnn_c %% .Lsarnn_per) == 1\n\t" SARNN_MVE_ROWS_COL_("r9")   \
    ".elseif (.Lsarnn_c %% .Lsarnn_per) == 2\n\t" SARNN_MVE_ROWS_COL_("r10")  \
    ".else\n\t" SARNN_MVE_ROWS_COL_("r11") ".endif\n\t"
#endif

// The columns of one part (N values from the pointer V, SARNN_MVE_ROWS_PER_ a load; V moved back to its start after).
#define SARNN_MVE_ROWS_PART_(N, V)                                          \
    ".set .Lsarnn_c, 0\n\t"                                                 \
    ".rept " N                                                              \
    "\n\t"                                                                  \
    ".if (.Lsarnn_c %% .Lsarnn_per) == 0\n\t"                               \
    ".set .Lsarnn_n, " N                                                    \
    " - .Lsarnn_c\n\t"                                                      \
    ".if .Lsarnn_n > .Lsarnn_per\n\t"                                       \
    ".set .Lsarnn_n, .Lsarnn_per\n\t"                                       \
    ".endif\n\t" SARNN_MVE_ROWS_LDM_(V) ".endif\n\t" SARNN_MVE_ROWS_COLS_   \
                                        ".set .Lsarnn_c, .Lsarnn_c + 1\n\t" \
                                        ".endr\n\t"                         \
                                        "sub " V ", " V ", #4 * " N "\n\t"

// q0, q1: the addresses of rows i..i+3 and i+4..i+7 (i advanced by 8), each at most the last row (q6), rows q7 bytes
// apart from A.
#define SARNN_MVE_ROWS_ADDRESSES_ \
    "vidup.u32 q0, %[i], #1\n\t"  \
    "vidup.u32 q1, %[i], #1\n\t"  \
    "vmin.u32 q0, q0, q6\n\t"     \
    "vmin.u32 q1, q1, q6\n\t"     \
    "vmlas.u32 q0, q7, %[A]\n\t"  \
    "vmlas.u32 q1, q7, %[A]\n\t"

/// y_i = A_i·[v1; v2] (End::add_b: + b_i) for i < Rows, A_i = A + i·Ld floats; v1, v2, b any 4-byte alignment (b may
/// be y: y += A·[v1; v2]); y must not alias v1 or v2. N1 >= 1, N1 + N2 <= 128 (the gathers' offsets are immediates).
/// Reads exactly A's Rows rows of N1 + N2 values, v1, v2 and b's Rows values; writes exactly y[0..Rows).
template <std::size_t Rows, std::size_t N1, std::size_t N2, std::size_t Ld, RowsEnd End>
__attribute__((noinline)) void rows_product(const float* A, const float* v1, const float* v2, const float* b,
                                            float* y) noexcept {
    static_assert(Rows >= 1 && N1 >= 1 && N1 + N2 <= 128 && Ld >= N1 + N2,
                  "sarnn: mve rows_product: Rows, N1 >= 1, N1 + N2 <= 128 (the gathers' offsets are immediates)");
    // r4: the next pass's first row (VIDUP wants an even register); r5-r11 (-O0: r8-r11): values of [v1; v2]
    register std::uint32_t i __asm__("r4") = 0;
    std::uint32_t left = static_cast<std::uint32_t>(Rows);
    __asm__ volatile(
        // q6: the last row in every lane, q7: a row's bytes
        ".set .Lsarnn_per, %c[per]\n\t"
        ".set .Lsarnn_half, 0\n\t"
        ".set .Lsarnn_binit, 0\n\t"
        "movw r11, #%c[last]\n\t"
        "vdup.32 q6, r11\n\t"
        "movw r11, #%c[rb]\n\t"
        "vdup.32 q7, r11\n\t"
        ".if %c[rest] >= 5\n"
        // passes of eight rows, b added at the end; the last 5 to 7 rows under tail predicates
        "1:\n\t" SARNN_MVE_ROWS_ADDRESSES_
        // q2, q3 = the rows times [v1; v2]
        ".set .Lsarnn_o, 0\n\t" SARNN_MVE_ROWS_PART_("%c[n1]", "%[v1]")
        ".if %c[n2] > 0\n\t" SARNN_MVE_ROWS_PART_("%c[n2]", "%[v2]")
        ".endif\n\t"
        "cmp %[left], #8\n\t"
        "blo 2f\n\t"
        // eight whole rows
        ".if %c[add]\n\t"
        "vldrw.32 q4, [%[b]], #16\n\t"
        "vldrw.32 q5, [%[b]], #16\n\t"
        "vadd.f32 q2, q2, q4\n\t"
        "vadd.f32 q3, q3, q5\n\t"
        ".endif\n\t"
        "vstrw.32 q2, [%[y]], #16\n\t"
        "vstrw.32 q3, [%[y]], #16\n\t"
        "subs %[left], %[left], #8\n\t"
        "b 1b\n"
        "2:\n\t"
        "vctp.32 %[left]\n\t"
        ".if %c[add]\n\t"
        "vpstt\n\t"
        "vldrwt.32 q4, [%[b]]\n\t"
        "vaddt.f32 q2, q2, q4\n\t"
        ".endif\n\t"
        "vpst\n\t"
        "vstrwt.32 q2, [%[y]]\n\t"
        "subs %[left], %[left], #4\n\t"
        "vctp.32 %[left]\n\t"
        ".if %c[add]\n\t"
        "vpstt\n\t"
        "vldrwt.32 q5, [%[b], #16]\n\t"
        "vaddt.f32 q3, q3, q5\n\t"
        ".endif\n\t"
        "vpst\n\t"
        "vstrwt.32 q3, [%[y], #16]\n\t"
        ".else\n\t"
        // passes of eight whole rows, then (Rows % 8 = 1 to 4) a half pass of the last rows (q0 and q2 only); the
        // sums start from b (RowsEnd::add_b)
        ".set .Lsarnn_binit, %c[add]\n\t"
        ".if %c[full] > 0\n"
        "1:\n\t" SARNN_MVE_ROWS_ADDRESSES_
        // q2, q3 = b, then plus the rows times [v1; v2]
        ".if %c[add]\n\t"
        "vldrw.32 q2, [%[b]], #16\n\t"
        "vldrw.32 q3, [%[b]], #16\n\t"
        ".endif\n\t"
        ".set .Lsarnn_o, 0\n\t" SARNN_MVE_ROWS_PART_("%c[n1]", "%[v1]")
        ".if %c[n2] > 0\n\t" SARNN_MVE_ROWS_PART_("%c[n2]", "%[v2]")
        ".endif\n\t"
        "vstrw.32 q2, [%[y]], #16\n\t"
        "vstrw.32 q3, [%[y]], #16\n\t"
        "subs %[left], %[left], #8\n\t"
        ".if %c[rest] == 0\n\t"
        "bne 1b\n\t"
        ".else\n\t"
        "cmp %[left], #8\n\t"
        "bhs 1b\n\t"
        ".endif\n\t"
        ".endif\n\t"
        ".if %c[rest] > 0\n\t"
        ".set .Lsarnn_half, 1\n\t"
        "vidup.u32 q0, %[i], #1\n\t"
        "vmin.u32 q0, q0, q6\n\t"
        "vmlas.u32 q0, q7, %[A]\n\t"
        // the predicate of the last rows (kept through the columns), b's values under it (the others 0)
        "vctp.32 %[left]\n\t"
        ".if %c[add]\n\t"
        "vpst\n\t"
        "vldrwt.32 q2, [%[b]]\n\t"
        ".endif\n\t"
        ".set .Lsarnn_o, 0\n\t" SARNN_MVE_ROWS_PART_("%c[n1]", "%[v1]")
        ".if %c[n2] > 0\n\t" SARNN_MVE_ROWS_PART_("%c[n2]", "%[v2]")
        ".endif\n\t"
        "vpst\n\t"
        "vstrwt.32 q2, [%[y]]\n\t"
        ".endif\n\t"
        ".endif\n"
        : [y] "+r"(y), [b] "+r"(b), [left] "+r"(left), [i] "+r"(i), [v1] "+r"(v1), [v2] "+r"(v2)
        : [A] "r"(A), [n1] "i"(N1), [n2] "i"(N2), [add] "i"(End == RowsEnd::add_b ? 1 : 0), [last] "i"(Rows - 1),
          [rb] "i"(Ld * sizeof(float)), [per] "i"(SARNN_MVE_ROWS_PER_),
          [full] "i"(Rows / 8), [rest] "i"(Rows % 8)
        : SARNN_MVE_ROWS_VALUES_, "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14",
          "d15", "cc", "memory");
}
#undef SARNN_MVE_ROWS_ADDRESSES_
#undef SARNN_MVE_ROWS_VALUES_
#undef SARNN_MVE_ROWS_PER_
#undef SARNN_MVE_ROWS_COLS_
#undef SARNN_MVE_ROWS_LDM_
#undef SARNN_MVE_ROWS_PART_
#undef SARNN_MVE_ROWS_COL_

}  // namespace sarnn::kernel::mve_shaped

#if defined(__GNUC__) && !defined(__clang__) && !defined(__OPTIMIZE__)
#pragma GCC pop_options
#endif

#endif
