"""Label-efficient evaluation of a scored pool: which items to label, and what they say.

Every score of the pool is known; only labels cost. :func:`select_labels` chooses the
items to label (random, score-stratified or importance sampling, with exact inclusion
probabilities; :meth:`LabelSelection.next_batch` extends a selection adaptively);
:func:`fit_pool` gives the posterior of the whole pool's PR curve, AP and ROC AUC from a
monotone calibration model; :func:`design_ap_interval` and
:func:`design_threshold_interval` are the design-based (Horvitz-Thompson) estimates and
intervals to compare with; :func:`plan_labels` predicts the AP interval's width at larger
budgets from a pilot; :func:`compare_pool` compares two classifiers scored on the same
pool from one labelled selection; :func:`ppi_ap_interval` and
:func:`ppi_threshold_interval` are the prediction-powered (model-assisted difference)
estimates, and :func:`pool_intervals` tabulates every AP interval with the one to quote.

Examples
--------
>>> import numpy as np
>>> import bayes_prc as bp
>>> rng = np.random.default_rng(0)
>>> y = rng.random(20_000) < 0.02
>>> s = rng.normal(size=y.size) + 2.5 * y
>>> sel = bp.select_labels(s, 300, random_seed=1)
>>> labels = y[sel.indices]  # in practice: ask an annotator for these items
>>> post = bp.fit_pool(s, sel, labels, random_seed=2)
>>> design = bp.design_ap_interval(s, sel, labels, random_seed=3)
>>> exact = bp.average_precision_score(y, s)
"""

from ._compare import PoolComparison, compare_on_selection, compare_pool
from ._design import (
    DESIGN_INTERVAL_METHODS,
    DesignInterval,
    ValidatedSelection,
    design_ap_interval,
    design_threshold_interval,
    prepare_selection,
)
from ._intervals import POOL_INTERVAL_METHODS, calibration_check, pool_intervals
from ._model import PoolPriors
from ._pair_model import PoolPairPriors, fit_pool_pair
from ._plan import budget_for_width, plan_labels
from ._posterior import PoolPosterior, fit_pool
from ._ppi import PPIInterval, ppi_ap_interval, ppi_threshold_interval, ppi_tp_reference
from ._selection import SELECTION_STRATEGIES, LabelSelection, read_only_array, select_labels

__all__ = [
    "DESIGN_INTERVAL_METHODS",
    "SELECTION_STRATEGIES",
    "DesignInterval",
    "LabelSelection",
    "PoolComparison",
    "PoolPosterior",
    "PoolPriors",
    "PoolPairPriors",
    "fit_pool_pair",
    "design_ap_interval",
    "budget_for_width",
    "compare_pool",
    "design_threshold_interval",
    "fit_pool",
    "plan_labels",
    "select_labels",
    "prepare_selection",
    "POOL_INTERVAL_METHODS",
    "PPIInterval",
    "calibration_check",
    "pool_intervals",
    "ppi_ap_interval",
    "ppi_threshold_interval",
    "ppi_tp_reference",
    "ValidatedSelection",
    # helper of bayes_prc.paired
    "compare_on_selection",
    # helper of bayes_prc.cli (the label files it reads back)
    "read_only_array",
]
