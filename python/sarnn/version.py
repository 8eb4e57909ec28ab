"""The version of the sarnn Python package: the C++ library's (include/sarnn/version.hpp; the test
sarnn_pip_install checks that they agree)."""
__version__ = "0.1.0"
