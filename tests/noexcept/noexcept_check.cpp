// Built with -fno-exceptions -fno-rtti: every public header and the library, instantiated for float and double.
// Running it steps each model once and returns 0 when all steps succeeded.
#include <sarnn/sarnn.hpp>

namespace {

constexpr sarnn::RnnParams<float, 2, 3> kParamsF{
    {{0.1f, -0.2f, 0.3f, 0.f, 0.1f}, {0.2f, 0.1f, 0.f, 0.3f, -0.1f}, {-0.3f, 0.2f, 0.1f, 0.1f, 0.f}},
    {0.01f, -0.02f, 0.03f}};
constexpr sarnn::RnnParams<double, 2, 3> kParamsD{
    {{0.1, -0.2, 0.3, 0., 0.1}, {0.2, 0.1, 0., 0.3, -0.1}, {-0.3, 0.2, 0.1, 0.1, 0.}}, {0.01, -0.02, 0.03}};

template <class Model, class T>
int run(const T (&x)[2], Model& m) {
    int bad = 0;
    for (int i = 0; i < 3; ++i) bad += m.step(x) != sarnn::Status::ok;
    m.reset();
    return bad;
}

}  // namespace

int main() {
    const float xf[2] = {0.5f, -1.f};
    const double xd[2] = {0.5, -1.};
    sarnn::SimpleRnn<float, 2, 3> s{kParamsF};
    sarnn::SelfAttentionRnn<float, 2, 3, 4> a{kParamsF};
    sarnn::SelfAttentionRnn<double, 2, 3, 4, sarnn::ScaledDotAlign> ad{kParamsD};
    sarnn::SimpleRnn<double, 2, 3> sd{kParamsD};
    return run(xf, s) + run(xf, a) + run(xd, ad) + run(xd, sd);
}
