"""python/sarnn/q15.py, the Python twin of sarnn's q15 models: the digest of many runs equals the one
tests/test_q15_models.cpp checks for the C++ (so the two agree bit for bit, also on the Cortex-M boards:
tests/firmware/q15_main.cpp), and a model quantised with quantize_rnn() stays near its float original."""
import math
import random
import unittest

from sarnn import fixed, q15

DIGEST = 0x4154111d6323df19   # tests/shared/q15_digest.hpp: kQ15Digest


def float_attention_rnn(A, b, xs, capacity):
    """The float model in plain Python (doubles): h = tanh(A·[x; c] + b), dot attention over the memory."""
    hidden = len(A)
    c, memory, hs = [0.0] * hidden, [], []
    for x in xs:
        v = list(x) + c
        h = [math.tanh(sum(a * u for a, u in zip(row, v)) + bias) for row, bias in zip(A, b)]
        memory = (memory + [h])[-capacity:]
        e = [sum(p * q for p, q in zip(s, h)) for s in memory]
        m = max(e)
        w = [math.exp(v - m) for v in e]
        total = sum(w)
        c = [sum(w[j] / total * memory[j][k] for j in range(len(memory))) for k in range(hidden)]
        hs.append(h)
    return hs


class Q15Twin(unittest.TestCase):
    def test_digest_matches_the_cpp(self):
        self.assertEqual(q15.digest(), DIGEST)

    def test_inv_sqrt_and_mul(self):
        for n in range(1, 300):
            self.assertEqual(fixed.inv_sqrt_q15(n), int(math.floor(32768 / math.sqrt(n) + 0.5)), n)
        self.assertEqual(fixed.mul_q15(-32768, 32768), -32768)
        self.assertEqual(fixed.mul_q15(12345, 32768), 12345)
        self.assertEqual(fixed.mul_q15(32767, 16384), 16384)

    def test_quantised_model_near_float(self):
        """The reference model (In 16, Hidden 32, Capacity 64, dot), weights normal with std 1/sqrt(fan-in),
        inputs uniform in [-1, 1): max |h_q - h_float| <= 0.02 over 64 steps (issue 17's target)."""
        n_in, hidden, capacity = 16, 32, 64
        rng = random.Random(5)
        s = 1 / math.sqrt(n_in + hidden)
        A = [[rng.gauss(0, s) for _ in range(n_in + hidden)] for _ in range(hidden)]
        b = [rng.gauss(0, s) for _ in range(hidden)]
        p = q15.quantize_rnn(A, b, 1 / 32768)
        for row in p["A"]:
            self.assertLessEqual(max(abs(v) for v in row), 127)
        raw = [[rng.randrange(-32768, 32768) for _ in range(n_in)] for _ in range(64)]
        model = q15.SelfAttentionRnnQ15(p, capacity, "dot")
        got = []
        for x in raw:
            self.assertTrue(model.step(x))
            got.append(list(model.h))
        want = float_attention_rnn(A, b, [[v / 32768 for v in x] for x in raw], capacity)
        worst = max(abs(g / 32768 - w) for gs, ws in zip(got, want) for g, w in zip(gs, ws))
        self.assertLessEqual(worst, 0.02)


if __name__ == "__main__":
    unittest.main()


class LstmnQ15Twin(unittest.TestCase):
    def test_cell_saturation_is_counted(self):
        """No weights, the i, f, g biases at +-8 (Q3.12's ends), a Window of one entry: |c| grows by nearly 1 a step,
        is clamped to Q3.12's ends once it passes 8, and every clamped lane is counted (as the C++ test)."""
        hidden, k = 2, 1
        p = {"W_ih": [[0] for _ in range(4 * hidden)], "W_hh": [[0] * hidden for _ in range(4 * hidden)],
             "W_h": [[0] * hidden], "W_x": [[0]], "W_ht": [[0] * hidden], "v": [0] * k,
             "b": [32767, 32767, 32767, 32767, 32767, -32768, 0, 0], "m": [1 << 30] * (4 * hidden),
             "shift": [9] * (4 * hidden), "m_a": [1 << 30], "shift_a": [9], "m_v": 1 << 30, "shift_v": 9, "f": 15,
             "x_m": 1 << 30, "x_shift": 0}
        model = q15.LstmnQ15(p, 1, window=True)
        counts = []
        for _ in range(12):
            self.assertTrue(model.step([0]))
            counts.append(model.saturated)
        self.assertEqual(counts[:8], [0] * 8)
        self.assertEqual(counts[8:], [2, 4, 6, 8])
        self.assertEqual(model.c, [32767, -32768])
        model.reset()
        self.assertEqual(model.saturated, 0)

    def test_bounded_refuses_when_full(self):
        rng = q15._Lcg(3)
        model = q15.LstmnQ15(q15.digest_lstmn_params(rng, 2, 3, 2), 2)
        self.assertTrue(model.step([100, -100]))
        self.assertTrue(model.step([5, 7]))
        before = (list(model.h), list(model.c), list(model.s))
        self.assertFalse(model.step([1, 1]))
        self.assertEqual((model.h, model.c, model.s), before)
