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


def _run_torch(layer, x):
    """h (and c for an LSTM) of each step of x (T, In) through a torch layer or cell from zero state."""
    with torch.no_grad():
        if isinstance(layer, nn.RNNCellBase):
            state, hs, cs = None, [], []
            for x_t in x:
                state = layer(x_t.unsqueeze(0), state)
                h = state[0] if isinstance(state, tuple) else state
                hs.append(h[0])
                if isinstance(state, tuple):
                    cs.append(state[1][0])
            return torch.stack(hs), (torch.stack(cs) if cs else None)
        out = layer(x.unsqueeze(1))   # (T, 1, In): not batch_first
        if isinstance(layer, nn.LSTM):
            cs = [layer(x[: t + 1].unsqueeze(1))[1][1][0, 0] for t in range(len(x))]
            return out[0][:, 0], torch.stack(cs)
        return out[0][:, 0], None


class FromGruLstm(unittest.TestCase):
    def test_layers_cells_and_state_dicts(self):
        torch.manual_seed(20)
        for make, importer, kind in ((nn.GRU, sarnn.from_gru, sarnn.GRU), (nn.GRUCell, sarnn.from_gru, sarnn.GRU),
                                     (nn.LSTM, sarnn.from_lstm, sarnn.LSTM),
                                     (nn.LSTMCell, sarnn.from_lstm, sarnn.LSTM)):
            for bias in (True, False):
                for in_size, hidden in ((1, 1), (3, 7), (17, 3)):
                    layer = make(in_size, hidden, bias=bias).double()
                    x = _inputs(12, in_size, seed=hidden) * 2
                    want_h, want_c = _run_torch(layer, x)
                    for source in (layer, layer.state_dict()):
                        with self.subTest(layer=make.__name__, bias=bias, sizes=(in_size, hidden),
                                          state_dict=source is not layer):
                            model = importer(source)
                            self.assertIsInstance(model, kind)
                            self.assertEqual(next(model.parameters()).dtype, torch.float64)
                            with torch.no_grad():
                                np.testing.assert_allclose(model(x).numpy(), want_h.numpy(), rtol=0, atol=1e-13)
                                if want_c is not None:
                                    np.testing.assert_allclose(model(x, emit="cell").numpy(), want_c.numpy(), rtol=0,
                                                               atol=1e-13)
                                self.assertTrue(torch.equal(model.W_ih, next(layer.parameters())))

    def test_weights_are_copied_exactly(self):
        gru, lstm = nn.GRU(3, 5), nn.LSTMCell(3, 5)
        model = sarnn.from_gru(gru)
        with torch.no_grad():
            for ours, theirs in (("W_ih", "weight_ih_l0"), ("W_hh", "weight_hh_l0"), ("b_ih", "bias_ih_l0"),
                                 ("b_hh", "bias_hh_l0")):
                self.assertTrue(torch.equal(getattr(model, ours), getattr(gru, theirs)), ours)
            model = sarnn.from_lstm(lstm)
            self.assertTrue(torch.equal(model.b, lstm.bias_ih + lstm.bias_hh))
            self.assertTrue(torch.equal(model.W_hh, lstm.weight_hh))
        self.assertEqual(model.W_ih.dtype, torch.float32)

    def test_into(self):
        cell = nn.GRUCell(3, 5)
        target = sarnn.SelfAttentionRNN(3, 5, align="bilinear", cell="gru")
        align_w = target.align.W.detach().clone()
        self.assertIs(sarnn.from_gru(cell, into=target), target)
        with torch.no_grad():
            self.assertTrue(torch.equal(target.W_hh, cell.weight_hh))
            self.assertTrue(torch.equal(target.b_hh, cell.bias_hh))
            self.assertTrue(torch.equal(target.align.W, align_w))
        with self.assertRaisesRegex(ValueError, "cell='gru'"):
            sarnn.from_gru(cell, into=sarnn.SelfAttentionRNN(3, 5))
        with self.assertRaises(ValueError):
            sarnn.from_gru(cell, into=sarnn.GRU(3, 6))
        with self.assertRaises(TypeError):
            sarnn.from_gru(cell, into=sarnn.LSTM(3, 5))
        lstm_target = sarnn.LSTM(3, 5)
        self.assertIs(sarnn.from_lstm(nn.LSTM(3, 5), into=lstm_target), lstm_target)
        with self.assertRaises(TypeError):
            sarnn.from_lstm(nn.LSTM(3, 5), into=sarnn.LSTMN(3, 5, 2))

    def test_refused_layers_name_the_problem(self):
        for importer, layer, words in (
                (sarnn.from_gru, nn.GRU(3, 4, num_layers=2), ["torch.nn.GRU", "num_layers=2", "one layer"]),
                (sarnn.from_gru, nn.GRU(3, 4, bidirectional=True), ["bidirectional=True", "forward in time"]),
                (sarnn.from_lstm, nn.LSTM(3, 4, num_layers=3), ["torch.nn.LSTM", "num_layers=3"]),
                (sarnn.from_lstm, nn.LSTM(3, 4, bidirectional=True), ["bidirectional=True"]),
                (sarnn.from_lstm, nn.LSTM(3, 4, proj_size=2), ["torch.nn.LSTM", "proj_size=2", "projection"]),
                (sarnn.from_gru, nn.GRU(3, 4, num_layers=2).state_dict(), ["unexpected key weight_ih_l1",
                                                                          "num_layers > 1"]),
                (sarnn.from_gru, nn.GRU(3, 4, bidirectional=True).state_dict(), ["weight_ih_l0_reverse",
                                                                                "bidirectional=True"]),
                (sarnn.from_lstm, nn.LSTM(3, 4, proj_size=2).state_dict(), ["unexpected key weight_hr_l0",
                                                                           "proj_size > 0"]),
                (sarnn.from_lstm, nn.GRU(3, 4).state_dict(), ["weight_hh_l0", "(16, 4)", "4 gates"]),
                (sarnn.from_gru, nn.LSTMCell(3, 4).state_dict(), ["weight_hh", "(12, 4)", "GRUCell"]),
                (sarnn.from_gru, {"weight_hh": torch.zeros(12, 4)}, ["missing key weight_ih"])):
            with self.subTest(words=words):
                with self.assertRaises(ValueError) as caught:
                    importer(layer)
                for word in words:
                    self.assertIn(word, str(caught.exception))
        for importer, layer in ((sarnn.from_gru, nn.LSTM(3, 4)), (sarnn.from_lstm, nn.GRUCell(3, 4)),
                                (sarnn.from_lstm, nn.RNN(3, 4)), (sarnn.from_gru, "gru.pt")):
            with self.assertRaises(TypeError):
                importer(layer)


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


