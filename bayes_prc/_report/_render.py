"""The report as HTML and Markdown text, from the computed numbers and the figures.

Every user-supplied string (title, file and column names, labels) is HTML-escaped.
"""

from __future__ import annotations

import html
import os
import tempfile
from pathlib import Path

import numpy as np

from .._core import check_output_path
from .._version import __version__
from ._compute import MODEL_NAMES, PPC_WARN_LEVEL, plain_words
from ._subgroups import SUBGROUP_COLUMNS, subgroup_caption
from ._threshold import threshold_section_html, threshold_section_md

__all__ = ["render_html", "render_markdown"]

_CSS = """
body { font-family: -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif; margin: 2em auto;
       max-width: 1100px; color: #222; line-height: 1.45; padding: 0 1em; }
h1 { font-size: 1.6em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: .2em; }
p, li, figcaption { overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: .8em 0; font-size: .92em; display: block;
        max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #ccc; padding: .25em .6em; text-align: right; }
th { background: #f3f3f3; } td.l, th.l { text-align: left; }
.warn { background: #fff4e5; border-left: 4px solid #f0a030; padding: .5em 1em; }
.ok { background: #eef8ee; border-left: 4px solid #4a4; padding: .5em 1em; }
.note { color: #555; font-size: .92em; }
figure { margin: 1em 0; } figcaption { color: #555; font-size: .9em; }
svg, img { max-width: 100%; height: auto; }
.headline { font-size: 1.5em; font-weight: bold; margin: .2em 0 .4em; }
"""

_TABLE_COLUMNS = ["label", "family", "estimate", "low", "high", "width", "interval", "note"]


#: Rows resampling each class to its own size: with one positive they never vary it.
_STRATIFIED_ROWS = ("bootstrap", "bca")


def _plural(n, word):
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _marked(df, n_pos):
    """The table to show: degenerate intervals marked with the reason, not shown as results.

    A row whose bounds are not finite, or whose interval has zero width (all resamples
    equal, or an estimate at 0 or 1 under a formula that collapses there), is not an
    interval; nor is a stratified bootstrap row with a single positive (every resample
    holds that positive, so the spread of the positives is never seen). Their bounds are
    replaced by a dash and the ``note`` says why.
    """
    out = df.copy()
    out.attrs = {}  # only the rows are shown (attrs hold frames pandas cannot compare)
    out["note"] = ""
    low, high = out["low"].to_numpy(float), out["high"].to_numpy(float)
    bad = ~(np.isfinite(low) & np.isfinite(high))
    flat = ~bad & (high - low <= 1e-12)
    methods = np.asarray(out.index.get_level_values("method"))
    single = ~bad & ~flat & (n_pos < 2) & np.isin(methods, _STRATIFIED_ROWS)
    for mask, why in (
        (bad, "not computable on these data"),
        (flat, "degenerate: zero width (every resample or the formula gives one value)"),
        (single, "degenerate: with 1 positive every stratified resample holds that positive"),
    ):
        if mask.any():
            out = out.astype({c: object for c in ("low", "high", "width")})
            out.loc[mask, ["low", "high", "width"]] = "\u2014"
            out.loc[mask, "note"] = why
    return out


def headline_text(d, ci_prob):
    """The first line: one AP value and its interval, to the digits its Monte Carlo
    error allows (``""`` without a recommendation)."""
    h = d.headline
    if h is None:
        return ""
    est, low, high = (
        f"{v:.{k}f}"
        for v, k in zip((h["estimate"], h["low"], h["high"]), h["decimals"], strict=True)
    )
    return f"AP {est}, {ci_prob:.0%} interval [{low}, {high}]"


def _headline_source(d):
    """Where the headline comes from and how precise its Monte Carlo digits are."""
    h = d.headline
    text = f"The recommended row of the AP table: {h['label']}."
    if h["mcse"] is not None:
        text += (
            f" Monte Carlo standard error of these numbers up to {h['mcse']:.2g} "
            f"({h['n_draws']:,} posterior draws; digits beyond it are not shown). The fit "
            "is seeded from the data, so they do not change with the seed."
        )
    return text


