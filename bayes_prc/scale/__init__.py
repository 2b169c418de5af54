"""Past one machine: dask-backed input for PR curves, average precision and the binormal fit.

bayes_prc does not bring its own distributed engine. Dask arrays (``dask.array.Array``),
dask-backed ``xarray.DataArray`` objects, dask Series and Parquet data read with
:func:`read_parquet` are accepted by :func:`bayes_prc.fit_binormal`,
:func:`bayes_prc.average_precision_score`, :func:`bayes_prc.precision_recall_curve` and
:func:`bayes_prc.auc_pr` (binary labels): those functions hand such input to this module,
which describes the work as dask tasks, one per block, reduced in a tree, and runs it on
whatever scheduler is active (the threaded scheduler by default, a
``dask.distributed.Client`` when one exists). dask itself is imported only here and only
inside functions, so ``import bayes_prc`` never imports it.

What is computed, and at which cost:

* **Binormal fit**: the likelihood depends on the data only through per-class counts,
  means and sums of squared deviations. :func:`class_statistics` gets them in one lazy
  pass (per block ``(n, mean, M2)``, merged with Chan et al.'s parallel update, not with
  a naive sum of squares), then the posterior code of :func:`bayes_prc.fit_binormal` runs
  on them: past the pass, a fit on 10^8 items costs what it costs on 10^3.
* **Exact curves and AP** when the data fit in memory: up to ``max_exact`` items
  (default 5e7, :func:`set_options`) the arrays are computed into numpy and the exact
  in-memory core runs: same numbers, bit for bit, as for numpy input.
* **Binned curves and AP** beyond ``max_exact``: :func:`binned_pr_curve` counts the
  positives and all items in score bins (two passes: a scan that validates the data and
  sketches the score distribution for the bin edges, then the histogram). The curve's
  points are *exact*: each threshold is the lowest score of a bin, a real score, and
  precision and recall there are the exact empirical ones. Only the AP is approximate,
  and a bound computed from the bin counts alone comes with it (see
  :class:`BinnedPRCurve`).

Examples
--------
>>> import dask.array as da
>>> import bayes_prc as bp
>>> y, s = bp.Binormal(1.5, 1, 0, 1, 0.1).sample(20_000, random_seed=0)
>>> Y, S = da.from_array(y, chunks=5_000), da.from_array(s, chunks=5_000)
>>> bp.average_precision_score(Y, S) == bp.average_precision_score(y, s)  # exact path
True
>>> res = binned_pr_curve(Y, S, bins=512)  # what runs past max_exact
>>> bool(res.ap_low <= bp.average_precision_score(y, s) <= res.ap_high)
True
"""

from ._binned import BinnedCurveWarning, BinnedPRCurve, ap_bounds_text, binned_pr_curve
from ._blocks import distinct_labels, in_memory_arrays
from ._faces import (
    dask_auc_pr,
    dask_average_precision_score,
    dask_fit_binormal,
    dask_precision_recall_curve,
)
from ._io import read_parquet
from ._options import GRIDS, get_options, set_options
from ._stats import class_statistics

__all__ = [
    "BinnedCurveWarning",
    "BinnedPRCurve",
    "GRIDS",
    "binned_pr_curve",
    "class_statistics",
    "get_options",
    "read_parquet",
    "set_options",
    # what the top-level faces (bayes_prc._dispatch) and the CLI use
    "ap_bounds_text",
    "dask_auc_pr",
    "dask_average_precision_score",
    "dask_fit_binormal",
    "dask_precision_recall_curve",
    "distinct_labels",
    "in_memory_arrays",
]
