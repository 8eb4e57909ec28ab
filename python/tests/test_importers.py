"""sarnn.importers against the layers they import."""
import unittest

from . import require

require("torch", "numpy")
import torch  # noqa: E402
from torch import nn  # noqa: E402
import numpy as np  # noqa: E402

import sarnn


def _inputs(n, in_size, seed=0):
    g = torch.Generator().manual_seed(seed)
    return torch.rand(n, in_size, generator=g, dtype=torch.float64) * 4 - 2


class FromRnn(unittest.TestCase):
    def test_rnn_with_and_without_bias(self):
        torch.manual_seed(0)
        for bias in (True, False):
            for in_size, hidden in ((1, 1), (3, 7), (17, 3)):
                with self.subTest(bias=bias, in_size=in_size, hidden=hidden):
                    rnn = nn.RNN(in_size, hidden, bias=bias, batch_first=True).double()
                    model = sarnn.from_rnn(rnn)
                    self.assertIsInstance(model, sarnn.SimpleRNN)
                    self.assertEqual(model.A.dtype, torch.float64)
                    x = _inputs(9, in_size).unsqueeze(0)
                    with torch.no_grad():
                        np.testing.assert_allclose(model(x).numpy(), rnn(x)[0].numpy(), rtol=0, atol=1e-6)
                        self.assertTrue(torch.equal(model.A[:, :in_size], rnn.weight_ih_l0))
                        self.assertTrue(torch.equal(model.A[:, in_size:], rnn.weight_hh_l0))

    def test_rnn_cell_with_and_without_bias(self):
        torch.manual_seed(1)
        for bias in (True, False):
            with self.subTest(bias=bias):
                cell = nn.RNNCell(3, 7, bias=bias).double()
                model = sarnn.from_rnn(cell)
                x = _inputs(9, 3)
                h = torch.zeros(1, 7, dtype=torch.float64)
                want = []
                with torch.no_grad():
                    for x_t in x:
                        h = cell(x_t.unsqueeze(0), h)
                        want.append(h[0])
                    np.testing.assert_allclose(model(x).numpy(), torch.stack(want).numpy(), rtol=0, atol=1e-6)
                    b = cell.bias_ih + cell.bias_hh if bias else torch.zeros(7, dtype=torch.float64)
                    self.assertTrue(torch.equal(model.b, b))

    def test_into_self_attention(self):
        cell = nn.RNNCell(3, 5)
        target = sarnn.SelfAttentionRNN(3, 5, align="bilinear")
        align_w = target.align.W.detach().clone()
        self.assertIs(sarnn.from_rnn(cell, into=target), target)
        with torch.no_grad():
            self.assertTrue(torch.equal(target.A, torch.cat([cell.weight_ih, cell.weight_hh], 1)))
            self.assertTrue(torch.equal(target.b, cell.bias_ih + cell.bias_hh))
            self.assertTrue(torch.equal(target.align.W, align_w))
        with self.assertRaises(ValueError):
            sarnn.from_rnn(cell, into=sarnn.SelfAttentionRNN(3, 6))
        with self.assertRaises(TypeError):
            sarnn.from_rnn(cell, into=sarnn.LSTMN(3, 5, 2))

    def test_refused_layers_name_the_problem(self):
        for rnn, word in ((nn.RNN(3, 4, num_layers=2), "num_layers"),
                          (nn.RNN(3, 4, bidirectional=True), "bidirectional"),
                          (nn.RNN(3, 4, nonlinearity="relu"), "nonlinearity"),
                          (nn.RNNCell(3, 4, nonlinearity="relu"), "nonlinearity")):
            with self.subTest(word=word):
                with self.assertRaisesRegex(ValueError, word):
                    sarnn.from_rnn(rnn)
        with self.assertRaises(TypeError):
            sarnn.from_rnn(nn.GRU(3, 4))