def _sigmoid(z):
    return 1.0 / (1.0 + np.exp(-z))


def _keras_gru(kernel, recurrent_kernel, bias, xs):
    """Keras GRU (reset_after=True) on row vectors, gate columns z, r, h; bias[0] input, bias[1] recurrent."""
    n = recurrent_kernel.shape[0]
    h = np.zeros(n)
    out = []
    for x in xs:
        mx = x @ kernel + bias[0]
        mh = h @ recurrent_kernel + bias[1]
        z = _sigmoid(mx[:n] + mh[:n])
        r = _sigmoid(mx[n:2 * n] + mh[n:2 * n])
        hh = np.tanh(mx[2 * n:] + r * mh[2 * n:])
        h = z * h + (1 - z) * hh
        out.append(h)
    return np.array(out)


def _keras_lstm(kernel, recurrent_kernel, bias, xs):
    """Keras LSTM on row vectors, gate columns i, f, c, o: returns hs, cs."""
    n = recurrent_kernel.shape[0]
    h, c = np.zeros(n), np.zeros(n)
    hs, cs = [], []
    for x in xs:
        z = x @ kernel + h @ recurrent_kernel + bias
        i, f, g, o = _sigmoid(z[:n]), _sigmoid(z[n:2 * n]), np.tanh(z[2 * n:3 * n]), _sigmoid(z[3 * n:])
        c = f * c + i * g
        h = o * np.tanh(c)
        hs.append(h)
        cs.append(c)
    return np.array(hs), np.array(cs)


