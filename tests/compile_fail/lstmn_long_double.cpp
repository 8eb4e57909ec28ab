// Misuse: an Lstmn of long double. Expect: "T must be float or double".
#include <sarnn/sarnn.hpp>

extern const sarnn::LstmnParams<long double, 3, 4, 2> params;

long double use() {
    sarnn::Lstmn<long double, 3, 4, 8, 2> net{params};
    const long double x[3] = {0.0L, 1.0L, 2.0L};
    (void)net.step(x);
    return net.hidden()[0];
}
