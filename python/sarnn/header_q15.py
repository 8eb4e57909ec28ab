"""The text of the C++ header of a quantised model (--quantize int8): the q15 model type, its RnnParams<sarnn::q15>
(LstmnParams<sarnn::q15>, LstmParams<sarnn::q15>, GruParams<sarnn::q15> for the LSTMN, LSTM, GRU) aggregate, a
host-side input helper, the golden run and the integer self-check.

Integers are written as decimal literals, x_scale as an exact hex float; int16 inputs as sarnn::q15 aggregates
`{raw}`. The reference outputs and the bounds are in Q31 (units of 2^-31) so that golden_check() and self_check()
use integers only, like the model (they run on an FPU-less core without soft float). The LSTMN's and the LSTM's
second output is the cell c in Q3.12 (raw / 4096, not Q15): golden_c holds those raw values, its error is
|raw·2^19 - ref| in the same units of 2^-31, and golden_c_ref is int64 (the float cell is not limited to +-1).
"""
from sarnn import layout, names, q15
from sarnn.header import INDENT, literal, wrapped
from sarnn.numeric import numeric

Q15 = numeric("q15").cpp   # "sarnn::q15"


def _ints(values, indent, close=",", fmt=str):
    """Initializer lines of a nested int array (ndarray or lists)."""
    values = [v for v in values]
    if values and hasattr(values[0], "__len__"):
        lines = [indent + "{"]
        for row in values:
            lines += _ints(row, indent + INDENT, ",", fmt)
        return lines + [indent + "}" + close]
    return wrapped([fmt(int(v)) for v in values], indent, close)


def _array(decl, values, fmt=str):
    """`inline constexpr <decl> = {...};`"""
    return [f"inline constexpr {decl} = {{", *[line for row in values for line in _ints(row, INDENT, ",", fmt)],
            "};"]


def _real(q31):
    return f"{q31 / 2.0 ** 31:.3e}"


def _params(q, name_in, hidden):
    p = q.params
    return [
        f"inline constexpr sarnn::RnnParams<sarnn::q15, {name_in}, {hidden}> params = {{",
        f"{INDENT}// b[{hidden}]: Q3.12, round(b_r·4096)",
        *_ints(p["b"], INDENT),
        f"{INDENT}// m[{hidden}], shift[{hidden}]: m_r·2^-(31 + shift_r) = a_r / 8, a_r = max|A_r| / 127 the scale of "
        "row r",
        *_ints(p["m"], INDENT),
        f"{INDENT}// x_m, x_shift: x_m·2^-(31 + x_shift) = x_scale·32768; x_scale: one raw input unit (host side)",
        f"{INDENT}{p['x_m']},",
        f"{INDENT}{literal(p['x_scale'], 'float')},  // {p['x_scale']:g}",
        f"{INDENT}// A[{hidden}][{name_in} + {hidden}]: int8, A_r ≈ A[r]·a_r",
        *_ints(p["A"], INDENT),
        *_ints(p["shift"], INDENT),
        f"{INDENT}{p['x_shift']},",
        "};",
    ]


