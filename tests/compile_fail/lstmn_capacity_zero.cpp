// Misuse: an Lstmn with Capacity = 0. Expect: "Capacity (states the memory holds) must be at least 1".
#include <sarnn/sarnn.hpp>

extern const sarnn::LstmnParams<float, 3, 4, 2> params;

float use() {
    sarnn::Lstmn<float, 3, 4, 0, 2> net{params};
    const float x[3] = {0.0f, 1.0f, 2.0f};
    (void)net.step(x);
    return net.cell()[0];
}
