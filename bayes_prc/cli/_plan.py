"""``bayes-prc plan``: how many labelled items a test set needs (:func:`plan_test_set`).

``bayes-prc plan --expected-ap 0.6 --prevalence 0.05 --width 0.1`` prints the recommended
number of items and positives and the table of candidate sizes behind it; ``--difference
0.05 --correlation 0.7`` plans the power to detect an AP difference between two models
instead; ``--plot plan.png`` draws the table (:class:`bayes_prc.plotting.PlanDisplay`).
"""

from __future__ import annotations

import argparse

from ._io import _check_output

__all__ = ["add_plan_parser"]


def _cmd_plan(args):
    from ..planning import plan_test_set

    if args.plot is not None:
        _check_output(args.plot, args.force)
    plan = plan_test_set(
        expected=args.expected_ap,
        prevalence=args.prevalence,
        width=args.width,
        difference=args.difference,
        correlation=args.correlation,
        ci_prob=args.ci_prob,
        assurance=args.assurance,
        cluster_size=args.cluster_size,
        icc=args.icc,
        n_simulations=args.n_simulations,
        random_seed=args.seed,
        progressbar=False if args.quiet else None,
    )
    if not args.quiet:
        print(plan.summary())
        if plan.note:
            print(plan.note)
        if plan.calibration is not None:
            print(f"width: {plan.interval}")
        if plan.cluster_size > 1:
            print(
                f"design effect: {plan.design_effect:.3f} (Kish's 1 + (m - 1) icc for a "
                f"mean: {plan.kish_design_effect:.3g})"
            )
        print()
        print(plan.table.to_string(index=False, float_format=lambda v: f"{v:.4g}"))
    if args.plot is not None:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from ..plotting import PlanDisplay

        disp = PlanDisplay.from_plan(plan)
        disp.figure_.savefig(args.plot, bbox_inches="tight", dpi=120)
        plt.close(disp.figure_)
        if not args.quiet:
            print(f"wrote {args.plot}")
    return 0


def _probability(text):
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None


def add_plan_parser(sub, fmt):
    """The ``plan`` subcommand."""
    p = sub.add_parser(
        "plan",
        help="how many labelled items a test set needs (AP interval width or power)",
        formatter_class=fmt,
    )
    p.add_argument(
        "--expected-ap", required=True, type=_probability, help="the AP you expect (model A's)"
    )
    p.add_argument("--prevalence", required=True, type=_probability, help="the share of positives")
    goal = p.add_mutually_exclusive_group(required=True)
    goal.add_argument(
        "--width", type=_probability, default=None, help="target width of the AP interval"
    )
    goal.add_argument(
        "--difference",
        type=_probability,
        default=None,
        help="AP difference between two models to detect (AP_B - AP_A)",
    )
    p.add_argument(
        "--correlation",
        type=_probability,
        default=None,
        help="with --difference: the two models' within-class score correlation",
    )
    p.add_argument("--ci-prob", type=_probability, default=0.95, help="interval probability")
    p.add_argument(
        "--assurance",
        type=_probability,
        default=0.8,
        help="share of test sets whose width is at most --width (or the power wanted)",
    )
    p.add_argument("--cluster-size", type=int, default=1, help="items per cluster")
    p.add_argument(
        "--icc",
        type=_probability,
        default=0.0,
        help="intra-cluster correlation of the items' labels and scores",
    )
    p.add_argument(
        "--n-simulations",
        type=int,
        default=None,
        help="simulated test sets per candidate n (default 1000 for --width, 400 for --difference)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed")
    p.add_argument("--plot", default=None, metavar="PNG", help="also draw the plan here")
    p.add_argument("--force", action="store_true", help="overwrite an existing --plot file")
    p.add_argument("-q", "--quiet", action="store_true", help="print nothing but errors")
    p.set_defaults(func=_cmd_plan, progress=False)
    return p
