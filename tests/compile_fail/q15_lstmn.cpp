// Misuse: a q15 model with no q15 form yet, the LSTMN. Expect: "the LSTMN is float and double only so far".
#include <sarnn/sarnn.hpp>

extern const sarnn::LstmnParams<sarnn::q15, 3, 4, 2> params;

int use() {
    sarnn::Lstmn<sarnn::q15, 3, 4, 8, 2> net{params};
    const sarnn::q15 x[3] = {};
    (void)net.step(x);
    return net.hidden()[0].raw;
}
