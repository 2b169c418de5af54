"""Score densities, sampling and maximum-likelihood fit of the binormal model (a mixin of
:class:`bayes_prc.binormal.Binormal`)."""

from __future__ import annotations

import numpy as np

from .._core import (
    check_1d,
    check_consistent_length,
    check_finite_scores,
    check_random_state,
    plain,
)
from .._core.transforms import location_scale
from ._common import LOG_SQRT_2PI, _as_scalar_or_array, _sample_size, expand_to_draws


class _BinormalSampling:
    """Class score densities, :meth:`sample` and :meth:`fit` of the binormal model (mixin)."""

    def _class_params(self, label):
        if isinstance(label, (bool, np.bool_)) or label in (0, 1):
            positive = bool(label)
        else:
            raise ValueError(f"`label` must be 0, 1 or a bool; got {plain(label)}")
        if positive:
            return self.mu_pos, self.sigma_pos
        return self.mu_neg, self.sigma_neg

    def logpdf(self, x, label):
        """Log density of the scores of one class.

        Parameters
        ----------
        x : float or array_like
            Scores.
        label : {0, 1} or bool
            1 (True) for the positive class, 0 (False) for the negative class.

        Returns
        -------
        numpy.ndarray or numpy.float64
            Shape ``batch_shape + np.shape(x)``.

        Examples
        --------
        >>> from bayes_prc.binormal import Binormal
        >>> round(float(Binormal(1.0, 1.0, 0.0, 1.0, 0.1).logpdf(1.0, label=1)), 4)
        -0.9189
        """
        mu, sigma = self._class_params(label)
        xa = np.asarray(x, dtype=np.float64)
        k = xa.ndim
        zs = (xa - expand_to_draws(mu, k)) / expand_to_draws(sigma, k)
        out = -0.5 * zs * zs - np.log(expand_to_draws(sigma, k)) - LOG_SQRT_2PI
        return _as_scalar_or_array(out)

    def pdf(self, x, label):
        """Density of the scores of one class (see :meth:`logpdf`).

        Examples
        --------
        >>> from bayes_prc.binormal import Binormal
        >>> round(float(Binormal(1.0, 2.0, 0.0, 1.0, 0.1).pdf(1.0, label=1)), 4)
        0.1995
        """
        return _as_scalar_or_array(np.exp(self.logpdf(x, label)))

    def sample(self, n, random_seed=None):
        """Draw ``n`` labelled scores from a single (``batch_shape == ()``) model.

        Each item is positive with probability ``prevalence``; its score is drawn from
        its class's normal distribution.

        Parameters
        ----------
        n : int
            Number of items (>= 0).
        random_seed : None, int or numpy.random.Generator, optional
            Seed or generator, passed once through :func:`numpy.random.default_rng`; the
            global random state is never used.

        Returns
        -------
        y_true : numpy.ndarray of int64
            0/1 labels, shape ``(n,)``.
        y_score : numpy.ndarray of float64
            Scores, shape ``(n,)``.

        Examples
        --------
        >>> from bayes_prc.binormal import Binormal
        >>> y_true, y_score = Binormal(1.0, 1.0, 0.0, 1.0, 0.1).sample(5, random_seed=0)
        >>> y_true.shape, y_score.dtype
        ((5,), dtype('float64'))
        """
        n_items = _sample_size(self.batch_shape, n)
        rng = check_random_state(random_seed)
        y_true = (rng.random(n_items) < self.prevalence).astype(np.int64)
        z = rng.standard_normal(n_items)
        y_score = np.where(
            y_true == 1,
            self.mu_pos + self.sigma_pos * z,
            self.mu_neg + self.sigma_neg * z,
        )
        return y_true, y_score

    @classmethod
    def fit(cls, y_true, y_score):
        """Maximum-likelihood binormal model of labelled scores.

        Per-class mean and maximum-likelihood standard deviation (``ddof=0``), and the
        prevalence as the fraction of positives.

        Parameters
        ----------
        y_true : array_like of shape (n,)
            Labels, 0/1 or bool.
        y_score : array_like of shape (n,)
            Finite scores; each class needs at least two distinct scores.

        Returns
        -------
        Binormal
            A single model (``batch_shape == ()``).

        Examples
        --------
        >>> from bayes_prc.binormal import Binormal
        >>> model = Binormal.fit([0, 0, 1, 1], [0.0, 1.0, 2.0, 4.0])
        >>> model
        Binormal(mu_pos=3, sigma_pos=1, mu_neg=0.5, sigma_neg=0.5, prevalence=0.5)
        """
        score = check_1d(y_score, "y_score")
        labels = check_1d(y_true, "y_true")
        check_consistent_length(y_true=labels, y_score=score)
        score = check_finite_scores(score, "y_score").astype(np.float64)
        if labels.dtype.kind == "b":
            positive = labels
        else:
            if labels.dtype.kind not in "iuf":
                raise ValueError(
                    f"`y_true` must hold 0/1 or bool labels; got dtype {labels.dtype} "
                    f"(first value {labels[0].item()!r})"
                )
            bad = ~((labels == 0) | (labels == 1))
            if np.any(bad):
                i = int(np.flatnonzero(bad)[0])
                raise ValueError(
                    f"`y_true` must hold 0/1 or bool labels; got {plain(labels[i].item())} at index {i}"
                )
            positive = labels == 1
        estimates = {}
        for name, mask in (("positive", positive), ("negative", ~positive)):
            scores = score[mask]
            n_distinct = np.unique(scores).size
            if n_distinct < 2:
                raise ValueError(
                    f"`y_score` needs at least 2 distinct scores per class to estimate a "
                    f"positive standard deviation; the {name} class (from `y_true`) has "
                    f"{scores.size} score(s), {n_distinct} distinct"
                )
            estimates[name] = location_scale(scores)  # MLE; safe at any magnitude
        return cls(
            mu_pos=estimates["positive"][0],
            sigma_pos=estimates["positive"][1],
            mu_neg=estimates["negative"][0],
            sigma_neg=estimates["negative"][1],
            prevalence=float(np.mean(positive)),
        )
