"""sarnn.export: headers parsed back bit-exactly, golden runs recomputed, every error, the command line."""
import contextlib
import io
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import warnings

from . import require

require("torch", "numpy")
import torch  # noqa: E402
from torch import nn  # noqa: E402
import numpy as np  # noqa: E402

import sarnn
from sarnn import ExportError, export_header
from sarnn import export as sarnn_export
from tests import reference

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(PYTHON_DIR)
TOKEN = re.compile(r"\{|\}|-?0x[0-9a-f]+(?:\.[0-9a-f]+)?p[+-]\d+f?")
FIELD = re.compile(r"^\s*// (\w+)((?:\[\d+\])+) \(from ([\w.]+)\)$")


def _nested(text, dtype):
    """The brace structure of an initializer as nested lists of floats; checks each literal's suffix and
    that its value is exact in dtype."""
    stack = [[]]
    for token in TOKEN.findall(text):
        if token == "{":
            stack.append([])
        elif token == "}":
            done = stack.pop()
            stack[-1].append(done)
        else:
            assert token.endswith("f") == (dtype == "float"), token
            value = float.fromhex(token.rstrip("f"))
            assert dtype == "double" or float(np.float32(value)) == value, token
            stack[-1].append(value)
    assert len(stack) == 1 and len(stack[0]) == 1, "unbalanced braces"
    return stack[0][0]


def parse_header(text, dtype):
    """{variable: ndarray} for golden_x/golden_h, {variable: {key: ndarray}} for the params aggregates, and
    the integer constants."""
    out, ints = {}, {}
    for m in re.finditer(r"^inline constexpr std::size_t (\w+) = (\d+);$", text, re.M):
        ints[m.group(1)] = int(m.group(2))
    for m in re.finditer(r"^inline constexpr ([^\n]+) (\w+)((?:\[\w+\])*) = \{\n(.*?)^\};$", text, re.M | re.S):
        body = m.group(4)
        if m.group(2) in ("golden_x", "golden_h"):
            out[m.group(2)] = np.array(_nested("{" + body + "}", dtype))
            continue
        fields = [FIELD.match(line) for line in body.splitlines() if FIELD.match(line)]
        values = _nested("{" + body + "}", dtype)
        assert len(values) == len(fields), m.group(2)
        arrays = {}
        for f, v in zip(fields, values):
            a = np.array(v)
            assert a.shape == tuple(int(n) for n in re.findall(r"\d+", f.group(2))), f.group(0)
            arrays[f.group(3)] = a
        out[m.group(2)] = arrays
    return out, ints


def _rounded(tensor, dtype):
    return tensor.detach().double().numpy().astype(np.float32 if dtype == "float" else np.float64).astype(np.float64)


def _cases():
    """(model, options, expected type string) for every kind, align, memory and dtype."""
    torch.manual_seed(0)
    for dtype in ("float", "double"):
        t = dtype
        yield sarnn.SimpleRNN(3, 7), {"dtype": dtype}, f"sarnn::SimpleRnn<{t}, 3, 7>"
        for align, k, cpp in (("dot", None, "DotAlign"), ("scaled_dot", None, "ScaledDotAlign"),
                              ("bilinear", None, "BilinearAlign"), ("key_query", 4, "KeyQueryAlign<4>"),
                              ("additive", 4, "AdditiveAlign<4>")):
            yield (sarnn.SelfAttentionRNN(3, 7, align=align, k=k), {"dtype": dtype, "capacity": 5},
                   f"sarnn::SelfAttentionRnn<{t}, 3, 7, 5, sarnn::{cpp}, sarnn::Bounded>")
            yield (sarnn.SelfAttentionRNN(2, 5, align=align, k=k, window=3), {"dtype": dtype, "golden_steps": 7},
                   f"sarnn::SelfAttentionRnn<{t}, 2, 5, 3, sarnn::{cpp}, sarnn::Window>")
        yield sarnn.LSTMN(3, 7, 4), {"dtype": dtype, "capacity": 6}, f"sarnn::Lstmn<{t}, 3, 7, 6, 4, sarnn::Bounded>"
        yield (sarnn.LSTMN(2, 5, 3, window=2), {"dtype": dtype, "golden_steps": 6},
               f"sarnn::Lstmn<{t}, 2, 5, 2, 3, sarnn::Window>")
        yield sarnn.GRU(3, 7), {"dtype": dtype}, f"sarnn::Gru<{t}, 3, 7>"
        yield sarnn.LSTM(1, 17), {"dtype": dtype, "golden_steps": 12}, f"sarnn::Lstm<{t}, 1, 17>"
        # the GRU cell under attention: SelfAttentionRnn<..., GruCell> with GruParams (issue 33)
        tail = "sarnn::kernel::Default, sarnn::GruCell>"
        yield (sarnn.SelfAttentionRNN(3, 7, align="bilinear", cell="gru"), {"dtype": dtype, "capacity": 5},
               f"sarnn::SelfAttentionRnn<{t}, 3, 7, 5, sarnn::BilinearAlign, sarnn::Bounded, {tail}")
        yield (sarnn.SelfAttentionRNN(2, 5, align="additive", k=3, window=3, cell="gru"),
               {"dtype": dtype, "golden_steps": 7},
               f"sarnn::SelfAttentionRnn<{t}, 2, 5, 3, sarnn::AdditiveAlign<3>, sarnn::Window, {tail}")


