// tools/plan/flash.cpp: the size planner's flash program (scripts/plan), built once per shape (PLAN_SHAPE, the
// index in plan_shapes.hpp) and once without a model (PLAN_SHAPE -1, the baseline), as tools/footprint does: the
// model's flash is the image's text + data less the baseline's, i.e. its code, the kernels and libm functions it
// calls, and its params, const (in flash). The program is only linked, never run.
#include <cstddef>
#include <cstdio>
#include <new>

#include <sarnn/sarnn.hpp>

#include "plan_shapes.hpp"
#include "shape.hpp"

#ifndef PLAN_SHAPE
#define PLAN_SHAPE -1
#endif

namespace {

#if PLAN_SHAPE >= 0
volatile std::size_t g_sink;
using S = plan::At<PLAN_SHAPE, plan::Shapes>::type;
using Model = S::Model<sarnn::kernel::Default>;
using T = S::value_type;
extern const S::Params kParams;
extern const S::AlignParams kAlignParams;
const S::Params kParams{};  // zeros, in .rodata: as many bytes of flash as trained weights
const S::AlignParams kAlignParams{};
alignas(Model) unsigned char g_model[sizeof(Model)];
T g_x[S::in];

/// The address of v, hidden from the optimiser (it must not fold the zeros into the code).
template <class V>
const V* opaque(const V* v) {
    __asm__ volatile("" : "+r"(v));
    return v;
}
#endif

}  // namespace

int main() {
    int ok = 0;
#if PLAN_SHAPE >= 0
    Model* m = S::make<sarnn::kernel::Default>(g_model, *opaque(&kParams), *opaque(&kAlignParams));
    for (int i = 0; i < 3; ++i) ok += m->step(opaque(g_x)) == sarnn::Status::ok ? 1 : 0;
    g_sink = static_cast<std::size_t>(m->length());  // its low word: only kept from being optimised away
    m->reset();
#endif
    std::printf("%d\n", ok);
    return 0;
}
