"""sarnn.fixed: the Python twin of sarnn's integer activation functions (include/sarnn/fixed.hpp, lib/fixed.cpp).

Integers only, the same operations in the same order as the C++, so that it predicts sarnn's fixed-point results
bit for bit (tests/test_fixed.cpp and python/tests/test_fixed.py pin both to the same digest of every output).

Formats (raw integer -> value):
  Q3.12  int16, raw / 4096: the input of tanh and sigmoid, [-8, 8)
  Q15    int16, raw / 32768: their output, (-1, 1)
  Q16    int32, raw / 65536: exp's input (<= 0) and output ([0, 1])

Run as a module (python3 -m sarnn.fixed --tables) it prints the C++ tables of lib/fixed_tables.inc.
"""
import math
import sys

TANH_SEGMENT_BITS = 6                      # tanh's table: one entry per 2^6 LSB of Q3.12, i.e. per 1/64
TANH_TABLE = [min(32767, int(math.floor(math.tanh(i / 64.0) * 32768.0 + 0.5))) for i in range(513)]
EXP2_SEGMENT_BITS = 8                      # 2^-f for f = i / 256, in Q16 (65536 .. 32768)
EXP2_TABLE = [int(math.floor(2.0 ** (-i / 256.0) * 65536.0 + 0.5)) for i in range(257)]
LOG2E_Q16 = 94548                          # round(log2(e) * 65536)
EXP_ZERO_BELOW = 12 * 65536                # exp(-12) * 65536 = 0.40 < 0.5: rounds to 0


def _interp(table, i, frac, bits):
    """table[i] + (table[i + 1] - table[i]) * frac / 2^bits, rounded half up (frac < 2^bits)."""
    d = table[i + 1] - table[i]
    return table[i] + ((d * frac + (1 << (bits - 1))) >> bits)


def tanh_q15(z):
    """tanh of z in Q3.12 (int16), in Q15: odd, within 1 LSB of tanh (see the C++'s stated bound)."""
    a = -z if z < 0 else z                  # 0 .. 32768
    i, frac = a >> TANH_SEGMENT_BITS, a & ((1 << TANH_SEGMENT_BITS) - 1)
    y = TANH_TABLE[512] if i >= 512 else _interp(TANH_TABLE, i, frac, TANH_SEGMENT_BITS)
    return -y if z < 0 else y


def sigmoid_q15(z):
    """sigmoid of z in Q3.12 (int16), in Q15 (0 .. 32767): (1 + tanh(z / 2)) / 2 from tanh's table."""
    a = -z if z < 0 else z                  # tanh(a / 2): the table's entries every 2^7 LSB of a
    i, frac = a >> (TANH_SEGMENT_BITS + 1), a & ((1 << (TANH_SEGMENT_BITS + 1)) - 1)
    t = _interp(TANH_TABLE, i, frac, TANH_SEGMENT_BITS + 1)
    y = (32768 + t + 1) >> 1 if z >= 0 else (32768 - t + 1) >> 1
    return min(y, 32767)


def exp_q16(d):
    """exp of d in Q16 (int32; d > 0 counts as 0), in Q16: 2^-(k + f) with 2^-f from a table."""
    if d >= 0:
        return 65536
    y = -d
    if y >= EXP_ZERO_BELOW:
        return 0
    t = (y * LOG2E_Q16 + (1 << 15)) >> 16  # y·log2(e) in Q16 (the C++ multiplies in 64 bits)
    k, f = t >> 16, t & 0xFFFF
    i, frac = f >> EXP2_SEGMENT_BITS, f & ((1 << EXP2_SEGMENT_BITS) - 1)
    m = _interp(EXP2_TABLE, i, frac, EXP2_SEGMENT_BITS)   # 2^-f in Q16
    return (m + (1 << (k - 1))) >> k if k > 0 else m


def requantize(acc, multiplier, shift):
    """acc * multiplier / 2^(31 + shift), rounded half up, saturated to int32 (shift clamped to [-31, 31])."""
    s = 31 + max(-31, min(31, shift))
    p = acc * multiplier + ((1 << (s - 1)) if s > 0 else 0)
    q = p >> s
    return max(-(1 << 31), min((1 << 31) - 1, q))


def requantize_q15(acc, multiplier, shift):
    """requantize, saturated to int16."""
    return max(-32768, min(32767, requantize(acc, multiplier, shift)))


