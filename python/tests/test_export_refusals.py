"""What the exporter refuses (issue 31): files that would run code when loaded, names that break the headers,
shapes the C++ does not compile, sizes past the exporter's bounds, bad calibration values, and outputs it must not
clobber. Each refusal is one line "sarnn.export: error: ..." on stderr with exit status 2 and no file written
(docs/pytorch.md lists them). Also --dtype q15, the one flag of the number type."""
import contextlib
import io
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unittest

from . import require

require("torch", "numpy")
import torch  # noqa: E402

import sarnn  # noqa: E402
from sarnn.export import main  # noqa: E402

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REPO = os.path.dirname(PYTHON_DIR)
CONFIG_INCLUDE = os.environ.get("SARNN_CONFIG_INCLUDE", os.path.join(REPO, "build", "host", "include"))


class _Payload:
    """Pickles as a call of os.system that creates a marker file: what a malicious .pt holds."""

    def __init__(self, marker):
        self.marker = marker

    def __reduce__(self):
        return os.system, (f"touch '{self.marker}'",)


class Case(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sarnn_refusals_")
        self.addCleanup(shutil.rmtree, self.dir)
        self.marker = self.path("marker")

    def path(self, name):
        return os.path.join(self.dir, name)

    def run_cli(self, *args):
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        return subprocess.run([sys.executable, "-m", "sarnn.export", *args], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=300)

    def run_cli_limited(self, *args):
        """run_cli under an 8 GB address-space limit, so that a model the exporter fails to bound ends in a
        MemoryError (exit 1) rather than in the allocation of tens of GB: (status, stdout, stderr)."""
        import resource
        limit = 8 << 30

        def cap():
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        env = dict(os.environ, PYTHONPATH=PYTHON_DIR)
        done = subprocess.run([sys.executable, "-m", "sarnn.export", *args], cwd=self.dir, env=env,
                              capture_output=True, text=True, timeout=300, preexec_fn=cap)
        return done.returncode, done.stdout, done.stderr

    def main(self, *args):
        """main() in this process (one torch import for many cases): (status, stdout, stderr)."""
        out, err = io.StringIO(), io.StringIO()
        cwd = os.getcwd()
        os.chdir(self.dir)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(list(args))
        finally:
            os.chdir(cwd)
        return status, out.getvalue(), err.getvalue()

    def assert_refused(self, args, words, done=None):
        """The command refuses: exit 2, one line "sarnn.export: error: ..." naming every word, nothing on stdout
        and no new file. Returns the message."""
        before = sorted(os.listdir(self.dir))
        status, out, err = done if done is not None else self.main(*args)
        self.assertEqual(status, 2, out + err)
        self.assertEqual(out, "")
        self.assertEqual(len(err.splitlines()), 1, err)
        self.assertTrue(err.startswith("sarnn.export: error: "), err)
        for word in words:
            self.assertIn(word, err)
        self.assertEqual(sorted(os.listdir(self.dir)), before)
        return err

    def save_model(self, name="model.pt", module=None):
        torch.manual_seed(3)
        sarnn.save(module if module is not None else sarnn.SelfAttentionRNN(3, 4, window=4), self.path(name))
        return name

    def save_calibration(self, name="inputs.pt", tensor=None):
        torch.manual_seed(4)
        torch.save(torch.rand(2, 5, 3) * 2 - 1 if tensor is None else tensor, self.path(name))
        return name


class PickledCode(Case):
    """Issue 31, 1: opening a file must not run code pickled in it."""

    def test_malicious_model_is_refused_and_not_run(self):
        torch.save({"A": torch.zeros(4, 7), "b": torch.zeros(4), "x": _Payload(self.marker)}, self.path("evil.pt"))
        err = self.assert_refused((), ["evil.pt", "pickled", "--trust-pickled-code", "state dict"],
                                  done=self._cli("evil.pt", "--out", "evil.hpp"))
        self.assertFalse(os.path.exists(self.marker), err)

    def test_malicious_calibration_is_refused_and_not_run(self):
        model = self.save_model()
        torch.save(_Payload(self.marker), self.path("evil_inputs.pt"))
        for flag in (("--quantize", "int8"), ("--dtype", "q15")):
            with self.subTest(flag=flag):
                err = self.assert_refused((), ["evil_inputs.pt", "pickled", "--trust-pickled-code"],
                                          done=self._cli(model, *flag, "--calibration", "evil_inputs.pt"))
                self.assertFalse(os.path.exists(self.marker), err)

    def _cli(self, *args):
        done = self.run_cli(*args)
        return done.returncode, done.stdout, done.stderr

    def test_whole_module_needs_the_option(self):
        torch.manual_seed(3)
        torch.save(sarnn.SimpleRNN(3, 4), self.path("module.pt"))
        self.assert_refused(("module.pt", "--out", "m.hpp"), ["module.pt", "pickled", "torch.save(model.state_dict()",
                                                               "--trust-pickled-code"])
        status, out, err = self.main("module.pt", "--out", "m.hpp", "--trust-pickled-code")
        self.assertEqual((status, err), (0, ""))
        self.assertTrue(os.path.isfile(self.path("m.hpp")))

    def test_plain_files_load_without_the_option(self):
        """State dicts, sarnn.save files and calibration tensors are plain data: they load as before."""
        model = self.save_model()
        self.assertEqual(self.main(model, "--out", "a.hpp")[0], 0)
        torch.save(sarnn.SimpleRNN(3, 4).state_dict(), self.path("state.pt"))
        self.assertEqual(self.main("state.pt", "--model", "simple", "--out", "b.hpp")[0], 0)
        inputs = self.save_calibration()
        status, _, err = self.main(model, "--quantize", "int8", "--calibration", inputs, "--out", "c.hpp")
        self.assertEqual(status, 0, err)

    def test_store_load_reads_plain_data_only(self):
        """sarnn.load (store.py: "loads without pickled classes") does not run a file's code either."""
        torch.save({"sarnn_config": _Payload(self.marker), "state_dict": {}}, self.path("evil.pt"))
        with self.assertRaises(Exception):
            sarnn.load(self.path("evil.pt"))
        self.assertFalse(os.path.exists(self.marker))
        model = self.save_model()
        self.assertEqual(sarnn.load(self.path(model)).config()["window"], 4)


class Names(Case):
    """Issue 31, 3: each name its own include guards and C macros; names that break a header refused."""

    RESERVED = ("NULL", "errno", "stdin", "EOF", "INT_MAX", "size_t", "printf", "main", "linux", "unix", "i386",
                "assert", "offsetof", "stdout", "memcpy", "int32_t", "FILE", "exit", "sqrt", "tanh", "std", "sarnn",
                "class", "restrict", "bool", "NAN", "SIGINT")

    def test_reserved_names_are_refused(self):
        model = self.save_model()
        for name in self.RESERVED:
            with self.subTest(name=name):
                self.assert_refused((model, "--name", name, "--out", "out.hpp"), [repr(name)])

    def test_upper_case_only_name_is_refused(self):
        model = self.save_model()
        self.assert_refused((model, "--name", "NET", "--out", "out.hpp"), ["'NET'", "'net'"])

    def test_net_and_Net_in_one_program(self):
        """net and Net exported with --c-api: both C headers in one C translation unit and both C++ headers in one
        C++ one compile (each its own guard and macros), and, when a built sarnn library is at hand, link and run
        both models' self-checks."""
        cc, cxx = shutil.which("gcc") or shutil.which("cc"), shutil.which("g++") or shutil.which("c++")
        if cc is None or cxx is None or not os.path.isfile(os.path.join(CONFIG_INCLUDE, "sarnn", "config.hpp")):
            self.skipTest("needs gcc, g++ and a configured build (SARNN_CONFIG_INCLUDE)")
        torch.manual_seed(6)
        torch.save(sarnn.SimpleRNN(3, 4).state_dict(), self.path("small.pt"))
        torch.save(sarnn.SimpleRNN(2, 5).state_dict(), self.path("large.pt"))
        for model, name in (("small.pt", "net"), ("large.pt", "Net")):
            status, _, err = self.main(model, "--model", "simple", "--name", name, "--out", f"{name}_model.hpp",
                                       "--c-api")
            self.assertEqual(status, 0, err)
        with open(self.path("use_c.c"), "w", encoding="utf-8") as f:
            f.write('#include "net_model.h"\n#include "Net_model.h"\n'
                    "_Static_assert(NET_IN_SIZE == 3 && NET_HIDDEN_SIZE == 4, \"net\");\n"
                    "_Static_assert(Net_IN_SIZE == 2 && Net_HIDDEN_SIZE == 5, \"Net\");\n"
                    "int run_c(void) {\n"
                    "    const float x[NET_IN_SIZE] = {0.5f, -0.25f, 1.0f};\n"
                    "    const float y[Net_IN_SIZE] = {0.5f, -0.25f};\n"
                    "    if (!net_self_check() || !Net_self_check()) return 1;\n"
                    "    if (net_step(x) != SARNN_STATUS_OK || Net_step(y) != SARNN_STATUS_OK) return 2;\n"
                    "    return net_length() == 1 && Net_length() == 1 && net_hidden() != 0 && Net_hidden() != 0"
                    " ? 0 : 3;\n}\n")
        with open(self.path("main.cpp"), "w", encoding="utf-8") as f:
            f.write('#include "net_model.hpp"\n#include "Net_model.hpp"\n'
                    "static_assert(net::hidden_size == 4 && Net::hidden_size == 5, \"both\");\n"
                    "extern \"C\" int run_c(void);\n"
                    "static net::Model a(net::params);\nstatic Net::Model b(Net::params);\n"
                    "int main() {\n"
                    "    if (!net::self_check(a) || !Net::self_check(b)) return 10;\n"
                    "    return run_c();\n}\n")
        warnings = ["-Wall", "-Wextra", "-Wpedantic", "-Werror"]
        includes = ["-I", os.path.join(REPO, "include"), "-I", CONFIG_INCLUDE, "-I", self.dir]
        library = os.path.join(os.path.dirname(CONFIG_INCLUDE), "libsarnn.a")
        link = os.path.isfile(library)
        steps = [[cc, "-std=c11", *warnings, "-I", self.dir, "-c", "use_c.c", "-o", "use_c.o"]]
        objects = ["use_c.o"]
        for source in ("main.cpp", "net_model.cpp", "Net_model.cpp"):
            obj = source.replace(".cpp", ".o")
            steps.append([cxx, "-std=c++17", *warnings, *includes, "-c", source, "-o", obj] if link else
                         [cxx, "-std=c++17", *warnings, *includes, "-fsyntax-only", source])
            objects.append(obj)
        if link:
            steps.append([cxx, *objects, library, "-o", "both"])
        for command in steps:
            done = subprocess.run(command, cwd=self.dir, capture_output=True, text=True, timeout=600)
            self.assertEqual(done.returncode, 0, " ".join(command) + "\n" + done.stderr)
        if link:
            done = subprocess.run([self.path("both")], capture_output=True, text=True, timeout=60)
            self.assertEqual(done.returncode, 0, done.stdout + done.stderr)


class Shapes(Case):
    """Issue 31, 4: what the C++ does not compile, and sizes past the exporter's bounds, refused before
    anything is allocated."""

    def test_q15_limits_of_the_cpp(self):
        inputs3 = self.save_calibration()
        cases = (
            (sarnn.SimpleRNN(3, 257), (), inputs3, ["Hidden = 257", "at most 256"]),
            (sarnn.SimpleRNN(512, 4), (), None, ["In = 512", "at most 511"]),
            (sarnn.SelfAttentionRNN(3, 4, align="key_query", k=257), ("--capacity", "8"), inputs3,
             ["K = 257", "at most 256"]),
            (sarnn.LSTMN(3, 4, 257), ("--capacity", "8"), inputs3, ["K = 257", "at most 256"]),
            (sarnn.SelfAttentionRNN(3, 4), ("--capacity", "32768"), inputs3, ["Capacity = 32768", "at most 32767"]),
        )
        for module, options, inputs, words in cases:
            with self.subTest(words=words):
                model = self.save_model("big.pt", module)
                if inputs is None:
                    inputs = self.save_calibration("inputs512.pt", torch.rand(1, 2, 512))
                self.assert_refused((model, "--dtype", "q15", "--calibration", inputs, "--out", "q.hpp", *options),
                                    words)

    def test_small_file_claiming_a_huge_model(self):
        """Tensors expanded with stride 0 are saved as one value: a file of a few KB claims 40 GB of weights."""
        cases = (
            ({"A": torch.zeros(1).expand(100000, 100003), "b": torch.zeros(1).expand(100000)}, ("--model", "simple"),
             ["Hidden = 100000", "4096"]),
            ({"A": torch.zeros(1).expand(3000, 4000), "b": torch.zeros(1).expand(3000)}, ("--model", "simple"),
             ["12003000 weights", str(1 << 22)]),
            ({"sarnn_config": {"kind": "simple", "in_size": 3, "hidden": 100000, "align": None, "k": None,
                               "window": None}, "state_dict": {}}, (), ["Hidden = 100000"]),
            ({"weight_ih_l0": torch.zeros(1).expand(100000, 3), "weight_hh_l0": torch.zeros(1).expand(100000, 100000)},
             (), ["Hidden = 100000"]),
        )
        for n, (content, options, words) in enumerate(cases):
            with self.subTest(words=words):
                torch.save(content, self.path(f"huge{n}.pt"))
                self.assertLess(os.path.getsize(self.path(f"huge{n}.pt")), 4096)
                self.assert_refused((), words, done=self.run_cli_limited(f"huge{n}.pt", *options, "--out", "h.hpp"))

    def test_golden_steps_bound(self):
        model = self.save_model()
        self.assert_refused((), ["golden_steps 100000000", "10000"],
                            done=self.run_cli_limited(model, "--golden-steps", "100000000", "--out", "g.hpp"))
        self.assert_refused((model, "--capacity", "100000000", "--out", "g.hpp"),
                            ["capacity 100000000", str(1 << 20)])


class Calibration(Case):
    """Issue 31, 4: calibration values that are not real floating point, or not a float, refused."""

    def test_types_refused(self):
        model = self.save_model()
        for dtype in (torch.complex64, torch.int32, torch.int64, torch.float16):
            with self.subTest(dtype=dtype):
                tensor = (torch.rand(2, 5, 3) * 4).to(dtype)
                name = self.save_calibration(f"inputs_{str(dtype)[6:]}.pt", tensor)
                words = [name] if dtype == torch.float16 else [name, str(dtype), "floating point"]
                args = (model, "--dtype", "q15", "--calibration", name, "--out", "q.hpp")
                if dtype == torch.float16:   # a real float: taken
                    self.assertEqual(self.main(*args)[0], 0)
                    os.unlink(self.path("q.hpp"))
                else:
                    self.assert_refused(args, words)
        from sarnn.quantize import load_calibration
        from sarnn.errors import ExportError
        with self.assertRaisesRegex(ExportError, "torch.bool"):   # bool (the file format cannot hold it as data)
            load_calibration(torch.ones(2, 5, 3, dtype=torch.bool), 3)

    def test_out_of_float_range(self):
        model = self.save_model()
        tensor = torch.rand(2, 5, 3, dtype=torch.float64)
        tensor[1, 2, 0] = 1e300
        name = self.save_calibration("big.pt", tensor)
        err = self.assert_refused((model, "--dtype", "q15", "--calibration", name, "--out", "q.hpp"),
                                  ["big.pt[1, 2, 0]", "1e+300", "out of float range"])
        self.assertNotIn("inf", err)


class Outputs(Case):
    """Issue 31, 4: the --c-api set all or none; a read-only file refused; a symbolic link written through."""

    def read(self, name):
        with open(self.path(name), encoding="utf-8") as f:
            return f.read()

    def write(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)

    def test_c_api_set_all_or_none(self):
        model = self.save_model()
        self.write("x.hpp", "old hpp\n")
        self.write("x.h", "old h\n")
        os.mkdir(self.path("x.cpp"))   # the last of the set cannot be written
        self.assert_refused((model, "--name", "x", "--out", "x.hpp", "--c-api"), ["x.cpp"])
        self.assertEqual((self.read("x.hpp"), self.read("x.h")), ("old hpp\n", "old h\n"))
        os.rmdir(self.path("x.cpp"))
        self.assertEqual(self.main(model, "--name", "x", "--out", "x.hpp", "--c-api")[0], 0)
        self.assertIn("namespace x", self.read("x.hpp"))
        self.assertIn("x_step", self.read("x.h"))
        self.assertIn("x_step", self.read("x.cpp"))

    def test_c_api_rename_failure_puts_back_the_old_set(self):
        """A replacement failing in the middle (here: the .h's, forced) puts back the files replaced before it."""
        from sarnn import export
        model = self.save_model()
        self.write("y.hpp", "old hpp\n")
        real = os.replace

        def failing(src, dst):
            if dst.endswith("y.h"):
                raise OSError(5, "Input/output error")
            return real(src, dst)
        export.os.replace = failing
        try:
            self.assert_refused((model, "--name", "y", "--out", "y.hpp", "--c-api"), ["y.h", "Input/output"])
        finally:
            export.os.replace = real
        self.assertEqual(self.read("y.hpp"), "old hpp\n")
        self.assertFalse(os.path.exists(self.path("y.cpp")))

    def test_read_only_file_refused(self):
        model = self.save_model()
        self.write("ro.hpp", "old\n")
        os.chmod(self.path("ro.hpp"), 0o444)
        self.assert_refused((model, "--out", "ro.hpp"), ["ro.hpp", "read-only"])
        self.assertEqual(self.read("ro.hpp"), "old\n")
        self.assertEqual(stat.S_IMODE(os.stat(self.path("ro.hpp")).st_mode), 0o444)

    def test_existing_file_keeps_its_mode(self):
        model = self.save_model()
        self.write("rw.hpp", "old\n")
        os.chmod(self.path("rw.hpp"), 0o600)
        self.assertEqual(self.main(model, "--out", "rw.hpp")[0], 0)
        self.assertEqual(stat.S_IMODE(os.stat(self.path("rw.hpp")).st_mode), 0o600)
        self.assertIn("namespace rw", self.read("rw.hpp"))

    def test_symlink_written_through(self):
        model = self.save_model()
        os.mkdir(self.path("real"))
        self.write(os.path.join("real", "target.hpp"), "old\n")
        os.symlink(os.path.join("real", "target.hpp"), self.path("link.hpp"))
        self.assertEqual(self.main(model, "--name", "link", "--out", "link.hpp")[0], 0)
        self.assertTrue(os.path.islink(self.path("link.hpp")))
        self.assertIn("namespace link", self.read(os.path.join("real", "target.hpp")))
        self.assertEqual(sorted(os.listdir(self.path("real"))), ["target.hpp"])


class DtypeQ15(Case):
    """Issue 31, 6: --dtype q15 is the q15 export; --quantize int8 stays as another spelling of it."""

    def test_same_header(self):
        model, inputs = self.save_model(), self.save_calibration()
        status, out, err = self.main(model, "--dtype", "q15", "--calibration", inputs, "--name", "q", "--out", "a.hpp")
        self.assertEqual(status, 0, err)
        self.assertTrue(out.splitlines()[1].startswith("q15: x_scale"), out)
        self.assertEqual(self.main(model, "--quantize", "int8", "--calibration", inputs, "--name", "q",
                                   "--out", "b.hpp")[0], 0)
        self.assertEqual(self.main(model, "--dtype", "q15", "--quantize", "int8", "--calibration", inputs,
                                   "--name", "q", "--out", "c.hpp")[0], 0)
        texts = []
        for name in ("a.hpp", "b.hpp", "c.hpp"):
            with open(self.path(name), encoding="utf-8") as f:
                texts.append(f.read().split("\n", 1)[1])   # after the first line, which names the file
        self.assertEqual(texts[0], texts[1])
        self.assertEqual(texts[0], texts[2])
        self.assert_refused((model, "--dtype", "q15", "--out", "d.hpp"), ["--dtype q15", "needs --calibration"])
        self.assert_refused((model, "--dtype", "int8", "--out", "d.hpp"), ["unknown dtype", "q15"])


if __name__ == "__main__":
    unittest.main()
