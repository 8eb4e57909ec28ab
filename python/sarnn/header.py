"""The text of the C++ header the exporter writes: constants, params aggregates, golden run and self-check.

Every value is written as a hexadecimal floating literal of the value rounded to the target type (e.g.
`0x1.99999ap-4f` for float, `0x1.999999999999ap-4` for double), so the C++ constant has exactly the bits of
the tensor. Arrays get nested braces matching the C arrays; lines stay under 120 characters.
"""
import re

import numpy as np

from sarnn.errors import ExportError
from sarnn.numeric import numeric

LINE_LIMIT = 119
INDENT = "    "
CPP_KEYWORDS = frozenset("""
    alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class
    compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype
    default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline
    int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
    register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch
    template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile
    wchar_t while xor xor_eq""".split())


def check_name(name):
    """Raises ExportError unless `name` can be the header's namespace: a C++ identifier that is not a keyword,
    not reserved (no leading underscore, no "__") and not `sarnn` or `std`."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or "__" in name:
        raise ExportError(f"name {name!r} is not a usable C++ namespace name (letters, digits and single "
                          "underscores, starting with a letter)")
    if name in CPP_KEYWORDS or name in ("sarnn", "std"):
        raise ExportError(f"name {name!r} cannot be the header's namespace (it is a C++ keyword or taken)")


def literal(value, dtype):
    """The exact hex literal of `value` rounded to dtype ("float": with an f suffix; "double": none)."""
    v = float(numeric(dtype).weight(value))
    mantissa, exponent = v.hex().split("p")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}p{exponent}" + numeric(dtype).literal_suffix


def _decimal(value, dtype):
    return np.format_float_scientific(value, trim="-", exp_digits=1) + numeric(dtype).literal_suffix


def _braced(values, dtype, indent, close):
    """Lines of the initializer of `values` (an ndarray), starting at `indent`, the last ending with `close`."""
    if values.ndim > 1:
        lines = [indent + "{"]
        for row in values:
            lines += _braced(row, dtype, indent + INDENT, ",")
        return lines + [indent + "}" + close]
    return wrapped([literal(v, dtype) for v in values], indent, close)


def wrapped(items, indent, close):
    """Lines of `{a, b, ...}` + close (items: the literals as strings), starting at `indent`, wrapped under the line
    limit (the float headers' and the q15 headers' arrays)."""
    lines, line = [], indent + "{"
    for n, item in enumerate(items):
        piece = item + ("," if n + 1 < len(items) else "}" + close)
        if line.endswith("{"):
            line += piece
        elif len(line) + 1 + len(piece) > LINE_LIMIT:
            lines.append(line)
            line = indent + " " + piece
        else:
            line += " " + piece
    return lines + [line]


def _params(group, spec):
    lines = [f"inline constexpr {group.cpp_type(spec.dtype)} {group.variable} = {{"]
    for field in group.fields:
        extents = "".join(f"[{n}]" for n in field.shape)
        lines.append(f"{INDENT}// {field.name}{extents} (from {field.key})")
        lines += _braced(spec.arrays[field.key], spec.dtype, INDENT, ",")
    return lines + ["};"]


def _golden_error(t):
    return f"""\
/// Largest |h_i - golden_h[i]| over the golden run; resets the model before and after. Returns a negative value
/// if a step did not return sarnn::Status::ok (NaN if an output was NaN).
inline {t} golden_error(Model& model) noexcept {{
    model.reset();
    value_type worst = value_type(0);
    for (std::size_t t = 0; t < golden_steps; ++t) {{
        if (model.step(golden_x[t]) != sarnn::Status::ok) {{
            model.reset();
            return value_type(-1);
        }}
        const sarnn::View<value_type> h = model.hidden();
        for (std::size_t d = 0; d < hidden_size; ++d) {{
            const value_type diff = h[d] - golden_h[t][d];
            const value_type err = diff < value_type(0) ? -diff : diff;
            if (!(err >= value_type(0))) {{  // NaN: report it as it is
                model.reset();
                return err;
            }}
            if (err > worst) worst = err;
        }}
    }}
    model.reset();
    return worst;
}}
/// Boot self-check: golden_error(model) <= golden_tolerance.
inline bool self_check(Model& model) noexcept {{
    const value_type err = golden_error(model);
    return err >= value_type(0) && err <= golden_tolerance;
}}""".splitlines()


def render(spec, name, golden_x, golden_h, filename, generator):
    """The header for `spec` in namespace `name` (checked by check_name()), with the golden run (golden_x,
    golden_h); `filename` and `generator` (the command or call that made it) go into the first line."""
    t, groups = spec.dtype, spec.groups()
    variables = ", ".join(f"{name}::{g.variable}" for g in groups)
    lines = [
        f"// {filename}: generated by `{generator}` from {spec.source}. Do not edit.",
        f"// {spec.model_type()}",
        f"#ifndef SARNN_EXPORT_{name.upper()}_HPP",
        f"#define SARNN_EXPORT_{name.upper()}_HPP",
        "#include <cstddef>",
        "#include <sarnn/sarnn.hpp>",
        f"namespace {name} {{",
        f"using value_type = {t};",
        f"inline constexpr std::size_t in_size = {spec.config['in_size']};",
        f"inline constexpr std::size_t hidden_size = {spec.config['hidden']};",
    ]
    if spec.capacity is not None:
        lines.append(f"inline constexpr std::size_t capacity = {spec.capacity};")
    lines += [
        f"/// Ready to instantiate: `static {name}::Model model({variables});`",
        f"using Model = {spec.model_type()};",
    ]
    for group in groups:
        lines += _params(group, spec)
    lines += [
        "// golden vector: inputs and PyTorch's float64 outputs h_i per step from reset()",
        f"inline constexpr std::size_t golden_steps = {spec.golden_steps};",
        f"inline constexpr {t} golden_x[golden_steps][in_size] = {{",
        *[line for row in golden_x for line in _braced(row, t, INDENT, ",")],
        "};",
        f"inline constexpr {t} golden_h[golden_steps][hidden_size] = {{",
        *[line for row in golden_h for line in _braced(row, t, INDENT, ",")],
        "};",
        f"inline constexpr {t} golden_tolerance = {_decimal(spec.tolerance, t)};",
        *_golden_error(t),
        f"}}  // namespace {name}",
        "#endif",
    ]
    return "\n".join(lines) + "\n"
