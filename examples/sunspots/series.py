"""examples/sunspots/series.py: the yearly sunspot numbers of statsmodels (1700-2008, 309 values), their split and
the error measures of the example.

    s_t      the sunspot number of year 1700 + t (t = 0 .. 308)
    x_t      = s_t / SCALE, the model's input at step t; its forecast y_t of x_{t+1}
    train    inputs 1700 .. 1919, targets 1701 .. 1920 (the warm-up of the stream in C++)
    test     inputs 1920 .. 2007, targets 1921 .. 2008 (88 forecasts)
    persistence: the forecast of s_{t+1} is s_t
"""
import math

import numpy as np

FIRST_YEAR = 1700
LAST_TRAIN_YEAR = 1920   # the last training target
SCALE = 100.0            # x_t = s_t / SCALE


def load():
    """The 309 yearly values s_t (float64, 1700 .. 2008). Imports statsmodels.datasets.sunspots only (the data
    set ships with Debian's python3-statsmodels; statsmodels.api takes seconds to import)."""
    from statsmodels.datasets import sunspots  # pylint: disable=import-outside-toplevel
    data = sunspots.load_pandas().data
    s = np.asarray(data["SUNACTIVITY"], dtype=np.float64)
    years = np.asarray(data["YEAR"], dtype=np.float64)
    if len(s) != 309 or years[0] != FIRST_YEAR or years[-1] != 2008:
        raise SystemExit(f"sunspots: expected 309 years 1700 .. 2008, got {len(s)} from {years[0]:g} to {years[-1]:g}")
    return s


def split():
    """(inputs, warm): inputs = x_0 .. x_307 as float32 (every input of the stream), warm = 220, the number of
    training steps (inputs 1700 .. 1919); the test forecasts are those of steps warm .. 307."""
    s = load()
    x = (s / SCALE).astype(np.float32)
    return x[:-1], LAST_TRAIN_YEAR - FIRST_YEAR


def rmse(forecast, truth):
    """sqrt(mean((forecast - truth)^2)), in the units of its arguments."""
    d = np.asarray(forecast, dtype=np.float64) - np.asarray(truth, dtype=np.float64)
    return math.sqrt(float(np.mean(d * d)))


def mae(forecast, truth):
    """mean |forecast - truth|."""
    return float(np.mean(np.abs(np.asarray(forecast, dtype=np.float64) - np.asarray(truth, dtype=np.float64))))
