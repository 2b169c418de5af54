"""Bands of the PR curve by every method on one recall grid, and the one to draw."""

from __future__ import annotations

import numpy as np

from .._core import check_random_state, plain
from ..empirical import as_ranked
from ._common import _bayes_fit, _check_ci_prob, _check_methods, _check_outcome, _separated

__all__ = [
    "BAND_METHODS",
    "DEFAULT_BAND_METHODS",
    "MIN_BAND_POSITIVES",
    "MIN_BOOTSTRAP_BAND_POSITIVES",
    "compare_bands",
    "recommend_band",
]

#: Methods of :func:`compare_bands`, in table order: ``<source>_<kind>``.
BAND_METHODS = (
    "averaged_pointwise",
    "averaged_simultaneous",
    "semiparametric_pointwise",
    "semiparametric_simultaneous",
    "contaminated_pointwise",
    "contaminated_simultaneous",
    "flexible_pointwise",
    "flexible_simultaneous",
    "bootstrap_pointwise",
    "bootstrap_simultaneous_t",
)

#: The bands of :func:`compare_bands` by default (the flexible model only on request).
DEFAULT_BAND_METHODS = tuple(m for m in BAND_METHODS if not m.startswith("flexible"))

_BAND_LABELS = {
    "averaged_pointwise": "rank-based models averaged (binormal, contaminated, mixture), pointwise",
    "averaged_simultaneous": (
        "rank-based models averaged (binormal, contaminated, mixture), simultaneous"
    ),
    "semiparametric_pointwise": "rank-based binormal posterior, pointwise",
    "semiparametric_simultaneous": "rank-based binormal posterior, simultaneous",
    "contaminated_pointwise": "contaminated binormal posterior, pointwise",
    "contaminated_simultaneous": "contaminated binormal posterior, simultaneous",
    "flexible_pointwise": "flexible ROC posterior, pointwise",
    "flexible_simultaneous": "flexible ROC posterior, simultaneous",
    "bootstrap_pointwise": "stratified bootstrap, pointwise",
    "bootstrap_simultaneous_t": "stratified bootstrap, studentized sup-t (simultaneous)",
}


def _check_recall_grid(recall):
    if recall is None:  # the ends are limits: precision at recall 0 is not defined
        return np.linspace(0.01, 0.99, 99)
    grid = np.asarray(recall, dtype=np.float64)
    if grid.ndim != 1 or grid.size < 2 or not np.all(np.isfinite(grid)):
        raise ValueError(f"`recall` must be a 1-D grid of at least 2 values; got {plain(recall)}")
    if grid.min() < 0 or grid.max() > 1 or np.any(np.diff(grid) <= 0):
        raise ValueError(
            f"`recall` must be increasing values in [0, 1]; got {plain(grid.min())} to {grid.max()!r}"
        )
    return grid


