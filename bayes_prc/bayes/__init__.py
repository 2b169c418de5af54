"""The Bayesian binormal model: priors, PyMC model, exact conjugate posterior, results.

Only :mod:`bayes_prc.bayes._model` imports PyMC, and only when a NUTS fit (or a
predictive draw) is asked for; ``method="exact"`` needs numpy, scipy, xarray and ArviZ.
"""

from ._fit import fit_binormal
from ._multiclass import OvRPosterior, fit_binormal_ovr
from ._posterior import BinormalPosterior
from ._priors import BinormalPriors

__all__ = [
    "BinormalPosterior",
    "BinormalPriors",
    "OvRPosterior",
    "fit_binormal",
    "fit_binormal_ovr",
]
