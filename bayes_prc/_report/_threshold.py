"""The report's "Choosing the threshold" section (``report(..., min_precision=0.9)``).

The numbers are :func:`bayes_prc.threshold.choose_threshold`'s; the figure is
:class:`bayes_prc.plotting.ThresholdChoiceDisplay`'s.
"""

from __future__ import annotations

import html
import math

__all__ = ["threshold_choice", "threshold_figure", "threshold_section_html", "threshold_section_md"]

TITLE = "Choosing the threshold"


def threshold_choice(d, min_precision, ci_prob, random_seed):
    """The :class:`ThresholdChoice` of the report's data (``groups`` as the report's)."""
    from ..threshold import choose_threshold

    return choose_threshold(
        d.data.is_pos,
        d.data.y_score,
        min_precision=min_precision,
        ci_prob=ci_prob,
        groups=d.clusters,
        random_seed=random_seed,
    )


def threshold_figure(choice):
    """Both panels of the display on a figure not registered with pyplot."""
    from matplotlib.figure import Figure

    from ..plotting import ThresholdChoiceDisplay

    fig = Figure(figsize=(10.0, 4.2), layout="constrained")
    axes = fig.subplots(1, 2)
    ThresholdChoiceDisplay.from_choice(choice, ax=axes)
    fig.suptitle("")  # the guarantee is the section's text
    return fig


def _lines(choice):
    level = f"{100 * choice.ci_prob:g}%"
    if choice.threshold is None:
        first = f"No threshold can be shipped with this guarantee: {choice.guarantee}."
    else:
        first = (
            f"Flag the items with score >= {choice.threshold:.6g}: {choice.guarantee} "
            f"({choice.method})."
        )
    lines = [first]
    if choice.threshold is not None:
        lines.append(
            f"There, precision is {choice.precision:.3f} ({level} CI "
            f"{choice.precision_low:.3f} to {choice.precision_high:.3f}) and recall "
            f"{choice.recall:.3f} ({level} CI {choice.recall_low:.3f} to "
            f"{choice.recall_high:.3f})."
        )
        if not math.isnan(choice.recall_cost):
            lines.append(
                f"The guarantee costs {choice.recall_cost:.3f} of recall against the "
                "empirical threshold (the lowest whose sample precision reaches the "
                "target, which is not guaranteed)."
            )
    lines.append(
        "Each row below is one method's threshold on the same 100 candidate thresholds "
        "(quantiles of the scores); 'guaranteed' rows control the chance that the true "
        f"precision at the chosen threshold is below the target to {100 - 100 * choice.ci_prob:g}%."
    )
    return lines


def _rows(choice):
    rec = choice.table.attrs.get("recommended")
    for name, row in choice.table.iterrows():
        thr = "-" if math.isnan(row["threshold"]) else f"{row['threshold']:.6g}"
        prec = "-" if math.isnan(row["precision"]) else f"{row['precision']:.3f}"
        recall = "-" if math.isnan(row["recall"]) else f"{row['recall']:.3f}"
        guaranteed = "yes" if row["guaranteed"] else "no"
        yield (name + (" (recommended)" if name == rec else ""), thr, prec, recall, guaranteed)


_HEAD = ("method", "threshold", "precision", "recall", "guaranteed")


def threshold_section_html(choice, svg_text):
    """HTML parts of the section (empty without a choice)."""
    if choice is None:
        return []
    esc = html.escape
    head = "".join(f'<th class="{"l" if i == 0 else ""}">{h}</th>' for i, h in enumerate(_HEAD))
    body = "".join(
        "<tr>"
        + "".join(f'<td class="{"l" if i == 0 else ""}">{esc(v)}</td>' for i, v in enumerate(row))
        + "</tr>"
        for row in _rows(choice)
    )
    return [
        f"<h2>{TITLE}</h2>",
        *(f"<p>{esc(line)}</p>" for line in _lines(choice)),
        f"<table><tr>{head}</tr>{body}</table>",
        f'<figure class="fig">{svg_text}<figcaption>Left: the empirical PR curve over the '
        "candidate thresholds, the certified part shaded, the chosen point with its "
        "intervals. Right: precision (pointwise interval) and recall against the "
        "threshold, the target, the certified thresholds shaded.</figcaption></figure>",
    ]


def threshold_section_md(choice):
    """Markdown lines of the section (empty without a choice)."""
    if choice is None:
        return []
    rows = ["| " + " | ".join(_HEAD) + " |", "|" + "---|" * len(_HEAD)]
    rows += ["| " + " | ".join(r) + " |" for r in _rows(choice)]
    return [f"## {TITLE}", "", *(p for line in _lines(choice) for p in (line, "")), *rows, ""]