def compare_bands(
    y_true,
    y_score,
    *,
    ci_prob=0.95,
    random_seed=None,
    recall=None,
    methods=None,
    n_resamples=1000,
    posterior=None,
    pos_label=None,
    progressbar=None,
):
    """Bands of the PR curve by every method on one recall grid, and the one to draw.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
    ci_prob : float, default 0.95
        Probability of every band: pointwise (at each recall) for ``*_pointwise``, for the
        whole curve for the simultaneous bands.
    random_seed : int, Generator or None
        One seed for every stochastic band (independent streams).
    recall : array-like, optional
        Increasing recall grid in [0, 1]; default 0.01, 0.02, ..., 0.99.
    methods : sequence of str, optional
        Subset of :data:`BAND_METHODS`; default :data:`DEFAULT_BAND_METHODS`.
        ``semiparametric_*``: the rank-based binormal posterior's band
        (:meth:`BinormalPosterior.pr_band`, ``kind="pointwise"`` or
        ``"simultaneous"``); ``contaminated_*`` and ``flexible_*`` those models';
        ``averaged_*`` the three rank-based posteriors pooled
        (:func:`bayes_prc.bayes.averaged_pr_band`); ``bootstrap_*``
        :func:`bayes_prc.bootstrap_pr_band` (stratified; ``kind="pointwise"`` or the
        studentized ``"simultaneous_t"``).
    n_resamples : int, default 1000
        Bootstrap replicates.
    posterior : BinormalPosterior, optional
        A rank-based fit (on the same data) to re-use for the rows of its model; a
        rank-based binormal fit (``model="semiparametric"``) also lends its averaged
        companions (:meth:`BinormalPosterior.averaged_posteriors`), so the
        ``averaged_*`` rows are its default :meth:`~BinormalPosterior.pr_band`.
    pos_label : label, optional
    progressbar : bool or None, default None
        Progress of the bootstraps and the NUTS fits (None: a text bar on stderr when it
        is a terminal, PyMC's bar for NUTS).

    Returns
    -------
    xarray.Dataset
        Variables ``lower``, ``median``, ``upper`` with dims ``band``, ``recall``;
        coordinates ``kind`` (``"pointwise"`` or ``"simultaneous"``), ``label`` and
        ``method`` (the same names as ``band``, the dimension's name before issue 39)
        along ``band``. ``attrs``: ``recommended`` (the ``band`` value of the
        simultaneous band to draw, or None), ``recommendation`` (why, one sentence),
        ``ci_prob``, ``fit_checks`` (:class:`FitCheck` of each model fit) and ``notes``
        (bands left out, and why). Select one band with ``bands.sel(band=name)``.

    Notes
    -----
    The recommendation depends on the data's situation, not on the bands' realized
    widths (:func:`recommend_band`): the ``averaged_simultaneous`` band (the rank-based
    binormal, contaminated and flexible posteriors pooled with equal weights,
    :func:`bayes_prc.bayes.averaged_pr_band`; the band of the default fit's
    :meth:`BinormalPosterior.pr_band`) when one of those models passes its fit check or
    the check is inconclusive, or the classes are separated; else the studentized
    bootstrap band (Montiel Olea & Plagborg-Moller 2019) with at least
    :data:`MIN_BOOTSTRAP_BAND_POSITIVES` positives; else none (``None``, and
    ``recommendation`` says why), as with fewer than :data:`MIN_BAND_POSITIVES` positives.
    The ``averaged_*`` bands' upper bound is 1 up to the recall where the data rule out
    precision 1 (:func:`bayes_prc.bayes.precision_one_reach`: the Clopper-Pearson upper
    bound of the recall of the positives scored above every negative): continuous model
    curves never reach 1, a finite population's curve is exactly 1 there (few positives,
    separated classes). On the populations of ``docs/coverage.md`` (nominal 90%, recall
    0.1-0.9) the pooled band contained the whole true curve in 0.875-1.00 of the data sets
    at n = 200 and 0.90-0.97 at n = 1000 (label noise, hard negatives, classifier
    probabilities), at 0.63-0.70 times the bootstrap band's width; each single model's
    band fell to 0.37-0.80 somewhere. The rank-based binormal check is deterministic; the
    contaminated and flexible checks are posterior predictive (seeded), and decide only
    when the binormal check fails.

    Examples
    --------
    >>> import bayes_prc as bp
    >>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.3).sample(300, random_seed=0)
    >>> bands = bp.compare_bands(y, s, ci_prob=0.9, random_seed=0, n_resamples=200)
    >>> bands["band"].values.tolist()  # doctest: +NORMALIZE_WHITESPACE
    ['averaged_pointwise', 'averaged_simultaneous', 'semiparametric_pointwise',
     'semiparametric_simultaneous', 'contaminated_pointwise', 'contaminated_simultaneous',
     'bootstrap_pointwise', 'bootstrap_simultaneous_t']
    >>> bands.attrs["recommended"], dict(bands.sizes)
    ('averaged_simultaneous', {'band': 8, 'recall': 99})
    >>> best = bands.sel(band=bands.attrs["recommended"])  # lower, median, upper over recall
    >>> bool((bands["lower"] <= bands["upper"]).all())
    True
    """
    import xarray as xr

    from ..bayes import (
        curve_band,
        pool_curves,
        positives_above_negatives,
        precision_one_reach,
        reach_precision_one,
    )
    from ..frequentist import bootstrap_pr_band

    ci_prob = _check_ci_prob(ci_prob)
    grid = _check_recall_grid(recall)
    methods = _check_methods(methods, BAND_METHODS, DEFAULT_BAND_METHODS)
    ranked = as_ranked(y_true, y_score, pos_label=pos_label)  # the one validation
    is_pos, score = ranked.is_pos, ranked.y_score
    n_pos = int(is_pos.sum())
    n_above = positives_above_negatives(is_pos, score)
    rng = check_random_state(random_seed)
    seeds = rng.spawn(len(methods) + 3)
    model_seeds = dict(zip(("semiparametric", "flexible", "contaminated"), seeds[-3:], strict=True))
    attrs = {"ci_prob": ci_prob, "notes": {}, "fit_checks": {}}
    separated = _separated(is_pos, score)
    fits, rows, curves = {}, {}, {}
    companions = {}  # a default (rank-based binormal) fit's averaged models, re-used
    if getattr(posterior, "model_type", None) == "semiparametric":
        try:
            companions = posterior.averaged_posteriors()
        except ValueError as err:  # a companion that cannot be fit: fitted (or noted) below
            attrs["notes"]["averaged"] = str(err)
    for method, seed in zip(methods, seeds[: len(methods)], strict=True):
        source, kind = method.split("_", 1)
        if source == "bootstrap":
            band = bootstrap_pr_band(
                ranked,
                None,
                grid_points=grid,
                n_resamples=n_resamples,
                confidence_level=ci_prob,
                random_seed=seed,
                kind=kind,
                progressbar=progressbar,
            )
        else:
            for model in _AVERAGED if source == "averaged" else (source,):
                if model not in fits and model in companions:
                    # the given fit's own companions: its default band is this band
                    fits[model] = companions[model]
                    check = fits[model].fit_check(random_seed=model_seeds[model])
                    attrs["fit_checks"][model] = check
                elif model not in fits:
                    fits[model] = _bayes_fit(
                        ranked,
                        posterior,
                        None,
                        "auto",
                        model_seeds[model],
                        progressbar,
                        model,
                        attrs,
                    )
            # each model's posterior curves on the grid, computed once for all its bands
            for model, fit in fits.items():
                if fit is not None and model not in curves:
                    curves[model] = fit.model.precision_at_recall(grid).reshape(-1, grid.size)
            pooled = _AVERAGED if source == "averaged" else (source,)
            pooled = [curves[m] for m in pooled if m in curves]
            if not pooled:
                continue
            band = curve_band(pool_curves(pooled), grid, ci_prob, kind)
            if source == "averaged":  # as BinormalPosterior.pr_band's averaged band
                reach_precision_one(band, precision_one_reach(n_above, n_pos, ci_prob))
        rows[method] = [np.asarray(band[v].values, dtype=np.float64) for v in _BAND_VARS]
    if not rows:
        raise ValueError(f"no band could be computed: {attrs['notes']}")
    # a band of zero width everywhere is degenerate (e.g. every resample equal): never drawn
    flat = [m for m, (lo, _, hi) in rows.items() if np.all(hi - lo <= 0)]
    for m in flat:
        attrs["notes"][m] = "degenerate: zero width at every recall; not a band to draw"
    attrs["recommended"], attrs["recommendation"] = recommend_band(
        [m for m in rows if m not in flat],
        attrs["fit_checks"],
        n_pos,
        separated=separated,
        all_tied=ranked.all_tied,
    )
    names = list(rows)
    data = {
        v: (("band", "recall"), np.stack([rows[m][i] for m in names]))
        for i, v in enumerate(_BAND_VARS)
    }
    kinds = ["pointwise" if m.endswith("pointwise") else "simultaneous" for m in names]
    coords = {
        "band": names,
        "recall": grid,
        "kind": ("band", kinds),
        "label": ("band", [_BAND_LABELS[m] for m in names]),
        # the dimension's former name, kept as an indexed coordinate along ``band`` so
        # ``sel({"method": name})`` still works (``sel(method=...)`` never did: it is
        # xarray's own keyword)
        "method": ("band", names),
    }
    return xr.Dataset(data, coords=coords, attrs=attrs).set_xindex("method")


