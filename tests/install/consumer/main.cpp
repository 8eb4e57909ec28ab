// Prints the context after three steps and exits 0 when every step succeeded.
#include <sarnn/sarnn.hpp>

#include <cstdio>

constexpr sarnn::RnnParams<float, 1, 2> kParams{{{0.5f, 0.1f, -0.2f}, {-0.3f, 0.2f, 0.4f}}, {0.f, 0.1f}};

int main() {
    sarnn::SelfAttentionRnn<float, 1, 2, 8> net{kParams};
    int bad = 0;
    for (float x : {1.f, -1.f, 0.5f}) bad += net.step(&x) != sarnn::Status::ok;
    std::printf("sarnn %s arch %s c = %.6f %.6f\n", SARNN_VERSION_STRING, sarnn::arch_name(sarnn::active_arch()),
                double(net.context()[0]), double(net.context()[1]));
    return bad;
}
