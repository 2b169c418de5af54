"""The comparison report of k classifiers scored on the same items (HTML and Markdown).

Presentation only: the numbers are :func:`bayes_prc.ranking.compare_models`'s, the
curves :func:`bayes_prc.precision_recall_curve`'s and the bands
:func:`bayes_prc.bootstrap_pr_band`'s; the figures are the library's Displays, embedded
as inline SVG. The verdict comes first: for two models which is better and by how much,
for more the tiers of models that cannot be told apart.
"""

from __future__ import annotations

import warnings

import numpy as np

from .._version import __version__
from ._figures import legend_outside, svg
from ._render import _esc, _md_table, _table_html, page_head, write_outputs

__all__ = ["compare_report", "build_compare_report", "MAX_BANDS"]

#: At most this many models get a bootstrap band in the curves' figure (more: curves only).
MAX_BANDS = 8
_TABLE = ["estimate", "low", "high", "rank", "rank_low", "rank_high", "prob_best", "tier"]
_PAIRS = ["difference", "low", "high", "p_value", "prob_better", "verdict"]


def _curves_figure(y, matrix, names, ci_prob, n_resamples, random_seed):
    """Every model's empirical PR curve, with its bootstrap band for up to MAX_BANDS models."""
    from matplotlib.figure import Figure

    from ..empirical import precision_recall_curve
    from ..frequentist import bootstrap_pr_band

    fig = Figure(figsize=(6.4, 4.6))
    ax = fig.add_subplot()
    seeds = np.random.default_rng(random_seed).spawn(len(names))
    for j, name in enumerate(names):
        color = f"C{j % 10}"
        if len(names) <= MAX_BANDS:
            band = bootstrap_pr_band(
                y,
                matrix[j],
                confidence_level=ci_prob,
                n_resamples=min(n_resamples, 500),
                random_seed=seeds[j],
                progressbar=False,
            )
            ax.fill_between(
                band["recall"], band["lower"], band["upper"], color=color, alpha=0.12, lw=0
            )
        prec, rec, _ = precision_recall_curve(y, matrix[j])
        ax.step(rec, prec, where="post", color=color, lw=1.4, label=name)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("recall")
    ax.set_ylabel("precision")
    what = f"pointwise {ci_prob:g} bootstrap bands" if len(names) <= MAX_BANDS else "no bands"
    ax.set_title(f"empirical PR curves ({what})")
    ax.legend()
    legend_outside(ax)
    return fig


def build_compare_report(
    y_true,
    scores,
    *,
    title=None,
    pos_label=None,
    random_seed=None,
    n_resamples=2000,
    ci_prob=0.95,
    groups=None,
    reference=None,
    metric="average_precision",
    source=None,
    comparison=None,
):
    """Compute and render the comparison report; returns ``(html_text, markdown_text)``.

    ``comparison``: a :class:`~bayes_prc.ranking.ModelComparison` of the same data and
    options, used instead of computing it again.
    """
    from ..plotting import ModelComparisonDisplay
    from ..ranking import compare_models

    res = comparison
    if res is None:
        res = compare_models(
            y_true,
            scores,
            metric=metric,
            ci_prob=ci_prob,
            groups=groups,
            reference=reference,
            random_seed=random_seed,
            n_resamples=n_resamples,
            pos_label=pos_label,
        )
    names = [str(m) for m in res.posterior["model"].values]
    matrix, y = res.attrs["scores"], res.attrs["is_pos"]  # the validated data
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # tight layout of many labels
        curves = svg(_curves_figure(y, matrix, names, ci_prob, n_resamples, random_seed))
        disp = ModelComparisonDisplay.from_comparison(res, ax=_two_axes())
        disp.figure_.set_size_inches(disp.figsize)  # its height grows with the rows drawn
        forest = svg(disp.figure_)
    title = title or "Model comparison report"
    what = "AP" if metric == "average_precision" else "ROC AUC"
    tiers = "; ".join(f"tier {i}: {', '.join(t)}" for i, t in enumerate(res.tiers, 1))
    data_line = (
        f"{res.n} items, {res.n_pos} positives (prevalence {res.n_pos / res.n:.3f}), "
        f"{len(names)} models"
        + (f", {res.attrs['clusters']}" if "clusters" in res.attrs else "")
        + f"; positive label {pos_label if pos_label is not None else 1}."
    )
    method_line = (
        f"{res.recommendation} Rank sets and pair intervals hold all at once with probability "
        f"{ci_prob:g}; each model's interval is its own. {n_resamples} replicates; seed "
        f"{random_seed}; bayes_prc {__version__}."
    )
    html = page_head(title, source)
    html += [
        f'<p class="headline">{_esc(res.verdict)}</p>',
        f"<p>{_esc(tiers)}.</p>" if len(names) > 2 else "",
        f"<p>{_esc(data_line)}</p>",
        f'<h2>PR curves</h2><div class="fig">{curves}</div>',
        f'<h2>Differences and ranks</h2><div class="fig">{forest}</div>',
        f"<h2>Each model ({_esc(what)})</h2>",
        _table_html(res.table, _TABLE),
        "<h2>Pairs</h2>",
        _table_html(res.pairs, _PAIRS, label_col="verdict"),
        f'<p class="note">{_esc(method_line)}</p>',
        "</body></html>",
    ]
    md = [
        f"# {title}",
        "",
        f"**{res.verdict}**",
        "",
        *([f"{tiers}.", ""] if len(names) > 2 else []),
        data_line,
        "",
        f"## Each model ({what})",
        "",
        _md_table(_whole(res.table), _TABLE),
        "",
        "## Pairs",
        "",
        _md_table(res.pairs, _PAIRS),
        "",
        method_line,
        "",
    ]
    return "\n".join(h for h in html if h), "\n".join(md)


