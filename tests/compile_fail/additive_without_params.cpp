// Misuse: a parameterised align (AdditiveAlign<K>) without its align params. Expect a static_assert that says
// the align needs its params ("needs its params").
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 3, 4> params;

float use() {
    sarnn::SelfAttentionRnn<float, 3, 4, 8, sarnn::AdditiveAlign<5>> net{params};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)net.step(x);
    return net.context()[0];
}
