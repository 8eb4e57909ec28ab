"""The C API of an exported model (`--c-api`): a C99 header X.h and its C++ glue X.cpp, next to the C++ header X.hpp.

X.h declares, for the one static model that X.cpp defines (no heap), with V the model's value type (float, double, or
int16_t for a q15 model: the raw values):
    void X_reset(void);                      back to the state after construction
    int X_step(const V* x);                  one step; the sarnn::Status as an int (SARNN_STATUS_* below)
    const V* X_hidden(void);                 h, X_HIDDEN_SIZE values
    const V* X_context(void);                c (SelfAttentionRnn only: X_HAS_CONTEXT)
    const V* X_cell(void);                   the memory cell (Lstmn, Lstm: X_HAS_CELL; q15: Q3.12, X_CELL_SCALE)
    const V* X_attention(size_t* n);         the attention weights of the last step, *n of them (SelfAttentionRnn,
                                             Lstmn: X_HAS_ATTENTION)
    size_t X_copy_hidden(V* out);            h copied to out: X_HIDDEN_SIZE values (0 and nothing when out is NULL)
    size_t X_copy_context(V* out);           and c, the cell, the attention weights (at most X_CAPACITY): where
    size_t X_copy_cell(V* out);              the model has them; each returns the count copied
    size_t X_copy_attention(V* out);
    uint64_t X_length(void);                 steps since reset (64 bits: no wrap)
    int X_self_check(void);                  1 when the header's golden run passes (resets the model)
and the sizes as macros. What a model does not have is not declared (a call does not compile); X_HAS_CONTEXT,
X_HAS_CELL and X_HAS_ATTENTION (0 or 1) let generic code test for it. docs/c-api.md is the user documentation.

The lifetime of the views (VIEWS below, the same words as docs/c-api.md): a view points into the model and switches
buffers with the steps, so a kept pointer goes stale; the copy functions give values to keep.
"""
import os

from sarnn import layout, names
from sarnn.header import literal

# sarnn::Status in declaration order (include/sarnn/status.hpp): (C macro suffix, enumerator, comment)
STATUSES = (
    ("OK", "ok", "the step was taken"),
    ("MEMORY_FULL", "memory_full", "Bounded memory full: step refused, state unchanged"),
    ("NULL_INPUT", "null_input", "x is NULL: state unchanged"),
    ("NON_FINITE_INPUT", "non_finite_input", "x holds NaN or +-Inf (SARNN_CHECK_INPUT builds): state unchanged"),
    ("ARCH_UNAVAILABLE", "arch_unavailable", "(not returned by a step)"),
    ("INVALID_ARGUMENT", "invalid_argument", "(not returned by a step)"),
    ("NON_FINITE_PARAM", "non_finite_param", "(not returned by a step)"),
    ("NON_FINITE_RESULT", "non_finite_result", "this step would overflow into NaN/Inf: state unchanged"),
)

C_TYPES = {"float": "float", "double": "double", "q15": "int16_t"}

# The contract of the view pointers, as X.h states it (docs/c-api.md states it in the same words)
VIEWS = ("The pointers of X_hidden() and, where the model has them, X_context(), X_cell() and X_attention() point "
         "into the model (nothing is copied). Each is valid, and shows the current values, until the next call that changes the model: a "
         "X_step() that returns SARNN_STATUS_OK, X_reset() or X_self_check(); a refused step changes nothing. "
         "After that call, call the function again: a kept pointer may show older values or another buffer. To "
         "keep values, copy them: X_copy_hidden() and its kin.")


def c_paths(path):
    """(X.h, X.cpp) next to the C++ header `path`: its name with the extension replaced. None when that would be
    `path` itself (a C++ header named *.h or *.cpp)."""
    stem, ext = os.path.splitext(path)
    if ext in (".h", ".cpp"):
        return None
    return stem + ".h", stem + ".cpp"


