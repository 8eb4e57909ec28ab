// Misuse: a SimpleRnn built from a temporary params aggregate. The model keeps a reference, which would dangle
// after this line. Expect the deleted constructor, whose declaration says "params must outlive the model".
#include <sarnn/sarnn.hpp>

float use() {
    sarnn::SimpleRnn<float, 2, 3> m{sarnn::RnnParams<float, 2, 3>{}};
    const float x[2] = {0.0f, 1.0f};
    (void)m.step(x);
    return m.hidden()[0];
}
