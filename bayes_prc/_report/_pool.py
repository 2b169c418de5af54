"""The pool report: a labelled selection of a scored pool, reported for the whole pool.

Presentation only: :func:`bayes_prc.pool.fit_pool` (the posterior of the pool's AP and
PR curve), :func:`bayes_prc.pool.pool_intervals` (every AP interval side by side:
fit_pool's, the design-based and the prediction-powered one, and the row the verdict
quotes) and :func:`bayes_prc.plan_labels` (the verdict's "about N more labels would
halve the width", from its ``_extended`` prediction: this selection extended) compute;
this module draws and writes. The all-labelled report (:func:`bayes_prc.report`) is
unchanged.
"""

from __future__ import annotations

import html
import warnings

import numpy as np

from .._core import Steps, check_output_path
from .._version import __version__
from ._figures import _new_ax, legend_outside, svg
from ._render import _CSS

__all__ = ["compute_pool_report", "pool_report"]


def compute_pool_report(
    y_score,
    selection,
    y_labels,
    *,
    ci_prob=0.95,
    random_seed=None,
    n_resamples=2000,
    plan=True,
    plan_replicates=6,
    progressbar=None,
    steps=None,
):
    """Every number of the pool report, as a dict (see :func:`pool_report`).

    ``steps`` (a :class:`~bayes_prc._core.Steps`) writes one line per long step.
    """
    from ..pool import budget_for_width, fit_pool, plan_labels, pool_intervals, prepare_selection

    steps = steps if steps is not None else Steps(False)
    rng = np.random.default_rng(random_seed)
    prepared = prepare_selection(y_score, selection, y_labels)  # validated and sorted once
    selection, y = prepared.selection, prepared.is_pos
    notes = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with steps.step("fitting the pool model (fit_pool)"):
            post = fit_pool(None, prepared, ci_prob=ci_prob, random_seed=rng)
            ap = post.average_precision().values.reshape(-1)
            lo, hi = np.quantile(ap, [(1 - ci_prob) / 2, (1 + ci_prob) / 2])
            band = post.pr_band(np.linspace(0.01, 1.0, 100), ci_prob=ci_prob)
        with steps.step("the pool's AP intervals (design-based and prediction-powered)"):
            table = pool_intervals(
                None,
                prepared,
                None,
                ci_prob=ci_prob,
                n_resamples=n_resamples,
                posterior=post,
                random_seed=rng,
            )
        design = table.attrs["results"].get("design")
        for method, why in table.attrs["notes"].items():
            kind = "design-based" if method == "design" else "prediction-powered"
            notes.append(f"{kind} AP not computed: {why}")
        plan_df, halve = None, None
        n, n_pool = selection.indices.size, selection.n_pool
        budgets = sorted({min(k * n, n_pool) for k in (2, 4, 8)} - {n})
        if plan and budgets:
            with steps.step(f"planning more labels (budgets {', '.join(map(str, budgets))})"):
                plan_df = plan_labels(
                    prepared.score,
                    budgets,
                    pilot=(prepared, None),
                    strategy=selection.strategy,
                    ci_prob=ci_prob,
                    n_replicates=plan_replicates,
                    draws=200,
                    progressbar=progressbar,
                    random_seed=rng,
                )
            # the verdict is about extending the labels already paid for
            column = "ap_width_extended" if "ap_width_extended" in plan_df else "ap_width"
            halve = budget_for_width(plan_df, (hi - lo) / 2, column=column)
    notes += sorted({f"{w.category.__name__}: {w.message}" for w in caught})
    return {
        "n_pool": int(n_pool),
        "n_labelled": int(n),
        "n_positives": int(np.sum(y)),
        "strategy": selection.strategy,
        "ci_prob": ci_prob,
        "ap_mean": float(ap.mean()),
        "ap_low": float(lo),
        "ap_high": float(hi),
        "design": design,
        "intervals": table,
        "recommended": table.attrs["recommended"],
        "recommendation": table.attrs["recommendation"],
        "calibration_p_value": table.attrs["calibration_p_value"],
        "band": band,
        "plan": plan_df,
        "halve_budget": halve,
        "notes": notes,
        "khat": (post.importance or {}).get("khat"),
    }