_BAND_VARS = ("lower", "median", "upper")
#: The models pooled by the ``averaged_*`` bands (equal weights).
_AVERAGED = ("semiparametric", "contaminated", "flexible")
_WHAT_MODEL = {
    "semiparametric": "the rank-based binormal model",
    "contaminated": "the contaminated binormal model",
    "flexible": "the flexible ROC model",
}


#: Fewest positives for a band of the PR curve: below, no band is drawn (the models need
#: 2 positives; one resampled positive says nothing about the curve's shape).
MIN_BAND_POSITIVES = 2

#: Fewest positives for the studentized bootstrap band. On gradient-boosting scores of
#: real data (``benchmarks/coverage_few_positives.py``, ``docs/coverage.md``, "Few
#: positives", nominal 90%) it contained the whole true curve in 0.40 of data sets at
#: 3 positives and 0.55 at 5 (resamples of a handful of positives cannot show how far
#: the curve may fall; with separated classes every resample has precision 1 along the
#: whole curve), 0.87 at 12.
MIN_BOOTSTRAP_BAND_POSITIVES = 12


def recommend_band(available, fit_checks, n_pos, *, separated=False, all_tied=False):
    """The simultaneous PR band to draw, and why (one sentence); see :func:`compare_bands`.

    - Every score tied (``all_tied``): none (``None``): the PR curve is one point,
      precision = the prevalence at recall 1; quote the prevalence's interval.
    - Fewer than :data:`MIN_BAND_POSITIVES` positives: none (``None``).
    - The model-averaged band when one of its models passes its fit check (or is
      inconclusive), or when the classes are separated (every positive above every
      negative: the averaged band then reaches precision 1 along the whole curve, which
      the data cannot rule out, while every bootstrap resample has precision 1
      everywhere).
    - Else the first single-model band in the order contaminated, rank-based binormal,
      flexible whose check passes.
    - Else the studentized bootstrap band, with at least
      :data:`MIN_BOOTSTRAP_BAND_POSITIVES` positives and overlapping classes; none
      (``None``) below that.
    """
    if all_tied:
        return None, (
            "No band of the PR curve is drawn: every score is tied, so the curve is a "
            "single point (recall 1 at precision = the prevalence) and no ranking can be "
            "shown; quote the prevalence's interval (compare_intervals' recommended row)."
        )
    if n_pos < MIN_BAND_POSITIVES:
        return None, (
            f"No band of the PR curve is drawn: with {n_pos} positive(s) no band can be "
            f"trusted (the models need at least {MIN_BAND_POSITIVES} positives, and "
            "resampling a single positive says nothing about the curve)."
        )
    passing = [m for m in _AVERAGED if fit_checks.get(m) is not None and fit_checks[m].passed]
    if "averaged_simultaneous" in available and separated:
        return "averaged_simultaneous", (
            f"Draw the {_BAND_LABELS['averaged_simultaneous']} band: every positive is "
            "scored above every negative, so the data cannot rule out precision 1 at any "
            "recall and the band reaches 1 along the whole curve (every bootstrap "
            "resample has precision 1 everywhere, so the bootstrap band would collapse)."
        )
    if "averaged_simultaneous" in available and passing:
        return "averaged_simultaneous", (
            f"Draw the {_BAND_LABELS['averaged_simultaneous']} band: the "
            f"{_WHAT_MODEL[passing[0]].split(' ', 1)[1]}'s fit check "
            f"{_check_outcome(fit_checks[passing[0]])}, and pooling the three rank-based "
            "models' posteriors spans the curve shapes none of their checks can rule out "
            "at this sample size (a precision ceiling below 1, a mixture of positives); "
            "it contained the whole true curve most often of the model bands on the "
            "populations of docs/coverage.md, at about 0.65 times the bootstrap band's width."
        )
    why = {
        "contaminated": "it allows a small share of label noise, so its band can level off "
        "below precision 1 at low recall (label noise, hard negatives)",
        "semiparametric": "its band is the narrowest that contains the whole true curve "
        "about as often as it claims on populations the model fits",
        "flexible": "the flexible ROC model follows ROC curves that are not binormal",
    }
    for source in ("contaminated", "semiparametric", "flexible"):
        row, check = f"{source}_simultaneous", fit_checks.get(source)
        if row in available and check is not None and check.passed:
            return row, (
                f"Draw the {_BAND_LABELS[row]} band: the model's fit check "
                f"{_check_outcome(check)}, and {why[source]}."
            )
    check = fit_checks.get("contaminated", fit_checks.get("semiparametric"))
    if check is not None and not check.passed:
        reason = f"{_WHAT_MODEL[check.model]} fails its fit check"
    else:
        reason = "no model band was computed"
    if separated or n_pos < MIN_BOOTSTRAP_BAND_POSITIVES:
        why_not = (
            "every positive is scored above every negative, where every bootstrap resample "
            "has precision 1 along the whole curve"
            if separated
            else f"with {n_pos} positives (fewer than {MIN_BOOTSTRAP_BAND_POSITIVES}) the "
            "bootstrap band contained the whole true curve in about half of the data sets "
            "that claim 90% (docs/coverage.md)"
        )
        return None, f"No band of the PR curve is drawn: {reason}, and {why_not}."
    for row in ("bootstrap_simultaneous_t", "semiparametric_simultaneous"):
        if row in available:
            return row, f"Draw the {_BAND_LABELS[row]} band: {reason}."
    return None, f"No simultaneous band in the comparison: {reason}."
