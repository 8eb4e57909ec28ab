"""sarnn.q15, the Python twin of sarnn's q15 models: the digest of many runs (tests/twin_digest.py, each a batch of
one) equals the one tests/test_q15_models.cpp checks for the C++ (so the two agree bit for bit, also on the Cortex-M
boards: tests/firmware/q15_main.cpp), the LSTM's apart (tests/shared/q15_lstm_digest.hpp), and a model quantised
with quantize_rnn() stays near its float original."""
import math
import random
import unittest

from . import require

require("numpy")
import numpy as np  # noqa: E402

from sarnn import q15  # noqa: E402
from tests import twin_digest  # noqa: E402

DIGEST = 0x4154111d6323df19   # tests/shared/q15_digest.hpp: kQ15Digest
LSTM_DIGEST = 0xa0a944c95b61a0a1   # tests/shared/q15_lstm_digest.hpp: kQ15LstmDigest
GRU_DIGEST = 0x9d1177656718db2f   # tests/shared/q15_gru_digest.hpp: kQ15GruDigest
GRU_CELL_DIGEST = 0x202e7a2b3e2018d2   # tests/shared/q15_gru_cell_digest.hpp: kQ15GruCellDigest
ONE_DIGEST = 0xa5d8b717e2ca9aaf   # tests/shared/q15_one_digest.hpp: kQ15OneDigest


def float_gru(W_ih, W_hh, b_ih, b_hh, xs):
    """PyTorch's GRU in numpy doubles (rows r, z, n), from h = 0: every step's h."""
    hidden = W_hh.shape[1]
    h, hs = np.zeros(hidden), []
    for x in xs:
        gi, gh = W_ih @ x + b_ih, W_hh @ h + b_hh
        r = 1.0 / (1.0 + np.exp(-(gi[:hidden] + gh[:hidden])))
        z = 1.0 / (1.0 + np.exp(-(gi[hidden:2 * hidden] + gh[hidden:2 * hidden])))
        n = np.tanh(gi[2 * hidden:] + r * gh[2 * hidden:])
        h = (1.0 - z) * n + z * h
        hs.append(h)
    return np.array(hs)


def quantize_gru(W_ih, W_hh, b_ih, b_hh, x_scale):
    """GruParams<q15> from float weights: row r of [W_ih | W_hh] to int8 at one scale a_r = max|row| / 127 (m, shift:
    a_r / 8), the biases to Q3.12, x_m and x_shift from x_scale·32768 (the layout of include/sarnn/params.hpp)."""
    p = {"W_ih": [], "W_hh": [], "m": [], "shift": [], "x_scale": x_scale,
         "b_ih": [int(round(v * 4096)) for v in b_ih], "b_hh": [int(round(v * 4096)) for v in b_hh]}
    p["x_m"], p["x_shift"] = q15.quantize_multiplier(x_scale * 32768.0)
    for r in range(W_ih.shape[0]):
        a_r = max(np.max(np.abs(W_ih[r])), np.max(np.abs(W_hh[r]))) / 127.0
        p["W_ih"].append([int(round(v / a_r)) for v in W_ih[r]])
        p["W_hh"].append([int(round(v / a_r)) for v in W_hh[r]])
        m, sh = q15.quantize_multiplier(a_r / 8.0)
        p["m"].append(m)
        p["shift"].append(sh)
    return p


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
        self.assertEqual(twin_digest.q15_digest(), DIGEST)

    def test_gru_digest_matches_the_cpp(self):
        self.assertEqual(twin_digest.q15_gru_digest(), GRU_DIGEST)

    def test_gru_cell_digest_matches_the_cpp(self):
        self.assertEqual(twin_digest.q15_gru_cell_digest(), GRU_CELL_DIGEST)

    def test_one_digest_matches_the_cpp(self):
        """Lstm and Gru with the x factor 1 (the rows' finishing passes of the targets' loops)"""
        self.assertEqual(twin_digest.q15_one_digest(), ONE_DIGEST)

    def test_gru_cell_first_step_is_the_gru(self):
        """Under attention the GRU cell's first step is Gru<q15>'s (c_0 = 0 = h_0), and a one-state memory makes the
        context the last state: with Window<1> every step is the GRU's."""
        rng = twin_digest._Lcg(7)
        p = twin_digest.digest_gru_params(rng, 4, 6)
        raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(4)] for _ in range(25)]])
        h, c = q15.run(p, raw, "dot", capacity=1, window=True, cell="gru")
        np.testing.assert_array_equal(h, q15.run_gru(p, raw))
        np.testing.assert_array_equal(c, h)
        with self.assertRaises(ValueError):
            q15.run(p, raw, None, cell="gru")
        with self.assertRaises(ValueError):
            q15.run(p, raw, "dot", capacity=30, cell="lstm")

    def test_gru_quantised_stays_near_float(self):
        """run_gru's integers mean what GruParams<q15> says: a GRU quantised by its layout stays within 0.02 of the
        float GRU over 200 steps (In 16, Hidden 32, PyTorch's init)."""
        rng = np.random.default_rng(5)
        n_in, hidden, steps = 16, 32, 200
        k = 1.0 / math.sqrt(hidden)
        W_ih, W_hh = rng.uniform(-k, k, (3 * hidden, n_in)), rng.uniform(-k, k, (3 * hidden, hidden))
        b_ih, b_hh = rng.uniform(-k, k, 3 * hidden), rng.uniform(-k, k, 3 * hidden)
        x_scale = 1.0 / 8192.0                              # inputs in (-4, 4)
        raw = rng.integers(-32768, 32768, (1, steps, n_in))
        p = quantize_gru(W_ih, W_hh, b_ih, b_hh, x_scale)
        h = q15.run_gru(p, raw)[0] / 32768.0
        want = float_gru(W_ih, W_hh, b_ih, b_hh, raw[0] * x_scale)
        self.assertLess(float(np.max(np.abs(h - want))), 0.02)

    def test_inv_sqrt_and_mul(self):
        for n in range(1, 300):
            self.assertEqual(q15.inv_sqrt_q15(n), int(math.floor(32768 / math.sqrt(n) + 0.5)), n)
        self.assertEqual(int(q15.mul_q15(-32768, 32768)), -32768)
        self.assertEqual(int(q15.mul_q15(12345, 32768)), 12345)
        self.assertEqual(int(q15.mul_q15(32767, 16384)), 16384)

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
        got = q15.run(p, np.array([raw]), "dot", capacity)[0][0].tolist()
        want = float_attention_rnn(A, b, [[v / 32768 for v in x] for x in raw], capacity)
        worst = max(abs(g / 32768 - w) for gs, ws in zip(got, want) for g, w in zip(gs, ws))
        self.assertLessEqual(worst, 0.02)


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
        counts, total, c = [], 0, None
        for _, c, _, saturated in q15.lstmn_steps(p, np.zeros((1, 12, 1), dtype=np.int64), 1, window=True):
            total += int(saturated[0])
            counts.append(total)
        self.assertEqual(counts[:8], [0] * 8)
        self.assertEqual(counts[8:], [2, 4, 6, 8])
        self.assertEqual(c[0].tolist(), [32767, -32768])
        self.assertEqual(q15.run_lstmn(p, np.zeros((1, 12, 1), dtype=np.int64), 1, window=True)[2].tolist(), [8])

    def test_bounded_refuses_more_steps_than_it_holds(self):
        """A Bounded memory holds capacity steps: more is refused (the C++ returns memory_full; the digest covers
        what a refused step leaves)."""
        p = twin_digest.digest_lstmn_params(twin_digest._Lcg(3), 2, 3, 2)
        raw = np.array([[[100, -100], [5, 7], [1, 1]]])
        self.assertEqual(q15.run_lstmn(p, raw[:, :2], 2)[0].shape, (1, 2, 3))
        with self.assertRaisesRegex(ValueError, "3 steps do not fit a Bounded memory of 2"):
            q15.run_lstmn(p, raw, 2)
        self.assertEqual(q15.run_lstmn(p, raw, 2, window=True)[0].shape, (1, 3, 3))



