// Misuse: a set's shaped forms claim attend_dot in kCaps (kernels/shaped.hpp) but have no attend_dot member template
// (one with the wrong parameters here): detail::shaped must not fall back to the run-time attend_dot without a word.
// Expect: "kCaps has shaped_attend_dot, but no member".
#include <sarnn/sarnn.hpp>

template <>
struct sarnn::kernel::Shaped<sarnn::Arch::scalar, float> {
    static constexpr unsigned kCaps = sarnn::kernel::shaped_attend_dot;
    template <std::size_t Dim, std::size_t Stride>
    static void attend_dot(const sarnn::Rows<float>&, const float*, float, float*, float*) noexcept {}
};

void use(const sarnn::Rows<float>& S, const float* q, float* alpha, float* c) {
    sarnn::detail::shaped<sarnn::kernel::Scalar, float>::attend_dot<5, 8, 16>(S, q, 1.0f, alpha, c);
}
