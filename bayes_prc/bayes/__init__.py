"""The Bayesian binormal model: priors, PyMC model, exact conjugate posterior, results.

Only the model modules (``_model``, ``_paired``, ``_score_models``, ``_joint_rank_model``)
import PyMC, and only inside the functions that build or sample a model;
``method="exact"`` needs numpy, scipy, xarray and ArviZ.
"""

from ._contaminated import ContaminatedPriors
from ._fit import AUTO_METHOD, check_fit_options, fit_binormal, fit_from_statistics
from ._fitcheck import FitCheck, fit_check
from ._flexible import FlexiblePriors
from ._joint_rank import JointFitCheck, JointRankPriors
from ._joint_rank_model import fit_joint_rank_posterior
from ._multiclass import OvRPosterior, fit_binormal_ovr
from ._paired import fit_paired_posterior

# the pool model: public path bayes_prc.pool (`name as name`: importable here)
from ._pool import PoolPosterior as PoolPosterior
from ._pool import fit_pool as fit_pool
from ._pool_model import PoolPriors as PoolPriors
from ._pool_model import calibration_basis, pool_normal_scores
from ._pool_pair import PoolPairPriors as PoolPairPriors
from ._pool_pair import fit_pool_pair
from ._posterior import BinormalPosterior

# the base of the posterior results of the layers above (importable, not documented here)
from ._posterior_base import PosteriorDraws as PosteriorDraws
from ._priors import BinormalPriors, ClassStats

# the score models: public path bayes_prc.criticism (`name as name`: importable here)
from ._score_model_fit import ScoreModelFit as ScoreModelFit
from ._score_models import SCORE_MODELS as SCORE_MODELS
from ._score_models import fit_score_model
from ._semiparametric import SemiparametricPriors

# the subgroup model: public path bayes_prc.subgroups (`name as name`: importable here)
from ._subgroup_model import SubgroupData, subgroup_data
from ._subgroup_model import SubgroupPriors as SubgroupPriors
from ._subgroups import (
    SUBGROUP_METRICS,
    fit_subgroups,
    independent_subgroup_draws,
    subgroup_fit_check,
)
from ._summaries import (
    averaged_pr_band,
    curve_band,
    pool_curves,
    positives_above_negatives,
    precision_one_reach,
    reach_precision_one,
)
from ._tied import discrete_ap_draws, discrete_values

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
    "curve_band",
    "pool_curves",
    "positives_above_negatives",
    "precision_one_reach",
    "reach_precision_one",
    "OvRPosterior",
    "fit_binormal",
    "discrete_ap_draws",
    "discrete_values",
    "fit_binormal_ovr",
    # helpers of the layers above (criticism, paired, pool, scale, _dispatch)
    "AUTO_METHOD",
    "ClassStats",
    "calibration_basis",
    "check_fit_options",
    "fit_from_statistics",
    "fit_paired_posterior",
    "fit_pool_pair",
    "fit_score_model",
    "pool_normal_scores",
    "SUBGROUP_METRICS",
    "SubgroupData",
    "fit_subgroups",
    "independent_subgroup_draws",
    "subgroup_data",
    "subgroup_fit_check",
]
