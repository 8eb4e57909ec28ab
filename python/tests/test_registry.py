"""The align registry (sarnn.layout.ALIGN_TABLE): it covers every align include/sarnn knows (the tags, their K, their
params aggregates and members), the torch modules and the header's params follow it, an align added to the table
only is accepted by every module, and no module of the package keeps its own list of align names."""
import ast
import os
import re
import tempfile
import unittest
from unittest import mock

from . import require

require("torch", "numpy")
import sarnn  # noqa: E402
from sarnn import ExportError, layout, quantize  # noqa: E402
from sarnn.aligns import make_align  # noqa: E402
from sarnn.spec import resolve  # noqa: E402

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
PACKAGE = os.path.join(ROOT, "python", "sarnn")


def _read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def cpp_aligns():
    """{tag: takes K} of the align structs of include/sarnn/align.hpp."""
    text = _read("include", "sarnn", "align.hpp")
    found = {}
    for m in re.finditer(r"^(template <([^>]*)>\n)?struct (\w+Align) \{", text, re.M):
        found[m.group(3)] = m.group(2) is not None and "std::size_t K" in m.group(2)
    return found


def cpp_params(template):
    """The members (name, extents) of the primary template `template` in include/sarnn/params.hpp."""
    text = _read("include", "sarnn", "params.hpp")
    body = re.search(rf"struct alignas\(storage_alignment<T>\(\)\) {template} \{{(.*?)\n\}};", text, re.S).group(1)
    return tuple((m.group(1), tuple(e.replace(" ", "") for e in re.findall(r"\[([^\]]+)\]", m.group(2))))
                 for m in re.finditer(r"^    weight_t<T> (\w+)((?:\[[^\]]+\])+);", body, re.M))


class Registry(unittest.TestCase):
    def test_covers_every_cpp_align(self):
        table = layout.registry()
        self.assertEqual(cpp_aligns(), {a.cpp: a.takes_k for a in table.values()})
        for a in table.values():
            with self.subTest(align=a.name):
                if a.params is None:
                    self.assertEqual(a.tensors, ())
                    continue
                self.assertEqual(cpp_params(a.params.split("::")[1]), a.tensors)

    def test_torch_modules_have_the_registry_params(self):
        for a in layout.ALIGN_TABLE:
            with self.subTest(align=a.name):
                k = 3 if a.takes_k else None
                module = make_align(a.name, 5, k)
                self.assertEqual(type(module).__name__, a.module)
                self.assertEqual([(n, tuple(p.shape)) for n, p in module.named_parameters()], list(a.shapes(5, k)))

    def test_header_params_follow_the_registry(self):
        for a in layout.ALIGN_TABLE:
            k = 4 if a.takes_k else None
            groups = layout.groups("self_attention", 2, 6, a.name, k)
            if a.params is None:
                self.assertEqual(len(groups), 1)
                continue
            group = groups[1]
            self.assertEqual(group.cpp_type("float"), f"{a.params}<float, 6{', 4' if a.takes_k else ''}>")
            self.assertEqual([(f.key, f.shape) for f in group.fields],
                             [("align." + n, shape) for n, shape in a.shapes(6, k)])
            self.assertEqual(layout.align_type(a.name, k), a.cpp + ("<4>" if a.takes_k else ""))


FAKE_DOT = layout.AlignEntry("fake_dot", "FakeDotAlign", False, None, (), "DotAlign")
FAKE_K = layout.AlignEntry("fake_k", "FakeKAlign", True, "sarnn::FakeParams", (("U", ("K", "2*Hidden")),),
                           "DotAlign")