def _shape(model):
    """(kind, dtype, In, Hidden, capacity, window, constructor args) of a Spec or a QSpec."""
    quantised = hasattr(model, "spec")
    spec = model.spec if quantised else model
    c = spec.config
    if quantised:   # the q15 model takes align_params too when its align has some (bilinear, key_query, additive)
        args = ("params",) + (() if model.align_params is None else ("align_params",))
    else:
        args = tuple(g.variable for g in spec.groups())
    return (c["kind"], "q15" if quantised else spec.dtype, c["in_size"], c["hidden"], spec.capacity, c["window"],
            args)


def _status_block():
    lines = ["#ifndef SARNN_STATUS_OK",
             "/* sarnn::Status as X_step() returns it (sarnn/status.hpp); the same in every exported C header */"]
    return lines + _commented([(f"#define SARNN_STATUS_{suffix} {value}", comment)
                               for value, (suffix, _, comment) in enumerate(STATUSES)]) + ["#endif"]


def _wrapped_comment(text, width=117):
    """text as a C comment of lines of at most `width` characters, words kept whole."""
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width - 3:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    out = ["/* " + lines[0]] + [" * " + ln for ln in lines[1:]]
    out[-1] += " */"
    return out


def _commented(pairs):
    """Lines of (code, comment) with the comments aligned, as clang-format aligns consecutive trailing comments."""
    width = max(len(code) for code, _ in pairs)
    return [f"{code:<{width}} /* {comment} */" for code, comment in pairs]


