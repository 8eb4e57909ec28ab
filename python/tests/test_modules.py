"""sarnn.modules against the plain NumPy references in tests/reference.py, and their properties."""
import os
import subprocess
import sys
import tempfile
import unittest

from . import require

require("torch", "numpy")
import torch  # noqa: E402
import numpy as np  # noqa: E402

import sarnn
from sarnn.aligns import ALIGNS, make_align
from tests import reference

SIZES = [(1, 1), (3, 7), (7, 17), (17, 3)]  # (In, Hidden)
WINDOWS = [None, 1, 3]
T = 9  # longer than every window


def _models(in_size, hidden):
    """Every model kind and align, with every window, in float64."""
    for window in WINDOWS:
        for align in ALIGNS:
            for k in ((1, 3) if align in ("key_query", "additive") else (None,)):
                yield sarnn.SelfAttentionRNN(in_size, hidden, align=align, window=window, k=k).double()
            yield sarnn.SelfAttentionRNN(in_size, hidden, align=align, window=window, cell="gru",
                                         k=2 if align in ("key_query", "additive") else None).double()
        for k in (1, 3):
            yield sarnn.LSTMN(in_size, hidden, k, window=window).double()
    yield sarnn.SimpleRNN(in_size, hidden).double()
    yield sarnn.GRU(in_size, hidden).double()
    yield sarnn.LSTM(in_size, hidden).double()


def _inputs(n, in_size, seed=0, batch=None):
    g = torch.Generator().manual_seed(seed)
    shape = (n, in_size) if batch is None else (batch, n, in_size)
    return torch.rand(shape, generator=g, dtype=torch.float64) * 4 - 2


class AgainstReference(unittest.TestCase):
    def test_every_model_align_window_and_size(self):
        torch.manual_seed(1)
        for in_size, hidden in SIZES:
            for model in _models(in_size, hidden):
                with self.subTest(config=model.config()):
                    x = _inputs(T, in_size, seed=in_size + hidden)
                    hs, second, weights = reference.run(model, x.numpy())
                    with torch.no_grad():
                        np.testing.assert_allclose(model(x).numpy(), hs, rtol=0, atol=1e-12)
                        if isinstance(model, sarnn.SelfAttentionRNN):
                            np.testing.assert_allclose(model(x, emit="context").numpy(), second, rtol=0, atol=1e-12)
                        if isinstance(model, (sarnn.LSTMN, sarnn.LSTM)):
                            np.testing.assert_allclose(model(x, emit="cell").numpy(), second, rtol=0, atol=1e-12)
                        self.assertEqual(weights is None, isinstance(model, (sarnn.SimpleRNN, sarnn.GRU, sarnn.LSTM)))
                        if weights is not None:
                            attention = model.attention(x)
                            self.assertEqual((len(attention), len(weights)), (T, T))
                            for got, want in zip(attention, weights):
                                np.testing.assert_allclose(got.numpy(), want, rtol=0, atol=1e-12)

    def test_float32_default_close_to_reference(self):
        torch.manual_seed(2)
        model = sarnn.SelfAttentionRNN(3, 7, align="additive", k=3)
        self.assertEqual(model.A.dtype, torch.float32)
        x = _inputs(T, 3).float()
        with torch.no_grad():
            got = model(x).double().numpy()
        np.testing.assert_allclose(got, reference.run(model, x.double().numpy())[0], rtol=0, atol=1e-5)


