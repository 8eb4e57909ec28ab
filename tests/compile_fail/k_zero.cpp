// Misuse: an Lstmn with K = 0. Expect: "K (attention size) must be at least 1".
#include <sarnn/sarnn.hpp>

extern const sarnn::LstmnParams<float, 3, 4, 0> params;

float use() {
    sarnn::Lstmn<float, 3, 4, 8, 0> net{params};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)net.step(x);
    return net.hidden()[0];
}