class KerasGruLstm(unittest.TestCase):
    """Arrays shaped like Keras's get_weights() (Keras itself is not needed), against its formulas."""

    def test_gru_reset_after(self):
        rng = np.random.default_rng(21)
        for in_size, hidden in ((1, 1), (3, 7), (7, 3)):
            kernel = rng.uniform(-0.7, 0.7, (in_size, 3 * hidden))
            recurrent = rng.uniform(-0.7, 0.7, (hidden, 3 * hidden))
            bias = rng.uniform(-0.5, 0.5, (2, 3 * hidden))
            xs = rng.uniform(-2, 2, (15, in_size))
            for b in (bias, None):
                with self.subTest(in_size=in_size, hidden=hidden, bias=b is not None):
                    model = sarnn.keras_gru(kernel, recurrent, b, dtype=torch.float64)
                    self.assertIsInstance(model, sarnn.GRU)
                    want = _keras_gru(kernel, recurrent, np.zeros((2, 3 * hidden)) if b is None else b, xs)
                    with torch.no_grad():
                        np.testing.assert_allclose(model(torch.from_numpy(xs)).numpy(), want, rtol=0, atol=1e-13)
        # the gate blocks: Keras's z (first) is PyTorch's second block
        model = sarnn.keras_gru(np.arange(6.0).reshape(1, 6), np.zeros((2, 6)), dtype=torch.float64)
        self.assertEqual(model.W_ih[:, 0].tolist(), [2.0, 3.0, 0.0, 1.0, 4.0, 5.0])

    def test_gru_reset_after_false_is_refused_by_name(self):
        k, r = np.ones((3, 12)), np.ones((4, 12))
        for kwargs in ({"bias": np.ones(12), "reset_after": False}, {"reset_after": False}):
            with self.assertRaisesRegex(ValueError, r"reset_after=False.*r ⊙ h"):
                sarnn.keras_gru(k, r, **kwargs)
        with self.assertRaisesRegex(ValueError, "reset_after=False"):
            sarnn.keras_gru(k, r, np.ones(12))   # the bias of the reset_after=False form
        with self.assertRaisesRegex(ValueError, "hard_sigmoid"):
            sarnn.keras_gru(k, r, recurrent_activation="hard_sigmoid")
        with self.assertRaises(ValueError):
            sarnn.keras_gru(np.ones((3, 11)), r)
        with self.assertRaises(ValueError):
            sarnn.keras_gru(k, np.ones((4, 8)))
        with self.assertRaises(ValueError):
            sarnn.keras_gru(k, r, np.ones((2, 9)))

    def test_lstm(self):
        rng = np.random.default_rng(22)
        for in_size, hidden in ((1, 1), (3, 7), (7, 3)):
            kernel = rng.uniform(-0.7, 0.7, (in_size, 4 * hidden))
            recurrent = rng.uniform(-0.7, 0.7, (hidden, 4 * hidden))
            bias = rng.uniform(-0.5, 0.5, 4 * hidden)
            xs = rng.uniform(-2, 2, (15, in_size))
            for b in (bias, None):
                with self.subTest(in_size=in_size, hidden=hidden, bias=b is not None):
                    model = sarnn.keras_lstm(kernel, recurrent, b, dtype=torch.float64)
                    self.assertIsInstance(model, sarnn.LSTM)
                    want_h, want_c = _keras_lstm(kernel, recurrent, 0.0 if b is None else b, xs)
                    with torch.no_grad():
                        x = torch.from_numpy(xs)
                        np.testing.assert_allclose(model(x).numpy(), want_h, rtol=0, atol=1e-13)
                        np.testing.assert_allclose(model(x, emit="cell").numpy(), want_c, rtol=0, atol=1e-13)
        f32 = np.float32
        self.assertEqual(sarnn.keras_lstm(np.ones((3, 8), f32), np.ones((2, 8), f32)).W_ih.dtype, torch.float32)
        with self.assertRaises(ValueError):
            sarnn.keras_lstm(np.ones((3, 8)), np.ones((2, 8)), np.ones(6))
        with self.assertRaises(ValueError):
            sarnn.keras_lstm(np.ones((3, 8)), np.ones((2, 6)))
        with self.assertRaisesRegex(ValueError, "activation='relu'"):
            sarnn.keras_lstm(np.ones((3, 8)), np.ones((2, 8)), activation="relu")


if __name__ == "__main__":
    unittest.main()
