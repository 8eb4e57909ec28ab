// Misuse: an Lstmn built from a temporary params aggregate (a dangling reference). Expect the deleted
// constructor, whose declaration says "params must outlive the model".
#include <sarnn/sarnn.hpp>

float use() {
    sarnn::Lstmn<float, 2, 3, 8, 4> m{sarnn::LstmnParams<float, 2, 3, 4>{}};
    const float x[2] = {0.0f, 1.0f};
    (void)m.step(x);
    return m.cell()[0];
}
