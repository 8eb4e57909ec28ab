// Misuse: T = int. Expect: "T must be float" (or double, or sarnn::q15: the first static_assert a compiler reports).
#include <sarnn/sarnn.hpp>

extern const sarnn::RnnParams<int, 3, 4> params;

int use() {
    sarnn::SimpleRnn<int, 3, 4> net{params};
    const int x[3] = {0, 1, 2};
    (void)net.step(x);
    return net.hidden()[0];
}