def mul_q15(a, b):
    """a * b / 32768 rounded half up, saturated to int16 (a Q15 value times a Q15 factor b in [-32768, 32768])."""
    return max(-32768, min(32767, (a * b + 16384) >> 15))


def inv_sqrt_q15(n):
    """round(32768 / sqrt(n)) for n >= 1, from integers: the r with n(2r - 1)^2 <= 2^32 < n(2r + 1)^2."""
    lo, hi = 0, 32768
    while lo < hi:
        mid = (lo + hi) // 2
        if n * (2 * mid + 1) ** 2 > 1 << 32:
            hi = mid
        else:
            lo = mid + 1
    return lo


def quantize_multiplier(m):
    """The (multiplier, shift) of a real factor m > 0 for requantize: m = multiplier * 2^-(31 + shift), multiplier
    in [2^30, 2^31). For the host side (the exporter), not for the integer path."""
    if m <= 0:
        raise ValueError("quantize_multiplier: the factor must be positive")
    mant, exp = math.frexp(m)            # m = mant * 2^exp, mant in [0.5, 1)
    q = int(math.floor(mant * (1 << 31) + 0.5))
    if q == 1 << 31:                     # mant rounded up to 1
        q, exp = q >> 1, exp + 1
    return q, -exp


def _requantize_cases():
    """The requantize inputs the digest covers: edges and a fixed pseudo-random spread (an LCG, no library)."""
    edges = [0, 1, -1, 2, -2, 32767, -32768, (1 << 31) - 1, -(1 << 31), 123456789, -987654321]
    mults = [1 << 30, (1 << 31) - 1, 1518500250, 1 << 30 | 1]
    shifts = [-31, -5, -1, 0, 1, 7, 15, 30, 31]
    for a in edges:
        for m in mults:
            for sh in shifts:
                yield a, m, sh
    x = 2024
    for _ in range(20000):
        x = (x * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        a = ((x >> 32) & 0xFFFFFFFF) - (1 << 31)
        m = (1 << 30) + ((x >> 2) & ((1 << 30) - 1))
        sh = (x & 0x3F) - 31 if (x & 0x3F) <= 62 else 0
        yield a, m, sh


def digest():
    """FNV-1a (64 bit) of every output, in the order tests/test_fixed.cpp hashes them: tanh and sigmoid of all
    65,536 int16 inputs (as 16-bit two's complement, little endian), then exp of d = 0, -1, ..., -12·65536 - 15
    (as 32-bit little endian), then requantize (32 bit) and requantize_q15 (16 bit) of _requantize_cases()."""
    h = 0xcbf29ce484222325

    def feed(value, nbytes):
        nonlocal h
        v = value & ((1 << (8 * nbytes)) - 1)
        for _ in range(nbytes):
            h ^= v & 0xFF
            h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
            v >>= 8

    for z in range(-32768, 32768):
        feed(tanh_q15(z), 2)
    for z in range(-32768, 32768):
        feed(sigmoid_q15(z), 2)
    for y in range(EXP_ZERO_BELOW + 16):
        feed(exp_q16(-y), 4)
    for a, m, sh in _requantize_cases():
        feed(requantize(a, m, sh), 4)
        feed(requantize_q15(a, m, sh), 2)
    return h


def cpp_tables():
    """The C++ tables (lib/fixed_tables.inc), from the same lists as above."""
    def rows(values, per_line):
        return "\n".join("    " + " ".join(f"{v}," for v in values[k:k + per_line])
                         for k in range(0, len(values), per_line))
    return ("// lib/fixed_tables.inc: generated by `python3 -m sarnn.fixed --tables` (python/sarnn/fixed.py); do not edit.\n"
            "// tanh(i / 64) in Q15, i = 0..512 (clamped to 32767)\n"
            f"constexpr std::int16_t kTanhTable[513] = {{\n{rows(TANH_TABLE, 12)}\n}};\n"
            "// 2^(-i / 256) in Q16, i = 0..256\n"
            f"constexpr std::uint32_t kExp2Table[257] = {{\n{rows(EXP2_TABLE, 10)}\n}};\n")


if __name__ == "__main__":
    if sys.argv[1:] == ["--tables"]:
        sys.stdout.write(cpp_tables())
    elif sys.argv[1:] == ["--digest"]:
        print(f"0x{digest():016x}")
    else:
        sys.exit("usage: python3 -m sarnn.fixed --tables | --digest")