def _lstmn_params(q, name_in, hidden):
    """LstmnParams<q15> in params.hpp's member order."""
    p, k = q.params, len(q.params["v"])
    return [
        f"inline constexpr sarnn::LstmnParams<sarnn::q15, {name_in}, {hidden}, {k}> params = {{",
        f"{INDENT}// b[4·{hidden}]: Q3.12, round(b_r·4096)",
        *_ints(p["b"], INDENT),
        f"{INDENT}// m[4·{hidden}]: m_r·2^-(31 + shift_r) = a_r / 8, a_r = max|[W_ih | W_hh]_r| / 127 "
        "(gates in Q3.12)",
        *_ints(p["m"], INDENT),
        f"{INDENT}// m_a[{k}]: w_k / 8, w_k = max|[W_h | W_x | W_ht]_k| / 127 (keys and queries in Q3.12)",
        *_ints(p["m_a"], INDENT),
        f"{INDENT}{p['m_v']},  // m_v: m_v·2^-(31 + shift_v) = s_v·2^f / 32768, s_v = max|v| / 127",
        f"{INDENT}// x_m, x_shift: x_m·2^-(31 + x_shift) = x_scale·32768; x_scale: one raw input unit (host side)",
        f"{INDENT}{p['x_m']},",
        f"{INDENT}{literal(p['x_scale'], 'float')},  // {p['x_scale']:g}",
        f"{INDENT}// W_ih[4·{hidden}][{name_in}], W_hh[4·{hidden}][{hidden}]: int8, row r ≈ W[r]·a_r",
        *_ints(p["W_ih"], INDENT),
        *_ints(p["W_hh"], INDENT),
        f"{INDENT}// W_h[{k}][{hidden}], W_x[{k}][{name_in}], W_ht[{k}][{hidden}]: int8, row k ≈ W[k]·w_k",
        *_ints(p["W_h"], INDENT),
        *_ints(p["W_x"], INDENT),
        *_ints(p["W_ht"], INDENT),
        f"{INDENT}// v[{k}]: int8, v ≈ v_q·s_v",
        *_ints(p["v"], INDENT),
        f"{INDENT}// shift[4·{hidden}], shift_a[{k}], x_shift, shift_v",
        *_ints(p["shift"], INDENT),
        *_ints(p["shift_a"], INDENT),
        f"{INDENT}{p['x_shift']},",
        f"{INDENT}{p['shift_v']},",
        f"{INDENT}{p['f']},  // f: the scores in Q(f), the finest format holding Σ_k |v_k| (nothing saturates)",
        "};",
    ]


def _gates(q, name_in, hidden, rows, template, biases):
    """LstmParams<q15> (rows 4, biases ("b",)) or GruParams<q15> (rows 3, biases ("b_ih", "b_hh")) in params.hpp's
    member order: the biases, m, x_m, x_scale, W_ih, W_hh, shift, x_shift."""
    p = q.params
    gates = "i, f, g, o" if rows == 4 else "r, z, n"
    lines = [f"inline constexpr sarnn::{template}<sarnn::q15, {name_in}, {hidden}> params = {{"]
    for b in biases:
        lines += [f"{INDENT}// {b}[{rows}·{hidden}]: Q3.12, round({b}_r·4096) (gate rows {gates})",
                  *_ints(p[b], INDENT)]
    return lines + [
        f"{INDENT}// m[{rows}·{hidden}]: m_r·2^-(31 + shift_r) = a_r / 8, a_r = max|[W_ih | W_hh]_r| / 127 "
        "(gates in Q3.12)",
        *_ints(p["m"], INDENT),
        f"{INDENT}// x_m, x_shift: x_m·2^-(31 + x_shift) = x_scale·32768; x_scale: one raw input unit (host side)",
        f"{INDENT}{p['x_m']},",
        f"{INDENT}{literal(p['x_scale'], 'float')},  // {p['x_scale']:g}",
        f"{INDENT}// W_ih[{rows}·{hidden}][{name_in}], W_hh[{rows}·{hidden}][{hidden}]: int8, row r ≈ W[r]·a_r",
        *_ints(p["W_ih"], INDENT),
        *_ints(p["W_hh"], INDENT),
        f"{INDENT}// shift[{rows}·{hidden}], x_shift",
        *_ints(p["shift"], INDENT),
        f"{INDENT}{p['x_shift']},",
        "};",
    ]


def _model_params(q, kind, name_in, hidden):
    if kind == "lstmn":
        return _lstmn_params(q, name_in, hidden)
    if kind == "lstm":
        return _gates(q, name_in, hidden, 4, "LstmParams", ("b",))
    if kind == "gru" or q.spec.config.get("cell") == "gru":   # the GRU, alone or as the cell under attention
        return _gates(q, name_in, hidden, 3, "GruParams", ("b_ih", "b_hh"))
    return _params(q, name_in, hidden)


