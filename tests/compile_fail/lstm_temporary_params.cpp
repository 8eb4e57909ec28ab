// Misuse: an Lstm built from a temporary params aggregate (a dangling reference). Expect the deleted constructor,
// whose declaration says "params must outlive the model".
#include <sarnn/sarnn.hpp>

float use() {
    sarnn::Lstm<float, 2, 3> m{sarnn::LstmParams<float, 2, 3>{}};
    const float x[2] = {0.0f, 1.0f};
    (void)m.step(x);
    return m.cell()[0];
}
