#!/usr/bin/env python3
"""fuzz/make_corpus.py: writes the small seed corpus of each fuzz target into fuzz/corpus/<target>/.

Deterministic (fixed seed); rerun it after changing the byte layout that fuzz/driver.hpp reads:
  selector | params: mode, run length, run bytes, pokes (count, then index u16, mode, value each) | [align params]
  | input mode | ops: 0 reset, 1 step(nullptr), 2 run(k, emit, flags, k rows), else step(one row of In bytes)
Mode bytes: low 3 bits pick the scale (0 unit, 1 1/sqrt(fan-in), 2 3, 3 1e4, 4 1e30, 5 1e-30, 6 1e-40, 7 0.25);
bits 3 and 4 both set allow the specials 0xFD/0xFE/0xFF (-Inf/+Inf/NaN).
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(7)


def params(mode=1, run=16, pokes=()):
    out = [mode, run - 1] + [rng.randrange(256) for _ in range(run)] + [len(pokes)]
    for index, pmode, value in pokes:
        out += [index & 0xFF, index >> 8, pmode, value]
    return out


def ops(n_in, steps, extra=()):
    out = []
    for _ in range(steps):
        out += [3 + rng.randrange(13)] + [rng.randrange(256) for _ in range(n_in)]
    for op in extra:
        out += op
    return out


def write(target, name, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(bytes(data))


def run_op(n_in, k, emit):
    return [2, k, emit, 0] + [rng.randrange(256) for _ in range(k * n_in)]


NAN_X = [[3, 0xFF, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80]]  # a step whose x holds NaN (input mode allows specials)

# SimpleRnn: selector = T * 6 + size; sizes (In, Hidden): (1,1) (3,5) (4,16) (7,37) (2,70) (5,136)
SIMPLE = [(1, 1), (3, 5), (4, 16), (7, 37), (2, 70), (5, 136)]
for t in range(2):
    for s in (1, 3):
        n_in = SIMPLE[s][0]
        write("fuzz_simple_rnn", f"t{t}_size{s}", [t * 6 + s] + params() + [0x18] +
              ops(n_in, 6, [run_op(n_in, 3, 0), [1], [0]] + NAN_X))
write("fuzz_simple_rnn", "huge_weights", [2] + params(mode=4) + [3] + ops(4, 4))

# SelfAttentionRnn: selector = ((T * 5 + align) * 2 + memory) * 5 + size
# sizes (In, Hidden, Capacity): (3,5,4) (4,16,19) (2,37,9) (1,136,5) (2,16,260); aligns Dot ScaledDot Bilinear
# KeyQuery<5> Additive<5>; memories Bounded, Window
SAR = [(3, 5, 4), (4, 16, 19), (2, 37, 9), (1, 136, 5), (2, 16, 260)]
for t in range(2):
    for align in range(5):
        mem = (t + align) % 2
        size = (align + t) % 4
        n_in, _, cap = SAR[size]
        sel = ((t * 5 + align) * 2 + mem) * 5 + size
        align_params = params() if align >= 2 else []
        write("fuzz_self_attention_rnn", f"t{t}_align{align}_mem{mem}_size{size}",
              [sel] + params() + align_params + [0x19] +
              ops(n_in, cap + 2, [run_op(n_in, 4, 1), [1], [0]] + NAN_X))
# the long memory (several L1 chunks of the context kernel), Window, wrapping once
sel = ((0 * 5 + 0) * 2 + 1) * 5 + 4
write("fuzz_self_attention_rnn", "long_window", [sel] + params() + [1] + ops(2, 270))

# Lstmn: selector = (T * 2 + memory) * 6 + size; sizes (In, Hidden, Capacity, K): (1,1,3,1) (3,5,6,4) (4,16,19,8)
# (2,37,9,17) (3,136,4,20) (2,16,260,5)
LSTMN = [(1, 1, 3, 1), (3, 5, 6, 4), (4, 16, 19, 8), (2, 37, 9, 17), (3, 136, 4, 20), (2, 16, 260, 5)]
for t in range(2):
    for mem in range(2):
        size = 1 + t + mem
        n_in, _, cap, _ = LSTMN[size]
        write("fuzz_lstmn", f"t{t}_mem{mem}_size{size}", [(t * 2 + mem) * 6 + size] + params() + [0x19] +
              ops(n_in, cap + 2, [run_op(n_in, 3, 2), [1], [0]] + NAN_X))
write("fuzz_lstmn", "nan_weight", [2] + params(pokes=[(5, 0x18, 0xFF)]) + [1] + ops(4, 5))

# Gru: selector = T * 6 + size; sizes (In, Hidden): (1,1) (3,5) (4,16) (7,37) (2,70) (5,136)
GRU = [(1, 1), (3, 5), (4, 16), (7, 37), (2, 70), (5, 136)]
for t in range(2):
    for s in (1, 3):
        n_in = GRU[s][0]
        write("fuzz_gru", f"t{t}_size{s}", [t * 6 + s] + params() + [0x18] +
              ops(n_in, 6, [run_op(n_in, 3, 0), [1], [0]] + NAN_X))
write("fuzz_gru", "huge_weights", [2] + params(mode=4) + [3] + ops(4, 4))
# Lstm: selector = T * 6 + size; sizes (In, Hidden): (1,1) (3,5) (4,16) (7,37) (2,136) (16,32)
LSTM = [(1, 1), (3, 5), (4, 16), (7, 37), (2, 136), (16, 32)]
for t in range(2):
    for s in (1, 2, 5):
        n_in = LSTM[s][0]
        write("fuzz_lstm", f"t{t}_size{s}", [t * 6 + s] + params() + [0x19] +
              ops(n_in, 8, [run_op(n_in, 3, 2), run_op(n_in, 2, 0), [1], [0]] + NAN_X))
write("fuzz_lstm", "nan_weight", [3] + params(pokes=[(9, 0x18, 0xFF)]) + [1] + ops(7, 5))
write("fuzz_lstm", "huge_weights", [2] + params(mode=4) + [3] + ops(4, 6))