class AddedToTheTableOnly(unittest.TestCase):
    """An entry added to ALIGN_TABLE, and nowhere else, is accepted by the modules, the store, the spec, the header
    writer, and refused by the q15 path (which has no model for it) with the registry's list."""

    def setUp(self):
        patcher = mock.patch.object(layout, "ALIGN_TABLE", layout.ALIGN_TABLE + (FAKE_DOT, FAKE_K))
        patcher.start()
        self.addCleanup(patcher.stop)

    def test_accepted_everywhere(self):
        self.assertIn("fake_dot", layout.aligns())
        model = sarnn.SelfAttentionRNN(2, 3, align="fake_dot", window=4)
        self.assertEqual(sarnn.from_config(model.config()).config()["align"], "fake_dot")
        spec = resolve(model)
        self.assertIn("sarnn::FakeDotAlign", spec.model_type())
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "m.hpp")
            sarnn.export_header(model, "m", path)
            self.assertIn("sarnn::SelfAttentionRnn<float, 2, 3, 4, sarnn::FakeDotAlign, sarnn::Window>",
                          _read(path))
        # a plain state dict: --align names it
        self.assertEqual(resolve(model.state_dict(), align="fake_dot", window=4).config["align"], "fake_dot")
        # the q15 path has no fake_dot: refused, with the registry's q15 list
        with self.assertRaisesRegex(ExportError, "no q15 model yet: .*dot, scaled_dot, bilinear, key_query or "
                                                 "additive align"):
            quantize.check_model(model.config())

    def test_k_and_params_from_the_table(self):
        module = make_align("fake_k", 3, 2)
        self.assertEqual([(n, tuple(p.shape)) for n, p in module.named_parameters()], [("U", (2, 6))])
        with self.assertRaisesRegex(ValueError, "needs k >= 1"):
            make_align("fake_k", 3)
        with self.assertRaisesRegex(ValueError, "only key_query, additive and fake_k do"):
            make_align("fake_dot", 3, 2)
        # a model of it: its params under align., the state dict's align inferred from them with K, the header's
        model = sarnn.SelfAttentionRNN(2, 3, align="fake_k", k=2)
        self.assertEqual([(n, tuple(p.shape)) for n, p in model.named_parameters()],
                         [("A", (3, 5)), ("b", (3,)), ("align.U", (2, 6))])
        spec = resolve(model.state_dict(), capacity=8)
        self.assertEqual((spec.config["align"], spec.config["k"]), ("fake_k", 2))
        self.assertIn("sarnn::FakeKAlign<2>", spec.model_type())
        with tempfile.TemporaryDirectory() as d:
            sarnn.export_header(model, "m", os.path.join(d, "m.hpp"))
            text = _read(d, "m.hpp")
        self.assertIn("inline constexpr sarnn::FakeParams<float, 3, 2> align_params = {", text)
        self.assertIn("// U[2][6] (from align.U)", text)
        group = layout.groups("self_attention", 2, 3, "fake_k", 2)[1]
        self.assertEqual(group.cpp_type("double"), "sarnn::FakeParams<double, 3, 2>")
        self.assertEqual([(f.key, f.name, f.shape) for f in group.fields], [("align.U", "U", (2, 6))])
        self.assertEqual(layout.align_type("fake_k", 2), "FakeKAlign<2>")


def code_strings(filename):
    """(line, text) of the string constants of a module of the package, its docstrings left out."""
    tree = ast.parse(_read("python", "sarnn", filename))
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs]


class NoOtherList(unittest.TestCase):
    def test_no_module_spells_the_cpp_names(self):
        """The C++ tags and params templates of the aligns are spelled in layout.py only (the headers take them
        from the registry)."""
        words = {a.cpp for a in layout.ALIGN_TABLE} | {a.params.split("::")[1] for a in layout.ALIGN_TABLE
                                                       if a.params}
        offenders = [f"{filename}:{line} {text[:60]!r}" for filename in sorted(os.listdir(PACKAGE))
                     if filename.endswith(".py") and filename != "layout.py"
                     for line, text in code_strings(filename) if any(w in text for w in words)]
        self.assertEqual(offenders, [])

    def test_no_module_lists_align_names(self):
        """No literal tuple, list, set or dict of the package (but layout.py's table) holds two or more align
        names; and every module that checks or spells aligns imports the registry."""
        names = set(layout.aligns())
        offenders = []
        for filename in sorted(os.listdir(PACKAGE)):
            if not filename.endswith(".py") or filename == "layout.py":
                continue
            tree = ast.parse(_read("python", "sarnn", filename))
            for node in ast.walk(tree):
                items = node.keys if isinstance(node, ast.Dict) else getattr(node, "elts", None)
                if not isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)) or items is None:
                    continue
                hits = [i.value for i in items if isinstance(i, ast.Constant) and i.value in names]
                if len(hits) >= 2:
                    offenders.append(f"{filename}:{node.lineno} {hits}")
        self.assertEqual(offenders, [])
        for filename in ("aligns.py", "spec.py", "quantize.py", "q15.py", "header_q15.py"):
            self.assertRegex(_read("python", "sarnn", filename), r"from sarnn import (.*, )?layout\b", filename)


if __name__ == "__main__":
    unittest.main()
