"""The golden run written into every header: known inputs and the outputs PyTorch computes for them.

The model is re-created in float64 from the exported values (already rounded to the target dtype), and the
inputs are rounded to the target dtype too, so the C++ model sees exactly the weights and inputs the
reference saw and differs from it only by its own arithmetic.
"""
import numpy as np
import torch

from sarnn.numeric import numeric
from sarnn.store import from_config


def golden_run(spec):
    """(x, h): float64 ndarrays of shapes (golden_steps, In) and (golden_steps, Hidden). x is uniform in
    [-1, 1) from a torch.Generator seeded with spec.golden_seed, rounded to spec.dtype; h_i are the model's
    hidden outputs from its reset() state, computed in float64."""
    model = from_config(spec.config).double()
    model.load_state_dict({key: torch.from_numpy(a) for key, a in spec.arrays.items()})
    generator = torch.Generator().manual_seed(spec.golden_seed)
    x = torch.rand(spec.golden_steps, spec.config["in_size"], generator=generator, dtype=torch.float64) * 2 - 1
    x = x.numpy().astype(numeric(spec.dtype).activation).astype(np.float64)
    with torch.no_grad():
        h = model(torch.from_numpy(x)).numpy()
    return x, h