def _align_params(q, hidden):
    """The align's aggregate (BilinearParams<q15>, KeyQueryParams<q15> or AdditiveParams<q15>, members in
    params.hpp's order), or []."""
    a = q.align_params
    if a is None:
        return []
    # the aggregate's type and variable from the align registry (sarnn.layout), for T = q15
    group = q.spec.groups()[1]
    decl = f"inline constexpr {group.cpp_type(Q15)} {group.variable} = {{"
    if q.spec.config["align"] == "additive":
        return _additive_params(decl, a, hidden)
    if q.spec.config["align"] == "bilinear":
        return [
            decl,
            f"{INDENT}// m[{hidden}], shift[{hidden}]: m_r·2^-(31 + shift_r) = w_r / 2^g, w_r = max|W_r| / 127",
            *_ints(a["m"], INDENT),
            f"{INDENT}// W[{hidden}][{hidden}]: int8, W_r ≈ W[r]·w_r",
            *_ints(a["W"], INDENT),
            *_ints(a["shift"], INDENT),
            f"{INDENT}{a['g']},  // g: q = W h in Q(15 - g), g from the rows' L1 sums (nothing saturates)",
            "};",
        ]
    k = len(a["Wk"])
    return [
        decl,
        f"{INDENT}// m_k, m_q [{k}] (cache form): wk_k / 2^g_k, wq_k / 2^g_u; m_f [{k}] (fold form):",
        f"{INDENT}// wk_k·wq_k / 2^g_f; m_t: 2^(g_f - g). wk_k = max|Wk_k| / 127, wq_k = max|Wq_k| / 127 the row scales",
        *_ints(a["m_k"], INDENT),
        *_ints(a["m_q"], INDENT),
        *_ints(a["m_f"], INDENT),
        f"{INDENT}{a['m_t']},",
        f"{INDENT}// Wk[{k}][{hidden}], Wq[{k}][{hidden}]: int8, Wk_k ≈ Wk[k]·wk_k, Wq_k ≈ Wq[k]·wq_k",
        *_ints(a["Wk"], INDENT),
        *_ints(a["Wq"], INDENT),
        f"{INDENT}// shift_k, shift_q, shift_f [{k}], shift_t",
        *_ints(a["shift_k"], INDENT),
        *_ints(a["shift_q"], INDENT),
        *_ints(a["shift_f"], INDENT),
        f"{INDENT}{a['shift_t']},",
        f"{INDENT}// g_k, g_u, g: the headrooms of the keys, u and q (from the rows' L1 sums: nothing saturates)",
        f"{INDENT}{a['g_k']}, {a['g_u']}, {a['g']},",
        "};",
    ]


def _additive_params(decl, a, hidden):
    k = len(a["W"])
    return [
        decl,
        f"{INDENT}// m[{k}], shift[{k}]: m_k·2^-(31 + shift_k) = w_k / 8 (keys and queries in Q3.12),",
        f"{INDENT}// w_k = max|W_k| / 127 over both halves",
        *_ints(a["m"], INDENT),
        f"{INDENT}{a['m_v']},  // m_v: m_v·2^-(31 + shift_v) = s_v·2^f / 32768, s_v = max|v| / 127",
        f"{INDENT}// W[{k}][2·{hidden}]: int8, W_k ≈ W[k]·w_k (the first {hidden} columns act on the stored state)",
        *_ints(a["W"], INDENT),
        f"{INDENT}// v[{k}]: int8, v ≈ v_q·s_v",
        *_ints(a["v"], INDENT),
        *_ints(a["shift"], INDENT),
        f"{INDENT}{a['shift_v']},  // shift_v",
        f"{INDENT}{a['f']},  // f: the scores in Q(f), the finest format holding Σ_k |v_k| (nothing saturates)",
        "};",
    ]