def render_c(model, name, hpp_filename, h_filename, generator):
    """(text of X.h, text of X.cpp) for the Spec or QSpec `model` written to hpp_filename in namespace `name`."""
    kind, dtype, n_in, hidden, capacity, window, args = _shape(model)
    t = C_TYPES[dtype]
    cpp_filename = os.path.splitext(h_filename)[0] + ".cpp"
    up = names.macro_prefix(name)
    has_context, has_cell = kind == "self_attention", kind in ("lstmn", "lstm")
    has_attention = kind in ("self_attention", "lstmn")
    source = model.spec.source if dtype == "q15" else model.source
    h = [
        f"/* {h_filename}: generated by `{generator}` from {source}. Do not edit.",
        *layout.wrap_type(f" * The C API (C99) of the model of {hpp_filename}: ", model.model_type(), ".",
                          indent=" *     "),
        f" * One static model, no heap: compile {cpp_filename} (C++17) and link it with sarnn. See docs/c-api.md. */",
        f"#ifndef {names.guard(name, 'H')}",
        f"#define {names.guard(name, 'H')}",
        "#include <stddef.h>",
        "#include <stdint.h>",
    ]
    h += _status_block()
    h += [
        f"#define {up}_IN_SIZE {n_in}",
        f"#define {up}_HIDDEN_SIZE {hidden}",
    ]
    if capacity is not None:
        memory = "the newest, attended (Window)" if window is not None else "then steps return memory_full"
        h += _commented([(f"#define {up}_CAPACITY {capacity}", f"states the memory holds: {memory}"),
                         (f"#define {up}_WINDOW {1 if window is not None else 0}", "1: Window memory, 0: Bounded")])
    h += [
        f"#define {up}_HAS_CONTEXT {int(has_context)}",
        f"#define {up}_HAS_CELL {int(has_cell)}",
        f"#define {up}_HAS_ATTENTION {int(has_attention)}",
    ]
    if dtype == "q15":
        x_scale = model.params["x_scale"]
        outputs = ([f"/* q15: inputs are raw int16 values, raw = round(x / {up}_X_SCALE) saturated to int16; h, "
                    f"{'' if has_cell else 'c and '}the",
                    f" * attention weights are Q15, value = raw * {up}_OUTPUT_SCALE (raw / 32768). */"]
                   if has_attention else
                   [f"/* q15: inputs are raw int16 values, raw = round(x / {up}_X_SCALE) saturated to int16; h is Q15,",
                    f" * value = raw * {up}_OUTPUT_SCALE (raw / 32768). */"])
        h += [
            *outputs,
            f"#define {up}_X_SCALE {literal(x_scale, 'float')} /* {x_scale:g} */",
            f"#define {up}_OUTPUT_SCALE 0x1p-15f",
        ]
        if has_cell:
            h += [f"/* q15 {kind.upper()}: the cell is Q3.12, value = raw * {up}_CELL_SCALE (raw / 4096, |c| < 8). */",
                  f"#define {up}_CELL_SCALE 0x1p-12f"]
    h += [
        "#ifdef __cplusplus",
        'extern "C" {',
        "#endif",
        "/* Back to the state after construction: length 0, empty memory, h (and c) zero. */",
        f"void {name}_reset(void);",
        f"/* One step on x ({up}_IN_SIZE values); returns SARNN_STATUS_OK or, changing nothing, another status. */",
        f"int {name}_step(const {t}* x);",
    ]
    h += _wrapped_comment(VIEWS.replace("X_", f"{name}_"))
    h += _wrapped_comment(f"h: {up}_HIDDEN_SIZE values inside the model (valid until the next step, reset or self "
                          "check: above).")
    h += [f"const {t}* {name}_hidden(void);"]
    h += _wrapped_comment(f"h copied to out ({up}_HIDDEN_SIZE values); returns {up}_HIDDEN_SIZE, or 0 (copying "
                          "nothing) when out is NULL.")
    h += [f"size_t {name}_copy_hidden({t}* out);"]
    if has_context:
        h += _wrapped_comment(f"c, the context: {up}_HIDDEN_SIZE values inside the model (as {name}_hidden()).")
        h += [f"const {t}* {name}_context(void);"]
        h += _wrapped_comment(f"c copied to out ({up}_HIDDEN_SIZE values); returns {up}_HIDDEN_SIZE, or 0 when out "
                              "is NULL.")
        h += [f"size_t {name}_copy_context({t}* out);"]
    if has_cell:
        h += _wrapped_comment(f"The memory cell c_t: {up}_HIDDEN_SIZE values inside the model (as {name}_hidden()).")
        h += [f"const {t}* {name}_cell(void);"]
        h += _wrapped_comment(f"The cell copied to out ({up}_HIDDEN_SIZE values); returns {up}_HIDDEN_SIZE, or 0 "
                              "when out is NULL.")
        h += [f"size_t {name}_copy_cell({t}* out);"]
    if has_attention:
        attended = "the states in memory" if kind == "self_attention" else "the tape before this step"
        h += _wrapped_comment(f"The last step's attention weights over {attended}, oldest first, inside the model (as "
                              f"{name}_hidden()); *n gets their number (n may be NULL).")
        h += [f"const {t}* {name}_attention(size_t* n);"]
        h += _wrapped_comment(f"The attention weights copied to out (room for {up}_CAPACITY values); returns their "
                              "number, or 0 when out is NULL.")
        h += [f"size_t {name}_copy_attention({t}* out);"]
    h += [
        "/* Steps taken since reset (a Window keeps counting): 64 bits, no wrap. */",
        f"uint64_t {name}_length(void);",
        f"/* 1 when the golden run of {hpp_filename} passes its self_check(), else 0; resets the model. */",
        f"int {name}_self_check(void);",
        "#ifdef __cplusplus",
        "}",
        "#endif",
        "#endif",
    ]
    return "\n".join(h) + "\n", _glue(model, name, hpp_filename, h_filename, cpp_filename, generator)


