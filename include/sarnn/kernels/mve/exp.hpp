// sarnn/kernels/mve/exp.hpp: e^x on four lanes in Helium (MVE float) assembly, for the shaped tanh and softmax
// (kernels/mve/{tanh,softmax}.hpp); the form of the mve set's (kernels/mve/set_loops.hpp): e^x = 2^k·e^r,
// k = round(x/ln2), r = x - k·ln2 (ln2 in two parts), e^r by a polynomial of degree 5 fitted over |r| <= ln2/2 for
// the least largest relative error (1.6e-7 over [-87, 88] in float), 2^k built in the exponent bits. For x in
// [-87, 88] only (the callers clamp).
#ifndef SARNN_KERNELS_MVE_EXP_HPP
#define SARNN_KERNELS_MVE_EXP_HPP

#include <cstdint>

namespace sarnn::kernel::mve_shaped {

/// r4 1.5·2^23, r5 -ln2 (high part), r6 -ln2 (low part), r7..r10 the polynomial's c4..c1, r11 1 (c0, and 127 << 23:
/// the exponent bias); then log2(e) and c5 in four lanes each (q6, q7: SARNN_MVE_EXP_LOAD_), then -87 in four lanes,
/// then the bits of 1.5·2^23 - 127 in four lanes (the softmax's floor of k at -127, where 2^k is built as +0).
alignas(16) inline constexpr std::uint32_t kExpConstants[24] = {
    0x4b400000u, 0xbf317200u, 0xb5bfbe8eu, 0x3d2b9d2au, 0x3e2aad35u, 0x3efffee3u, 0x3f7ffffbu, 0x3f800000u,
    0x3fb8aa3bu, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3fb8aa3bu, 0x3c07d41au, 0x3c07d41au, 0x3c07d41au, 0x3c07d41au,
    0xc2ae0000u, 0xc2ae0000u, 0xc2ae0000u, 0xc2ae0000u, 0x4b3fff81u, 0x4b3fff81u, 0x4b3fff81u, 0x4b3fff81u};

}  // namespace sarnn::kernel::mve_shaped

// The constants into r4-r11, q6 and q7 (operand %[k]: kExpConstants).
#define SARNN_MVE_EXP_LOAD_ "ldm %[k], {r4-r11}\n\tvldrw.32 q6, [%[k], #32]\n\tvldrw.32 q7, [%[k], #48]\n\t"
// q1 = (c0 + c1·r + ... + c4·r^4 + q1·r^5)·q2 for r in q0 and c4..c0 in r7..r11 (Horner, q1 = c5 on entry): e^r·2^k
// (here, and tanh.hpp's exp) when q2 holds 2^k.
#define SARNN_MVE_EXP_HORNER_   \
    "vfmas.f32 q1, q0, r7\n\t"  \
    "vfmas.f32 q1, q0, r8\n\t"  \
    "vfmas.f32 q1, q0, r9\n\t"  \
    "vfmas.f32 q1, q0, r10\n\t" \
    "vfmas.f32 q1, q0, r11\n\t" \
    "vmul.f32 q1, q1, q2\n\t"

// q1 = e^q0 for lanes in [-87, 88]; q0 clobbered (it ends as r), q2 and q3 temporaries; C5 sets q1 to c5 (SARNN_MVE_EXP_:
// from q7).
#define SARNN_MVE_EXP_WITH_(C5)                                                    \
    "vmov q2, q0\n\t" /* t = x·log2(e) + 1.5·2^23: k in its low bits */          \
    "vfmas.f32 q2, q6, r4\n\t"                                                     \
    "vsub.f32 q3, q2, r4\n\t"  /* k */                                             \
    "vshl.i32 q2, q2, #23\n\t" /* 2^k: k into the exponent field, plus the bias */ \
    "vadd.i32 q2, q2, r11\n\t"                                                     \
    "vfma.f32 q0, q3, r5\n\t"    /* r = x - k·ln2, ln2 in two parts */            \
    "vfma.f32 q0, q3, r6\n\t" C5 /* e^r = c0 + c1·r + ... + c5·r^5, Horner */    \
        SARNN_MVE_EXP_HORNER_
#define SARNN_MVE_EXP_ SARNN_MVE_EXP_WITH_("vmov q1, q7\n\t")

#endif
