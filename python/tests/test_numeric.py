"""sarnn.numeric, the number types in one place: float, double and q15 as include/sarnn/numeric.hpp has them (their
C++ spelling, weights, activations, sums, floating or not), the old entries unchanged, and the float path refusing
q15 with the quantised path's hint."""
import os
import re
import unittest

from . import require

require("torch", "numpy")
import numpy as np  # noqa: E402

import sarnn  # noqa: E402
from sarnn import ExportError  # noqa: E402
from sarnn.numeric import FLOATING, NUMERIC, Numeric, numeric  # noqa: E402
from sarnn.spec import resolve  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")


class NumberTypes(unittest.TestCase):
    def test_the_three_types(self):
        self.assertEqual(list(NUMERIC), ["float", "double", "q15"])
        self.assertEqual(FLOATING, ("float", "double"))
        q = numeric("q15")
        self.assertEqual((q.cpp, q.weight, q.activation, q.accumulator, q.floating, q.literal_suffix),
                         ("sarnn::q15", np.int8, np.int16, np.int32, False, ""))
        self.assertIsNone(q.tolerance)
        self.assertEqual(numeric("float"), Numeric("float", np.float32, np.float32, "f", True, 1e-4, "float",
                                                   np.float32))
        self.assertEqual((numeric("double").cpp, numeric("double").tolerance), ("double", 1e-10))
        with self.assertRaises(KeyError):
            numeric("int8")

    def test_the_old_constructor_still_works(self):
        """The six positional fields of before; the new ones default to None."""
        n = Numeric("float", np.float32, np.float32, "f", True, 1e-4)
        self.assertIsNone(n.cpp)
        self.assertIsNone(n.accumulator)

    def test_as_the_cpp_policy(self):
        """include/sarnn/numeric.hpp: Numeric<q15> with int8 weights, q15 activations, int32 sums, not floating."""
        with open(os.path.join(ROOT, "include", "sarnn", "numeric.hpp")) as f:
            text = f.read()
        body = re.search(r"struct Numeric<q15> \{(.*?)\};", text, re.S).group(1)
        self.assertIn("floating = false", body)
        self.assertIn("using weight = std::int8_t", body)
        self.assertIn("using accumulator = std::int32_t", body)
        for name in FLOATING:
            self.assertIn(f"struct Numeric<{name}> : detail::FloatingNumeric<{name}>", text)

    def test_the_float_path_refuses_q15(self):
        model = sarnn.SimpleRNN(2, 3)
        with self.assertRaisesRegex(ExportError, "fixed point.*--quantize int8"):
            resolve(model, dtype="q15")
        with self.assertRaisesRegex(ExportError, r"unknown dtype 'half' \(expected one of float, double\)"):
            resolve(model, dtype="half")
        self.assertEqual(resolve(model, dtype="double").dtype, "double")


if __name__ == "__main__":
    unittest.main()
