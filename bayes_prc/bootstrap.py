r"""The bootstrap engine: resampled AUC-PR estimates without re-sorting.

Every resample of a labelled data set is a vector of non-negative weights over its
items: integer resampling counts for the ordinary bootstrap, Dirichlet(1, ..., 1) weights
for Rubin's (1981) Bayesian bootstrap. Average precision on weighted data depends only on
the weighted true- and false-positive counts at each distinct threshold, so the data are
sorted **once** and each replicate is reduced to cumulative sums over that fixed order.

Counting scheme
---------------
Let :math:`v_1 > v_2 > \dots > v_K` be the distinct scores held by at least one positive.
Each positive belongs to the group :math:`g` with :math:`s = v_g`; each negative belongs to
the bin :math:`b = \#\{g : v_g > s\}` (the first positive group it counts against: a
negative tied with :math:`v_g` is counted at :math:`v_g`, as ``score >= threshold``
requires; :math:`b = K` for negatives below every positive, which never matter). For
weights :math:`w`, with :math:`a_g` the positive weight of group :math:`g` and
:math:`c_b` the negative weight of bin :math:`b`,

.. math::

    TP_g = \sum_{h \le g} a_h, \qquad FP_g = \sum_{b \le g} c_b, \qquad
    \mathrm{AP} = \frac{1}{TP_K} \sum_{g} a_g \, \frac{TP_g}{TP_g + FP_g},

which is scikit-learn's step-wise AP :math:`\sum_n (R_n - R_{n-1}) P_n` of the weighted
data: thresholds that hold no positive weight add no recall, and groups of weight zero
are absent from the resample but contribute zero. With integer counts as weights this is
the AP of the resample with its duplicated (tied) items written out.

Each replicate therefore costs two :func:`numpy.bincount` calls (O(n), no sort), and the
AP of a block of replicates is a few vectorized operations on ``(block, K)`` arrays.
Blocks are sized from a memory budget (see :func:`bootstrap_replicates`). The other
AUC-PR estimators need every threshold, so for them each replicate's weights are passed,
in the pre-sorted order, to the kernel of :func:`bayes_prc.auc_pr` (``sample_weight`` =
counts; items of weight zero are dropped by the kernel); the stable sort of already sorted
scores is O(n).

This module is the public path of the engine implemented in :mod:`bayes_prc.frequentist`;
:func:`bayes_prc.paired.compare_classifiers` counts its two classifiers under the same
draws of it (one replicate per block).

Random draws
------------
One :class:`numpy.random.Generator` (from ``random_seed``) is used in a fixed order, a
block of ``b`` replicates at a time: ``rng.integers(0, n_pos, size=(b, n_pos))`` (which
positives each replicate draws, by their rank among the positives in input order), then
``rng.integers(0, n_neg, size=(b, n_neg))`` for the negatives (stratified bootstrap: each
class is resampled to its own size); for the Bayesian bootstrap
``rng.standard_exponential(size=(b, n))`` with each row divided by its sum (Dirichlet(1,
..., 1) draws). :func:`stratified_indices`, :func:`stratified_counts` and
:func:`dirichlet_weights` replay exactly these draws, so every replicate can be checked
against another implementation on the explicit resample.

References
----------
.. [1] Efron, B. (1987). "Better bootstrap confidence intervals". JASA 82 (397): 171-185.
.. [2] Rubin, D. B. (1981). "The Bayesian bootstrap". Annals of Statistics 9 (1): 130-134.
.. [3] Davison, A. C.; Hinkley, D. V. (1997). Bootstrap Methods and their Application,
   Cambridge University Press (stratified resampling; BCa intervals, chapter 5).
"""

from __future__ import annotations

from .frequentist import (
    BOOTSTRAP_KINDS,
    DEFAULT_MEMORY_BUDGET,
    BCaInterval,
    average_precision_replicates,
    bca_interval,
    bootstrap_replicates,
    dirichlet_weights,
    jackknife_values,
    percentile_interval,
    stratified_counts,
    stratified_indices,
    unstratified_indices,
)
from .frequentist import BYTES_PER_ITEM as BYTES_PER_ITEM
from .frequentist import JACKKNIFE_MAX_PER_CLASS as JACKKNIFE_MAX_PER_CLASS

__all__ = [
    "DEFAULT_MEMORY_BUDGET",
    "BOOTSTRAP_KINDS",
    "BCaInterval",
    "average_precision_replicates",
    "bca_interval",
    "bootstrap_replicates",
    "dirichlet_weights",
    "jackknife_values",
    "percentile_interval",
    "stratified_counts",
    "stratified_indices",
    "unstratified_indices",
]
