// Misuse: KeyQueryAlign<0>. Expect: "K (key size) must be at least 1".
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 3, 4> params;
extern const sarnn::KeyQueryParams<float, 4, 0> key_query;

float use() {
    sarnn::SelfAttentionRnn<float, 3, 4, 8, sarnn::KeyQueryAlign<0>> net{params, key_query};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)net.step(x);
    return net.context()[0];
}