def _whole(df):
    """Integer columns as text, so that Markdown shows ranks as 1, not 1.0000."""
    out = df.copy()
    for c in out.columns:
        if out[c].dtype.kind in "iu":
            out[c] = out[c].astype(str)
    return out


def _two_axes():
    from matplotlib.figure import Figure

    return Figure(layout="constrained").subplots(1, 2)


def compare_report(
    y_true,
    scores,
    path,
    *,
    title=None,
    pos_label=None,
    random_seed=None,
    n_resamples=2000,
    ci_prob=0.95,
    groups=None,
    reference=None,
    metric="average_precision",
    markdown_path=None,
    force=False,
    source=None,
    comparison=None,
):
    """Write the comparison report of k models scored on the same items.

    First screen: the verdict in one sentence (for two models which is better, by how
    much, with its interval and probability; for more, the ranking's tiers). Then the
    models' PR curves with their bootstrap bands, a forest of the pairs' simultaneous
    intervals beside each model's simultaneous rank set, the per-model table and the
    pairs table (:func:`bayes_prc.compare_models`), and the method and seed.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
    scores : mapping, DataFrame or array-like of shape (n_samples, n_models)
        As :func:`bayes_prc.compare_models` takes them.
    path : str or Path
        The HTML file; an existing one is kept unless ``force``.
    title, pos_label, random_seed, n_resamples, ci_prob, groups, reference, metric
        As :func:`bayes_prc.compare_models`.
    markdown_path : str or Path, optional
        Also write the Markdown version (tables, no figures).
    force : bool, default False
    source : str, optional
        Where the data came from (shown, escaped).
    comparison : ModelComparison, optional
        :func:`bayes_prc.compare_models`'s result on the same data and options (it is
        computed here otherwise).

    Returns
    -------
    pathlib.Path

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> import bayes_prc as bp
    >>> rng = np.random.default_rng(0)
    >>> y = (rng.random(200) < 0.3).astype(int)
    >>> s = {"a": y + rng.normal(0, 1, 200), "b": y + rng.normal(0, 0.5, 200)}
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "compare.html"
    >>> bp.report(y, s, out, random_seed=0, n_resamples=200).name
    'compare.html'
    """
    return write_outputs(
        path,
        markdown_path,
        force,
        lambda: build_compare_report(
            y_true,
            scores,
            title=title,
            pos_label=pos_label,
            random_seed=random_seed,
            n_resamples=n_resamples,
            ci_prob=ci_prob,
            groups=groups,
            reference=reference,
            metric=metric,
            source=source,
            comparison=comparison,
        ),
    )