class AgainstTorch(unittest.TestCase):
    """GRU and LSTM against torch.nn.GRU / nn.LSTM (and their cells) with the same weights: PyTorch's formulas."""

    def test_gru_is_torch_gru(self):
        torch.manual_seed(11)
        for in_size, hidden in SIZES + [(4, 33)]:
            layer = torch.nn.GRU(in_size, hidden, batch_first=True).double()
            model = sarnn.GRU(in_size, hidden).double()
            model.load_state_dict({"W_ih": layer.weight_ih_l0, "W_hh": layer.weight_hh_l0, "b_ih": layer.bias_ih_l0,
                                   "b_hh": layer.bias_hh_l0})
            x = _inputs(40, in_size, seed=hidden, batch=3) * 3
            with torch.no_grad():
                want, _ = layer(x)
                np.testing.assert_allclose(model(x).numpy(), want.numpy(), rtol=0, atol=1e-13)

    def test_lstm_is_torch_lstm(self):
        torch.manual_seed(12)
        for in_size, hidden in SIZES + [(4, 33)]:
            layer = torch.nn.LSTM(in_size, hidden, batch_first=True).double()
            model = sarnn.LSTM(in_size, hidden).double()
            model.load_state_dict({"W_ih": layer.weight_ih_l0, "W_hh": layer.weight_hh_l0,
                                   "b": layer.bias_ih_l0 + layer.bias_hh_l0})
            x = _inputs(40, in_size, seed=hidden, batch=3) * 3
            with torch.no_grad():
                want, _ = layer(x)
                np.testing.assert_allclose(model(x).numpy(), want.numpy(), rtol=0, atol=1e-13)
                # the cell: torch.nn.LSTMCell step by step
                cell = torch.nn.LSTMCell(in_size, hidden).double()
                cell.load_state_dict({"weight_ih": layer.weight_ih_l0, "weight_hh": layer.weight_hh_l0,
                                      "bias_ih": layer.bias_ih_l0, "bias_hh": layer.bias_hh_l0})
                h = c = torch.zeros(3, hidden, dtype=torch.float64)
                cells = []
                for t in range(x.shape[1]):
                    h, c = cell(x[:, t], (h, c))
                    cells.append(c)
                np.testing.assert_allclose(model(x, emit="cell").numpy(), torch.stack(cells, 1).numpy(), rtol=0,
                                           atol=1e-13)

    def test_gru_under_attention_is_a_gru_cell_on_the_context(self):
        torch.manual_seed(13)
        model = sarnn.SelfAttentionRNN(3, 7, align="bilinear", window=3, cell="gru").double()
        cell = torch.nn.GRUCell(3, 7).double()
        cell.load_state_dict({"weight_ih": model.W_ih, "weight_hh": model.W_hh, "bias_ih": model.b_ih,
                              "bias_hh": model.b_hh})
        x = _inputs(T, 3, batch=2)
        with torch.no_grad():
            h, c = model(x), model(x, emit="context")
            for t in range(T):
                previous = c[:, t - 1] if t else torch.zeros(2, 7, dtype=torch.float64)
                np.testing.assert_allclose(h[:, t].numpy(), cell(x[:, t], previous).numpy(), rtol=0, atol=1e-14)
            self.assertTrue(torch.equal(c[:, 0], h[:, 0]))   # c_1 = h_1 (one state in memory)