#: The "more items would halve it" sentence needs at least this many positives (below,
#: an AP interval is set by a handful of ranks, not by the 1/sqrt(n) law) ...
HALVING_MIN_POSITIVES = 10
#: ... and an interval clear of the bounds 0 and 1 by this much, at most this wide.
HALVING_BOUND_GAP, HALVING_MAX_WIDTH = 0.01, 0.5


def halving_holds(n_pos, low, high):
    """Whether "four times as many items would halve the interval" is true enough to say.

    The width of an interval shrinks roughly as one over the square root of the number
    of items only in the regime where it is set by sampling noise of a near-normal
    estimate: enough positives (:data:`HALVING_MIN_POSITIVES`), an interval not pressed
    against 0 or 1 (where the bound, not the data, sets its side) and not spanning most
    of [0, 1] (:data:`HALVING_BOUND_GAP`, :data:`HALVING_MAX_WIDTH`). With one positive
    the interval is about [0, 1], and no count of items halves it that way.
    """
    return bool(
        n_pos >= HALVING_MIN_POSITIVES
        and low > HALVING_BOUND_GAP
        and high < 1.0 - HALVING_BOUND_GAP
        and high - low <= HALVING_MAX_WIDTH
    )


def _precision_outlook(d, low, high):
    """What more data would do to the headline's width, only where it is true."""
    if halving_holds(d.n_pos, low, high):
        if d.clusters is None:
            return (
                "Interval widths shrink roughly as one over the square root of the number "
                f"of labelled items, so about {3 * d.n:,} more items like these (four times "
                "as many) would halve that."
            )
        return (
            "With clustered items the width shrinks roughly as one over the square root "
            f"of the number of clusters, so about {3 * d.clusters.n_clusters:,} more "
            "clusters like these (four times as many) would halve that."
        )
    if d.n_pos < HALVING_MIN_POSITIVES:
        why = f"rests on only {_plural(d.n_pos, 'positive')}"
    elif high - low > HALVING_MAX_WIDTH:
        why = "spans most of [0, 1]"
    else:
        why = f"reaches the bound {0 if low <= HALVING_BOUND_GAP else 1}"
    return (
        f"The interval {why}, so its width does not follow the one-over-square-root rule "
        "of larger samples; more labelled positives are what narrow it."
    )


def verdict(d, ci_prob):
    """The report's opening verdict, as plain sentences (empty without a recommendation).

    The first line is :func:`headline_text`; then where it comes from, why that row,
    how precise it is and the caveats.
    """
    table = d.ap_table
    h = d.headline
    if h is None:
        return []
    k_est, k_low, k_high = h["decimals"]
    # the spread of the numbers as shown, so that the sides add up to the width
    est, low, high = (
        round(h[k], n) for k, n in zip(("estimate", "low", "high"), h["decimals"], strict=True)
    )
    spread = (
        f"the interval is {high - low:.{min(k_low, k_high)}f} wide ({est - low:.{min(k_est, k_low)}f} "
        f"below the estimate, {high - est:.{min(k_est, k_high)}f} above)"
    )
    lines = [
        headline_text(d, ci_prob) + ".",
        _headline_source(d),
        table.attrs["recommendation"],
        f"How precise: {spread}. {_precision_outlook(d, low, high)}",
    ]
    caveats = []
    if d.n_pos < 20:
        caveats.append(
            f"only {_plural(d.n_pos, 'positive')}: every interval here is rough, and AP intervals with "
            "so few positives miss more often than they claim in simulations"
        )
    if d.n_tied:
        caveats.append(f"{d.n_tied} items share a score with another item (ties)")
    if d.warnings:
        caveats.append(f"{len(d.warnings)} diagnostic note(s) below")
    if caveats:
        lines.append("Caveats: " + "; ".join(caveats) + ".")
    return lines


def _plain(value):
    """A numpy scalar as its Python value (``1``, ``'yes'``), for display."""
    return value.item() if hasattr(value, "item") else value


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
    if xf != 0 and not 1e-4 <= abs(xf) < 1e5:  # far scales: significant digits, short
        return f"{xf:.{digits}g}"
    return f"{xf:.{digits}f}"