class LstmQ15Twin(unittest.TestCase):
    def test_digest_matches_the_cpp(self):
        self.assertEqual(twin_digest.q15_lstm_digest(), LSTM_DIGEST)

    def test_cell_saturation_is_counted(self):
        """No weights, the i, f, g biases at +-8 (Q3.12's ends): |c| grows by nearly 1 a step, is clamped to Q3.12's
        ends once it passes 8, and every clamped lane is counted (as the C++ test)."""
        hidden = 2
        p = {"W_ih": [[0] for _ in range(4 * hidden)], "W_hh": [[0] * hidden for _ in range(4 * hidden)],
             "b": [32767, 32767, 32767, 32767, 32767, -32768, 0, 0], "m": [1 << 30] * (4 * hidden),
             "shift": [9] * (4 * hidden), "x_m": 1 << 30, "x_shift": 0}
        counts, total, c = [], 0, None
        for _, c, saturated in q15.lstm_steps(p, np.zeros((1, 12, 1), dtype=np.int64)):
            total += int(saturated[0])
            counts.append(total)
        self.assertEqual(counts[:8], [0] * 8)
        self.assertEqual(counts[8:], [2, 4, 6, 8])
        self.assertEqual(c[0].tolist(), [32767, -32768])
        self.assertEqual(q15.run_lstm(p, np.zeros((1, 12, 1), dtype=np.int64))[2].tolist(), [8])

    def test_equals_the_lstmn_attending_one_entry(self):
        """The LSTMN with a Window of one entry attends exactly h_{t-1} and c_{t-1} (s_1 = 32767, h~ = h_1, c~ = c_1
        exactly): with the same gate weights it is the LSTM, bit for bit, whatever its attention weights."""
        rng = twin_digest._Lcg(8)
        p = twin_digest.digest_lstmn_params(rng, 3, 6, 2)
        raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(3)] for _ in range(30)] for _ in range(2)])
        h, c, saturated = q15.run_lstm(p, raw)
        hn, cn, saturated_n = q15.run_lstmn(p, raw, 1, window=True)
        self.assertTrue(np.array_equal(h, hn))
        self.assertTrue(np.array_equal(c, cn))
        self.assertTrue(np.array_equal(saturated, saturated_n))

    def test_a_batch_is_its_sequences_one_by_one(self):
        rng = twin_digest._Lcg(9)
        p = twin_digest.digest_lstm_params(rng, 4, 5)
        raw = np.array([[[rng.next() % 65536 - 32768 for _ in range(4)] for _ in range(20)] for _ in range(3)])
        h, c, saturated = q15.run_lstm(p, raw)
        for b in range(3):
            hb, cb, sb = q15.run_lstm(p, raw[b:b + 1])
            self.assertTrue(np.array_equal(h[b:b + 1], hb))
            self.assertTrue(np.array_equal(c[b:b + 1], cb))
            self.assertEqual(int(saturated[b]), int(sb[0]))

if __name__ == "__main__":
    unittest.main()
