"""Paired comparison of two classifiers scored on the same items: is B better than A?

Two classifiers evaluated on the same test set make correlated errors: an item that is
hard for A tends to be hard for B. Their average precisions are then positively
correlated, and the uncertainty of the *difference* ``AP_B - AP_A`` is smaller than
comparing two separate intervals suggests. :func:`compare_classifiers` keeps the pairing
in three ways:

* ``"bayes"``: a joint binormal model, bivariate normal (latent) scores per class (the
  correlation of the two classifiers' scores on the same items is a parameter) and a Beta
  prevalence; by default rank-based, each classifier with its own unknown monotone
  transform (Metz, Wang & Kronman 1984; :mod:`bayes_prc.paired._rank`). Each
  posterior draw gives both classifiers' analytic PR curves.
* ``"bayesian_bootstrap"``: the same Dirichlet weights over items for both classifiers'
  weighted AP (Rubin 1981).
* ``"bootstrap"``: resampling items within each class, the same items for A and B, and
  the percentile interval of the difference.

Each gives draws (or replicates) of the difference, hence ``P(AP_B > AP_A)``, an
interval, and the probabilities of a region of practical equivalence (Kruschke 2018).
Two frequentist tests give a p-value instead (:mod:`bayes_prc.paired._tests`):
``"delong"`` for the ROC AUC (``metric="roc_auc"``; DeLong et al. 1988) and
``"permutation"`` for the ROC AUC or AP (random swaps of the two classifiers' scores of an
item).

References
----------
.. [1] D. B. Rubin, "The Bayesian bootstrap", The Annals of Statistics 9(1), 1981,
   pp. 130-134.
.. [2] J. K. Kruschke, "Rejecting or accepting parameter values in Bayesian estimation",
   Advances in Methods and Practices in Psychological Science 1(2), 2018, pp. 270-280.
.. [3] K. H. Brodersen, C. S. Ong, K. E. Stephan and J. M. Buhmann, "The binormal
   assumption on precision-recall curves", ICPR 2010, pp. 4263-4266.
.. [4] B. Efron and R. J. Tibshirani, *An Introduction to the Bootstrap*, Chapman & Hall,
   1993 (percentile interval, stratified resampling).
.. [5] C. E. Metz, P.-L. Wang and H. B. Kronman, "A new approach for testing the
   significance of differences between ROC curves measured from correlated data", in
   Information Processing in Medical Imaging, Nijhoff, 1984, pp. 432-445.
"""

import warnings

# McNemar's test at fixed thresholds, a paired test too (its home is bayes_prc.frequentist)
from ..frequentist import McNemarResult, mcnemar_test
from ._compare import BAYES_METHODS, COMPARISON_METHODS, PairedComparison, compare_classifiers
from ._rank import JointFitCheck, JointRankPriors
from ._rank_model import fit_joint_rank_posterior  # PyMC is imported when a model is built
from ._tests import METRICS, NEAR_TIE_RANK_CORRELATION

__all__ = [
    "COMPARISON_METHODS",
    "METRICS",
    "NEAR_TIE_RANK_CORRELATION",
    "BAYES_METHODS",
    "JointFitCheck",
    "JointRankPriors",
    "McNemarResult",
    "PairedComparison",
    "compare_classifiers",
    "fit_joint_rank_posterior",
    "mcnemar_test",
]


def __getattr__(name):
    # ``METHODS`` was this module's name for COMPARISON_METHODS (it also named the
    # proportion methods in ``intervals``: one name, two meanings); the old name still works.
    if name == "METHODS":
        warnings.warn(
            "bayes_prc.paired.METHODS is deprecated; use COMPARISON_METHODS",
            DeprecationWarning,
            stacklevel=2,
        )
        return COMPARISON_METHODS
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