def _two_significant(n):
    """A count to 2 significant digits (``1023`` -> ``1000``): a planning estimate."""
    n = int(n)
    if n < 100:
        return str(n)
    digits = len(str(n)) - 2
    return f"{round(n, -digits):,}"


def _verdict(d):
    pct = f"{100 * d['ci_prob']:.4g}%"
    name = d.get("recommended", "fit_pool")
    if "intervals" in d:
        row = d["intervals"].loc[name]
        est, lo, hi = row["estimate"], row["low"], row["high"]
    else:
        est, lo, hi = d["ap_mean"], d["ap_low"], d["ap_high"]
    kind = "credible" if name == "fit_pool" else "confidence"
    text = (
        f"Pool AP {est:.3f}, {pct} {kind} interval [{lo:.3f}, {hi:.3f}] (width "
        f"{hi - lo:.3f}, {name}) from {d['n_labelled']} labels ({d['n_positives']} "
        f"positive) of a pool of {d['n_pool']}."
    )
    if "recommendation" in d:
        text += f" Quoted because {d['recommendation']}."
    if d["plan"] is not None:
        if d["halve_budget"] is not None:
            more = d["halve_budget"] - d["n_labelled"]
            text += (
                f" About {_two_significant(more)} more labels (extending this selection) "
                "would halve "
                "the width (plan_labels)."
            )
        else:
            top = int(d["plan"].index.max())
            text += (
                f" Even {top} labels in all (extending this selection) would not "
                "halve the width (plan_labels)."
            )
    return text


def _rows(d):
    if "intervals" in d:
        table = d["intervals"]
        return [
            (
                table.loc[m, "label"] + (" [quoted]" if m == d["recommended"] else ""),
                table.loc[m, "estimate"],
                table.loc[m, "low"],
                table.loc[m, "high"],
            )
            for m in table.index
        ]
    rows = [
        (
            "fit_pool (Bayesian, monotone calibration + floor)",
            d["ap_mean"],
            d["ap_low"],
            d["ap_high"],
        )
    ]
    if d["design"] is not None:
        r = d["design"]
        rows.append(("design-based (Horvitz-Thompson, bootstrap)", r.estimate, r.low, r.high))
    return rows


def _figures(d):
    out = {}
    fig, ax = _new_ax()
    band = d["band"]
    r = band["recall"].values
    ax.fill_between(
        r,
        band["lower"].values,
        band["upper"].values,
        alpha=0.3,
        color="C0",
        label=f"{100 * d['ci_prob']:.4g}% credible band (pointwise)",
    )
    ax.plot(r, band["median"].values, color="C0", label="posterior median")
    ax.set(
        xlabel="Recall (whole pool)",
        ylabel="Precision (whole pool)",
        xlim=(0, 1.02),
        ylim=(0, 1.02),
    )
    ax.legend(loc="upper right", fontsize="small")
    legend_outside(ax)
    out["pr"] = svg(fig)
    if d["plan"] is not None:
        from ..plotting import LabelPlanDisplay

        fig, ax = _new_ax()
        plan = d["plan"]
        LabelPlanDisplay.from_plan(plan, ax=ax, label="fresh selection of that size")
        if "ap_width_extended" in plan:
            LabelPlanDisplay(
                plan.index,
                plan["ap_width_extended"].to_numpy(),
                width_sd=plan["ap_width_extended_sd"].to_numpy(),
            ).plot(ax=ax, color="C1", label="these labels extended (next_batch)")
        legend_outside(ax)
        out["plan"] = svg(fig)
    return out


