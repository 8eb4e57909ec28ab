// Misuse: named params but temporary align params (BilinearParams): the align's reference would dangle. Expect
// the deleted constructor, whose declaration says "align params must outlive the model".
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 2, 3> params;

float use() {
    sarnn::SelfAttentionRnn<float, 2, 3, 8, sarnn::BilinearAlign> m{params, sarnn::BilinearParams<float, 3>{}};
    const float x[2] = {0.0f, 1.0f};
    (void)m.step(x);
    return m.context()[0];
}
