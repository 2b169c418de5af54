"""The prepared input of every binary evaluation: validated, sorted and counted once.

A public function that takes ``(y_true, y_score[, sample_weight, pos_label])`` calls
:func:`as_ranked` once at its boundary and passes the :class:`Ranked` object down; every
lower function that needs the labels, the descending score order or the cumulative
counts reads them from it instead of validating, sorting or counting again. A caller that
already holds a :class:`Ranked` may pass it as ``y_true`` (with ``y_score=None``) to any
function that accepts one.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from .._core import validate_binary_inputs
from ._counting import binary_clf_counts, stable_descending_order

__all__ = ["Ranked", "as_ranked"]


@dataclass(frozen=True, eq=False)
class Ranked:
    """Validated binary evaluation data; order and counts computed on first use.

    Build it with :meth:`from_arrays` (or :func:`as_ranked`), never directly from
    unvalidated arrays.

    Attributes
    ----------
    is_pos : ndarray of bool, shape (n_samples,)
        True for positive samples, in input order.
    y_score : ndarray, shape (n_samples,)
        Finite numeric scores in input order.
    sample_weight : ndarray of float64 or None
        Non-negative weights, not all zero.
    pos_label : object
        The label counted as positive.

    Examples
    --------
    >>> from bayes_prc.empirical import Ranked
    >>> r = Ranked.from_arrays([0, 1, 1, 0], [0.1, 0.9, 0.4, 0.4])
    >>> r.n_pos, r.n_neg
    (2, 2)
    >>> r.counts[1].tolist()  # true positives at each distinct threshold, highest first
    [1.0, 2.0, 2.0]
    """

    is_pos: np.ndarray
    y_score: np.ndarray
    sample_weight: np.ndarray | None
    pos_label: object

    @classmethod
    def from_arrays(cls, y_true, y_score, *, pos_label=None, sample_weight=None):
        """Validate ``(y_true, y_score, sample_weight)`` once (messages name the parameter)."""
        is_pos, score, w, pos_label = validate_binary_inputs(
            y_true, y_score, pos_label=pos_label, sample_weight=sample_weight
        )
        return cls(is_pos, score, w, pos_label)

    @property
    def n_samples(self):
        return int(self.is_pos.shape[0])

    @cached_property
    def n_pos(self):
        """Number of positive samples (unweighted)."""
        return int(np.count_nonzero(self.is_pos))

    @property
    def n_neg(self):
        """Number of negative samples (unweighted)."""
        return self.n_samples - self.n_pos

    @cached_property
    def all_tied(self):
        """True when every score is the same (a constant score ranks nothing)."""
        return bool(self.y_score.size) and bool(self.y_score.min() == self.y_score.max())

    @cached_property
    def order(self):
        """Stable descending order of ``y_score`` (ties keep input order)."""
        return stable_descending_order(self.y_score)

    @cached_property
    def counts(self):
        """``(fps, tps, thresholds)`` of :func:`binary_clf_counts`, computed once."""
        return binary_clf_counts(self.is_pos, self.y_score, self.sample_weight)

    @cached_property
    def derived(self):
        """Memo of results computed from these data by upper layers, keyed by name.

        A function that needs an expensive by-product of the data (e.g. DeLong's
        components for every ROC AUC interval of a table) stores it here, so a prepared
        object passed down to several calls computes it once. Empty at first.
        """
        return {}


def as_ranked(y_true, y_score=None, *, pos_label=None, sample_weight=None):
    """Return ``y_true`` if it is a :class:`Ranked`, else validate into one.

    Examples
    --------
    >>> from bayes_prc.empirical import as_ranked
    >>> r = as_ranked([0, 1], [0.2, 0.8])
    >>> as_ranked(r) is r
    True
    """
    if isinstance(y_true, Ranked):
        if y_score is not None or sample_weight is not None:
            raise ValueError(
                "pass either a prepared `Ranked` as `y_true` or raw arrays, not both "
                f"(got y_score={type(y_score).__name__}, "
                f"sample_weight={type(sample_weight).__name__})"
            )
        return y_true
    if y_score is None:
        raise ValueError("`y_score` is required when `y_true` is not a prepared `Ranked`")
    return Ranked.from_arrays(y_true, y_score, pos_label=pos_label, sample_weight=sample_weight)
