// Misuse: In = 0. Expect: "In (input size) must be at least 1".
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<float, 0, 4> params;

float use() {
    sarnn::SimpleRnn<float, 0, 4> net{params};
    const float x[1] = {0.0f};
    (void)net.step(x);
    return net.hidden()[0];
}