class FromLstmCell(unittest.TestCase):
    def test_first_step_is_the_cells_step_from_zero_state(self):
        torch.manual_seed(2)
        for bias in (True, False):
            with self.subTest(bias=bias):
                cell = nn.LSTMCell(3, 7, bias=bias).double()
                model = sarnn.from_lstm_cell(cell, k=4, window=5)
                self.assertIsInstance(model, sarnn.LSTMN)
                self.assertEqual((model.k, model.window, model.W_ih.dtype), (4, 5, torch.float64))
                x = _inputs(6, 3)
                with torch.no_grad():
                    h, c = cell(x[:1])
                    np.testing.assert_allclose(model(x)[0].numpy(), h[0].numpy(), rtol=0, atol=1e-12)
                    np.testing.assert_allclose(model(x, emit="cell")[0].numpy(), c[0].numpy(), rtol=0, atol=1e-12)

    def test_weights_are_copied_exactly(self):
        cell = nn.LSTMCell(3, 5)
        model = sarnn.from_lstm_cell(cell, k=2)
        with torch.no_grad():
            self.assertTrue(torch.equal(model.W_ih, cell.weight_ih))
            self.assertTrue(torch.equal(model.W_hh, cell.weight_hh))
            self.assertTrue(torch.equal(model.b, cell.bias_ih + cell.bias_hh))
        target = sarnn.LSTMN(3, 5, 2, window=4)
        v = target.v.detach().clone()
        self.assertIs(sarnn.from_lstm_cell(cell, into=target), target)
        with torch.no_grad():
            self.assertTrue(torch.equal(target.W_hh, cell.weight_hh))
            self.assertTrue(torch.equal(target.v, v))

    def test_errors(self):
        cell = nn.LSTMCell(3, 5)
        with self.assertRaises(ValueError):
            sarnn.from_lstm_cell(cell)  # no k
        with self.assertRaises(ValueError):
            sarnn.from_lstm_cell(cell, k=3, into=sarnn.LSTMN(3, 5, 2))
        with self.assertRaises(ValueError):
            sarnn.from_lstm_cell(cell, into=sarnn.LSTMN(3, 6, 2))
        with self.assertRaises(TypeError):
            sarnn.from_lstm_cell(nn.RNNCell(3, 5), k=2)


def _keras_simple_rnn(kernel, recurrent_kernel, bias, xs):
    """Keras SimpleRNN's formula on row vectors: h_t = tanh(x_t K + h_{t-1} R + bias)."""
    h = np.zeros((1, kernel.shape[1]))
    out = []
    for x in xs:
        h = np.tanh(x[None, :] @ kernel + h @ recurrent_kernel + bias)
        out.append(h[0])
    return np.array(out)


class Keras(unittest.TestCase):
    def test_mapping_matches_the_keras_formula(self):
        rng = np.random.default_rng(3)
        for in_size, hidden in ((1, 1), (3, 7), (7, 3)):
            kernel = rng.uniform(-0.5, 0.5, (in_size, hidden))
            recurrent = rng.uniform(-0.5, 0.5, (hidden, hidden))
            bias = rng.uniform(-0.5, 0.5, hidden)
            xs = rng.uniform(-1, 1, (9, in_size))
            for b in (bias, None):
                with self.subTest(in_size=in_size, hidden=hidden, bias=b is not None):
                    model = sarnn.keras_simple_rnn(kernel, recurrent, b, dtype=torch.float64)
                    want = _keras_simple_rnn(kernel, recurrent, 0.0 if b is None else b, xs)
                    with torch.no_grad():
                        got = model(torch.from_numpy(xs)).numpy()
                    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)

    def test_float32_default_and_shape_errors(self):
        f32 = np.float32
        model = sarnn.keras_simple_rnn(np.ones((3, 4), f32), np.ones((4, 4), f32), np.ones(4, f32))
        self.assertEqual(model.A.dtype, torch.float32)
        with self.assertRaises(ValueError):
            sarnn.keras_simple_rnn(np.ones((3, 4)), np.ones((4, 3)), np.ones(4))
        with self.assertRaises(ValueError):
            sarnn.keras_simple_rnn(np.ones((3, 4)), np.ones((4, 4)), np.ones(3))


if __name__ == "__main__":
    unittest.main()
