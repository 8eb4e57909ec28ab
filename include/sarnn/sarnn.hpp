// sarnn/sarnn.hpp: everything a user includes.
//
// sarnn: a fixed-size, allocation-free recurrent network with self-attention over its own past states.
// No heap, no exceptions, no RTTI; every size is a template argument, every buffer a member.
//
//   SimpleRnn<T, In, Hidden>                         h_i = tanh(A·[x_i; h_{i-1}] + b)
//   Gru<T, In, Hidden>                               PyTorch's GRU (gates r, z, n)
//   SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory, Set, Cell>
//                                                    h_i = tanh(A·[x_i; c_{i-1}] + b),
//                                                    c_i = Σ_j softmax_j(align(h_j, h_i)) h_j
//   Lstmn<T, In, Hidden, Capacity, K, Memory>         the LSTM-network of Cheng, Dong and Lapata (2016)
//   Lstm<T, In, Hidden>                              PyTorch's nn.LSTM: c' = f ⊙ c + i ⊙ g, h' = o ⊙ tanh(c')
//
// Every model takes one more template parameter after those, its kernel set Set (kernels.hpp; default
// kernel::Default; SelfAttentionRnn then its Cell, cell.hpp), and its value type T names its kinds of number through
// Numeric<T> (numeric.hpp).
#ifndef SARNN_SARNN_HPP
#define SARNN_SARNN_HPP

#include "sarnn/align.hpp"
#include "sarnn/cell.hpp"
#include "sarnn/config.hpp"
#include "sarnn/fixed.hpp"
#include "sarnn/gru.hpp"
#include "sarnn/kernels.hpp"
#include "sarnn/lstmn.hpp"
#include "sarnn/lstm.hpp"
#include "sarnn/memory.hpp"
#include "sarnn/numeric.hpp"
#include "sarnn/params.hpp"
#include "sarnn/run.hpp"
#include "sarnn/self_attention_rnn.hpp"
#include "sarnn/simple_rnn.hpp"
#include "sarnn/status.hpp"
#include "sarnn/validate.hpp"
#include "sarnn/version.hpp"
#include "sarnn/view.hpp"

#endif
