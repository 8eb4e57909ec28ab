// lib/kernels/arm_mve_loops.hpp: the inner loops of the mve set (arm_mve.hpp) in Helium assembly: tail-predicated
// low-overhead loops (WLSTP/LETP: the last pass loads, multiplies and stores only the lanes below n, so no scalar
// remainder and no access past the end), post-incremented vector loads, and the four sums of dot4 reduced by a
// 4 x 4 transpose (VST, then VLD40..VLD43). GCC 12 keeps spare address arithmetic and spills in the same loops
// written with intrinsics (17 instructions per 16 multiply-adds instead of 10).
//
// Both take float pointers aligned to 4 bytes (VLDRW/VSTRW need no more) and use q0-q7 and lr themselves.
#ifndef SARNN_LIB_KERNELS_ARM_MVE_LOOPS_HPP
#define SARNN_LIB_KERNELS_ARM_MVE_LOOPS_HPP

#include <arm_mve.h>

#include <cstddef>

namespace sarnn::kernel {
namespace {  // NOLINT(cert-dcl59-cpp): one copy, in the mve set's file
namespace mve {

/// t[i] = M_i·v over n values for the four rows M0..M3 (t: 16 floats, 16-byte aligned, the scratch of the
/// transpose; the four results in t[0..4)). Rows and v: any 4-byte alignment.
inline void dot4_asm(const float* M0, const float* M1, const float* M2, const float* M3, const float* v, std::size_t n,
                     float* t) {
    __asm__ volatile(
        "vmov.i32 q0, #0\n\t"
        "vmov.i32 q1, #0\n\t"
        "vmov.i32 q2, #0\n\t"
        "vmov.i32 q3, #0\n\t"
        // q_i += M_i[k..k+3]·v[k..k+3], four lanes a pass (fewer in the last)
        "wlstp.32 lr, %[n], 2f\n"
        "1:\n\t"
        "vldrw.32 q4, [%[v]], #16\n\t"
        "vldrw.32 q5, [%[m0]], #16\n\t"
        "vfma.f32 q0, q5, q4\n\t"
        "vldrw.32 q6, [%[m1]], #16\n\t"
        "vfma.f32 q1, q6, q4\n\t"
        "vldrw.32 q7, [%[m2]], #16\n\t"
        "vfma.f32 q2, q7, q4\n\t"
        "vldrw.32 q5, [%[m3]], #16\n\t"
        "vfma.f32 q3, q5, q4\n\t"
        "letp lr, 1b\n"
        "2:\n\t"
        // lane j of the vector out is the sum of the lanes of q_j: transpose and add
        "vstrw.32 q0, [%[t]]\n\t"
        "vstrw.32 q1, [%[t], #16]\n\t"
        "vstrw.32 q2, [%[t], #32]\n\t"
        "vstrw.32 q3, [%[t], #48]\n\t"
        "vld40.32 {q0, q1, q2, q3}, [%[t]]\n\t"
        "vld41.32 {q0, q1, q2, q3}, [%[t]]\n\t"
        "vld42.32 {q0, q1, q2, q3}, [%[t]]\n\t"
        "vld43.32 {q0, q1, q2, q3}, [%[t]]\n\t"
        "vadd.f32 q0, q0, q1\n\t"
        "vadd.f32 q2, q2, q3\n\t"
        "vadd.f32 q0, q0, q2\n\t"
        "vstrw.32 q0, [%[t]]\n\t"
        : [m0] "+r"(M0), [m1] "+r"(M1), [m2] "+r"(M2), [m3] "+r"(M3), [v] "+r"(v)
        : [n] "r"(n), [t] "r"(t)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15", "lr",
          "memory");
}

/// c[d] += p0·S0[d] + p1·S1[d] + p2·S2[d] + p3·S3[d] for d < n (in that order, each a fused multiply-add); c is
/// written only below n.
inline void add_rows4_asm(const float* S0, const float* S1, const float* S2, const float* S3, float p0, float p1,
                          float p2, float p3, std::size_t n, float* c) {
    __asm__ volatile(
        "wlstp.32 lr, %[n], 2f\n"
        "1:\n\t"
        "vldrw.32 q0, [%[c]]\n\t"
        "vldrw.32 q1, [%[s0]], #16\n\t"
        "vfma.f32 q0, q1, %[p0]\n\t"
        "vldrw.32 q2, [%[s1]], #16\n\t"
        "vfma.f32 q0, q2, %[p1]\n\t"
        "vldrw.32 q3, [%[s2]], #16\n\t"
        "vfma.f32 q0, q3, %[p2]\n\t"
        "vldrw.32 q1, [%[s3]], #16\n\t"
        "vfma.f32 q0, q1, %[p3]\n\t"
        "vstrw.32 q0, [%[c]], #16\n\t"
        "letp lr, 1b\n"
        "2:\n\t"
        : [s0] "+r"(S0), [s1] "+r"(S1), [s2] "+r"(S2), [s3] "+r"(S3), [c] "+r"(c)
        : [p0] "r"(p0), [p1] "r"(p1), [p2] "r"(p2), [p3] "r"(p3), [n] "r"(n)
        : "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7", "lr", "memory");
}

/// A compiler barrier over the memory at p (see load_after_stores).
inline void touch(const float* p) { __asm__ volatile("" : : "r"(p) : "memory"); }

/// A vector load after stores the compiler must not drop or move past it: GCC 12's MVE load intrinsics are not
/// seen to read memory, so plain stores to a local array before vld1q_f32 of it can be lost (seen: lanes 1-3 of a
/// vector built from four scalar stores came back as garbage). The empty asm takes the address and clobbers memory.
inline float32x4_t load_after_stores(const float* p) {
    touch(p);
    return vld1q_f32(p);
}

}  // namespace mve
}  // namespace
}  // namespace sarnn::kernel

#endif
