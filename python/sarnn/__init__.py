"""sarnn's Python side: PyTorch reference modules of the C++ models, importers and the header exporter.

    SimpleRNN         h_i = tanh(A·[x_i; h_{i-1}] + b)                          sarnn::SimpleRnn
    SelfAttentionRNN  h_i = tanh(A·[x_i; c_{i-1}] + b), c_i = Σ_j alpha_ij h_j   sarnn::SelfAttentionRnn
    LSTMN             the LSTM-network of Cheng, Dong and Lapata (2016)         sarnn::Lstmn

`export_header(model, name, path)` (or `python3 -m sarnn.export model.pt --name NAME`) writes a C++
header holding the weights, the model type and a golden self-check.
"""
from sarnn.errors import ExportError
from sarnn.exporter import export_header
from sarnn.importers import from_lstm_cell, from_rnn, keras_simple_rnn
from sarnn.modules import LSTMN, SelfAttentionRNN, SimpleRNN
from sarnn.store import from_config, load, save

__all__ = ["SimpleRNN", "SelfAttentionRNN", "LSTMN", "from_rnn", "from_lstm_cell", "keras_simple_rnn", "save",
           "load", "from_config", "ExportError", "export_header"]
