"""Score populations that break the binormal assumption, with their true AP.

Each :class:`Population` is a generative design for labelled scores (labels first,
``y ~ Bernoulli(prevalence)``, then each item's score from its class's distribution) and
the **population** average precision: the area under the population PR curve,

.. math::

    \\mathrm{AP} = \\int_0^1 \\mathrm{precision}(r)\\,dr
    = E_{\\mathrm{pos}}\\!\\left[\\frac{\\pi S_+(X)}{\\pi S_+(X) + (1 - \\pi) S_-(X)}\\right],

with :math:`\\pi` the prevalence and :math:`S_\\pm` the survival functions of the two
class-conditional score distributions. It is the quantity an interval for AP is meant to
cover in a coverage study (``benchmarks/coverage_nonnormal.py``, ``docs/coverage.md``).

Populations (prevalence 0.2 unless asked otherwise):

``"classifier_probabilities"``
    Probabilities of a fixed, misspecified linear-logistic classifier on a non-linear
    population: features ``x ~ N(0, I_5)``; true logit
    ``-4.2 + x1 + 2 x2^2 + x1 x3 + 0.7 x4 - 0.5 |x5|``; the classifier's score is
    ``expit(-2 + 0.8 x1 + 1.6 x2 + 0.3 x3 + 0.5 x4 + 0.2 x5)``. Given the class, ``x`` is
    drawn from its class-conditional distribution by rejection (accept ``x ~ N(0, I_5)``
    with probability ``P(y | x)``), so the prevalence is a free parameter. On the logit
    scale the positives' scores are bimodal (``x2`` far from 0 on either side), the
    negatives' light-tailed. True AP by Monte Carlo (4e6 items, standard error 3e-4).
``"gamma_skewed"``
    Negatives ``Gamma(1.5, 1)``, positives ``Gamma(4, 1)``: right-skewed scores with
    unequal variances. True AP by quadrature.
``"beta_probabilities"``
    Negatives ``Beta(1.5, 6)``, positives ``Beta(4, 2)``: skewed probabilities, analysed
    after ``transform="logit"``. True AP by quadrature.
``"hard_negatives"``
    Positives ``N(2, 1)``; 12% of the negatives are drawn from the positives'
    distribution ("hard negatives" that no threshold separates), the rest ``N(0, 1)``.
    True AP by quadrature.
``"binormal"``
    The control: positives ``N(1.5, 1)``, negatives ``N(0, 1)``. True AP by quadrature.

Quadrature uses the recall as the variable of integration: ``t = S_+^{-1}(r)``,
``precision(r) = pi r / (pi r + (1 - pi) S_-(t))`` with ``S_-`` evaluated on the log scale,
so the integrand is bounded and smooth on ``[0, 1]`` and :func:`scipy.integrate.quad`
reaches an absolute error below 1e-9.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
from scipy import integrate, stats
from scipy.special import expit

from ._core import check_random_state, plain

__all__ = ["Population", "population", "POPULATIONS", "DEFAULT_PREVALENCE"]

#: Prevalence of every population unless :func:`population` is asked for another.
DEFAULT_PREVALENCE = 0.2


@dataclass(frozen=True)
class Population:
    """A labelled-score population with a known true AP.

    Attributes
    ----------
    name : str
    description : str
        The generative design in one sentence.
    true_ap : float
        The population average precision (area under the population PR curve) at
        ``prevalence``.
    transform : {None, "logit"}
        The transform under which a parametric binormal model is meant to be fitted
        (``"logit"`` for probability scores).
    prevalence : float
        ``P(y = 1)``.
    true_ap_se : float
        Standard error of ``true_ap`` (0 up to quadrature error for closed-form
        populations; the Monte-Carlo standard error otherwise).
    draw_positive, draw_negative : callable
        ``(rng, size) -> scores`` from each class-conditional distribution.

    Examples
    --------
    >>> from bayes_prc.populations import population
    >>> pop = population("gamma_skewed")
    >>> y, score = pop.sample(200, random_seed=0)
    >>> y.shape, score.shape
    ((200,), (200,))
    >>> round(pop.true_ap, 4)
    0.6526
    """

    name: str
    description: str
    true_ap: float
    transform: str | None
    prevalence: float
    true_ap_se: float = 0.0
    draw_positive: Callable = field(default=None, repr=False, compare=False)
    draw_negative: Callable = field(default=None, repr=False, compare=False)

    def sample(self, n, random_seed=None):
        """Draw ``n`` labelled scores: ``y ~ Bernoulli(prevalence)``, scores by class.

        Labels are redrawn (from the same stream) until both classes have at least two
        items, so every data set has positives and negatives.

        Parameters
        ----------
        n : int
            Number of items, at least 4.
        random_seed : int, Generator or None

        Returns
        -------
        y : ndarray of int, shape (n,)
            0/1 labels.
        score : ndarray of float, shape (n,)

        Examples
        --------
        >>> from bayes_prc.populations import population
        >>> y, s = population("binormal").sample(50, random_seed=1)
        >>> int(y.sum()) >= 2 and int((1 - y).sum()) >= 2
        True
        """
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 4:
            raise ValueError(f"`n` must be an integer of at least 4; got {plain(n)}")
        rng = check_random_state(random_seed)
        while True:
            y = (rng.random(int(n)) < self.prevalence).astype(np.int64)
            n_pos = int(y.sum())
            if 2 <= n_pos <= n - 2:
                break
        score = np.empty(int(n), dtype=float)
        score[y == 1] = self.draw_positive(rng, n_pos)
        score[y == 0] = self.draw_negative(rng, int(n) - n_pos)
        return y, score


# ---------------------------------------------------------------------------------------
# true AP by quadrature


def _quadrature_ap(positive, negative_logsf, prevalence):
    """Population AP = int_0^1 precision(r) dr, with ``t = positive.isf(r)``.

    ``positive`` is a frozen scipy distribution; ``negative_logsf(t)`` the log survival
    function of the negatives.
    """
    log_odds = np.log1p(-prevalence) - np.log(prevalence)

    def precision(r):
        if r <= 0.0:
            r = 1e-300
        t = positive.isf(r)
        # precision = 1 / (1 + (1 - pi)/pi * S_neg(t)/r), on the log scale
        return float(expit(-(log_odds + negative_logsf(t) - np.log(r))))

    value, _ = integrate.quad(precision, 0.0, 1.0, limit=500, epsabs=1e-12, epsrel=1e-11)
    return float(value)


def _mixture_logsf(components, weights):
    logw = np.log(np.asarray(weights, dtype=float))

    def logsf(t):
        return float(
            np.logaddexp.reduce([lw + c.logsf(t) for lw, c in zip(logw, components, strict=True)])
        )

    return logsf


def _scipy_drawer(dist):
    def draw(rng, size):
        return dist.rvs(size=size, random_state=rng)

    return draw


def _closed_form(name, description, positive, negatives, weights, transform, prevalence):
    def draw_negative(rng, size):
        if len(negatives) == 1:
            return negatives[0].rvs(size=size, random_state=rng)
        which = rng.choice(len(negatives), size=size, p=weights)
        out = np.empty(size)
        for k, dist in enumerate(negatives):
            idx = which == k
            out[idx] = dist.rvs(size=int(idx.sum()), random_state=rng)
        return out

    return Population(
        name=name,
        description=description,
        true_ap=_quadrature_ap(positive, _mixture_logsf(negatives, weights), prevalence),
        transform=transform,
        prevalence=prevalence,
        draw_positive=_scipy_drawer(positive),
        draw_negative=draw_negative,
    )


# ---------------------------------------------------------------------------------------
# the classifier population (true AP by Monte Carlo)

#: Share of hard negatives in ``"hard_negatives"``.
HARD_NEGATIVE_SHARE = 0.12

_CLF_TRUE_INTERCEPT = -4.2
_CLF_SCORE_INTERCEPT = -2.0
_CLF_SCORE_COEF = np.array([0.8, 1.6, 0.3, 0.5, 0.2])


def _classifier_true_logit(x):
    x1, x2, x3, x4, x5 = x.T
    return _CLF_TRUE_INTERCEPT + x1 + 2.0 * x2**2 + x1 * x3 + 0.7 * x4 - 0.5 * np.abs(x5)


def _classifier_logit_score(x):
    return _CLF_SCORE_INTERCEPT + x @ _CLF_SCORE_COEF


def _classifier_class_logits(rng, size, positive, chunk=1_000_000):
    """Logit-scale classifier scores of ``size`` items of one class (rejection sampling)."""
    out = []
    have = 0
    while have < size:
        # the positives are accepted at a rate of about 0.19, the negatives 0.81
        m = min(chunk, max(64, int(1.3 * (size - have) / (0.19 if positive else 0.81))))
        x = rng.standard_normal((m, 5))
        p = expit(_classifier_true_logit(x))
        keep = rng.random(m) < (p if positive else 1.0 - p)
        s = _classifier_logit_score(x[keep])
        out.append(s)
        have += s.size
    return np.concatenate(out)[:size]


def _draw_classifier(positive):
    def draw(rng, size):
        return expit(_classifier_class_logits(rng, size, positive))

    return draw


def _weighted_ap(pos, neg, prevalence):
    """AP of the weighted sample (class weights pi/n_pos, (1 - pi)/n_neg); no ties."""
    scores = np.concatenate([pos, neg])
    w = np.concatenate(
        [np.full(pos.size, prevalence / pos.size), np.full(neg.size, (1 - prevalence) / neg.size)]
    )
    order = np.argsort(-scores, kind="stable")
    w = w[order]
    is_pos = order < pos.size
    cum_w = np.cumsum(w)
    cum_pos = np.cumsum(np.where(is_pos, w, 0.0))
    return float(np.mean(cum_pos[is_pos] / cum_w[is_pos]))


def classifier_reference_ap(
    prevalence=DEFAULT_PREVALENCE, n_per_class=2_000_000, random_seed=0, n_batches=20
):
    """Monte-Carlo AP of ``"classifier_probabilities"`` and its standard error.

    ``n_per_class`` positive and as many negative logit-scale scores are drawn from the
    class-conditional distributions; the AP of this sample, weighted to ``prevalence``,
    estimates the population AP (bias O(1/n_per_class)). The standard error is the
    spread of the AP over ``n_batches`` disjoint batches divided by ``sqrt(n_batches)``.

    Returns
    -------
    (float, float)
        The estimate and its standard error.
    """
    rng = check_random_state(random_seed)
    pos = _classifier_class_logits(rng, n_per_class, True)
    neg = _classifier_class_logits(rng, n_per_class, False)
    ap = _weighted_ap(pos, neg, prevalence)
    batch = [
        _weighted_ap(p, q, prevalence)
        for p, q in zip(np.array_split(pos, n_batches), np.array_split(neg, n_batches), strict=True)
    ]
    return ap, float(np.std(batch, ddof=1) / np.sqrt(n_batches))


#: ``classifier_reference_ap(0.2, n_per_class=2_000_000, random_seed=0)`` (4e6 items),
#: computed once; ``tests/workflows/test_coverage_nonnormal.py`` re-computes it (slow test).
_CLASSIFIER_AP_02 = (0.4728882917190817, 0.00027367548315969555)


@functools.lru_cache(maxsize=16)
def _classifier_true_ap(prevalence):
    if prevalence == DEFAULT_PREVALENCE:
        return _CLASSIFIER_AP_02
    return classifier_reference_ap(prevalence)


# ---------------------------------------------------------------------------------------
# the catalogue

_NAMES = (
    "classifier_probabilities",
    "gamma_skewed",
    "beta_probabilities",
    "hard_negatives",
    "binormal",
)


def population(name, prevalence=DEFAULT_PREVALENCE):
    """One of the named populations, at the given prevalence.

    Parameters
    ----------
    name : {"classifier_probabilities", "gamma_skewed", "beta_probabilities", \
"hard_negatives", "binormal"}
    prevalence : float, default 0.2
        ``P(y = 1)``; the class-conditional score distributions do not depend on it.
        For ``"classifier_probabilities"`` at a prevalence other than 0.2 the true AP is
        computed by Monte Carlo on first use (4e6 items, a few seconds).

    Returns
    -------
    Population

    Examples
    --------
    >>> from bayes_prc.populations import population
    >>> pop = population("hard_negatives")
    >>> pop.transform is None, round(pop.true_ap, 3)
    (True, 0.573)
    >>> round(population("binormal", prevalence=0.5).true_ap, 3)
    0.854
    """
    if name not in _NAMES:
        raise ValueError(f"`name` must be one of {_NAMES}; got {plain(name)}")
    if isinstance(prevalence, bool) or not isinstance(prevalence, (int, float)):
        raise ValueError(f"`prevalence` must be a number in (0, 1); got {plain(prevalence)}")
    if not 0 < prevalence < 1:
        raise ValueError(f"`prevalence` must be in (0, 1); got {plain(prevalence)}")
    prevalence = float(prevalence)
    if name == "classifier_probabilities":
        ap, se = _classifier_true_ap(prevalence)
        return Population(
            name=name,
            description=(
                "expit(-2 + 0.8 x1 + 1.6 x2 + 0.3 x3 + 0.5 x4 + 0.2 x5), a fixed linear-"
                "logistic classifier, on x ~ N(0, I_5) with true logit -4.2 + x1 + 2 x2^2 "
                "+ x1 x3 + 0.7 x4 - 0.5|x5| (positives bimodal on the logit scale)"
            ),
            true_ap=ap,
            transform="logit",
            prevalence=prevalence,
            true_ap_se=se,
            draw_positive=_draw_classifier(True),
            draw_negative=_draw_classifier(False),
        )
    if name == "gamma_skewed":
        return _closed_form(
            name,
            "negatives Gamma(1.5, 1), positives Gamma(4, 1)",
            stats.gamma(4.0),
            [stats.gamma(1.5)],
            [1.0],
            None,
            prevalence,
        )
    if name == "beta_probabilities":
        return _closed_form(
            name,
            "negatives Beta(1.5, 6), positives Beta(4, 2) (probabilities; logit transform)",
            stats.beta(4.0, 2.0),
            [stats.beta(1.5, 6.0)],
            [1.0],
            "logit",
            prevalence,
        )
    if name == "hard_negatives":
        w = HARD_NEGATIVE_SHARE
        return _closed_form(
            name,
            f"positives N(2, 1); negatives {w:g} N(2, 1) (hard negatives) + {1 - w:g} N(0, 1)",
            stats.norm(2.0, 1.0),
            [stats.norm(2.0, 1.0), stats.norm(0.0, 1.0)],
            [w, 1 - w],
            None,
            prevalence,
        )
    return _closed_form(
        name,
        "positives N(1.5, 1), negatives N(0, 1) (binormal control)",
        stats.norm(1.5, 1.0),
        [stats.norm(0.0, 1.0)],
        [1.0],
        None,
        prevalence,
    )


#: Every population at the default prevalence 0.2, by name.
POPULATIONS = {name: population(name) for name in _NAMES}
