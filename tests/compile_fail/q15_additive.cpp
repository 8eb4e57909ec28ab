// Misuse: a q15 model with an align that has no q15 form yet. Expect: "float and double only so far".
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<sarnn::q15, 3, 4> params;
extern const sarnn::AdditiveParams<sarnn::q15, 4, 2> align_params;

int use() {
    sarnn::SelfAttentionRnn<sarnn::q15, 3, 4, 8, sarnn::AdditiveAlign<2>> net{params, align_params};
    const sarnn::q15 x[3] = {};
    (void)net.step(x);
    return net.hidden()[0].raw;
}
