"""The evaluation report: one self-contained HTML file (and optionally Markdown).

Presentation only: everything shown is computed by :mod:`bayes_prc.compare`,
:mod:`bayes_prc.frequentist`, the Bayesian fit and the display objects of
:mod:`bayes_prc.plotting`. Figures are embedded as inline SVG, so the file needs no
network or other file to be viewed. Every user-supplied string (title, file and column
names, labels) is HTML-escaped. The file is written to a temporary file in the target
directory and renamed into place, so a failed run leaves no partial report.
"""

from __future__ import annotations

import html
import io
import os
import re
import tempfile
import warnings
from pathlib import Path

import numpy as np

from ._validation import check_random_state, validate_binary_inputs

__all__ = ["report", "build_report"]

PPC_WARN_LEVEL = 0.05

_MODEL_NAMES = {
    "semiparametric": "rank-based binormal (semiparametric)",
    "parametric": "parametric binormal",
    "flexible": "rank-based flexible ROC",
}

_CSS = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 2em auto;
       max-width: 1100px; color: #222; line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; }
table { border-collapse: collapse; margin: .8em 0; font-size: .92em; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th { background: #f3f3f3; } td.l, th.l { text-align: left; }
.warn { background: #fff4e5; border-left: 4px solid #f0a030; padding: .5em 1em; }
.ok { background: #eef8ee; border-left: 4px solid #4a4; padding: .5em 1em; }
.note { color: #555; font-size: .92em; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: .9em; }
.fig svg { max-width: 100%; height: auto; }
"""


def _esc(value):
    return html.escape(str(value), quote=True)


def _fmt(x, digits=4):
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    try:
        xf = float(x)
    except (TypeError, ValueError):
        return _esc(x)
    if not np.isfinite(xf):
        return _esc(xf)
    return f"{xf:.{digits}f}"


def _svg(fig):
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buf.getvalue()
    start = text.find("<svg")
    text = text[start:] if start >= 0 else text
    # drop the RDF metadata block (creator/date links): inline figures need none of it
    return re.sub(r"<metadata>.*?</metadata>\s*", "", text, flags=re.S)


def _table_html(df, columns, *, index_names=None, label_col=None):
    index_names = index_names or list(df.index.names)
    head = "".join(f'<th class="l">{_esc(n)}</th>' for n in index_names)
    head += "".join(
        f'<th class="l">{_esc(c)}</th>' if c == label_col else f"<th>{_esc(c)}</th>"
        for c in columns
    )
    rows = []
    for idx, row in df.iterrows():
        idx = idx if isinstance(idx, tuple) else (idx,)
        cells = "".join(f'<td class="l">{_esc(v)}</td>' for v in idx)
        for c in columns:
            cls = ' class="l"' if c == label_col or isinstance(row[c], str) else ""
            cells += f"<td{cls}>{_fmt(row[c])}</td>"
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _md_table(df, columns):
    names = [str(n) for n in df.index.names]
    lines = ["| " + " | ".join(names + list(columns)) + " |"]
    lines.append("|" + "---|" * (len(names) + len(columns)))
    for idx, row in df.iterrows():
        idx = idx if isinstance(idx, tuple) else (idx,)
        vals = [str(v) for v in idx] + [
            row[c] if isinstance(row[c], str) else _fmt(row[c]) for c in columns
        ]
        lines.append("| " + " | ".join(v.replace("|", "\\|") for v in vals) + " |")
    return "\n".join(lines)


def build_report(
    y_true,
    y_score,
    *,
    title=None,
    transform=None,
    pos_label=None,
    random_seed=None,
    n_resamples=2000,
    ci_prob=0.95,
    bayes_method="auto",
    progressbar=False,
    source=None,
    score_models=False,
    model="semiparametric",
):
    """Compute everything the report shows; returns ``(html_text, markdown_text)``.

    See :func:`report` for the parameters.
    """
    from matplotlib.figure import Figure  # not registered with pyplot: no GUI backend

    from . import __version__
    from ._ranking import average_precision_score, precision_recall_curve
    from .compare import _fit, compare_intervals, compare_operating_point
    from .frequentist import bootstrap_pr_band
    from .plotting import (
        APForestDisplay,
        PRCurveDisplay,
        PredictiveCurvesDisplay,
        ROCCurveDisplay,
        ScorePPCDisplay,
        ThresholdCurvesDisplay,
    )

    is_pos, score, _, _ = validate_binary_inputs(y_true, y_score, pos_label=pos_label)
    n, n_pos = int(is_pos.size), int(is_pos.sum())
    if n_pos == 0 or n_pos == n:
        raise ValueError(
            f"`y_true` must contain both classes for a report; got {n_pos} positive(s) of {n}"
        )
    rng = check_random_state(random_seed)
    seeds = rng.spawn(5)
    title = title or "Precision-recall evaluation report"
    n_distinct = int(np.unique(score).size)
    n_tied = int(n - n_distinct)

    model_notes = []
    try:
        post = _fit(is_pos, score, None, transform, bayes_method, seeds[0], progressbar, model)
    except ValueError as err:
        if model == "parametric":
            raise
        model_notes.append(f"The rank-based model could not be fit ({err}); the parametric "
                           "binormal model is shown instead.")  # fmt: skip
        post = _fit(
            is_pos, score, None, transform, bayes_method, seeds[0], progressbar, "parametric"
        )
    ap_table = compare_intervals(
        is_pos,
        score,
        ci_prob=ci_prob,
        random_seed=seeds[1],
        n_resamples=n_resamples,
        posterior=post,
        progressbar=progressbar,
        transform=transform,
        bayes_method=bayes_method,
    )
    op_table = compare_operating_point(
        is_pos,
        score,
        random_seed=seeds[2],
        ci_prob=ci_prob,
        n_resamples=n_resamples,
        posterior=post,
        transform=transform,
        model=post.model_type,
    )
    band = bootstrap_pr_band(
        is_pos, score, n_resamples=n_resamples, confidence_level=ci_prob, random_seed=seeds[3]
    )
    diag = ap_table.attrs["diagnostics"]  # computed once, by compare_intervals
    from .criticism import score_ppc

    ppc = None
    if post.model_type == "parametric":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ppc_ds = score_ppc(is_pos, score, post, threshold=PPC_WARN_LEVEL, random_seed=seeds[4])
        names = {"neg": "negative", "pos": "positive"}
        ppc = {
            names.get(str(c), str(c)): float(v)
            for c, v in zip(ppc_ds["class"].values, ppc_ds["p_value"].values, strict=True)
        }
    fit_checks = ap_table.attrs.get("fit_checks", {})

    loo_table, loo_fits = None, None
    if score_models:
        from .criticism import compare_score_models, fit_score_models

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            loo_fits = fit_score_models(
                is_pos, score, draws=500, chains=2, random_seed=seeds[4],
                progressbar=progressbar,
            )  # fmt: skip
            loo_table = compare_score_models(is_pos, score, fits=loo_fits, models=tuple(loo_fits))

    # ------------------------------------------------------------------ figures
    p, r, _ = precision_recall_curve(is_pos, score)
    figs = {}

    def new_ax(w=6.4, h=4.6):
        fig = Figure(figsize=(w, h))
        return fig, fig.add_subplot()

    fig, ax = new_ax()
    PRCurveDisplay.from_posterior(post, is_pos, score, ci_prob=ci_prob, bootstrap_band=band, ax=ax)
    figs["pr"] = fig
    fig, ax = new_ax(6.4, 4.0)
    intervals = [
        (row.label, row.estimate, row.low, row.high)
        for row in ap_table.itertuples()
        if not row.Index.startswith("binormal")
    ]
    APForestDisplay.from_posterior(post, intervals, ci_prob=ci_prob, ax=ax)
    figs["forest"] = fig
    fig, ax = new_ax()
    PredictiveCurvesDisplay.from_posterior(
        post, is_pos, score, n_test=n, n_curves=30, random_seed=seeds[4], ax=ax
    )
    figs["predictive"] = fig
    fig, ax = new_ax()
    ThresholdCurvesDisplay.from_posterior(post, is_pos, score, ci_prob=ci_prob, ax=ax)
    figs["threshold"] = fig
    fig, ax = new_ax(5.2, 4.6)
    ROCCurveDisplay.from_posterior(post, is_pos, score, ci_prob=ci_prob, ax=ax)
    figs["roc"] = fig
    if post.model_type == "parametric":
        fig, ax = new_ax()
        ScorePPCDisplay.from_posterior(post, is_pos, score, ci_prob=ci_prob, ax=ax)
        figs["ppc"] = fig
    if loo_table is not None:
        fig, ax = new_ax()
        grid = np.linspace(0.0, 1.0, 101)[1:]
        for k, name in enumerate(loo_table.index):
            band = loo_fits[name].pr_band(recall=grid, ci_prob=ci_prob)
            ax.fill_between(grid, band["lower"], band["upper"], color=f"C{k}", alpha=0.15)
            ax.plot(grid, band["median"], color=f"C{k}", label=f"{name} (LOO rank {k})")
        ax.step(r, p, where="post", color="k", lw=1, label="empirical")
        ax.set(xlabel="Recall", ylabel="Precision", xlim=(0, 1.02), ylim=(0, 1.02))
        ax.legend(loc="lower left", fontsize="small")
        figs["score_models"] = fig
    svgs = {k: _svg(f) for k, f in figs.items()}

    # ------------------------------------------------------------------ warnings
    warns = []
    chains = post.idata["posterior"].sizes["chain"]
    if chains > 1 and diag["max_rhat"] > 1.01:
        warns.append(f"R-hat up to {diag['max_rhat']:.3f} (above 1.01): chains disagree.")
    if diag["min_ess_bulk"] < 100 * chains:
        warns.append(f"Effective sample size down to {diag['min_ess_bulk']:.0f}.")
    if diag["n_divergent"]:
        warns.append(f"{diag['n_divergent']} divergent transitions in NUTS.")
    if ppc is not None:
        for cls_name, p in ppc.items():
            if p < PPC_WARN_LEVEL:
                warns.append(
                    f"The binormal model fits the {cls_name} class's scores poorly "
                    f"(posterior predictive p = {p:.3f} < {PPC_WARN_LEVEL}): trust the "
                    "frequentist rows more than the binormal ones, or try another transform."
                )
    warns.extend(model_notes)
    for check in fit_checks.values():
        if not check.passed:
            warns.append(f"{_MODEL_NAMES[check.model].capitalize()} model: {check.verdict}")
    if n_pos < 20:
        warns.append(
            f"Only {n_pos} positives: every interval is wide and the empirical curve moves a "
            "lot from sample to sample (see the predictive curves)."
        )

    emp_ap = average_precision_score(is_pos, score)
    post_ap = post.average_precision()

    # ------------------------------------------------------------------ HTML
    cols_ap = ["label", "family", "estimate", "low", "high", "width", "interval"]
    summary = ap_table.attrs.get("arviz_summary")
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_esc(title)}</h1>",
    ]
    if source:
        parts.append(f'<p class="note">Data: {_esc(source)}</p>')
    parts += [
        "<h2>Data</h2>",
        "<table><tbody>",
        f'<tr><th class="l">items</th><td>{n}</td></tr>',
        f'<tr><th class="l">positives</th><td>{n_pos}</td></tr>',
        f'<tr><th class="l">prevalence (chance precision)</th><td>{n_pos / n:.4f}</td></tr>',
        f'<tr><th class="l">distinct scores</th><td>{n_distinct}</td></tr>',
        f'<tr><th class="l">items sharing a score with another</th><td>{n_tied}</td></tr>',
        f'<tr><th class="l">Bayesian model</th><td>{_esc(_MODEL_NAMES[post.model_type])}</td></tr>',
        f'<tr><th class="l">score transform for the parametric fit</th>'
        f"<td>{_esc(post.transform or 'none')}</td></tr>",
        f'<tr><th class="l">empirical average precision</th><td>{emp_ap:.4f}</td></tr>',
        f'<tr><th class="l">posterior mean AP (binormal)</th>'
        f"<td>{float(post_ap.mean()):.4f}</td></tr>",
        "</tbody></table>",
    ]
    rec = ap_table.attrs.get("recommended")
    if rec is not None:
        row = ap_table.loc[rec]
        parts += [
            "<h2>Conclusion</h2>",
            f'<div class="ok"><p><b>AP {row.estimate:.3f}, {ci_prob:.0%} interval '
            f"[{row.low:.3f}, {row.high:.3f}]</b> ({_esc(row.label)}).</p>"
            f"<p>{_esc(ap_table.attrs['recommendation'])}</p></div>",
        ]
    parts += ["<h2>Diagnostics</h2>"]
    if warns:
        parts.append(
            '<div class="warn"><ul>' + "".join(f"<li>{_esc(w)}</li>" for w in warns) + "</ul></div>"
        )
    else:
        parts.append('<div class="ok">No warnings: the fit diagnostics and checks look fine.</div>')
    parts += [
        "<h2>How to read this report</h2>",
        "<ul>",
        "<li><b>PR curve</b>: the black steps are the empirical curve of these data. The blue "
        "bands are where the binormal model, fit to these scores, places the true curve "
        f"({ci_prob:.0%} credible; the lighter band contains whole curves). The dashed band is "
        "the bootstrap's. The dotted line is chance (the prevalence).</li>",
        "<li><b>AP table</b>: one row per method on the same data. Bayesian rows are "
        "credible intervals for the model's AP; frequentist rows are confidence intervals for "
        "the empirical estimator. Where they disagree a lot, the sample is too small for "
        "either to be precise, or the binormal model fits poorly (see the score check).</li>",
        "<li><b>Predictive curves</b>: empirical curves of simulated test sets of the same size: "
        "how much your curve could have moved by chance alone.</li>",
        "<li><b>Operating point</b>: precision and recall at one threshold (the best F1 by "
        "default) with each interval method.</li>",
        "</ul>",
        "<h2>Precision-recall curve</h2>",
        f'<figure class="fig">{svgs["pr"]}<figcaption>Posterior median and bands, empirical '
        "curve, bootstrap band and chance baseline.</figcaption></figure>",
        "<h2>Average precision: every interval</h2>",
        _table_html(ap_table, cols_ap, label_col="label"),
        f'<figure class="fig">{svgs["forest"]}<figcaption>AP posterior density with the '
        "intervals under it.</figcaption></figure>",
        "<h2>Operating point</h2>",
        f"<p>Threshold {_fmt(op_table.attrs['threshold'], 6)} (score &ge; threshold is "
        f"positive): TP {op_table.attrs.get('tp')}, FP {op_table.attrs.get('fp')}, "
        f"TN {op_table.attrs.get('tn')}, FN {op_table.attrs.get('fn')}.</p>",
        _table_html(
            op_table,
            ["label", "family", "estimate", "low", "high", "width", "interval"],
            label_col="label",
        ),
        f'<figure class="fig">{svgs["threshold"]}<figcaption>Precision and recall as functions '
        "of the threshold.</figcaption></figure>",
        "<h2>How much can an empirical curve move?</h2>",
        f'<figure class="fig">{svgs["predictive"]}<figcaption>30 simulated test sets of {n} '
        "items from the posterior predictive.</figcaption></figure>",
        "<h2>ROC curve</h2>",
        f'<figure class="fig">{svgs["roc"]}</figure>',
        "<h2>Does the binormal model fit the scores?</h2>",
    ]
    for check in fit_checks.values():
        parts.append(f"<p>{_esc(_MODEL_NAMES[check.model])} model: {_esc(check.verdict)}</p>")
    if ppc is not None:
        parts.append(
            "<p>Posterior predictive p-values of the score distributions (small = misfit; "
            f"warning below {PPC_WARN_LEVEL}): "
            + ", ".join(f"{_esc(k)}: {v:.3f}" for k, v in ppc.items())
            + ".</p>"
        )
    if "ppc" in svgs:
        parts.append(f'<figure class="fig">{svgs["ppc"]}</figure>')
    if loo_table is not None:
        best = str(loo_table.index[0])
        decisive = len(loo_table) > 1 and float(loo_table["elpd_diff"].iloc[1]) > 2 * float(
            loo_table["dse"].iloc[1]
        )
        verdict = (
            f"{best} predicts the scores best, clearly (the runner-up is more than two "
            "standard errors behind): trust its PR band most."
            if decisive
            else f"{best} ranks first, but within two standard errors of the next model: "
            "the data do not single out one score model; where their bands agree, trust them."
        )
        cols = [
            c for c in ("rank", "elpd", "p", "elpd_diff", "weight", "se", "dse") if c in loo_table
        ]
        parts += [
            "<h3>Alternative score models (PSIS-LOO)</h3>",
            f"<p>{_esc(verdict)}</p>",
            _table_html(loo_table, cols, index_names=["model"]),
            f'<figure class="fig">{svgs["score_models"]}<figcaption>Posterior median PR '
            f"curve and {ci_prob:.0%} band of each score model.</figcaption></figure>",
        ]
    if summary is not None:
        parts += [
            "<h3>ArviZ summary of the fit</h3>",
            _table_html(summary, list(summary.columns), index_names=["quantity"]),
        ]
    parts += [
        f'<p class="note">bayes_prc {_esc(__version__)}; binormal fit method '
        f"{_esc(post.method)}; {n_resamples} bootstrap resamples; seed "
        f"{_esc(random_seed)}.</p>",
        "</body></html>",
    ]
    html_text = "\n".join(parts)

    md = [
        f"# {title}",
        "",
        f"n = {n}, positives = {n_pos}, prevalence = {n_pos / n:.4f}, distinct scores = "
        f"{n_distinct}; empirical AP = {emp_ap:.4f}; posterior mean AP = "
        f"{float(post_ap.mean()):.4f}.",
        "",
        *(
            [
                "## Conclusion",
                "",
                f"AP {ap_table.loc[rec, 'estimate']:.3f}, {ci_prob:.0%} interval "
                f"[{ap_table.loc[rec, 'low']:.3f}, {ap_table.loc[rec, 'high']:.3f}]. "
                + ap_table.attrs["recommendation"],
                "",
            ]
            if rec is not None
            else []
        ),
        "## Warnings",
        "",
        *([f"- {w}" for w in warns] or ["none"]),
        "",
        "## Average precision",
        "",
        _md_table(ap_table, cols_ap),
        "",
        f"## Operating point (threshold {op_table.attrs['threshold']:.6g})",
        "",
        _md_table(op_table, ["label", "family", "estimate", "low", "high", "width", "interval"]),
        "",
    ]
    return html_text, "\n".join(md)


def _atomic_write(path, text, force):
    path = Path(path)
    if path.exists() and not force:
        raise FileExistsError(f"{path} exists; pass force=True (--force) to overwrite it")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise FileNotFoundError(f"directory {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp creates 0600; a report is an ordinary file
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def report(
    y_true,
    y_score,
    path,
    *,
    title=None,
    transform=None,
    pos_label=None,
    random_seed=None,
    n_resamples=2000,
    ci_prob=0.95,
    bayes_method="auto",
    markdown_path=None,
    force=False,
    progressbar=False,
    source=None,
    score_models=False,
    model="semiparametric",
):
    """Write the evaluation report: one self-contained HTML file.

    Sections: data summary (n, positives, prevalence, ties), warnings (fit diagnostics,
    posterior predictive check of the score distributions, small samples), how to read
    the report, the PR curve with posterior and bootstrap bands, the AP comparison table
    (:func:`compare_intervals`) with the AP posterior forest plot, the operating-point
    table (:func:`compare_operating_point`) with precision/recall-vs-threshold curves,
    predictive curves, the ROC band, and the score check with the ArviZ summary.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_samples,)
    path : str or Path
        The HTML file to write. An existing file is not overwritten unless ``force``.
    title : str, optional
    transform : {None, "logit", "probit"}
        Score transform for the binormal fit (use "logit" for probabilities).
    pos_label : label, optional
    random_seed : int, Generator or None
    n_resamples : int, default 2000
    ci_prob : float, default 0.95
    bayes_method : {"auto", "nuts", "exact", "laplace"}, default "auto"
        Sampler of the Bayesian fits: each model's fast sampler, or PyMC's NUTS.
    model : {"semiparametric", "parametric"}, default "semiparametric"
        The Bayesian model drawn in the figures (:func:`fit_binormal`); the AP table has
        rows of both. With fewer than 2 positives the parametric model is used, with a
        note in the warnings.
    markdown_path : str or Path, optional
        Also write a Markdown version (tables and warnings, no figures).
    force : bool, default False
    progressbar : bool, default False
    source : str, optional
        Where the data came from (shown, escaped).
    score_models : bool, default False
        Also fit the alternative score models (binormal, binormal on logit scores,
        bi-Student-t, two-component mixture; NUTS, about a minute) and show their PSIS-LOO
        comparison with the PR band of each and which to trust.

    Returns
    -------
    pathlib.Path
        The written HTML file.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import bayes_prc as bp
    >>> from bayes_prc.datasets import load_example
    >>> d = load_example("small_sample")
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "report.html"
    >>> bp.report(d.y_true, d.y_score, out, transform="logit", random_seed=0,
    ...           n_resamples=200).name
    'report.html'
    """
    path = Path(path)
    if path.exists() and not force:
        raise FileExistsError(f"{path} exists; pass force=True (--force) to overwrite it")
    html_text, md_text = build_report(
        y_true,
        y_score,
        title=title,
        transform=transform,
        pos_label=pos_label,
        random_seed=random_seed,
        n_resamples=n_resamples,
        ci_prob=ci_prob,
        bayes_method=bayes_method,
        model=model,
        progressbar=progressbar,
        source=source,
        score_models=score_models,
    )
    if markdown_path is not None:
        _atomic_write(markdown_path, md_text, force)
    _atomic_write(path, html_text, force)
    return path
