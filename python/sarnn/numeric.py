"""The numeric policy of the exporter, the twin of include/sarnn/numeric.hpp.

A C++ value type T (the `dtype` of an export) names every kind of number of a model: weights (what the params
aggregate holds, what the header writes), activations (inputs, states), and whether they are floating point. For
float and double every kind is T itself; a fixed-point type adds its own entry here, as it adds a
sarnn::Numeric specialization in C++.
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Numeric:
    """One value type: its C++ name, the numpy types of its weights and activations, the suffix of a weight
    literal in C++, whether it is floating point, and the default bound of the export's self-check."""
    name: str
    weight: type
    activation: type
    literal_suffix: str
    floating: bool
    tolerance: float


NUMERIC = {
    "float": Numeric("float", np.float32, np.float32, "f", True, 1e-4),
    "double": Numeric("double", np.float64, np.float64, "", True, 1e-10),
}


def numeric(dtype):
    """The policy of dtype (a key of NUMERIC); KeyError for a type the exporter does not know."""
    return NUMERIC[dtype]
