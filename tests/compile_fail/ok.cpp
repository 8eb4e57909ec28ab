// The control case: correct use, written like the misuse cases beside it. It must compile with the same command,
// so a misuse case fails because of its misuse, not because of the harness.
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 3, 4> params;
extern const sarnn::AdditiveParams<float, 4, 5> additive;
extern const sarnn::LstmnParams<float, 3, 4, 2> lstmn;

float use() {
    sarnn::SimpleRnn<float, 3, 4> simple{params};
    sarnn::SelfAttentionRnn<float, 3, 4, 8> dot{params};
    sarnn::SelfAttentionRnn<float, 3, 4, 8, sarnn::AdditiveAlign<5>, sarnn::Window> add{params, additive};
    sarnn::Lstmn<float, 3, 4, 8, 2> net{lstmn};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)simple.step(x);
    (void)dot.step(x);
    (void)add.step(x);
    (void)net.step(x);
    return simple.hidden()[0] + dot.context()[0] + add.context()[0] + net.cell()[0];
}
