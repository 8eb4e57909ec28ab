// Misuse: Hidden = 0. Expect: "Hidden (state size) must be at least 1".
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 3, 0> params;

float use() {
    sarnn::SelfAttentionRnn<float, 3, 0, 8> net{params};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)net.step(x);
    return net.context().size() ? net.context()[0] : 0.0f;
}
