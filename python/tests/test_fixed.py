"""python/sarnn/fixed.py, the Python twin of sarnn's integer activations: the digest of every output equals the one
tests/test_fixed.cpp checks for the C++ (so the two agree bit for bit), the stated error bounds hold exhaustively,
and lib/fixed_tables.inc is what `python3 -m sarnn.fixed --tables` prints."""
import math
import os
import unittest

from sarnn import fixed

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DIGEST = 0x1e351cf4a11b24ad   # tests/shared/fixed_digest.hpp: kFixedDigest


class FixedTwin(unittest.TestCase):
    def test_digest_matches_the_cpp(self):
        self.assertEqual(fixed.digest(), DIGEST)

    def test_error_bounds(self):
        tanh = max(abs(fixed.tanh_q15(z) - math.tanh(z / 4096) * 32768) for z in range(-32768, 32768))
        sigm = max(abs(fixed.sigmoid_q15(z) - 32768 / (1 + math.exp(-z / 4096))) for z in range(-32768, 32768))
        exp = max(abs(fixed.exp_q16(-y) - math.exp(-y / 65536) * 65536) for y in range(12 * 65536 + 16))
        self.assertLessEqual(tanh, 1.53)
        self.assertLessEqual(sigm, 1.27)
        self.assertLessEqual(exp, 1.26)

    def test_requantize_is_exact_rounding(self):
        from fractions import Fraction
        for a, m, sh in fixed._requantize_cases():
            s = 31 + max(-31, min(31, sh))
            want = int((Fraction(a * m, 1 << s) + Fraction(1, 2)).__floor__())
            want = max(-(1 << 31), min((1 << 31) - 1, want))
            self.assertEqual(fixed.requantize(a, m, sh), want, (a, m, sh))

    def test_quantize_multiplier(self):
        for real in (0.5, 1 / 3, 3.0, 1e-6, 1234.5, 0.999999999):
            q, shift = fixed.quantize_multiplier(real)
            self.assertTrue((1 << 30) <= q < (1 << 31), real)
            self.assertAlmostEqual(q * 2.0 ** -(31 + shift), real, delta=real * 2 ** -30)

    def test_tables_are_generated(self):
        with open(os.path.join(ROOT, "lib", "fixed_tables.inc")) as f:
            self.assertEqual(f.read(), fixed.cpp_tables())


if __name__ == "__main__":
    unittest.main()
