// lib/kernels/q15/affine.cpp: the translation unit of kernel::Q15's products of rows (affine_tanh, affine, gemv,
// gemv_t, gru_gates), whose code is include/sarnn/kernels/q15/affine.hpp.
#include "sarnn/kernels/q15/affine.hpp"
