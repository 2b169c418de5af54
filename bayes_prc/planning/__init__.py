"""Planning a test set: how many labelled items an AP interval or comparison needs.

:func:`plan_test_set` simulates test sets of candidate sizes from the binormal model of
the expected AP and prevalence (or from a pilot sample's posterior) and finds the
smallest size at which the AP interval is narrow enough, or an AP difference between two
classifiers is detected, with the wanted assurance; :class:`SampleSizePlan` holds the
answer and the table behind it (:class:`bayes_prc.plotting.PlanDisplay` draws it).
"""

from ._plan import (
    CALIBRATION_SETS,
    CHECK_SETS,
    MAX_PLANNED_ITEMS,
    PLAN_METRICS,
    SMALL_POSITIVES,
    SampleSizePlan,
    ap_design_effect,
    binormal_separation,
    plan_test_set,
)

__all__ = [
    "MAX_PLANNED_ITEMS",
    "PLAN_METRICS",
    "CALIBRATION_SETS",
    "CHECK_SETS",
    "SMALL_POSITIVES",
    "SampleSizePlan",
    "ap_design_effect",
    "binormal_separation",
    "plan_test_set",
]