def _check_functions(kind):
    # c: the context (Q15) of a SelfAttentionRnn, the cell (Q3.12) of an LSTMN, against its reference in 2^-31 units
    view, error = {"self_attention": ("context", "q31_error"), "lstmn": ("cell", "cell_q31_error"),
                   "lstm": ("cell", "cell_q31_error")}.get(kind, (None, None))
    c_part = f"""
        const sarnn::View<sarnn::q15> c = model.{view}();
        for (std::size_t d = 0; d < hidden_size; ++d) {{
            if (c[d].raw != golden_c[t][d]) ++r.mismatches;
            const std::int64_t e = {error}(c[d], golden_c_ref[t][d]);
            if (e > r.c_error_q31) r.c_error_q31 = e;
        }}""" if view is not None else ""
    cell_error = """
/// |v·2^19 - ref|: a Q3.12 cell value against its reference in units of 2^-31, exactly.
inline std::int64_t cell_q31_error(sarnn::q15 v, std::int64_t ref) noexcept {
    const std::int64_t d = static_cast<std::int64_t>(v.raw) * 524288 - ref;
    return d < 0 ? -d : d;
}""" if kind in ("lstmn", "lstm") else ""
    second = {"lstmn": "; c is the LSTMN's cell", "lstm": "; c is the LSTM's cell", "gru": " or a Gru"}.get(kind, "")
    return f"""\
/// What golden_check() saw over the golden run from reset(): steps that did not return sarnn::Status::ok, int16
/// values of h (and c) that differ from the Python twin's golden_h (golden_c), and the largest |h - h_float| and
/// |c - c_float| in units of 2^-31 (0 for c of a SimpleRnn{second}).
struct GoldenReport {{
    int failed_steps;
    long mismatches;
    std::int64_t h_error_q31;
    std::int64_t c_error_q31;
}};
/// |v·2^16 - ref|: a Q15 value against a Q31 reference, exactly.
inline std::int64_t q31_error(sarnn::q15 v, std::int32_t ref) noexcept {{
    const std::int64_t d = static_cast<std::int64_t>(v.raw) * 65536 - ref;
    return d < 0 ? -d : d;
}}{cell_error}
/// Runs the golden inputs from reset(); resets the model before and after. Integer arithmetic only.
inline GoldenReport golden_check(Model& model) noexcept {{
    GoldenReport r{{0, 0, 0, 0}};
    model.reset();
    for (std::size_t t = 0; t < golden_steps; ++t) {{
        if (model.step(golden_x[t]) != sarnn::Status::ok) {{
            ++r.failed_steps;
            continue;
        }}
        const sarnn::View<sarnn::q15> h = model.hidden();
        for (std::size_t d = 0; d < hidden_size; ++d) {{
            if (h[d].raw != golden_h[t][d]) ++r.mismatches;
            const std::int64_t e = q31_error(h[d], golden_h_ref[t][d]);
            if (e > r.h_error_q31) r.h_error_q31 = e;
        }}{c_part}
    }}
    model.reset();
    return r;
}}
/// Boot self-check: every step ok, h (and c) equal to the Python twin's bit for bit, and within the bounds recorded
/// over the calibration run of the float model's outputs.
inline bool self_check(Model& model) noexcept {{
    const GoldenReport r = golden_check(model);
    return r.failed_steps == 0 && r.mismatches == 0 && r.h_error_q31 <= h_bound_q31 &&
           r.c_error_q31 <= c_bound_q31;
}}""".splitlines()