def _fmt_sig(x, digits=6):
    """A number of any magnitude with ``digits`` significant digits (thresholds)."""
    return _esc(f"{float(x):.{digits}g}")


def _shown_columns(df, columns):
    """The columns to show: a column whose every cell is empty text is hidden."""
    return [
        c
        for c in columns
        if getattr(df[c].dtype, "kind", "O") in "biufc" or not (df[c].astype(str) == "").all()
    ]


def _table_html(df, columns, *, index_names=None, label_col=None):
    columns = _shown_columns(df, columns)
    index_names = index_names or list(df.index.names)
    head = "".join(f'<th class="l">{_esc(n)}</th>' for n in index_names)
    head += "".join(
        f'<th class="l">{_esc(c)}</th>' if c == label_col else f"<th>{_esc(c)}</th>"
        for c in columns
    )
    rows = []
    whole = {c for c in columns if df[c].dtype.kind in "iu"}  # counts stay whole numbers
    for idx, row in df.iterrows():
        idx = idx if isinstance(idx, tuple) else (idx,)
        cells = "".join(f'<td class="l">{_esc(v)}</td>' for v in idx)
        for c in columns:
            cls = ' class="l"' if c == label_col or isinstance(row[c], str) else ""
            value = int(row[c]) if c in whole else row[c]
            cells += f"<td{cls}>{_fmt(value)}</td>"
        rows.append(f"<tr>{cells}</tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _md_table(df, columns):
    columns = _shown_columns(df, columns)
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


def _data_section(d, random_seed):
    post = d.posterior
    return [
        "<h2>Data</h2>",
        "<table><tbody>",
        f'<tr><th class="l">items</th><td>{d.n}</td></tr>',
        f'<tr><th class="l">positives</th><td>{d.n_pos}</td></tr>',
        f'<tr><th class="l">prevalence (chance precision)</th><td>{d.n_pos / d.n:.4f}</td></tr>',
        *(
            [
                f'<tr><th class="l">clusters (groups)</th><td>{d.clusters.n_clusters}</td></tr>',
                '<tr><th class="l">items per cluster</th>'
                f"<td>{int(d.clusters.sizes.min())}-{int(d.clusters.sizes.max())} "
                f"(mean {d.clusters.sizes.mean():.2f})</td></tr>",
            ]
            if d.clusters is not None
            else []
        ),
        f'<tr><th class="l">distinct scores</th><td>{d.n_distinct}</td></tr>',
        f'<tr><th class="l">items sharing a score with another</th><td>{d.n_tied}</td></tr>',
        f'<tr><th class="l">Bayesian model</th><td>{_esc(MODEL_NAMES[post.model_type])}</td></tr>',
        f'<tr><th class="l">positive label</th><td>{_esc(repr(_plain(d.pos_label)))}</td></tr>',
        f'<tr><th class="l">score transform for the parametric fit</th>'
        f"<td>{_esc(d.transform or 'none')}</td></tr>",
        '<tr><th class="l">score transform for the rank-based fits</th>'
        "<td>none needed (they use only the order of the scores)</td></tr>",
        f'<tr><th class="l">random seed</th><td>{_esc(random_seed)} (bootstrap, bands and '
        "simulated test sets; the Bayesian fit and the AP table are seeded from the data)"
        "</td></tr>",
        "</tbody></table>",
    ]


def _other_estimates(d):
    """The AP estimates other than the headline, labelled (below the headline)."""
    return (
        f"Other estimates of the AP: the empirical average precision of these data "
        f"{d.empirical_ap:.4f} (the area under the observed step curve); the posterior mean "
        f"of the model's AP {d.posterior_mean_ap:.4f} ({MODEL_NAMES[d.posterior.model_type]})."
    )


def _conclusion(d, ci_prob):
    parts = []
    lines = verdict(d, ci_prob)
    if lines:
        first, *rest = lines
        parts += [
            "<h2>Conclusion</h2>",
            f'<div class="ok"><p class="headline">{_esc(first)}</p>'
            + "".join(f"<p>{_esc(t)}</p>" for t in rest)
            + "</div>",
        ]
    return parts


def _diagnostics(d):
    parts = ["<h2>Diagnostics</h2>"]
    if d.warnings:
        items = "".join(f"<li>{_esc(w)}</li>" for w in d.warnings)
        parts.append(f'<div class="warn"><ul>{items}</ul></div>')
    else:
        parts.append('<div class="ok">No warnings: the fit diagnostics and checks look fine.</div>')
    return parts


def _reading_guide(ci_prob):
    return [
        "<h2>How to read this report</h2>",
        "<ul>",
        "<li><b>PR curve</b>: the black steps are the empirical curve of these data. The blue "
        "bands are where the binormal model, fit to these scores, places the true curve "
        f"({ci_prob:.0%} credible; the lighter band contains whole curves). The dashed band is "
        "the bootstrap's. The simultaneous band drawn is the one the comparison of bands "
        "recommends (named in the legend and under the figure). The dotted line is chance "
        "(the prevalence).</li>",
        "<li><b>AP table</b>: one row per method on the same data. Bayesian rows are "
        "credible intervals for the model's AP; frequentist rows are confidence intervals for "
        "the empirical estimator. Where they disagree a lot, the sample is too small for "
        'either to be precise, or the binormal model fits poorly (see "Does the binormal model '
        'fit the scores?" below).</li>',
        "<li><b>ROC AUC table</b>: the same for the area under the ROC curve: DeLong's "
        "interval and its relatives for the empirical AUC, the posterior for the model's.</li>",
        "<li><b>Predictive curves</b>: empirical curves of simulated test sets of the same size: "
        "how much your curve could have moved by chance alone.</li>",
        "<li><b>Operating point</b>: precision and recall at one threshold (the best F1 by "
        "default) with each interval method.</li>",
        "</ul>",
    ]


def _band_choice_html(d):
    if d.bands is None:
        return []
    return [f"<p>{_esc(d.bands.attrs['recommendation'])}</p>"]


def _figure_sections(d, svgs):
    op = d.op_table
    return [
        "<h2>Precision-recall curve</h2>",
        f'<figure class="fig">{svgs["pr"]}<figcaption>Posterior median and bands, empirical '
        "curve, bootstrap band and chance baseline.</figcaption></figure>",
        *_band_choice_html(d),
        "<h2>Average precision: every interval</h2>",
        f"<p>{_esc(_other_estimates(d))}</p>",
        _table_html(_marked(d.ap_table, d.n_pos), _TABLE_COLUMNS, label_col="label"),
        f'<figure class="fig">{svgs["forest"]}<figcaption>AP posterior density with the '
        "intervals under it.</figcaption></figure>",
        *_auc_section_html(d),
        "<h2>Operating point</h2>",
        f"<p>Threshold {_fmt_sig(op.attrs['threshold'])} (score &ge; threshold is "
        f"positive): TP {op.attrs.get('tp')}, FP {op.attrs.get('fp')}, "
        f"TN {op.attrs.get('tn')}, FN {op.attrs.get('fn')}.</p>",
        _table_html(_marked(op, d.n_pos), _TABLE_COLUMNS, label_col="label"),
        f'<figure class="fig">{svgs["threshold"]}<figcaption>Precision and recall as functions '
        "of the threshold.</figcaption></figure>",
        "<h2>How much can an empirical curve move?</h2>",
        f'<figure class="fig">{svgs["predictive"]}<figcaption>30 simulated test sets of {d.n} '
        "items from the posterior predictive.</figcaption></figure>",
        "<h2>ROC curve</h2>",
        f'<figure class="fig">{svgs["roc"]}</figure>',
    ]


def _subgroup_section_html(d, svgs):
    sub = d.subgroups
    if sub is None:
        return []
    check = sub.fit_check(random_seed=d.figure_seed.spawn(1)[0])
    verdict = "passed" if check.passed else "failed"
    return [
        "<h2>Per subgroup</h2>",
        *(f"<p>{_esc(line)}</p>" for line in subgroup_caption(sub, d.headline)),
        _table_html(sub.table, SUBGROUP_COLUMNS, index_names=["subgroup"]),
        f'<figure class="fig">{svgs["subgroups"]}<figcaption>Each subgroup\'s interval with '
        "partial pooling, and (for up to 30 subgroups) fitted alone and by the bootstrap; "
        "the grey band is all subgroups together.</figcaption></figure>",
        f'<figure class="fig">{svgs["subgroup_bands"]}<figcaption>PR bands of the flagged '
        "and lowest subgroups over the band of all subgroups together.</figcaption></figure>",
        f"<p>Model check (posterior predictive, score distributions per subgroup): "
        f"{verdict}, p = {check.p_value:.2f}.</p>",
    ]


def _subgroup_section_md(d):
    sub = d.subgroups
    if sub is None:
        return []
    return [
        "## Per subgroup",
        "",
        *(part for line in subgroup_caption(sub, d.headline) for part in (line, "")),
        _md_table(sub.table, SUBGROUP_COLUMNS),
        "",
    ]


def _auc_section_html(d):
    """The ROC AUC table (DeLong, Hanley-McNeil, bootstraps and the shown fit's posterior)."""
    table = d.auc_table
    if table is None:
        return []
    parts = [
        "<h2>ROC AUC: every interval</h2>",
        f"<p>{_esc(_AUC_INTRO)} {_esc(table.attrs.get('recommendation', ''))}</p>",
        _table_html(_marked(table, d.n_pos), _TABLE_COLUMNS, label_col="label"),
    ]
    notes = table.attrs.get("notes", {})
    if notes:
        items = "".join(f"<li>{_esc(_left_out(m, why))}</li>" for m, why in notes.items())
        parts.append(f'<p class="note">Rows left out:</p><ul class="note">{items}</ul>')
    return parts


def _left_out(method, why):
    """A left-out row's note in plain words, naming the method once."""
    text = why if method in why else f"{method}: {why}"
    text = plain_words(text)
    return text[:1].upper() + text[1:]


_AUC_INTRO = (
    "The area under the ROC curve (the probability that a random positive scores above a "
    "random negative), by DeLong's, Hanley-McNeil's and the bootstrap intervals for the "
    "empirical AUC, and the binormal posterior of the model's AUC."
)


def _auc_section_md(d):
    table = d.auc_table
    if table is None:
        return []
    md = ["## ROC AUC", "", f"{_AUC_INTRO} {table.attrs.get('recommendation', '')}", ""]
    md += [_md_table(_marked(table, d.n_pos), _TABLE_COLUMNS), ""]
    md += [  # the method ids as in the table's method column
        f"- left out {m}: {plain_words(why)}" for m, why in table.attrs.get("notes", {}).items()
    ]
    return md + ([""] if table.attrs.get("notes") else [])


def _score_model_sections(d, svgs, ci_prob):
    parts = ["<h2>Does the binormal model fit the scores?</h2>"]
    for check in d.fit_checks.values():
        parts.append(f"<p>{_esc(MODEL_NAMES[check.model])} model: {_esc(check.verdict)}</p>")
    if d.ppc is not None:
        parts.append(
            "<p>Posterior predictive p-values of the score distributions (small = misfit; "
            f"warning below {PPC_WARN_LEVEL}): "
            + ", ".join(f"{_esc(k)}: {v:.3f}" for k, v in d.ppc.items())
            + ".</p>"
        )
    if "ppc" in svgs:
        parts.append(f'<figure class="fig">{svgs["ppc"]}</figure>')
    loo = d.loo_table
    if loo is not None:
        best = str(loo.index[0])
        decisive = len(loo) > 1 and float(loo["elpd_diff"].iloc[1]) > 2 * float(loo["dse"].iloc[1])
        verdict = (
            f"{best} predicts the scores best, clearly (the runner-up is more than two "
            "standard errors behind): trust its PR band most."
            if decisive
            else f"{best} ranks first, but within two standard errors of the next model: "
            "the data do not single out one score model; where their bands agree, trust them."
        )
        cols = [c for c in ("rank", "elpd", "p", "elpd_diff", "weight", "se", "dse") if c in loo]
        parts += [
            "<h3>Alternative score models (PSIS-LOO)</h3>",
            f"<p>{_esc(verdict)}</p>",
            _table_html(loo, cols, index_names=["model"]),
            f'<figure class="fig">{svgs["score_models"]}<figcaption>Posterior median PR '
            f"curve and {ci_prob:.0%} band of each score model.</figcaption></figure>",
        ]
    summary = d.ap_table.attrs.get("arviz_summary")
    if summary is not None:
        summary = summary.copy()
        for col in [c for c in summary.columns if str(c).startswith("ess")]:
            # effective sample sizes as whole numbers
            if np.all(np.isfinite(summary[col])):
                summary[col] = summary[col].round().astype(np.int64)
        parts += [
            "<h3>ArviZ summary of the fit</h3>",
            _table_html(summary, list(summary.columns), index_names=["quantity"]),
        ]
    return parts


def page_head(title, source=None):
    """A report page's first lines: doctype, viewport, title, style, heading and source."""
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_esc(title)}</title><style>{_CSS}</style></head><body>",
        f"<h1>{_esc(title)}</h1>",
    ]
    if source:
        parts.append(f'<p class="note">Data: {_esc(source)}</p>')
    return parts


