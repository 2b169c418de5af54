"""Public faces that send dask input to :mod:`bayes_prc.scale`, everything else to the core.

``bayes_prc.precision_recall_curve``, ``average_precision_score``, ``auc_pr`` and
``fit_binormal`` are these faces. Each looks at the types of ``y_true`` and ``y_score``
(:func:`bayes_prc._core.is_dask`, which never imports dask): dask collections and
dask-backed xarray objects go to the lazy, parallel entry points of
:mod:`bayes_prc.scale` (imported only then); anything else goes to the in-memory core,
:mod:`bayes_prc.empirical` or :func:`bayes_prc.bayes.fit_binormal`. The faces carry the
core's name, signature and docstring (:func:`functools.wraps`), so the cores themselves
never import the dask adapter.

>>> import bayes_prc as bp
>>> from bayes_prc import empirical
>>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
>>> bp.average_precision_score(y, s) == empirical.average_precision_score(y, s)
True
>>> bp.auc_pr.__wrapped__ is empirical.auc_pr
True

``fit_binormal`` is built on first access, so that ``import bayes_prc`` loads neither
the Bayesian layer nor PyMC.
"""

from __future__ import annotations

import functools
import inspect

from . import empirical
from ._core import is_dask

# fit_binormal: built by the module __getattr__ below
__all__ = ["auc_pr", "average_precision_score", "fit_binormal", "precision_recall_curve"]  # noqa: F822


def _any_dask(y_true, y_score):
    return is_dask(y_true) or is_dask(y_score)


@functools.wraps(empirical.precision_recall_curve)
def precision_recall_curve(y_true, y_score, **kwargs):
    if _any_dask(y_true, y_score):
        from .scale import dask_precision_recall_curve

        return dask_precision_recall_curve(y_true, y_score, **kwargs)
    return empirical.precision_recall_curve(y_true, y_score, **kwargs)


@functools.wraps(empirical.average_precision_score)
def average_precision_score(y_true, y_score, **kwargs):
    if _any_dask(y_true, y_score):
        from .scale import dask_average_precision_score

        return dask_average_precision_score(y_true, y_score, **kwargs)
    return empirical.average_precision_score(y_true, y_score, **kwargs)


@functools.wraps(empirical.auc_pr)
def auc_pr(y_true, y_score, *, estimator="average_precision", **kwargs):
    if _any_dask(y_true, y_score):
        empirical.check_auc_pr_estimator(estimator)  # before the binned path's own message
        from .scale import dask_auc_pr

        return dask_auc_pr(y_true, y_score, estimator=estimator, **kwargs)
    return empirical.auc_pr(y_true, y_score, estimator=estimator, **kwargs)


def _fit_binormal_face(core):
    """The face of :func:`bayes_prc.bayes.fit_binormal` (built on first access)."""

    @functools.wraps(core)
    def fit_binormal(y_true, y_score, **options):
        if _any_dask(y_true, y_score):
            return _fit_dask(core, y_true, y_score, options)
        return core(y_true, y_score, **options)

    return fit_binormal


def _fit_dask(core, y_true, y_score, options):
    """Dask input: the one-pass parametric fit of :mod:`bayes_prc.scale`.

    The rank-based models (which sort the scores) and the invalid choices go to the
    core, which raises its own error before reading any data.
    """
    from .bayes import AUTO_METHOD

    bound = inspect.signature(core).bind(y_true, y_score, **options)
    bound.apply_defaults()
    kwargs = dict(bound.arguments)
    if (
        kwargs["model"] != "parametric"
        or kwargs["method"] == "laplace"
        or kwargs["groups"] is not None  # the core names what groups needs
    ):
        return core(y_true, y_score, **options)
    del kwargs["model"], kwargs["n_categories"], kwargs["groups"]
    del kwargs["y_true"], kwargs["y_score"]
    if kwargs["method"] == "auto":
        kwargs["method"] = AUTO_METHOD["parametric"]
    from .scale import dask_fit_binormal

    return dask_fit_binormal(y_true, y_score, **kwargs)


def __getattr__(name):
    if name == "fit_binormal":
        from .bayes import fit_binormal as core

        face = globals()["fit_binormal"] = _fit_binormal_face(core)
        return face
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
