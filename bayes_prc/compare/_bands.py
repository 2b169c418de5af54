"""Bands of the PR curve by every method on one recall grid, and the one to draw."""

from __future__ import annotations

import numpy as np

from .._core import check_random_state, plain
from ..empirical import as_ranked
from ..recommend import AVERAGED_MODELS as _AVERAGED
from ..recommend import BAND_LABELS as _BAND_LABELS
from ..recommend import (
    BAND_SOURCES,
    recommend_band,
)
from ._common import _bayes_fit, _check_ci_prob, _check_methods, _separated

__all__ = [
    "BAND_METHODS",
    "DEFAULT_BAND_METHODS",
    "compare_bands",
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
    recommendation=None,
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
    recommendation : Recommendation, optional
        A decision of :func:`bayes_prc.recommend.recommend_band` made already (the report
        makes it from its AP table's fit checks, so that only the band it draws is
        computed): the result carries it instead of applying the rule again.

    Returns
    -------
    xarray.Dataset
        Variables ``lower``, ``median``, ``upper`` with dims ``band``, ``recall``;
        coordinates ``kind`` (``"pointwise"`` or ``"simultaneous"``), ``label``,
        ``source`` (what the band comes from, without its kind) and ``method`` (the same
        names as ``band``, the dimension's former name) along ``band``. ``attrs``:
        ``recommended`` (the ``band`` value of the simultaneous band to draw, or None),
        ``recommendation`` (why, one sentence), ``decision`` (the rule book's
        :class:`~bayes_prc.recommend.Recommendation`),
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
    decision = recommendation
    if decision is None:
        decision = recommend_band(
            [m for m in rows if m not in flat],
            attrs["fit_checks"],
            n_pos,
            separated=separated,
            all_tied=ranked.all_tied,
        )
    attrs.update(decision.as_attrs())
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
        "source": ("band", [BAND_SOURCES[m] for m in names]),
        # the dimension's former name, kept as an indexed coordinate along ``band`` so
        # ``sel({"method": name})`` still works (``sel(method=...)`` never did: it is
        # xarray's own keyword)
        "method": ("band", names),
    }
    return xr.Dataset(data, coords=coords, attrs=attrs).set_xindex("method")


_BAND_VARS = ("lower", "median", "upper")
