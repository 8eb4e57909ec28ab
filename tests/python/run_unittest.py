"""ctest driver of python/tests: `python3 run_unittest.py tests.test_export ...` (PYTHONPATH=<sarnn>/python).

Exits 77 (ctest's SKIP_RETURN_CODE) with "SKIPPED: torch is not installed ..." when this Python cannot import
torch or numpy: the modules would otherwise skip themselves and pass. Else runs the modules with unittest
and exits 0 when every test passed, 1 otherwise (also when no test ran).
"""
import sys
import unittest


def main(modules):
    for package in ("torch", "numpy"):
        try:
            __import__(package)
        except ImportError as e:
            print(f"SKIPPED: {package} is not installed for {sys.executable} ({e}); scripts/deps python installs "
                  "python3-torch and python3-numpy")
            return 77
    suite = unittest.defaultTestLoader.loadTestsFromNames(modules)
    result = unittest.TextTestRunner(verbosity=2).run(suite)
    if result.testsRun == 0:
        print(f"no tests ran in {', '.join(modules)}")
        return 1
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
