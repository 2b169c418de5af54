"""The Bayesian binormal model: priors, PyMC model, exact conjugate posterior, results.

Only the model modules (``_model``, ``_paired``, ``_score_models``, ``_joint_rank_model``)
import PyMC, and only inside the functions that build or sample a model;
``method="exact"`` needs numpy, scipy, xarray and ArviZ.
"""

from ._contaminated import ContaminatedPriors
from ._fit import fit_binormal
from ._fitcheck import FitCheck, fit_check
from ._flexible import FlexiblePriors
from ._joint_rank import JointFitCheck, JointRankPriors
from ._joint_rank_model import fit_joint_rank_posterior
from ._multiclass import OvRPosterior, fit_binormal_ovr
from ._posterior import BinormalPosterior
from ._priors import BinormalPriors
from ._semiparametric import SemiparametricPriors
from ._summaries import averaged_pr_band

__all__ = [
    "BinormalPosterior",
    "BinormalPriors",
    "FitCheck",
    "ContaminatedPriors",
    "FlexiblePriors",
    "JointFitCheck",
    "JointRankPriors",
    "fit_joint_rank_posterior",
    "SemiparametricPriors",
    "fit_check",
    "averaged_pr_band",
    "OvRPosterior",
    "fit_binormal",
    "fit_binormal_ovr",
]