def write_outputs(path, markdown_path, force, build):
    """Check both outputs before computing, ``build()`` the ``(html, markdown)`` texts and
    write them atomically (no partial file on failure); returns the HTML path."""
    path = Path(path)
    check_output_path(path, force)
    if markdown_path is not None:
        check_output_path(markdown_path, force, "Markdown output")
    html_text, md_text = build()
    if markdown_path is not None:
        _atomic_write(markdown_path, md_text, force)
    _atomic_write(path, html_text, force)
    return path


def render_html(d, svgs, *, title, source, ci_prob, n_resamples, random_seed, threshold=None):
    """The self-contained HTML page of a :class:`ReportData` and its figures' SVG."""
    parts = page_head(title, source)
    parts += _conclusion(d, ci_prob)
    parts += _data_section(d, random_seed)
    parts += _diagnostics(d)
    parts += _reading_guide(ci_prob)
    parts += _figure_sections(d, svgs)
    parts += threshold_section_html(threshold, svgs.get("threshold_choice"))
    parts += _subgroup_section_html(d, svgs)
    parts += _score_model_sections(d, svgs, ci_prob)
    parts += [
        f'<p class="note">bayes_prc {_esc(__version__)}; binormal fit method '
        f"{_esc(d.posterior.method)}; {n_resamples} bootstrap resamples; seed "
        f"{_esc(random_seed)}.</p>",
        "</body></html>",
    ]
    return "\n".join(parts)