def _html(d, svgs, title, source):
    esc = html.escape
    rows = "".join(
        f'<tr><td class="l">{esc(m)}</td><td>{e:.4f}</td><td>{lo:.4f}</td><td>{hi:.4f}</td>'
        f"<td>{hi - lo:.4f}</td></tr>"
        for m, e, lo, hi in _rows(d)
    )
    pct = f"{100 * d['ci_prob']:.4g}%"
    notes = "".join(f"<li>{esc(n)}</li>" for n in d["notes"])
    parts = [
        "<!DOCTYPE html><html><head><meta charset='utf-8'>"
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{esc(title)}</title>",
        f"<style>{_CSS}</style></head><body><h1>{esc(title)}</h1>",
        f'<p class="note">{esc(source or "")} &middot; bayes_prc {__version__}</p>',
        f'<p class="ok">{esc(_verdict(d))}</p>',
        "<h2>The whole pool from a labelled selection</h2>",
        f"<p>Pool: {d['n_pool']} scored items; labelled: {d['n_labelled']} "
        f"({d['n_positives']} positive), selection strategy {esc(d['strategy'])}. The "
        "intervals are for the AP of the whole pool (its unlabelled items included).</p>",
        f"<table><thead><tr><th class='l'>method</th><th>estimate</th><th>{pct} low</th>"
        f"<th>{pct} high</th><th>width</th></tr></thead><tbody>{rows}</tbody></table>",
        f'<figure class="fig">{svgs["pr"]}<figcaption>PR curve of the whole pool '
        "(fit_pool posterior)</figcaption></figure>",
    ]
    if "plan" in svgs:
        parts.append(
            f'<figure class="fig">{svgs["plan"]}<figcaption>Planned width of the '
            "AP interval against the total number of labels (plan_labels): a "
            "fresh selection designed for that many labels, and the labelled "
            "selection extended with next_batch (the verdict's prediction)"
            "</figcaption></figure>"
        )
    if notes:
        parts.append(f'<div class="warn"><ul>{notes}</ul></div>')
    parts.append("</body></html>")
    return "\n".join(parts)


def _markdown(d, title):
    pct = f"{100 * d['ci_prob']:.4g}%"
    lines = [
        f"# {title}",
        "",
        _verdict(d),
        "",
        f"| method | estimate | {pct} low | {pct} high | width |",
        "|---|---|---|---|---|",
    ]
    lines += [
        f"| {m} | {e:.4f} | {lo:.4f} | {hi:.4f} | {hi - lo:.4f} |" for m, e, lo, hi in _rows(d)
    ]
    lines += ["", *(f"- {n}" for n in d["notes"])]
    return "\n".join(lines) + "\n"


def pool_report(
    y_score,
    selection,
    y_labels,
    path,
    *,
    title=None,
    source=None,
    ci_prob=0.95,
    random_seed=None,
    n_resamples=2000,
    plan=True,
    force=False,
    markdown_path=None,
    progressbar=None,
    verbose=False,
):
    """Write the pool report (HTML; optionally Markdown): the whole pool's AP from a
    labelled selection, every interval of :func:`~bayes_prc.pool.pool_intervals`
    (``fit_pool``, design-based, prediction-powered) with its recommended row quoted in
    the verdict, the pool's PR band, and the planned width for more labels.

    The output paths are checked before any computing. ``verbose`` writes one line per
    long step on stderr, whether or not it is a terminal (the command line does).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import numpy as np
    >>> from bayes_prc.pool import select_labels
    >>> from bayes_prc._report._pool import pool_report
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(5000) < 0.05
    >>> s = rng.normal(size=y.size) + 2 * y
    >>> sel = select_labels(s, 150, random_seed=1)
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "pool.html"
    >>> pool_report(s, sel, y[sel.indices], out, random_seed=0, n_resamples=200,
    ...             plan=False).name
    'pool.html'
    """
    from pathlib import Path

    from ._render import _atomic_write

    path = Path(path)
    check_output_path(path, force)  # before any computing
    if markdown_path is not None:
        check_output_path(markdown_path, force, "Markdown output")
    steps = Steps(verbose)
    d = compute_pool_report(
        y_score,
        selection,
        y_labels,
        ci_prob=ci_prob,
        plan=plan,
        random_seed=random_seed,
        n_resamples=n_resamples,
        progressbar=progressbar,
        steps=steps,
    )
    title = title or "Pool evaluation report"
    with steps.step("drawing the figures"):
        figures = _figures(d)
    text = _html(d, figures, title, source)
    if markdown_path is not None:
        _atomic_write(markdown_path, _markdown(d, title), force)
    _atomic_write(path, text, force)
    return path
