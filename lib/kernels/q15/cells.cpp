// lib/kernels/q15/cells.cpp: the translation unit of kernel::Q15's cells (lstm_cell, gru_cell), whose code is
// include/sarnn/kernels/q15/cells.hpp.
#include "sarnn/kernels/q15/cells.hpp"
