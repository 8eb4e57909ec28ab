// Misuse: Capacity = 0. Expect: "Capacity (states the memory holds) must be at least 1".
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 3, 4> params;

float use() {
    sarnn::SelfAttentionRnn<float, 3, 4, 0> net{params};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)net.step(x);
    return net.context()[0];
}
