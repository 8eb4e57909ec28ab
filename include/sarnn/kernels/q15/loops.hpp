// sarnn/kernels/q15/loops.hpp: which q15 loops this build's kernels take (the seam and its rules: q15/seam.hpp), as
// the type q15_loops::Target, chosen at compile time by q15/target.hpp's macros (kernel::Q15 runs it; kernel::Q15Plain
// runs PlainLoops on every target, in the same library):
//   MveLoops    q15/mve/    Helium (MVE integer: M55, M85): eight int16 per vector, VMLADAVA for the dot products
//   DspLoops    q15/dsp/    ARMv7E-M with the DSP extension (M4, M7): two 16-bit multiply-adds per instruction
//   ThumbLoops  q15/thumb/loops.hpp  ARMv6-M and ARMv7-M (M0, M0+, M3): Thumb assembly
//   PlainLoops  q15/seam.hpp   everything else; and every target in an unoptimised build (no __OPTIMIZE__, -O0),
//                              whose frame keeps registers the assembly loops need (GCC: "impossible constraints")
#ifndef SARNN_KERNELS_Q15_LOOPS_HPP
#define SARNN_KERNELS_Q15_LOOPS_HPP

#include "sarnn/kernels/q15/seam.hpp"
#include "sarnn/kernels/q15/target.hpp"

#if defined(SARNN_Q15_TARGET_MVE)
#include "sarnn/kernels/q15/mve/loops.hpp"
namespace sarnn::kernel::q15_loops {
using Target = MveLoops;
}
#elif defined(SARNN_Q15_TARGET_DSP)
#include "sarnn/kernels/q15/dsp/loops.hpp"
namespace sarnn::kernel::q15_loops {
using Target = DspLoops;
}
#elif defined(SARNN_Q15_TARGET_THUMB)
#include "sarnn/kernels/q15/thumb/loops.hpp"
namespace sarnn::kernel::q15_loops {
using Target = ThumbLoops;
}
#else
namespace sarnn::kernel::q15_loops {
using Target = PlainLoops;
}
#endif

#endif