class TempDir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sarnn_export_test_")
        self.addCleanup(shutil.rmtree, self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_cli_process(self, *args):
        """`python3 -m sarnn.export ARGS` in self.dir, a process of its own."""
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        return subprocess.run([sys.executable, "-m", "sarnn.export", *args], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=120)

    def run_cli(self, *args):
        """The command line's main() (what `python3 -m sarnn.export ARGS` runs) in this process, in self.dir: its
        exit status, stdout and stderr as run_cli_process gives them. A process would import torch again (seconds
        each); test_success_and_error runs one, and ctest's sarnn_python_export_cli the module end to end."""
        out, err = io.StringIO(), io.StringIO()
        cwd = os.getcwd()
        os.chdir(self.dir)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = sarnn_export.main(list(args))
                except SystemExit as e:  # argparse's usage errors
                    code = e.code if isinstance(e.code, int) else 1
        finally:
            os.chdir(cwd)
        return subprocess.CompletedProcess(["sarnn.export", *args], code, out.getvalue(), err.getvalue())

    def assert_refused(self, source, words, name="m", **options):
        """export_header raises ExportError naming every word, writes nothing and keeps an existing file;
        returns the message."""
        fresh, kept = self.path("fresh.hpp"), self.path("kept.hpp")
        with open(kept, "w", encoding="utf-8") as f:
            f.write("previous content\n")
        listing = sorted(os.listdir(self.dir))
        for path in (fresh, kept):
            with self.assertRaises(ExportError) as caught:
                export_header(source, name, path, **options)
            for word in words:
                self.assertIn(word, str(caught.exception))
        self.assertFalse(os.path.exists(fresh))
        with open(kept, encoding="utf-8") as f:
            self.assertEqual(f.read(), "previous content\n")
        self.assertEqual(sorted(os.listdir(self.dir)), listing)  # no temporary left behind
        return str(caught.exception)


class Headers(TempDir):
    def test_every_kind_align_memory_and_dtype(self):
        for model, options, cpp_type in _cases():
            with self.subTest(type=cpp_type):
                dtype = options["dtype"]
                path = self.path("m.hpp")
                export_header(model, "my_model", path, **options)
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                lines = text.splitlines()
                self.assertEqual(lines[0], "// m.hpp: generated by `sarnn.export_header()` from a "
                                           f"{type(model).__name__}. Do not edit.")
                # the type on the second line, or broken over comment lines when it is long (the GRU cell's)
                guard = lines.index("#ifndef SARNN_EXPORT_MY_MODEL_HPP")
                self.assertTrue(all(line.startswith("// ") for line in lines[1:guard]))
                self.assertEqual(" ".join(line[3:].strip() for line in lines[1:guard]), cpp_type)
                self.assertEqual(guard == 2, len("// " + cpp_type) <= 119)
                using = next(i for i, line in enumerate(lines) if line.startswith("using Model = "))
                end = next(i for i in range(using, len(lines)) if lines[i].endswith(";"))
                self.assertEqual(" ".join(line.strip() for line in lines[using:end + 1]), f"using Model = {cpp_type};")
                self.assertIn(f"using value_type = {dtype};\n", text)
                self.assertEqual(lines[guard + 1], "#define SARNN_EXPORT_MY_MODEL_HPP")
                self.assertEqual(lines[-2:], ["}  // namespace my_model", "#endif"])
                self.assertLess(max(map(len, lines)), 120)
                self.assertIn(f"inline constexpr {dtype} golden_tolerance = "
                              + ("1e-4f;" if dtype == "float" else "1e-10;"), text)
                arrays, ints = parse_header(text, dtype)
                config = model.config()
                self.assertEqual((ints["in_size"], ints["hidden_size"]), (config["in_size"], config["hidden"]))
                self._check_params(model, arrays, dtype)
                self._check_golden(model, arrays, ints, options)

    def _check_params(self, model, arrays, dtype):
        state = model.state_dict()
        exported = {key: a for group in ("params", "align_params") for key, a in arrays.get(group, {}).items()}
        self.assertEqual(list(exported), list(state))
        for key, tensor in state.items():
            want = _rounded(tensor, dtype)
            got = exported[key]
            self.assertTrue(np.array_equal(got, want), key)
            if dtype == "float":
                self.assertTrue(np.array_equal(got.astype(np.float32).view(np.uint32),
                                               tensor.detach().numpy().view(np.uint32)), key)

    def _check_golden(self, model, arrays, ints, options):
        dtype, config = options["dtype"], model.config()
        steps = options.get("golden_steps", 8)
        if config["kind"] in ("simple", "gru", "lstm"):
            self.assertNotIn("capacity", ints)
        elif config["window"] is None:
            self.assertEqual(ints["capacity"], options["capacity"])
            steps = min(steps, options["capacity"])
        else:
            self.assertEqual(ints["capacity"], config["window"])
        self.assertEqual(ints["golden_steps"], steps)
        x = torch.rand(steps, config["in_size"], generator=torch.Generator().manual_seed(0), dtype=torch.float64)
        self.assertTrue(np.array_equal(arrays["golden_x"], _rounded(x * 2 - 1, dtype)))
        # Recompute with the NumPy reference from the header's own weights and inputs.
        rebuilt = sarnn.from_config(config).double()
        exported = {key: torch.from_numpy(a) for group in ("params", "align_params")
                    for key, a in arrays.get(group, {}).items()}
        rebuilt.load_state_dict(exported)
        want = reference.run(rebuilt, arrays["golden_x"])[0]
        self.assertEqual(arrays["golden_h"].shape, (steps, config["hidden"]))
        np.testing.assert_allclose(arrays["golden_h"], want, rtol=0, atol=1e-7 if dtype == "float" else 1e-14)

    def test_golden_seed_and_tolerance_options(self):
        model = sarnn.SimpleRNN(2, 3)
        export_header(model, "a", self.path("a.hpp"), golden_seed=5, golden_steps=3, tolerance=2.5e-5)
        with open(self.path("a.hpp"), encoding="utf-8") as f:
            text = f.read()
        arrays, ints = parse_header(text, "float")
        x = torch.rand(3, 2, generator=torch.Generator().manual_seed(5), dtype=torch.float64) * 2 - 1
        self.assertTrue(np.array_equal(arrays["golden_x"], _rounded(x, "float")))
        self.assertIn("inline constexpr float golden_tolerance = 2.5e-5f;", text)

    def test_literals_are_exact_and_short(self):
        from sarnn.header import literal
        self.assertEqual(literal(0.1, "float"), "0x1.99999ap-4f")
        self.assertEqual(literal(0.1, "double"), "0x1.999999999999ap-4")
        self.assertEqual(literal(1.0, "float"), "0x1p+0f")
        self.assertEqual(literal(-0.0, "double"), "-0x0p+0")
        for v in (0.1, -3.75, 1e-40, 2.0 ** -149, 3.4e38):
            self.assertEqual(float.fromhex(literal(v, "float")[:-1]), float(np.float32(v)))
            self.assertEqual(float.fromhex(literal(v, "double")), v)


class Inputs(TempDir):
    """What export_header accepts and what it infers from a plain state dict."""

    def _type_line(self, source, **options):
        export_header(source, "m", self.path("m.hpp"), **options)
        with open(self.path("m.hpp"), encoding="utf-8") as f:
            return f.read().splitlines()[1][3:]

    def test_files_and_objects(self):
        model = sarnn.SelfAttentionRNN(3, 4, align="key_query", k=2, window=6)
        want = "sarnn::SelfAttentionRnn<float, 3, 4, 6, sarnn::KeyQueryAlign<2>, sarnn::Window>"
        sarnn.save(model, self.path("saved.pt"))
        torch.save(model, self.path("module.pt"))
        torch.save(model.state_dict(), self.path("state.pt"))
        self.assertEqual(self._type_line(self.path("saved.pt")), want)
        self.assertEqual(self._type_line(self.path("module.pt"), trust_pickled_code=True), want)
        self.assertEqual(self._type_line(self.path("state.pt"), window=6), want)
        self.assertEqual(self._type_line({"sarnn_config": model.config(), "state_dict": model.state_dict()}), want)

    def test_inferred_from_keys_and_shapes(self):
        cases = [
            (sarnn.SelfAttentionRNN(3, 4, align="bilinear"), {}, "sarnn::BilinearAlign, sarnn::Bounded>"),
            (sarnn.SelfAttentionRNN(3, 4, align="additive", k=4), {}, "sarnn::AdditiveAlign<4>, sarnn::Bounded>"),
            (sarnn.SelfAttentionRNN(3, 4, align="key_query", k=3), {"capacity": 9}, "QueryAlign<3>, sarnn::Bounded>"),
            (sarnn.SelfAttentionRNN(3, 4), {"align": "scaled_dot"}, "sarnn::ScaledDotAlign, sarnn::Bounded>"),
            (sarnn.SimpleRNN(3, 4), {"model": "simple"}, "sarnn::SimpleRnn<float, 3, 4>"),
            (sarnn.LSTMN(3, 4, 5), {"window": 2, "dtype": "double"},
             "sarnn::Lstmn<double, 3, 4, 2, 5, sarnn::Window>"),
            (sarnn.GRU(3, 4), {}, "sarnn::Gru<float, 3, 4>"),
            (sarnn.LSTM(3, 4), {"dtype": "double"}, "sarnn::Lstm<double, 3, 4>"),
        ]
        for model, options, tail in cases:
            with self.subTest(tail=tail):
                line = self._type_line(dict(model.state_dict()), **options)
                self.assertTrue(line.endswith(tail), line)
                if "capacity" in options:
                    self.assertIn(", 9, ", line)

    def test_torch_rnn_keys_and_modules(self):
        torch.manual_seed(1)
        for layer in (nn.RNN(3, 4), nn.RNN(3, 4, bias=False), nn.RNNCell(3, 4), nn.RNNCell(3, 4, bias=False)):
            with self.subTest(layer=repr(layer)):
                self.assertEqual(self._type_line(layer.state_dict()), "sarnn::SimpleRnn<float, 3, 4>")
                with open(self.path("m.hpp"), encoding="utf-8") as f:
                    arrays, _ = parse_header(f.read(), "float")
                self.assertTrue(np.array_equal(arrays["params"]["A"], _rounded(sarnn.from_rnn(layer).A, "float")))
        self.assertEqual(self._type_line(nn.RNNCell(3, 4), align="dot", capacity=7),
                         "sarnn::SelfAttentionRnn<float, 3, 4, 7, sarnn::DotAlign, sarnn::Bounded>")

    def test_torch_gru_lstm_their_cells_and_state_dicts(self):
        """A torch.nn.GRU / GRUCell becomes a Gru, an LSTM / LSTMCell an Lstm, from the module or its state dict
        (with or without bias, batch_first), with the weights of sarnn.from_gru / from_lstm bit for bit."""
        torch.manual_seed(2)
        for layer, importer, cpp in (
                (nn.GRU(3, 4), sarnn.from_gru, "Gru"), (nn.GRU(3, 4, bias=False, batch_first=True), sarnn.from_gru,
                                                        "Gru"),
                (nn.GRUCell(3, 4), sarnn.from_gru, "Gru"), (nn.LSTM(3, 4), sarnn.from_lstm, "Lstm"),
                (nn.LSTM(3, 4, bias=False), sarnn.from_lstm, "Lstm"), (nn.LSTMCell(3, 4), sarnn.from_lstm, "Lstm"),
                (nn.LSTMCell(3, 4).double(), sarnn.from_lstm, "Lstm")):
            for source in (layer, layer.state_dict()):
                with self.subTest(layer=repr(layer), state_dict=source is not layer):
                    spec = export_header(source, "m", self.path("m.hpp"))
                    self.assertEqual(spec.notes, ())
                    self.assertEqual(self._type_line(source), f"sarnn::{cpp}<float, 3, 4>")
                    with open(self.path("m.hpp"), encoding="utf-8") as f:
                        arrays, ints = parse_header(f.read(), "float")
                    self.assertNotIn("capacity", ints)
                    want = importer(layer).state_dict()
                    self.assertEqual(list(arrays["params"]), list(want))
                    for key, tensor in want.items():
                        self.assertTrue(np.array_equal(arrays["params"][key], _rounded(tensor, "float")), key)
        # the model option agrees with the keys
        self.assertEqual(self._type_line(nn.GRU(3, 4).state_dict(), model="gru"), "sarnn::Gru<float, 3, 4>")
        self.assertEqual(self._type_line(sarnn.LSTM(3, 4).state_dict(), model="lstm"), "sarnn::Lstm<float, 3, 4>")

    def test_notes_say_what_was_assumed(self):
        """Only a plain state dict gets notes: of the memory policy when given neither window nor capacity, of
        the nonlinearity when it holds the weights of a torch.nn.RNN or RNNCell (see also CommandLine)."""
        state = sarnn.LSTMN(3, 4, 2).state_dict()
        self.assertEqual(len(export_header(state, "m", self.path("m.hpp")).notes), 1)
        for layer in (nn.RNN(3, 4), nn.RNNCell(3, 4)):
            notes = export_header(layer.state_dict(), "m", self.path("m.hpp")).notes
            self.assertEqual(len(notes), 1)
            self.assertTrue(notes[0].startswith("assumed nonlinearity='tanh'"), notes)
        for source, options in ((state, {"window": 3}), (state, {"capacity": 7}), (sarnn.LSTMN(3, 4, 2), {}),
                                ({"sarnn_config": sarnn.LSTMN(3, 4, 2).config(), "state_dict": state}, {}),
                                (sarnn.SimpleRNN(3, 4).state_dict(), {"model": "simple"}),
                                (sarnn.GRU(3, 4).state_dict(), {}), (nn.LSTM(3, 4).state_dict(), {}),
                                (nn.RNN(3, 4), {}), (nn.RNNCell(3, 4), {})):
            with self.subTest(source=type(source).__name__, options=options):
                self.assertEqual(export_header(source, "m", self.path("m.hpp"), **options).notes, ())


class Errors(TempDir):
    """Each error raises ExportError naming the key or option, writes nothing and keeps an existing file."""

    def test_missing_unexpected_and_misshapen_keys(self):
        state = dict(sarnn.SelfAttentionRNN(3, 16, align="bilinear").state_dict())
        self.assert_refused({k: v for k, v in state.items() if k != "align.W"}, ["missing key align.W"],
                            align="bilinear")
        self.assert_refused({k: v for k, v in state.items() if k != "b"}, ["missing key b"])
        self.assert_refused(dict(state, extra=torch.zeros(2)), ["unexpected key extra"])
        self.assert_refused(dict(state, **{"align.Wk": torch.zeros(2, 16)}), ["missing key align.Wq"])
        self.assert_refused(dict(state, **{"align.Wk": torch.zeros(2, 16)}), ["unexpected key align.Wk"],
                            align="bilinear")
        message = self.assert_refused(dict(state, **{"align.W": torch.zeros(16, 15)}), ["align.W"])
        self.assertEqual(message, "align.W has shape (16, 15), expected (16, 16) for BilinearAlign with Hidden=16")
        self.assert_refused(dict(state, b=torch.zeros(15)), ["b has shape (15,), expected (16,)"])
        self.assert_refused(dict(state, A=torch.zeros(16, 16)), ["A has shape (16, 16)"])
        lstmn = dict(sarnn.LSTMN(3, 4, 2).state_dict())
        self.assert_refused(dict(lstmn, W_x=torch.zeros(2, 4)), ["W_x has shape (2, 4), expected (2, 3)"])
        self.assert_refused({k: v for k, v in lstmn.items() if k != "W_ht"}, ["missing key W_ht"])
        self.assert_refused(dict(lstmn, v=torch.zeros(2, dtype=torch.int64)), ["v", "floating-point"])
        self.assert_refused(nn.LSTMCell(3, 4).state_dict(), ["contradicts", "LSTMCell"], model="lstmn")
        self.assert_refused(dict(nn.GRU(3, 4).state_dict(), weight_hh_l0=torch.zeros(8, 4)),
                            ["weight_hh_l0 has shape (8, 4)", "(12, 4) (a GRU)", "(16, 4) (an LSTM)"])
        self.assert_refused(dict(nn.GRUCell(3, 4).state_dict(), bias_ih=torch.zeros(4)),
                            ["bias_ih has shape (4,), expected (12,) for a torch.nn.GRUCell with In=3, Hidden=4"])
        gru = dict(sarnn.GRU(3, 4).state_dict())
        self.assert_refused({k: v for k, v in gru.items() if k != "b_hh"}, ["missing key b_hh", "Gru"])
        self.assert_refused(dict(gru, W_hh=torch.zeros(16, 4)), ["W_hh has shape (16, 4), expected (12, 4)"])
        self.assert_refused(dict(sarnn.LSTM(3, 4).state_dict(), b_ih=torch.zeros(16)), ["missing key b_hh"])
        self.assert_refused(dict(sarnn.LSTM(3, 4).state_dict(), b=torch.zeros(12)), ["b has shape (12,)", "Lstm"])
        self.assert_refused(nn.RNN(3, 4, num_layers=2).state_dict(), ["unexpected key weight_ih_l1"])

    def test_non_finite_and_overflowing_weights(self):
        model = sarnn.SelfAttentionRNN(3, 4, align="additive", k=2)
        for value, word in ((float("nan"), "nan"), (float("inf"), "inf"), (-float("inf"), "-inf")):
            state = dict(model.state_dict())
            state["A"] = state["A"].clone()
            state["A"][1, 2] = value
            self.assert_refused(state, ["A[1][2]", "flat index 9", word])
        state = {k: v.double() for k, v in model.state_dict().items()}
        state["align.v"][1] = 1e39
        self.assert_refused(state, ["align.v[1]", "overflows float"])
        export_header(state, "m", self.path("double.hpp"), dtype="double")  # fine as double
        os.remove(self.path("double.hpp"))

    def test_bad_options(self):
        model = sarnn.SelfAttentionRNN(3, 4, window=3)
        self.assert_refused(model, ["align", "cosine"], align="cosine")
        self.assert_refused(model, ["model", "rnn"], model="rnn")
        self.assert_refused(model, ["model", "gru"], model="gru")
        self.assert_refused(sarnn.GRU(3, 4), ["capacity"], capacity=8)
        self.assert_refused(sarnn.LSTM(3, 4).state_dict(), ["'lstm'", "no memory"], model="lstm", window=4)
        self.assert_refused(sarnn.LSTM(3, 4).state_dict(), ["align"], model="lstm", align="dot")
        self.assert_refused(nn.GRU(3, 4).state_dict(), ["no memory", "window"], window=4)
        self.assert_refused(nn.GRU(3, 4).state_dict(), ["model 'simple' contradicts", "torch.nn.GRU"], model="simple")
        self.assert_refused(nn.LSTM(3, 4).state_dict(), ["model 'lstmn' contradicts", "from_lstm_cell"],
                            model="lstmn")
        self.assert_refused(nn.RNN(3, 4).state_dict(), ["model 'gru' contradicts", "torch.nn.RNN"], model="gru")
        self.assert_refused(model, ["dtype", "half"], dtype="half")
        self.assert_refused(model, ["window=4", "window=3"], window=4)
        self.assert_refused(model, ["capacity 5", "window 3"], capacity=5)
        self.assert_refused(model, ["model='lstmn'"], model="lstmn")
        self.assert_refused(model, ["golden_steps"], golden_steps=0)
        self.assert_refused(model, ["tolerance"], tolerance=-1.0)
        self.assert_refused(sarnn.SelfAttentionRNN(3, 4), ["window=2"], window=2)
        self.assert_refused(sarnn.SimpleRNN(3, 4), ["capacity"], capacity=8)
        self.assert_refused(sarnn.SimpleRNN(3, 4).state_dict(), ["window"], model="simple", window=8)
        self.assert_refused(sarnn.SimpleRNN(3, 4).state_dict(), ["align"], model="simple", align="dot")
        self.assert_refused(sarnn.SimpleRNN(3, 4).state_dict(), ["--align dot", "--model simple"])
        self.assert_refused(sarnn.SimpleRNN(3, 4).state_dict(), ["--align dot"], model="self_attention")
        self.assert_refused(model, ["name"], name="my model")
        self.assert_refused(model, ["name"], name="int")

    def test_not_a_model(self):
        with open(self.path("notes.txt"), "w", encoding="utf-8") as f:
            f.write("not a model\n")
        self.assert_refused(self.path("notes.txt"), ["cannot read", "notes.txt"])
        self.assert_refused(self.path("missing.pt"), ["cannot read", "missing.pt"])
        self.assert_refused([1, 2, 3], ["not a state dict or a module", "list"])
        self.assert_refused({"A": [1.0]}, ["not a state dict", "'A'"])
        self.assert_refused({}, ["empty state dict"])
        self.assert_refused({"weights": torch.zeros(3)}, ["cannot tell the model", "weights"])
        self.assert_refused({"sarnn_config": {"kind": "rnn"}, "state_dict": {}}, ["sarnn_config"])

    def test_gru_cell_under_attention(self):
        """SelfAttentionRNN(cell="gru") as a module, a sarnn.save() dict and a plain state dict (the GRU's keys with
        align keys, --align or --window) is SelfAttentionRnn<..., GruCell>; the GRU's keys alone stay a Gru; a torch
        GRU's keys are not taken as an attention model."""
        tail = "sarnn::kernel::Default, sarnn::GruCell>"
        model = sarnn.SelfAttentionRNN(3, 4, cell="gru")
        for source in (model, {"sarnn_config": model.config(), "state_dict": model.state_dict()}):
            spec = export_header(source, "m", self.path("m.hpp"), capacity=6)
            self.assertEqual(spec.model_type(), f"sarnn::SelfAttentionRnn<float, 3, 4, 6, sarnn::DotAlign, "
                                                f"sarnn::Bounded, {tail}")
        state = sarnn.SelfAttentionRNN(3, 4, align="bilinear", cell="gru").state_dict()
        self.assertEqual(export_header(state, "m", self.path("m.hpp"), capacity=6).model_type(),
                         f"sarnn::SelfAttentionRnn<float, 3, 4, 6, sarnn::BilinearAlign, sarnn::Bounded, {tail}")
        plain = model.state_dict()
        self.assertEqual(export_header(plain, "m", self.path("m.hpp")).model_type(), "sarnn::Gru<float, 3, 4>")
        self.assertEqual(export_header(plain, "m", self.path("m.hpp"), align="scaled_dot").model_type(),
                         f"sarnn::SelfAttentionRnn<float, 3, 4, 128, sarnn::ScaledDotAlign, sarnn::Bounded, {tail}")
        self.assertEqual(export_header(plain, "m", self.path("m.hpp"), align="dot", window=5).model_type(),
                         f"sarnn::SelfAttentionRnn<float, 3, 4, 5, sarnn::DotAlign, sarnn::Window, {tail}")
        self.assert_refused(nn.GRU(3, 4).state_dict(), ["torch.nn.GRU", "from_gru", "cell='gru'"],
                            model="self_attention")
        self.assert_refused(state, ["align.W"], model="gru")
        with self.assertRaisesRegex(ExportError, "cannot write"):
            export_header(sarnn.SimpleRNN(3, 4), "m", self.path("no/such/dir/m.hpp"))


class CommandLine(TempDir):
    def test_success_and_error(self):
        sarnn.save(sarnn.SelfAttentionRNN(3, 4, align="bilinear"), self.path("model.pt"))
        done = self.run_cli_process("model.pt", "--name", "my_model", "--out", "my_model.hpp", "--capacity", "64")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr, "")
        with open(self.path("my_model.hpp"), encoding="utf-8") as f:
            first, second = f.read().splitlines()[:2]
        self.assertEqual(first, "// my_model.hpp: generated by `python3 -m sarnn.export` from model.pt. Do not edit.")
        self.assertEqual(second, "// sarnn::SelfAttentionRnn<float, 3, 4, 64, sarnn::BilinearAlign, sarnn::Bounded>")

        torch.save({"A": torch.zeros(4, 7), "b": torch.zeros(4)}, self.path("plain.pt"))
        failed = self.run_cli("plain.pt", "--out", "my_model.hpp")
        self.assertEqual(failed.returncode, 2)
        self.assertTrue(failed.stderr.startswith("sarnn.export: error: "), failed.stderr)
        self.assertIn("--align", failed.stderr)
        with open(self.path("my_model.hpp"), encoding="utf-8") as f:
            self.assertIn("sarnn::BilinearAlign", f.read())  # left as it was

        done = self.run_cli("plain.pt", "--align", "scaled_dot", "--window", "5", "--dtype", "double")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertTrue(os.path.exists(self.path("plain.hpp")))  # name and output from the input's stem

    def test_note_when_the_memory_policy_is_assumed(self):
        torch.save(sarnn.SelfAttentionRNN(3, 4, align="bilinear", window=5).state_dict(), self.path("state.pt"))
        done = self.run_cli("state.pt", "--out", "assumed.hpp")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout, "wrote assumed.hpp: "
                         "sarnn::SelfAttentionRnn<float, 3, 4, 128, sarnn::BilinearAlign, sarnn::Bounded>\n")
        self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
        self.assertTrue(done.stderr.startswith("sarnn.export: note: assumed a sarnn::Bounded memory of capacity "
                                               "128: state.pt does not record"), done.stderr)
        for flag in ("--window W", "--capacity N"):
            self.assertIn(flag, done.stderr)
        # Given by a flag: no note.
        for flags, tail in ((["--capacity", "128"], "128, sarnn::BilinearAlign, sarnn::Bounded>"),
                            (["--window", "5"], "5, sarnn::BilinearAlign, sarnn::Window>"),
                            (["--capacity", "9"], "9, sarnn::BilinearAlign, sarnn::Bounded>")):
            with self.subTest(flags=flags):
                done = self.run_cli("state.pt", "--out", "given.hpp", *flags)
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertEqual(done.stderr, "")
                self.assertTrue(done.stdout.rstrip().endswith(tail), done.stdout)
        # The note changes nothing: the header is the one of an explicit --capacity 128.
        with open(self.path("assumed.hpp"), encoding="utf-8") as f:
            assumed = f.read()
        self.assertEqual(self.run_cli("state.pt", "--out", "assumed.hpp", "--capacity", "128").stderr, "")
        with open(self.path("assumed.hpp"), encoding="utf-8") as f:
            self.assertEqual(assumed, f.read())


