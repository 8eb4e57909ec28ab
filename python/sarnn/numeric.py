"""The numeric policy of the exporter, the twin of include/sarnn/numeric.hpp: the number types in one place.

A C++ value type T (the `dtype` of an export) names every kind of number of a model: weights (what the params
aggregate holds, what the header writes), activations (inputs, states), sums, and whether they are floating point.
For float and double every kind is T itself. q15 (sarnn::q15, include/sarnn/fixed.hpp) has int8 weights, int16
activations and int32 sums; its models are quantised from float weights (sarnn.quantize, `--quantize int8`), so the
float path (sarnn.spec.resolve) takes only the floating types (FLOATING) and refuses q15 with that hint.
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Numeric:
    """One value type: its name (the dtype of an export), the numpy types of its weights and activations, the suffix
    of a weight literal in C++, whether it is floating point, the default bound of the export's self-check (None for
    q15, whose bound is measured over the calibration run), its C++ spelling (the T of the model's template) and the
    numpy type of its sums (Numeric<T>::accumulator)."""
    name: str
    weight: type
    activation: type
    literal_suffix: str
    floating: bool
    tolerance: float
    cpp: str = None
    accumulator: type = None


NUMERIC = {
    "float": Numeric("float", np.float32, np.float32, "f", True, 1e-4, "float", np.float32),
    "double": Numeric("double", np.float64, np.float64, "", True, 1e-10, "double", np.float64),
    "q15": Numeric("q15", np.int8, np.int16, "", False, None, "sarnn::q15", np.int32),
}
FLOATING = tuple(name for name, n in NUMERIC.items() if n.floating)   # the dtypes of the float path


def numeric(dtype):
    """The policy of dtype (a key of NUMERIC); KeyError for a type the exporter does not know."""
    return NUMERIC[dtype]
