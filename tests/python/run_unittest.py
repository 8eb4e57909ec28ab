"""ctest driver of python/tests: `python3 run_unittest.py tests.test_export ...` (PYTHONPATH=<sarnn>/python).

Exits 77 (ctest's SKIP_RETURN_CODE) with "SARNN-SKIP: <ctest names> (torch is not installed ...)" when this Python
cannot import torch or numpy: the modules would otherwise skip themselves and pass. Else runs the modules with
unittest and exits 0 when every test passed, 1 otherwise (also when no test ran); a test that skipped itself
prints "SARNN-SKIP: <test id> (<reason>)". scripts/test lists these lines in its summary (tests/skip_note.hpp).
"""
import sys
import unittest


def main(modules):
    for package in ("torch", "numpy"):
        try:
            __import__(package)
        except ImportError as e:
            tests = ", ".join("sarnn_python_" + m.rsplit(".", 1)[-1] for m in modules)   # the ctest names
            print(f"SARNN-SKIP: {tests} ({package} is not installed for {sys.executable}: {e}; "
                  "scripts/deps python installs python3-torch and python3-numpy)")
            return 77
    suite = unittest.defaultTestLoader.loadTestsFromNames(modules)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    for test, reason in result.skipped:
        print(f"SARNN-SKIP: {test.id()} ({reason})")
    if result.testsRun == 0:
        print(f"no tests ran in {', '.join(modules)}")
        return 1
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
