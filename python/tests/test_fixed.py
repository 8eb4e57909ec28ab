"""sarnn.q15's activations and requantisation, the twin of include/sarnn/fixed.hpp: the digest of every output
(tests/twin_digest.py) equals the one tests/test_fixed.cpp checks for the C++ (so the two agree bit for bit), the
stated error bounds hold exhaustively, the elementwise functions take ints as arrays, and
include/sarnn/kernels/q15/fixed_tables.inc is what `python3 -m sarnn.q15 --tables` prints."""
import math
import os
import unittest
from fractions import Fraction

from . import require

require("numpy")
import numpy as np  # noqa: E402

from sarnn import q15  # noqa: E402
from tests import twin_digest  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DIGEST = 0x1e351cf4a11b24ad   # tests/shared/fixed_digest.hpp: kFixedDigest


class FixedTwin(unittest.TestCase):
    def test_digest_matches_the_cpp(self):
        self.assertEqual(twin_digest.fixed_digest(), DIGEST)

    def test_error_bounds(self):
        z = np.arange(-32768, 32768)
        y = np.arange(12 * 65536 + 16)
        tanh = np.max(np.abs(q15.tanh_q15(z) - np.tanh(z / 4096) * 32768))
        sigm = np.max(np.abs(q15.sigmoid_q15(z) - 32768 / (1 + np.exp(-z / 4096))))
        exp = np.max(np.abs(q15.exp_q16(-y) - np.exp(-y / 65536) * 65536))
        self.assertLessEqual(tanh, 1.53)
        self.assertLessEqual(sigm, 1.27)
        self.assertLessEqual(exp, 1.26)

    def test_requantize_is_exact_rounding(self):
        acc, mult, shift = twin_digest.requantize_cases()
        got = q15.requantize(acc, mult, shift).tolist()
        for a, m, sh, g in zip(acc, mult, shift, got):
            s = 31 + max(-31, min(31, sh))
            want = int((Fraction(a * m, 1 << s) + Fraction(1, 2)).__floor__())
            self.assertEqual(g, max(-(1 << 31), min((1 << 31) - 1, want)), (a, m, sh))

    def test_ints_as_arrays(self):
        """An int in, a 0-d int64 array out, the same as the int's lane in an array."""
        for z in (-32768, -1, 0, 5, 32767):
            self.assertEqual(int(q15.tanh_q15(z)), int(q15.tanh_q15(np.array([z]))[0]))
            self.assertEqual(int(q15.sigmoid_q15(z)), int(q15.sigmoid_q15(np.array([z]))[0]))
        self.assertEqual(int(q15.exp_q16(0)), 65536)
        self.assertEqual(int(q15.exp_q16(5)), 65536)
        self.assertEqual(int(q15.exp_q16(-12 * 65536)), 0)
        self.assertEqual(int(q15.requantize_q15(1 << 30, 1 << 30, -16)), 32767)

    def test_quantize_multiplier(self):
        for real in (0.5, 1 / 3, 3.0, 1e-6, 1234.5, 0.999999999):
            q, shift = q15.quantize_multiplier(real)
            self.assertTrue((1 << 30) <= q < (1 << 31), real)
            self.assertAlmostEqual(q * 2.0 ** -(31 + shift), real, delta=real * 2 ** -30)

    def test_tables_are_generated(self):
        with open(os.path.join(ROOT, "include", "sarnn", "kernels", "q15", "fixed_tables.inc")) as f:
            self.assertEqual(f.read(), q15.cpp_tables())


if __name__ == "__main__":
    unittest.main()
