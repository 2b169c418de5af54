"""Ranking k classifiers scored on the same items: :func:`compare_models`.

Which model is best, and can the ranking be trusted? Simultaneous rank sets from the
paired bootstrap's step-down max-t procedure (Mogstad, Romano, Shaikh & Wilhelm 2024)
beside the joint Bayesian bootstrap posterior of all k metrics.
"""

from ._compare import MODEL_COMPARISON_METHODS, RECOMMENDED_METHOD, ModelComparison, compare_models

__all__ = ["MODEL_COMPARISON_METHODS", "RECOMMENDED_METHOD", "ModelComparison", "compare_models"]
