"""Reading the exporter's input files (the model and the calibration) without running code from them.

torch.load() unpickles: a file can name any Python callable (os.system, ...) and have the unpickler call it. So
every file is read with torch.load(weights_only=True), which builds only tensors, dicts, lists, tuples, numbers,
strings and None: a state dict, a sarnn.save() file and a calibration tensor all load that way. A whole module
saved with torch.save(model) names its classes and loads only with trust_pickled_code=True (the command line's
--trust-pickled-code), which reads it with plain torch.load: the file's code runs then, so only for a trusted file.
"""
import os
import pickle

import torch

from sarnn.errors import ExportError

TRUST_OPTION = "--trust-pickled-code"
# How torch 1.13's weights-only unpickler reports a class or function it does not build (other messages, such as
# "Unsupported operand", come from a file that is no pickle at all).
PICKLED = ("Unsupported class", "Trying to instantiate", "Trying to call reduce", "Can only build", "Can only append",
           "Can only extend")


def load(path, what, trust_pickled_code=False):
    """The object torch.save() wrote to `path` (`what` names the file in messages: "the model", "the calibration").
    Raises ExportError for a file that cannot be read, and for one that holds more than plain data (unless
    trust_pickled_code), with a one-line message saying how to save plain data instead."""
    shown = os.fspath(path)
    try:
        return torch.load(path, map_location="cpu", weights_only=not trust_pickled_code)
    except pickle.UnpicklingError as e:
        text = str(e)
        found = text.rpartition("WeightsUnpickler error: ")[2].strip()
        if trust_pickled_code or not text.startswith("Weights only load failed") or not found.startswith(PICKLED):
            raise ExportError(f"cannot read {what} {shown}: UnpicklingError: {found or text}") from e
        raise ExportError(f"{what} {shown} holds pickled Python objects ({found}), which load only by running code "
                          "from the file: save a state dict (torch.save(model.state_dict(), path)), "
                          f"sarnn.save(model, path) or a plain tensor instead, or pass {TRUST_OPTION} if you trust "
                          "the file") from None
    except Exception as e:  # torch.load raises many types for a file it cannot read
        raise ExportError(f"cannot read {what} {shown}: {type(e).__name__}: {e}") from e
