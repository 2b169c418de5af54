"""The Bayesian binormal model: priors, PyMC model, exact conjugate posterior, results.

Only the model modules (``_model``, ``_score_models``) import PyMC, and only inside the
functions that build or sample a model; ``method="exact"`` needs numpy, scipy, xarray and
ArviZ.
"""

# (the shared sampler kernels, _common, _idata, _laplace, _model, _priors: also for the pool)
from ._common import DEFAULT_RECALL, check_unit_grid, convergence_diagnostics, warn_if_unreliable
from ._compiled import SamplerOptions
from ._contaminated import ContaminatedPriors
from ._fit import AUTO_METHOD, check_fit_options, fit_binormal, fit_from_statistics
from ._fitcheck import FitCheck, fit_check, grade_of
from ._flexible import FlexiblePriors
from ._idata import SAMPLE_DIMS
from ._laplace import (
    KHAT_OK,
    adaptive_importance,
    importance_summary,
    proposal_chol,
    psis,
    systematic,
    t_draws,
    tempered_smc,
)

# the rank-based models' kernels (here to _ordinal), shared with bayes_prc.subgroups
from ._model import _bin_probs as normal_bin_probs
from ._model import priors_key, sample_nuts
from ._multiclass import OvRPosterior, fit_binormal_ovr
from ._ordinal import (
    OrdinalData,
    bin_log_probs,
    default_max_categories,
    log_diff_ndtr,
    ordinal_categories,
    pad_cutpoints,
    tridiag_back,
    tridiag_cholesky,
    tridiag_solve,
)
from ._ordinal import _ratio_terms as ratio_terms
from ._ordinal import _weighted as count_weighted
from ._posterior import BinormalPosterior

# the base of the posterior results of the layers above (importable, not documented here)
from ._posterior_base import PosteriorDraws as PosteriorDraws
from ._priors import BinormalPriors, ClassStats

# the prior dataclasses' base (validation, from_any), shared with bayes_prc.subgroups
from ._priors import _Priors as PriorsBase

# the score models: public path bayes_prc.criticism (`name as name`: importable here)
from ._score_model_fit import ScoreModelFit as ScoreModelFit
from ._score_models import SCORE_MODELS as SCORE_MODELS
from ._score_models import fit_score_model
from ._semiparametric import (
    SemiparametricPriors,
    initial_cutpoints,
    sample_semiparametric_grid,
    starting_mu,
)
from ._summaries import (
    averaged_pr_band,
    curve_band,
    pool_curves,
    positives_above_negatives,
    precision_one_reach,
    reach_precision_one,
)
from ._tied import TIED_SCORE_MESSAGE, discrete_ap_draws, discrete_values

__all__ = [
    "BinormalPosterior",
    "BinormalPriors",
    "FitCheck",
    "grade_of",
    "ContaminatedPriors",
    "FlexiblePriors",
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
    "TIED_SCORE_MESSAGE",
    "convergence_diagnostics",
    "warn_if_unreliable",
    "AUTO_METHOD",
    "ClassStats",
    "check_fit_options",
    "fit_from_statistics",
    "fit_score_model",
    # kernels the subgroup model shares
    "OrdinalData",
    "PriorsBase",
    "bin_log_probs",
    "count_weighted",
    "default_max_categories",
    "initial_cutpoints",
    "log_diff_ndtr",
    "normal_bin_probs",
    "ordinal_categories",
    "pad_cutpoints",
    "ratio_terms",
    "sample_semiparametric_grid",
    "starting_mu",
    "tridiag_back",
    "tridiag_cholesky",
    "tridiag_solve",
    # the shared sampler kernels (the pool's models)
    "DEFAULT_RECALL",
    "KHAT_OK",
    "SAMPLE_DIMS",
    "SamplerOptions",
    "adaptive_importance",
    "check_unit_grid",
    "importance_summary",
    "priors_key",
    "proposal_chol",
    "psis",
    "sample_nuts",
    "systematic",
    "t_draws",
    "tempered_smc",
]
