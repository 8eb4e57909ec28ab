// lib/kernels/q15/attention.cpp: the translation unit of kernel::Q15's attention (the query, the scores, softmax, the
// weighted sum, additive_scores), whose code is include/sarnn/kernels/q15/attention.hpp.
#include "sarnn/kernels/q15/attention.hpp"