class Properties(unittest.TestCase):
    def test_attention_weights_sum_to_one_over_the_window(self):
        torch.manual_seed(3)
        for model in _models(3, 7):
            if isinstance(model, (sarnn.SimpleRNN, sarnn.GRU, sarnn.LSTM)):
                continue
            with self.subTest(config=model.config()):
                with torch.no_grad():
                    weights = model.attention(_inputs(T, 3))
                lstmn = isinstance(model, sarnn.LSTMN)
                self.assertEqual(len(weights), T)
                for i, w in enumerate(weights, start=1):
                    attended = i - 1 if lstmn else i  # LSTMN: the new state is not on the tape yet
                    if model.window is not None:
                        attended = min(attended, model.window)
                    self.assertEqual(w.shape, (attended,))
                    if attended:
                        self.assertAlmostEqual(float(w.sum()), 1.0, places=12)
                        self.assertTrue(bool((w >= 0).all()))

    def test_first_context_is_first_hidden(self):
        torch.manual_seed(4)
        for align in ALIGNS:
            model = sarnn.SelfAttentionRNN(3, 7, align=align, k=3 if align in ("key_query", "additive") else None)
            x = _inputs(4, 3).float()
            with torch.no_grad():
                self.assertTrue(torch.equal(model(x, emit="context")[0], model(x)[0]), align)

    def test_batched_equals_per_sequence(self):
        torch.manual_seed(5)
        for model in _models(3, 7):
            with self.subTest(config=model.config()):
                x = _inputs(T, 3, batch=4)
                with torch.no_grad():
                    batched = model(x)
                    self.assertEqual(batched.shape, (4, T, 7))
                    for b in range(4):
                        np.testing.assert_allclose(batched[b].numpy(), model(x[b]).numpy(), rtol=0, atol=1e-13)

    def test_gradients_reach_every_parameter(self):
        torch.manual_seed(6)
        for model in _models(3, 7):
            if getattr(model, "window", None) == 1:
                continue  # softmax over one state is constant: the align params get no gradient, rightly
            with self.subTest(config=model.config()):
                model(_inputs(6, 3, batch=2)).pow(2).sum().backward()
                for name, p in model.named_parameters():
                    self.assertTrue(bool(torch.isfinite(p.grad).all()), name)
                    self.assertGreater(float(p.grad.abs().sum()), 0.0, name)

    def test_initialisation_range(self):
        torch.manual_seed(7)
        for model in _models(3, 16):
            for name, p in model.named_parameters():
                self.assertLessEqual(float(p.abs().max()), 0.25, name)
                self.assertGreater(float(p.abs().max()), 0.0, name)

    def test_config_cell(self):
        self.assertNotIn("cell", sarnn.SelfAttentionRNN(3, 4).config())   # the Elman configs as they were
        self.assertEqual(sarnn.SelfAttentionRNN(3, 4, cell="gru").config()["cell"], "gru")
        with self.assertRaises(ValueError):
            sarnn.from_config(dict(sarnn.GRU(3, 4).config(), cell="gru"))
        with self.assertRaises(ValueError):
            sarnn.from_config(dict(sarnn.SelfAttentionRNN(3, 4).config(), cell="lstm"))

    def test_empty_sequence(self):
        model = sarnn.SelfAttentionRNN(3, 7)
        self.assertEqual(model(torch.zeros(0, 3)).shape, (0, 7))
        self.assertEqual(model(torch.zeros(2, 0, 3)).shape, (2, 0, 7))


class Errors(unittest.TestCase):
    def test_bad_emit(self):
        x = torch.zeros(2, 3)
        for model, bad in ((sarnn.SimpleRNN(3, 4), "context"), (sarnn.SelfAttentionRNN(3, 4), "cell"),
                           (sarnn.LSTMN(3, 4, 2), "context"), (sarnn.SimpleRNN(3, 4), "h")):
            with self.assertRaises(ValueError):
                model(x, emit=bad)

    def test_bad_input_shape(self):
        for x in (torch.zeros(2, 4), torch.zeros(3), torch.zeros(1, 2, 3, 3)):
            with self.assertRaises(ValueError):
                sarnn.SimpleRNN(3, 4)(x)

    def test_bad_align_k_window(self):
        with self.assertRaises(ValueError):
            make_align("cosine", 4)
        with self.assertRaises(ValueError):
            sarnn.SelfAttentionRNN(3, 4, align="key_query")
        with self.assertRaises(ValueError):
            sarnn.SelfAttentionRNN(3, 4, align="dot", k=2)
        with self.assertRaises(ValueError):
            sarnn.SelfAttentionRNN(3, 4, window=0)
        with self.assertRaises(ValueError):
            sarnn.LSTMN(3, 4, 0)
        with self.assertRaises(ValueError):
            sarnn.SimpleRNN(0, 4)
        with self.assertRaises(ValueError):
            sarnn.SelfAttentionRNN(3, 4, cell="lstm")
        with self.assertRaises(ValueError):
            sarnn.GRU(3, 0)
        with self.assertRaises(ValueError):
            sarnn.LSTM(3, 4)(torch.zeros(2, 4))
        with self.assertRaises(ValueError):
            sarnn.GRU(3, 4)(torch.zeros(2, 3), emit="cell")


