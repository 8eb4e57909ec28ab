"""sarnn.header.wrapped, the one array wrapper of the float (sarnn.header) and the q15 (sarnn.header_q15) headers:
`{a, b, ...}` plus the closing text, lines under the limit, continuation lines one space past the brace."""
import unittest

from . import require

require("numpy")
from sarnn import header, header_q15  # noqa: E402


class Wrapped(unittest.TestCase):
    def test_short_and_empty(self):
        self.assertEqual(header.wrapped(["1", "-2", "3"], "    ", ","), ["    {1, -2, 3},"])
        self.assertEqual(header.wrapped([], "", ";"), ["{"])

    def test_wraps_under_the_limit(self):
        items = [str(10 ** 6 + n) for n in range(40)]
        lines = header.wrapped(items, "  ", "};")
        self.assertGreater(len(lines), 1)
        self.assertTrue(all(len(line) <= header.LINE_LIMIT for line in lines))
        self.assertTrue(all(line.startswith("   1") for line in lines[1:]))
        self.assertEqual(" ".join(line.strip() for line in lines), "{" + ", ".join(items) + "}};")

    def test_both_headers_use_it(self):
        """The q15 header's int arrays and the float header's literals go through the same wrapper."""
        self.assertIs(header_q15.wrapped, header.wrapped)
        self.assertEqual(header_q15._ints([[1, 2], [3]], ""), ["{", "    {1, 2},", "    {3},", "},"])


if __name__ == "__main__":
    unittest.main()
