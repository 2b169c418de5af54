"""Subgroups with partial pooling: the PR curve and AP of each slice of a test set.

Evaluation reports show performance per subgroup (per hospital, per demographic group in
a fairness audit, per product category), and the slices are small: a slice with four
positives has an empirical AP that is mostly noise, and a per-slice bootstrap either
spans [0, 1] or cannot be computed. :func:`compare_subgroups` fits one hierarchical
rank-based binormal model to all slices (one monotone score transform shared by every
slice, each slice's ROC curve and prevalence drawn from population distributions whose
spread is learned), so small slices borrow strength from the others by as much as the
data warrant. Its result holds the per-subgroup table, the posterior draws, the pooled
population, the independent and bootstrap intervals to compare with, bands and a fit
check; :class:`bayes_prc.plotting.SubgroupDisplay` draws it.

Examples
--------
>>> import numpy as np
>>> import bayes_prc as bp
>>> rng = np.random.default_rng(0)
>>> site = np.repeat(["north", "south", "east"], 120)
>>> y = rng.random(site.size) < 0.2
>>> s = rng.normal(size=site.size) + 1.5 * y
>>> res = bp.compare_subgroups(y, s, site, random_seed=0)
>>> res.table.index.tolist()
['east', 'north', 'south']
"""

from ._compare import (
    BORDERLINE_NOTE,
    FLAG_PROBABILITY,
    SUBGROUP_METHODS,
    OverallPosterior,
    SubgroupComparison,
    SubgroupFitCheck,
    check_subgroups,
    compare_subgroups,
    natural_key,
)
from ._model import SubgroupPriors

__all__ = [
    "BORDERLINE_NOTE",
    "FLAG_PROBABILITY",
    "SUBGROUP_METHODS",
    "OverallPosterior",
    "SubgroupComparison",
    "SubgroupFitCheck",
    "SubgroupPriors",
    "check_subgroups",
    "compare_subgroups",
    "natural_key",
]
