// Misuse: a Memory that is neither Bounded nor Window. Expect: "Memory must be sarnn::Bounded or sarnn::Window".
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 3, 4> params;

float use() {
    sarnn::SelfAttentionRnn<float, 3, 4, 8, sarnn::DotAlign, int> net{params};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)net.step(x);
    return net.context()[0];
}
