// Misuse: a set's shaped forms claim gemv in kCaps (kernels/shaped.hpp) but have no gemv member template (a misspelt
// one here): detail::shaped must not fall back to the run-time gemv without a word.
// Expect: "kCaps has shaped_gemv, but no member".
#include <sarnn/sarnn.hpp>

template <>
struct sarnn::kernel::Shaped<sarnn::Arch::scalar, float> {
    static constexpr unsigned kCaps = sarnn::kernel::shaped_gemv;
    template <std::size_t Rows, std::size_t Cols, std::size_t Ld>
    static void gemw(const float*, const float*, float*) noexcept {}
};

void use(const float* M, const float* v, float* y) {
    sarnn::detail::shaped<sarnn::kernel::Scalar, float>::gemv<4, 3, 3>(M, v, y);
}
