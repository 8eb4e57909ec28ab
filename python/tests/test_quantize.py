"""sarnn.export --quantize int8 (sarnn.quantize, sarnn.header_q15, sarnn.q15_batch): the batched twin equals the
scalar twin (sarnn.q15, itself pinned to the C++ by a digest), the input scale rule, the header's golden run bit for
bit against the scalar twin, the recorded bound against an independent float reference (tests/reference.py), every
refusal, and the command line. The C++ side (self_check on every kernel set, under qemu too) is
tests/python/roundtrip.cpp."""
import contextlib
import io
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from . import require

require("torch", "numpy")
import numpy as np  # noqa: E402
import torch  # noqa: E402

import sarnn  # noqa: E402
from sarnn import ExportError, export, export_header, q15, q15_batch, quantize  # noqa: E402
from tests import reference  # noqa: E402

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def scalar_twin(params, config, capacity, raw):
    """h, c (T, Hidden) of one sequence of raw inputs through sarnn.q15 (c None for the SimpleRnn)."""
    if config["kind"] == "simple":
        model = q15.SimpleRnnQ15(params)
        return np.array([model.step([int(v) for v in x]) for x in raw]), None
    model = q15.SelfAttentionRnnQ15(params, capacity, config["align"], window=config["window"] is not None)
    hs, cs = [], []
    for x in raw:
        assert model.step([int(v) for v in x])
        hs.append(list(model.h))
        cs.append(list(model.c))
    return np.array(hs), np.array(cs)


def header_ints(text, name):
    """The integers of `name`'s initializer in a q15 header, flattened."""
    m = re.search(rf"\b{name}(?:\[\w+\])* = (\{{.*?\}});\n", text, re.S)
    return [int(v) for v in re.findall(r"-?\d+", m.group(1))]


class BatchTwin(unittest.TestCase):
    def test_equals_the_scalar_twin(self):
        """Random params (the digest's generator) and inputs over int16, saturating ones included: every h, c."""
        rng = random.Random(3)
        for kind, n_in, hidden, capacity, window in (("simple", 5, 9, None, False), ("dot", 3, 17, 12, False),
                                                     ("scaled_dot", 4, 33, 5, True), ("dot", 1, 1, 3, True),
                                                     ("dot", 7, 64, 20, False)):
            with self.subTest(kind=kind, hidden=hidden):
                p = q15.digest_params(q15._Lcg(rng.randrange(1 << 30)), n_in, hidden)
                raw = np.array([[[rng.choice((-32768, 32767, rng.randrange(-32768, 32768))) for _ in range(n_in)]
                                 for _ in range(12)] for _ in range(3)])
                align = None if kind == "simple" else kind
                h, c = q15_batch.run(p, raw, align, capacity, window)
                config = {"kind": "simple" if kind == "simple" else "self_attention", "align": align,
                          "window": capacity if window else None}
                for b in range(3):
                    want_h, want_c = scalar_twin(p, config, capacity, raw[b])
                    np.testing.assert_array_equal(h[b], want_h)
                    if want_c is not None:
                        np.testing.assert_array_equal(c[b], want_c)


class InputScale(unittest.TestCase):
    def test_least_power_of_two(self):
        for big, e in ((1.0, -15), (0.75, -15), (0.5, -16), (1.5, -14), (32768.0, 0), (3.0e-5, -30)):
            x = np.zeros((1, 2, 3), dtype=np.float32)
            x[0, 1, 2] = -big
            self.assertEqual(quantize.input_scale(x), 2.0 ** e, big)

    def test_rounding_halves_away_and_saturation(self):
        x = np.array([0.5, -0.5, 1.5, -2.5, 0.49999997, 40000.0, -40000.0, -32768.0, 32767.4], dtype=np.float32)
        np.testing.assert_array_equal(quantize.quantize_inputs(x, 1.0),
                                      [1, -1, 2, -3, 0, 32767, -32768, -32768, 32767])
        np.testing.assert_array_equal(quantize.quantize_inputs(np.float32([0.25, 1.0]), 2.0 ** -15), [8192, 32767])


class TempDir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sarnn_quantize_test_")
        self.addCleanup(shutil.rmtree, self.dir)

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_cli(self, *args):
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        return subprocess.run([sys.executable, "-m", "sarnn.export", *args], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=120)