class RefusedLayers(TempDir):
    """A torch layer whose settings change what it computes into something sarnn does not compute is refused, not
    exported as a tanh SimpleRnn: by the command line (exit status 2, the reason on stderr, no file written) and
    by export_header (ExportError, no file), with the reasons of the check sarnn.from_rnn makes. Settings that
    change nothing in a one-layer step (batch_first, dropout) pass."""

    def assert_refused_everywhere(self, source, words):
        """source saved with torch.save and given to the command line, then given to export_header: both
        refuse it naming every word, and neither leaves a file. Returns the message."""
        torch.save(source, self.path("layer.pt"))
        listing = sorted(os.listdir(self.dir))
        done = self.run_cli("layer.pt", "--out", "layer.hpp", "--trust-pickled-code")   # a module: pickled classes
        self.assertEqual(done.returncode, 2, done.stdout + done.stderr)
        self.assertEqual(done.stdout, "")
        self.assertTrue(done.stderr.startswith("sarnn.export: error: "), done.stderr)
        for word in words:
            self.assertIn(word, done.stderr)
        self.assertEqual(sorted(os.listdir(self.dir)), listing)  # no layer.hpp, no temporary
        message = self.assert_refused(source, words)
        self.assertEqual(done.stderr, f"sarnn.export: error: {message}\n")
        return message

    def assert_layer_refused(self, layer, words):
        """As assert_refused_everywhere for a module, whose reasons are those of the check from_rnn makes;
        from_rnn refuses a torch.nn.RNN or RNNCell with the same reasons."""
        message = self.assert_refused_everywhere(layer, words)
        from sarnn.importers import rnn_problems
        reasons = "; ".join(rnn_problems(layer))
        self.assertTrue(message.endswith(": " + reasons), message)
        if isinstance(layer, (nn.RNN, nn.RNNCell)):
            with self.assertRaises(ValueError) as caught:
                sarnn.from_rnn(layer)
            self.assertTrue(str(caught.exception).endswith(": " + reasons), caught.exception)

    def test_relu_rnn(self):
        self.assert_layer_refused(nn.RNN(3, 4, nonlinearity="relu"), ["torch.nn.RNN", "nonlinearity='relu'", "tanh"])

    def test_relu_rnn_cell(self):
        self.assert_layer_refused(nn.RNNCell(3, 4, nonlinearity="relu"),
                                  ["torch.nn.RNNCell", "nonlinearity='relu'", "tanh"])

    def test_more_than_one_layer(self):
        self.assert_layer_refused(nn.RNN(3, 4, num_layers=2), ["num_layers=2", "one layer"])

    def test_bidirectional(self):
        self.assert_layer_refused(nn.RNN(3, 4, bidirectional=True), ["bidirectional=True", "forward in time"])

    def test_lstm_with_proj_size(self):
        self.assert_layer_refused(nn.LSTM(3, 4, proj_size=2), ["torch.nn.LSTM", "proj_size=2"])

    def test_gru_and_lstm_of_more_layers_or_both_directions(self):
        for layer, words in ((nn.GRU(3, 4, num_layers=2), ["torch.nn.GRU", "num_layers=2", "one layer"]),
                             (nn.LSTM(3, 4, bidirectional=True), ["torch.nn.LSTM", "bidirectional=True"]),
                             (nn.LSTM(3, 4, num_layers=2, proj_size=1), ["num_layers=2", "proj_size=1"])):
            with self.subTest(layer=repr(layer)):
                self.assert_layer_refused(layer, words)
                with self.assertRaises(ValueError) as caught:
                    (sarnn.from_gru if isinstance(layer, nn.GRU) else sarnn.from_lstm)(layer)
                from sarnn.importers import rnn_problems
                self.assertTrue(str(caught.exception).endswith(": " + "; ".join(rnn_problems(layer))),
                                caught.exception)

    def test_state_dict_of_more_than_one_layer(self):
        self.assert_refused_everywhere(nn.RNN(3, 4, num_layers=3).state_dict(),
                                       ["unexpected key weight_ih_l1", "num_layers > 1"])

    def test_state_dict_of_bidirectional(self):
        self.assert_refused_everywhere(nn.RNN(3, 4, bidirectional=True).state_dict(),
                                       ["unexpected key weight_ih_l0_reverse", "bidirectional=True"])

    def test_state_dict_of_lstm_with_proj_size(self):
        self.assert_refused_everywhere(nn.LSTM(3, 4, proj_size=2).state_dict(),
                                       ["unexpected key weight_hr_l0", "LSTM", "proj_size > 0"])

    def test_state_dicts_of_gru_and_lstm_with_more_layers_or_both_directions(self):
        self.assert_refused_everywhere(nn.GRU(3, 4, num_layers=2).state_dict(),
                                       ["unexpected key weight_ih_l1", "num_layers > 1"])
        self.assert_refused_everywhere(nn.LSTM(3, 4, bidirectional=True).state_dict(),
                                       ["unexpected key weight_ih_l0_reverse", "bidirectional=True"])

    def test_batch_first_and_one_layer_dropout_pass(self):
        """batch_first orders the input's axes; dropout acts between layers, so with one layer it does nothing,
        in training mode too. The header is the one of the plain layer with the same weights."""
        torch.manual_seed(9)
        plain = nn.RNN(3, 4)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch warns that dropout needs num_layers > 1
            layer = nn.RNN(3, 4, batch_first=True, dropout=0.5)
        layer.load_state_dict(plain.state_dict())
        layer.train()
        x = torch.rand(2, 5, 3)
        with torch.no_grad():
            self.assertTrue(torch.equal(layer(x)[0], plain(x.transpose(0, 1))[0].transpose(0, 1)))
        from sarnn.importers import rnn_problems
        self.assertEqual(rnn_problems(layer), [])
        self.assertTrue(torch.equal(sarnn.from_rnn(layer).A, sarnn.from_rnn(plain).A))
        headers = []
        for folder, source in (("plain", plain), ("layer", layer)):
            os.mkdir(self.path(folder))
            torch.save(source, self.path(os.path.join(folder, "rnn.pt")))
            done = self.run_cli(os.path.join(folder, "rnn.pt"), "--name", "m", "--out", os.path.join(folder, "m.hpp"),
                                "--trust-pickled-code")
            self.assertEqual((done.returncode, done.stderr), (0, ""))
            with open(self.path(os.path.join(folder, "m.hpp")), encoding="utf-8") as f:
                headers.append(f.read())
        self.assertEqual(headers[0], headers[1])

    def test_state_dict_nonlinearity_is_a_note(self):
        """A state dict does not say its nonlinearity: exported as tanh, with a note saying so."""
        torch.save(nn.RNN(3, 4, nonlinearity="relu").state_dict(), self.path("state.pt"))
        done = self.run_cli("state.pt", "--out", "state.hpp")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(len(done.stderr.splitlines()), 1, done.stderr)
        self.assertTrue(done.stderr.startswith("sarnn.export: note: assumed nonlinearity='tanh'"), done.stderr)
        self.assertIn("torch.save the layer itself", done.stderr)


