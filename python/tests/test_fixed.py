"""python/sarnn/fixed.py, the Python twin of sarnn's integer activations: the digest of every output equals the one
tests/test_fixed.cpp checks for the C++ (so the two agree bit for bit), the stated error bounds hold exhaustively,
and lib/fixed_tables.inc is what `python3 -m sarnn.fixed --tables` prints."""
import math
import os
import unittest

from sarnn import fixed

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
DIGEST = 0x1b6d5d84d48d6efa   # tests/shared/fixed_digest.hpp: kFixedDigest


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

    def test_tables_are_generated(self):
        with open(os.path.join(ROOT, "lib", "fixed_tables.inc")) as f:
            self.assertEqual(f.read(), fixed.cpp_tables())


if __name__ == "__main__":
    unittest.main()