class Header(TempDir):
    CASES = (("simple", lambda: sarnn.SimpleRNN(4, 9), None),
             ("dot", lambda: sarnn.SelfAttentionRNN(3, 11, align="dot"), 32),
             ("scaled_dot window", lambda: sarnn.SelfAttentionRNN(5, 8, align="scaled_dot", window=6), None))

    def test_golden_bit_exact_and_bound_against_the_reference(self):
        for label, make, capacity in self.CASES:
            with self.subTest(model=label):
                torch.manual_seed(11)
                model = make()
                calibration = (torch.rand(4, 20, model.in_size) * 2 - 1) * 2.5
                options = {} if capacity is None else {"capacity": capacity}
                qspec = export_header(model, "m", self.path("m.hpp"), quantize="int8", calibration=calibration,
                                      golden_steps=15, **options)
                with open(self.path("m.hpp"), encoding="utf-8") as f:
                    text = f.read()
                config = model.config()
                cap = capacity if config["window"] is None else config["window"]
                self.assertEqual(qspec.params["x_scale"], 2.0 ** -13)   # max |x| in (2, 2.5]
                raw = np.clip(np.sign(calibration.numpy()) * np.floor(np.abs(calibration.numpy()) * 8192 + 0.5),
                              -32768, 32767).astype(np.int64)
                golden_x = header_ints(text, "golden_x")
                self.assertEqual(golden_x, raw[0, :15].ravel().tolist())
                # the golden outputs: the scalar twin on the raw inputs, bit for bit
                h, c = scalar_twin(qspec.params, config, cap, raw[0, :15])
                self.assertEqual(header_ints(text, "golden_h"), h.ravel().tolist())
                if c is not None:
                    self.assertEqual(header_ints(text, "golden_c"), c.ravel().tolist())
                # the header's params are the ones the twin ran, in the aggregate's member order (params.hpp)
                p = qspec.params
                body = re.search(r"> params = \{\n(.*?)\n\};", text, re.S).group(1)
                body = re.sub(r"//[^\n]*", "", body)
                self.assertEqual(re.findall(r"0x[0-9a-f.]+p[-+]?\d+f", body), ["0x1p-13f"])
                ints = [int(v) for v in re.findall(r"-?\d+", re.sub(r"0x[0-9a-f.]+p[-+]?\d+f", "", body))]
                self.assertEqual(ints, [*p["b"], *p["m"], p["x_m"], *[v for row in p["A"] for v in row], *p["shift"],
                                        p["x_shift"]])
                # the bound: the twin against the float reference over every calibration sequence
                ref_model = sarnn.from_config(config)
                ref_model.load_state_dict({k: v.float() for k, v in model.state_dict().items()})
                h_worst = c_worst = 0
                for b in range(4):
                    hq, cq = scalar_twin(qspec.params, config, cap, raw[b])
                    hf, cf, _ = reference.run(ref_model, calibration[b].double().numpy())
                    h_worst = max(h_worst, np.max(np.abs(hq / 32768.0 - hf)))
                    if cq is not None:
                        c_worst = max(c_worst, np.max(np.abs(cq / 32768.0 - cf)))
                h_bound = int(re.search(r"h_bound_q31 = (\d+);", text).group(1))
                c_bound = int(re.search(r"c_bound_q31 = (\d+);", text).group(1))
                self.assertAlmostEqual(h_bound / 2.0 ** 31, h_worst, delta=2.0 ** -30)
                self.assertAlmostEqual(c_bound / 2.0 ** 31, c_worst, delta=2.0 ** -30)
                self.assertGreater(h_bound, 0)
                self.assertLess(h_bound / 2.0 ** 31, 0.05)   # int8 weights: a few 1e-3 on these models
                self.assertEqual(c_bound == 0, c is None)

    def test_header_text(self):
        torch.manual_seed(2)
        calibration = torch.rand(2, 6, 3)
        export_header(sarnn.SelfAttentionRNN(3, 4, align="dot", window=4), "my_q15", self.path("my_q15.hpp"),
                      quantize="int8", calibration=calibration)
        with open(self.path("my_q15.hpp"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(lines[1], "// sarnn::SelfAttentionRnn<sarnn::q15, 3, 4, 4, sarnn::DotAlign, sarnn::Window>")
        self.assertIn("inline constexpr sarnn::RnnParams<sarnn::q15, 3, 4> params = {", lines)
        self.assertIn("inline constexpr std::size_t golden_steps = 6;", lines)   # the default 8, but 6 steps
        self.assertIn("    0x1p-15f,  // 3.05176e-05", lines)
        self.assertTrue(all(len(line) < 120 for line in lines))


class Refusals(TempDir):
    def assert_refused(self, words, model=None, calibration=None, **options):
        model = model if model is not None else sarnn.SelfAttentionRNN(3, 4, align="dot")
        calibration = calibration if calibration is not None else torch.rand(2, 5, 3)
        with self.assertRaises(ExportError) as done:
            export_header(model, "m", self.path("m.hpp"), calibration=calibration, **dict({"quantize": "int8"},
                                                                                        **options))
        for word in words:
            self.assertIn(word, str(done.exception))
        self.assertFalse(os.path.exists(self.path("m.hpp")))

    def test_models_the_q15_path_does_not_take(self):
        for model in (sarnn.SelfAttentionRNN(3, 4, align="bilinear"),
                      sarnn.SelfAttentionRNN(3, 4, align="key_query", k=2),
                      sarnn.SelfAttentionRNN(3, 4, align="additive", k=2), sarnn.LSTMN(3, 4, 2)):
            with self.subTest(model=model.config()):
                self.assert_refused(["issue 17", "dot or scaled_dot", "later issue"], model)
        self.assert_refused(["--dtype double", "issue 17"], dtype="double")

    def test_options(self):
        with self.assertRaisesRegex(ExportError, "needs --calibration"):
            export_header(sarnn.SimpleRNN(3, 4), "m", self.path("m.hpp"), quantize="int8")
        with self.assertRaisesRegex(ExportError, "--calibration is for --quantize"):
            export_header(sarnn.SimpleRNN(3, 4), "m", self.path("m.hpp"), calibration=torch.rand(1, 2, 3))
        self.assert_refused(["unknown --quantize", "int8"], quantize="int4")
        self.assert_refused(["--tolerance"], tolerance=1e-3)
        self.assert_refused(["--golden-seed"], golden_seed=3)

    def test_calibrations(self):
        self.assert_refused(["shape (2, 5, 4)", "[sequences, steps, 3]"], calibration=torch.rand(2, 5, 4))
        self.assert_refused(["shape (5, 3)"], calibration=torch.rand(5, 3))
        self.assert_refused(["all 0"], calibration=torch.zeros(2, 5, 3))
        bad = torch.rand(2, 5, 3)
        bad[1, 2, 0] = float("nan")
        self.assert_refused(["[1, 2, 0]", "finite"], calibration=bad)
        self.assert_refused(["must hold a tensor"], calibration={"x": 1})
        self.assert_refused(["9 steps", "capacity 8", "--capacity 9"], calibration=torch.rand(2, 9, 3), capacity=8)
        self.assert_refused(["input scale 2^19", "outside"], calibration=torch.full((1, 1, 3), 1e10))
        with open(self.path("broken.pt"), "wb") as f:
            f.write(b"not a torch file")
        self.assert_refused(["cannot read the calibration", "broken.pt"], calibration=self.path("broken.pt"))


class CommandLine(TempDir):
    def test_success_and_errors(self):
        torch.manual_seed(4)
        sarnn.save(sarnn.SelfAttentionRNN(3, 5, align="scaled_dot", window=4), self.path("model.pt"))
        torch.save(torch.rand(3, 10, 3) * 6 - 3, self.path("inputs.pt"))
        done = self.run_cli("model.pt", "--quantize", "int8", "--calibration", "inputs.pt", "--name", "X",
                            "--out", "X.hpp")
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stderr, "")
        first, second = done.stdout.splitlines()
        self.assertEqual(first, "wrote X.hpp: sarnn::SelfAttentionRnn<sarnn::q15, 3, 5, 4, sarnn::ScaledDotAlign, "
                                "sarnn::Window>")
        self.assertRegex(second, r"^q15: x_scale 2\^-13; over the calibration \(3 sequences of 10 steps\) max "
                                 r"\|h_q - h_float\| = \d\.\d{3}e-0\d, max \|c_q - c_float\| = \d\.\d{3}e-0\d$")
        # the errors in this process (main() is the command line; one torch import instead of one per case)
        sarnn.save(sarnn.SelfAttentionRNN(3, 5, align="bilinear"), self.path("bilinear.pt"))
        inputs = self.path("inputs.pt")
        for args, words in ((("--quantize", "int8"), "needs --calibration"),
                            (("--calibration", inputs), "--calibration is for --quantize"),
                            (("--quantize", "int8", "--calibration", inputs, "--dtype", "double"), "issue 17"),
                            (("--quantize", "int8", "--calibration", self.path("missing.pt")),
                             "cannot read the calibration"),
                            (("--quantize", "int8", "--calibration", inputs, "--capacity", "16", "--model",
                              "self_attention"), "the bilinear align has no q15 model yet")):
            with self.subTest(args=args):
                model = self.path("bilinear.pt" if "--capacity" in args else "model.pt")
                stderr = io.StringIO()
                with contextlib.redirect_stderr(stderr), contextlib.redirect_stdout(io.StringIO()):
                    status = export.main([model, "--out", self.path("Y.hpp"), *args])
                self.assertEqual(status, 2)
                self.assertTrue(stderr.getvalue().startswith("sarnn.export: error: "), stderr.getvalue())
                self.assertIn(words, stderr.getvalue())
                self.assertFalse(os.path.exists(self.path("Y.hpp")))


if __name__ == "__main__":
    unittest.main()