class Store(unittest.TestCase):
    def test_state_dict_keys_match_the_cpp_structs(self):
        keys = {"dot": [], "scaled_dot": [], "bilinear": ["align.W"], "key_query": ["align.Wk", "align.Wq"],
                "additive": ["align.W", "align.v"]}
        for align, extra in keys.items():
            model = sarnn.SelfAttentionRNN(3, 4, align=align, k=2 if align in ("key_query", "additive") else None)
            self.assertEqual(list(model.state_dict()), ["A", "b"] + extra)
        self.assertEqual(list(sarnn.LSTMN(3, 4, 2).state_dict()), ["W_ih", "W_hh", "b", "W_h", "W_x", "W_ht", "v"])
        self.assertEqual({k: tuple(v.shape) for k, v in sarnn.GRU(3, 4).state_dict().items()},
                         {"W_ih": (12, 3), "W_hh": (12, 4), "b_ih": (12,), "b_hh": (12,)})
        self.assertEqual({k: tuple(v.shape) for k, v in sarnn.LSTM(3, 4).state_dict().items()},
                         {"W_ih": (16, 3), "W_hh": (16, 4), "b": (16,)})
        self.assertEqual(list(sarnn.SelfAttentionRNN(3, 4, "bilinear", cell="gru").state_dict()),
                         ["W_ih", "W_hh", "b_ih", "b_hh", "align.W"])
        self.assertEqual({k: tuple(v.shape) for k, v in sarnn.SelfAttentionRNN(3, 4, "additive", k=2).state_dict()
                          .items()}, {"A": (4, 7), "b": (4,), "align.W": (2, 8), "align.v": (2,)})

    def test_config_save_load_round_trip(self):
        import os
        import tempfile
        torch.manual_seed(8)
        with tempfile.TemporaryDirectory() as d:
            models = list(_models(3, 5))
            for model in models[::4] + models[-3:] + [m for m in models if getattr(m, "cell", None) == "gru"][:2]:
                with self.subTest(config=model.config()):
                    path = os.path.join(d, "m.pt")
                    sarnn.save(model, path)
                    loaded = sarnn.load(path)
                    self.assertEqual(loaded.config(), model.config())
                    self.assertEqual(next(loaded.parameters()).dtype, torch.float64)
                    x = _inputs(5, 3)
                    with torch.no_grad():
                        self.assertTrue(torch.equal(loaded(x), model(x)))
                    self.assertEqual(sarnn.from_config(model.config()).config(), model.config())


class WithoutTorch(unittest.TestCase):
    """`import sarnn` and test discovery in a Python whose torch raises ImportError (a fake torch package first
    on sys.path): the package imports, its torch-dependent names raise a clear ImportError, the tests skip."""

    def run_python(self, *args):
        python_dir = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        with tempfile.TemporaryDirectory(prefix="sarnn_no_torch_") as fake:
            os.mkdir(os.path.join(fake, "torch"))
            with open(os.path.join(fake, "torch", "__init__.py"), "w", encoding="utf-8") as f:
                f.write('raise ImportError("torch hidden by test_modules.WithoutTorch")\n')
            env = dict(os.environ, PYTHONPATH=os.pathsep.join([fake, python_dir]), PYTHONDONTWRITEBYTECODE="1")
            return subprocess.run([sys.executable, *args], cwd=python_dir, env=env, capture_output=True, text=True,
                                  timeout=300)

    def test_import_and_clear_error(self):
        done = self.run_python("-c", "import sarnn\nprint(sarnn.ExportError.__name__)\n"
                                     "try:\n    sarnn.SimpleRNN\nexcept ImportError as e:\n    print(e)\n")
        self.assertEqual(done.returncode, 0, done.stderr)
        first, second = done.stdout.splitlines()
        self.assertEqual(first, "ExportError")
        self.assertTrue(second.startswith("sarnn.SimpleRNN needs torch and numpy"), second)
        self.assertIn("torch hidden by test_modules.WithoutTorch", second)

    def test_discovery_skips(self):
        done = self.run_python("-m", "unittest", "discover", "-v")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertNotIn("ERROR", done.stderr)
        self.assertRegex(done.stderr, r"OK \(skipped=\d+\)")
        self.assertIn("skipped 'torch not installed: torch hidden by test_modules.WithoutTorch'", done.stderr)


if __name__ == "__main__":
    unittest.main()