def _glue(model, name, hpp_filename, h_filename, cpp_filename, generator):
    kind, dtype, n_in, hidden, capacity, window, args = _shape(model)
    t, up = ("std::int16_t" if dtype == "q15" else dtype), names.macro_prefix(name)
    q = dtype == "q15"
    source = model.spec.source if q else model.source
    cpp = [
        f"// {cpp_filename}: generated by `{generator}` from {source}. Do not edit.",
        f"// The C API of {hpp_filename} declared in {h_filename}: compile as C++17 and link with sarnn.",
        f'#include "{h_filename}"',
        "",
        "#include <cstddef>",
    ]
    cpp += ["#include <cstdint>"]
    if q:
        cpp += ["#include <type_traits>"]
    cpp += [
        "",
        f'#include "{hpp_filename}"',
        "",
    ]
    for suffix, enumerator, _ in STATUSES:
        cpp.append(f'static_assert(SARNN_STATUS_{suffix} == static_cast<int>(sarnn::Status::{enumerator}), "status");')
    cpp += [f'static_assert({up}_IN_SIZE == {name}::in_size, "In");',
            f'static_assert({up}_HIDDEN_SIZE == {name}::hidden_size, "Hidden");']
    if capacity is not None:
        cpp.append(f'static_assert({up}_CAPACITY == {name}::capacity, "Capacity");')
    if q:
        cpp += [
            "// The views of a q15 model are arrays of sarnn::q15, a struct of one int16_t: C reads them as int16_t.",
            "static_assert(sizeof(sarnn::q15) == sizeof(std::int16_t) && "
            "alignof(sarnn::q15) == alignof(std::int16_t) &&",
            "                  std::is_standard_layout<sarnn::q15>::value,",
            '              "q15 is int16_t");',
        ]
    ctor = ", ".join(f"{name}::{a}" for a in args)
    cpp += [
        "",
        f"namespace {name} {{",
        "namespace {",
        "// the one model of the C API (static storage: its memory is in .bss, its params in flash)",
        f"Model c_api_model({ctor});",
    ]
    if q:
        cpp += [
            "const std::int16_t* raw(const sarnn::View<sarnn::q15>& v) noexcept {",
            "    return reinterpret_cast<const std::int16_t*>(v.data());  // NOLINT(*-reinterpret-cast)",
            "}",
        ]
    cpp += [
        "// the values of a view copied to out (nothing when out is null); their number",
        f"template <class V>",
        f"std::size_t copy(const sarnn::View<V>& v, {t}* out) noexcept {{",
        "    if (out == nullptr) return 0;",
        f"    for (std::size_t k = 0; k < v.size(); ++k) out[k] = {'v[k].raw' if q else 'v[k]'};",
        "    return v.size();",
        "}",
    ]
    cpp += [
        "}  // namespace",
        f"}}  // namespace {name}",
        "",
        f"void {name}_reset() {{ {name}::c_api_model.reset(); }}",
        "",
    ]
    view = (lambda e: f"{name}::raw({e})") if q else (lambda e: f"{e}.data()")
    if q:
        cpp += [
            f"int {name}_step(const std::int16_t* x) {{",
            "    if (x == nullptr) return static_cast<int>(" + f"{name}::c_api_model.step(nullptr));",
            f"    sarnn::q15 in[{name}::in_size];",
            f"    for (std::size_t k = 0; k < {name}::in_size; ++k) in[k] = sarnn::q15{{x[k]}};",
            f"    return static_cast<int>({name}::c_api_model.step(in));",
            "}",
        ]
    else:
        cpp += [f"int {name}_step(const {t}* x) {{ return static_cast<int>({name}::c_api_model.step(x)); }}"]
    views = [("hidden", "hidden")] + ([("context", "context")] if kind == "self_attention" else []) + \
        ([("cell", "cell")] if kind in ("lstmn", "lstm") else [])
    for c_name, member in views:
        cpp += ["", f"const {t}* {name}_{c_name}() {{ return {view(f'{name}::c_api_model.{member}()')}; }}",
                "", f"std::size_t {name}_copy_{c_name}({t}* out) {{",
                f"    const auto v = {name}::c_api_model.{member}();", f"    return {name}::copy(v, out);", "}"]
    if kind in ("self_attention", "lstmn"):
        cpp += [
            "",
            f"const {t}* {name}_attention(std::size_t* n) {{",
            f"    const auto a = {name}::c_api_model.attention();",
            "    if (n != nullptr) *n = a.size();",
            f"    return {view('a')};",
            "}",
            "",
            f"std::size_t {name}_copy_attention({t}* out) {{",
            f"    const auto a = {name}::c_api_model.attention();",
            f"    return {name}::copy(a, out);",
            "}",
        ]
    cpp += [
        "",
        f"std::uint64_t {name}_length() {{ return {name}::c_api_model.length(); }}",
        "",
        f"int {name}_self_check() {{ return {name}::self_check({name}::c_api_model) ? 1 : 0; }}",
    ]
    return "\n".join(cpp) + "\n"
