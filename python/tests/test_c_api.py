"""sarnn.header_c, the --c-api output: what X.h declares per model kind, that it is C99, the status list against
include/sarnn/status.hpp, the unchanged default output and the command line. (tests/c_api runs the API from C.)"""
import contextlib
import io
import os
import re
import shutil
import subprocess
import tempfile
import unittest

from . import require

require("torch", "numpy")
import torch  # noqa: E402

import sarnn  # noqa: E402
from sarnn import ExportError, export_header, q15  # noqa: E402
from sarnn.export import main  # noqa: E402
from sarnn.header_c import STATUSES  # noqa: E402

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(PYTHON_DIR)


def _models():
    """(name, module, options) of every kind the exporter writes."""
    torch.manual_seed(5)
    calibration = torch.rand(2, 6, 3) * 2 - 1
    return (
        ("m_sa", sarnn.SelfAttentionRNN(3, 5, align="bilinear"), {"capacity": 6}),
        ("m_sa_window", sarnn.SelfAttentionRNN(3, 5, align="additive", k=3, window=4), {}),
        ("m_lstmn", sarnn.LSTMN(3, 5, 2), {"capacity": 6}),
        ("m_simple", sarnn.SimpleRNN(3, 5), {"dtype": "double"}),
        ("m_q15_sa", sarnn.SelfAttentionRNN(3, 5, align="scaled_dot"),
         {"capacity": 6, "quantize": "int8", "calibration": calibration}),
        ("m_q15_simple", sarnn.SimpleRNN(3, 5), {"quantize": "int8", "calibration": calibration}),
        ("m_q15_lstmn", sarnn.LSTMN(3, 5, 2, window=4), {"quantize": "int8", "calibration": calibration}),
        ("m_gru", sarnn.GRU(3, 5), {}),
        ("m_lstm", sarnn.LSTM(3, 5), {"dtype": "double"}),
    ) + ((
        ("m_q15_gru", sarnn.GRU(3, 5), {"quantize": "int8", "calibration": calibration}),
        ("m_q15_lstm", sarnn.LSTM(3, 5), {"quantize": "int8", "calibration": calibration}),
    ) if hasattr(q15, "run_gru") and hasattr(q15, "run_lstm") else ())


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class CApi(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="sarnn_c_api_")
        cls.written = {}
        for name, module, options in _models():
            cls.written[name] = export_header(module, name, os.path.join(cls.dir, name + ".hpp"), golden_steps=6,
                                              c_api=True, **options)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir)

    def header(self, name):
        return _read(os.path.join(self.dir, name + ".h"))

    def test_statuses_follow_status_hpp(self):
        text = _read(os.path.join(REPO, "include", "sarnn", "status.hpp"))
        body = re.search(r"enum class Status : unsigned char \{(.*?)\};", text, re.S).group(1)
        enumerators = re.findall(r"^\s*(\w+)(?: = \d+)?,", body, re.M)
        self.assertEqual([e for _, e, _ in STATUSES], enumerators)
        self.assertEqual([s for s, _, _ in STATUSES], [e.upper() for e in enumerators])
        for value, (suffix, _, _) in enumerate(STATUSES):
            self.assertIn(f"#define SARNN_STATUS_{suffix}", self.header("m_sa"))
            self.assertRegex(self.header("m_sa"), rf"#define SARNN_STATUS_{suffix} +{value} ")

    def test_declarations_per_kind(self):
        # (name, value type, context, cell, attention, capacity)
        want = (("m_sa", "float", True, False, True, "6"), ("m_sa_window", "float", True, False, True, "4"),
                ("m_lstmn", "float", False, True, True, "6"), ("m_simple", "double", False, False, False, None),
                ("m_q15_sa", "int16_t", True, False, True, "6"), ("m_q15_simple", "int16_t", False, False, False, None),
                ("m_q15_lstmn", "int16_t", False, True, True, "4"), ("m_gru", "float", False, False, False, None),
                ("m_lstm", "double", False, True, False, None), ("m_q15_gru", "int16_t", False, False, False, None),
                ("m_q15_lstm", "int16_t", False, True, False, None))
        for name, t, context, cell, attention, capacity in want:
            if name not in self.written:
                continue   # the q15 GRU and LSTM need the twins
            with self.subTest(name):
                h, up = self.header(name), name.upper()
                self.assertIn(f"int {name}_step(const {t}* x);", h)
                self.assertIn(f"const {t}* {name}_hidden(void);", h)
                self.assertEqual(f"const {t}* {name}_context(void);" in h, context)
                self.assertEqual(f"const {t}* {name}_cell(void);" in h, cell)
                self.assertEqual(f"const {t}* {name}_attention(size_t* n);" in h, attention)
                for what, has in (("CONTEXT", context), ("CELL", cell), ("ATTENTION", attention)):
                    self.assertIn(f"#define {up}_HAS_{what} {int(has)}\n", h)
                self.assertIn(f"#define {up}_IN_SIZE 3\n", h)
                self.assertIn(f"#define {up}_HIDDEN_SIZE 5\n", h)
                self.assertEqual(re.search(rf"#define {up}_CAPACITY (\d+)", h) and
                                 re.search(rf"#define {up}_CAPACITY (\d+)", h).group(1), capacity or None)
                glue = _read(os.path.join(self.dir, name + ".cpp"))
                self.assertIn(f'#include "{name}.h"', glue)
                self.assertIn(f'#include "{name}.hpp"', glue)

    def test_q15_scales(self):
        h = self.header("m_q15_sa")
        x_scale = float.fromhex(re.search(r"#define M_Q15_SA_X_SCALE (\S+)f ", h).group(1))
        self.assertEqual(x_scale, self.written["m_q15_sa"].params["x_scale"])
        self.assertIn("#define M_Q15_SA_OUTPUT_SCALE 0x1p-15f\n", h)
        self.assertNotIn("CELL_SCALE", h)
        # the q15 LSTMN's cell is Q3.12: its own scale
        h = self.header("m_q15_lstmn")
        self.assertIn("#define M_Q15_LSTMN_OUTPUT_SCALE 0x1p-15f\n", h)
        self.assertIn("#define M_Q15_LSTMN_CELL_SCALE 0x1p-12f\n", h)
        self.assertIn("Model c_api_model(m_q15_lstmn::params);", _read(os.path.join(self.dir, "m_q15_lstmn.cpp")))
        if "m_q15_lstm" in self.written:
            self.assertIn("#define M_Q15_LSTM_CELL_SCALE 0x1p-12f\n", self.header("m_q15_lstm"))
            self.assertNotIn("CELL_SCALE", self.header("m_q15_gru"))
            self.assertIn("h is Q15", self.header("m_q15_gru"))

    def test_q15_glue_passes_the_align_params(self):
        """A q15 model whose align has params is constructed with (params, align_params), the others with params."""
        calibration = torch.rand(2, 6, 3) * 2 - 1
        for align, k in (("bilinear", None), ("key_query", 2), ("additive", 3), ("dot", None)):
            with self.subTest(align):
                name = f"m_q15_ctor_{align}"
                export_header(sarnn.SelfAttentionRNN(3, 5, align=align, k=k), name,
                              os.path.join(self.dir, name + ".hpp"), capacity=6, quantize="int8",
                              calibration=calibration, c_api=True)
                glue = _read(os.path.join(self.dir, name + ".cpp"))
                args = f"{name}::params" + ("" if align == "dot" else f", {name}::align_params")
                self.assertIn(f"Model c_api_model({args});", glue)

    def test_headers_are_c99(self):
        cc = shutil.which("gcc") or shutil.which("cc")
        if cc is None:
            self.skipTest("no C compiler on PATH")
        for name, _, _ in _models():
            with self.subTest(name):
                # every header, twice in one unit with another (the shared status block), as C99 with no extensions
                source = f'#include "{name}.h"\n#include "{name}.h"\n#include "m_sa.h"\nint main(void) {{\n' \
                         f"    {name}_reset();\n    return {name}_step(NULL) == SARNN_STATUS_NULL_INPUT ? 0 : 1;\n}}\n"
                run = subprocess.run([cc, "-std=c99", "-Wall", "-Wextra", "-Wpedantic", "-Werror", "-fsyntax-only",
                                      "-x", "c", "-I", self.dir, "-"], input=source, capture_output=True, text=True)
                self.assertEqual(run.returncode, 0, run.stderr)

    def test_clang_format_clean(self):
        tool = shutil.which("clang-format")
        if tool is None:
            self.skipTest("no clang-format on PATH")
        shutil.copy(os.path.join(REPO, ".clang-format"), self.dir)   # clang-format finds it next to the files
        files = [os.path.join(self.dir, name + ext) for name, _, _ in _models() for ext in (".h", ".cpp")]
        run = subprocess.run([tool, "--dry-run", "--Werror", *files], capture_output=True, text=True)
        self.assertEqual(run.returncode, 0, run.stderr[:2000])

    def test_default_output_unchanged(self):
        module, options = _models()[0][1:]
        with tempfile.TemporaryDirectory() as d:
            export_header(module, "m_sa", os.path.join(d, "m_sa.hpp"), golden_steps=6, **options)
            self.assertEqual(os.listdir(d), ["m_sa.hpp"])
            self.assertEqual(_read(os.path.join(d, "m_sa.hpp")), _read(os.path.join(self.dir, "m_sa.hpp")))

    def test_header_named_like_the_c_files_is_refused(self):
        module, options = _models()[0][1:]
        with tempfile.TemporaryDirectory() as d:
            for out in ("m.h", "m.cpp"):
                with self.assertRaisesRegex(ExportError, "--c-api"):
                    export_header(module, "m", os.path.join(d, out), c_api=True, **options)
            self.assertEqual(os.listdir(d), [])

    def test_command_line(self):
        with tempfile.TemporaryDirectory() as d:
            model = os.path.join(d, "model.pt")
            sarnn.save(_models()[2][1], model)
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                status = main([model, "--out", os.path.join(d, "net.hpp"), "--capacity", "6", "--c-api"])
            self.assertEqual(status, 0)
            self.assertEqual(sorted(os.listdir(d)), ["model.pt", "net.cpp", "net.h", "net.hpp"])
            self.assertIn("net.h and ", out.getvalue())
            self.assertIn("int net_step(const float* x);", _read(os.path.join(d, "net.h")))
            text = io.StringIO()
            with contextlib.redirect_stdout(text), self.assertRaises(SystemExit):
                main(["--help"])
            self.assertIn("--c-api", text.getvalue())


if __name__ == "__main__":
    unittest.main()