def render_markdown(d, *, title, ci_prob, threshold=None):
    """The Markdown version: data line, conclusion, warnings and the tables (no figures)."""
    ap_table, op_table = d.ap_table, d.op_table
    rec = ap_table.attrs.get("recommended")
    md = [f"# {title}", ""]
    if rec is not None:
        first, *rest = verdict(d, ci_prob)
        md += ["## Conclusion", "", f"**{first}**", "", " ".join(rest), ""]
    md += [
        f"n = {d.n}, positives = {d.n_pos} (positive label {_plain(d.pos_label)!r}), "
        f"prevalence = {d.n_pos / d.n:.4f}, distinct scores = {d.n_distinct}."
        + ("" if d.clusters is None else f" Items in {d.clusters.describe()}."),
        "",
        _other_estimates(d),
        "",
    ]
    md += [
        "## Warnings",
        "",
        *([f"- {w}" for w in d.warnings] or ["none"]),
        "",
        "## Average precision",
        "",
        _md_table(_marked(ap_table, d.n_pos), _TABLE_COLUMNS),
        "",
        *_auc_section_md(d),
        f"## Operating point (threshold {op_table.attrs['threshold']:.6g})",
        "",
        _md_table(_marked(op_table, d.n_pos), _TABLE_COLUMNS),
        "",
        *threshold_section_md(threshold),
        *_subgroup_section_md(d),
    ]
    return "\n".join(md)


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