# The generated sarnn/config.hpp: ctest passes its folder in SARNN_CONFIG_INCLUDE (by hand: a configured build's
# include/ folder, e.g. build/host/include).
CONFIG_INCLUDE = os.environ.get("SARNN_CONFIG_INCLUDE", os.path.join(REPO, "build", "host", "include"))


@unittest.skipUnless(shutil.which("g++") and os.path.isfile(os.path.join(CONFIG_INCLUDE, "sarnn", "config.hpp")),
                     "needs g++ and a configured build (SARNN_CONFIG_INCLUDE: the folder of sarnn/config.hpp)")
class Compiles(TempDir):
    def test_headers_compile_warning_free(self):
        cases = list(_cases())
        plain = [case for case in cases if isinstance(case[0], (sarnn.GRU, sarnn.LSTM))
                 or getattr(case[0], "cell", "elman") == "gru"]   # issue 33's cells
        for model, options, cpp_type in cases[::3] + plain:
            with self.subTest(type=cpp_type):
                export_header(model, "my_model", self.path("my_model.hpp"), **options)
                with open(self.path("my_model.hpp"), encoding="utf-8") as f:
                    with_align = "align_params =" in f.read()
                args = "(my_model::params, my_model::align_params)" if with_align else "(my_model::params)"
                with open(self.path("use.cpp"), "w", encoding="utf-8") as f:
                    f.write('#include "my_model.hpp"\n'
                            f"static my_model::Model model{args};\n"
                            "bool check() { return my_model::self_check(model); }\n")
                done = subprocess.run(
                    ["g++", "-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Wpedantic", "-Wconversion",
                     "-Wshadow", "-Werror", "-I" + os.path.join(REPO, "include"),
                     "-I" + CONFIG_INCLUDE, self.path("use.cpp")],
                    capture_output=True, text=True, timeout=300)
                self.assertEqual(done.returncode, 0, done.stderr)


if __name__ == "__main__":
    unittest.main()
