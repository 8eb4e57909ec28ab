"""The Python tests of sarnn (unittest; ctest runs them). Modules that need torch skip visibly without it."""


def require(*names):
    """Imports the named modules, or skips the whole test module with a visible reason when one is missing."""
    import importlib
    import unittest
    for name in names:
        try:
            importlib.import_module(name)
        except ImportError as e:
            raise unittest.SkipTest(f"{name} not installed: {e}")