def render_q15(q, name, filename, generator):
    """The header of QSpec q in namespace `name` (checked by header.check_name()); `filename` and `generator` (the
    command or call that made it) go into the first line."""
    spec, config = q.spec, q.spec.config
    kind = config["kind"]
    attention = kind in ("self_attention", "lstmn")   # a memory (capacity)
    cell = kind in ("lstmn", "lstm")                  # a second output, the cell in Q3.12
    n_in, hidden = config["in_size"], config["hidden"]
    sequences, steps, _ = q.calibration_shape
    lines = [
        f"// {filename}: generated by `{generator}` from {spec.source}. Do not edit.",
        *layout.wrap_type("// ", q.model_type(), indent="//     "),
        f"#ifndef {names.guard(name, 'HPP')}",
        f"#define {names.guard(name, 'HPP')}",
        "#include <cmath>",
        "#include <cstddef>",
        "#include <cstdint>",
        "#include <sarnn/sarnn.hpp>",
        f"namespace {name} {{",
        "using value_type = sarnn::q15;",
        f"inline constexpr std::size_t in_size = {n_in};",
        f"inline constexpr std::size_t hidden_size = {hidden};",
    ]
    if attention:
        lines.append(f"inline constexpr std::size_t capacity = {spec.capacity};")
    args = f"{name}::params" + ("" if q.align_params is None else f", {name}::align_params")
    lines += [
        f"/// Ready to instantiate: `static {name}::Model model({args});`.",
        "/// Inputs: raw int16 in x_scale units (quantize_input() below converts float ones).",
        *layout.wrap_type("using Model = ", q.model_type(), ";"),
    ]
    if config.get("align") == "key_query":
        k = config["k"]
        cached = q15.caches_keys(q.align_params, hidden)
        form = "the cache form (4·K <= Hidden)" if cached else "the fold form (4·K > Hidden)"
        lines += [f"/// {layout.align_type('key_query', k)}'s default plan (by_size) runs {form}: the golden run and the "
                  "bounds are",
                  "/// that form's integers (align_params holds both forms' constants; another plan gives others)."]
    lines += [
        "/// int8 weights quantised from the float model (python/sarnn/quantize.py)",
        *_model_params(q, kind, n_in, hidden),
        *_align_params(q, hidden),
        "/// Host side (float arithmetic; the q15 model never calls it): raw[k] = round(x[k] / x_scale), halves away",
        "/// from zero, saturated to int16 (NaN gives 0). x_scale is a power of two, so x / x_scale is exact and raw",
        "/// is what the exporter computed for the calibration and golden inputs.",
        "inline void quantize_input(const float* x, sarnn::q15* raw) noexcept {",
        f"{INDENT}for (std::size_t k = 0; k < in_size; ++k) {{",
        f"{INDENT * 2}const float v = x[k] / params.x_scale;",
        f"{INDENT * 2}const long r = v >= 32767.0f ? 32767L : v <= -32768.0f ? -32768L : v == v ? std::lround(v) : 0L;",
        f"{INDENT * 2}raw[k] = sarnn::q15{{static_cast<std::int16_t>(r)}};",
        f"{INDENT}}}",
        "}",
        f"// The bounds over the calibration run ({sequences} sequences of {steps} steps, each from reset()): the",
        "// largest |h_q - h_float| (and |c_q - c_float|), q the Python twin on the raw inputs, float the float model",
        "// (float64) on the float inputs; in units of 2^-31.",
        *([f"// c is the {kind.upper()}'s cell: c_q = raw / 4096 (Q3.12), so |c_q - c_float| = |raw·2^19 - c_ref| "
           "/ 2^31."] if cell else []),
        f"inline constexpr std::int64_t h_bound_q31 = {q.h_bound};  // {_real(q.h_bound)}",
    ]
    if q.c_bound is not None:
        lines.append(f"inline constexpr std::int64_t c_bound_q31 = {q.c_bound};  // {_real(q.c_bound)}")
    else:
        lines.append(f"inline constexpr std::int64_t c_bound_q31 = 0;  // a {'Gru' if kind == 'gru' else 'SimpleRnn'} "
                     "has no c")
    g = len(q.golden_x)
    lines += [
        "// golden run: the first golden_steps steps of the first calibration sequence, from reset(): raw inputs, the",
        "// Python twin's int16 outputs (the C++ must equal them) and the float model's outputs in Q31 (raw / 2^31)",
        f"inline constexpr std::size_t golden_steps = {g};",
        *_array("sarnn::q15 golden_x[golden_steps][in_size]", q.golden_x, fmt=lambda v: f"{{{v}}}"),
        *_array("std::int16_t golden_h[golden_steps][hidden_size]", q.golden_h),
        *_array("std::int32_t golden_h_ref[golden_steps][hidden_size]", q.golden_h_ref),
    ]
    if cell:
        lines += ["// the cell: golden_c raw Q3.12 (raw / 4096), golden_c_ref the float cell in units of 2^-31 (int64)",
                  *_array("std::int16_t golden_c[golden_steps][hidden_size]", q.golden_c),
                  *_array("std::int64_t golden_c_ref[golden_steps][hidden_size]", q.golden_c_ref)]
    elif attention:
        lines += [*_array("std::int16_t golden_c[golden_steps][hidden_size]", q.golden_c),
                  *_array("std::int32_t golden_c_ref[golden_steps][hidden_size]", q.golden_c_ref)]
    lines += [*_check_functions(kind), f"}}  // namespace {name}", "#endif"]
    return "\n".join(lines) + "\n"
