"""The hierarchical subgroup model in PyMC: the reference the fast sampler is tested
against (NUTS on the same posterior). PyMC is imported when :func:`build_subgroup_model`
is called, never on import.
"""

from __future__ import annotations

import numpy as np

from ..bayes import initial_cutpoints
from ._model import cutpoint_tilt, unit_weights

__all__ = ["build_subgroup_model"]


def build_subgroup_model(data, priors):
    """The hierarchical subgroup model in PyMC (non-centred), the reference of the sampler.

    Parameters
    ----------
    data : SubgroupData
    priors : SubgroupPriors

    Returns
    -------
    pymc.Model
        Variables ``mu``, ``sigma``, ``shift``, ``scale``, ``prevalence`` (dim
        ``subgroup``), the population means and spreads, and ``cutpoints``.
    """
    import pymc as pm
    import pytensor.tensor as pt

    from ..bayes import normal_bin_probs

    g, k = data.n_groups, data.n_categories
    coords = {"subgroup": np.arange(g), "cutpoint": np.arange(k - 1)}
    counts = data.counts.astype(np.int64)
    with pm.Model(coords=coords) as model:
        s_shift = pm.HalfNormal("s_shift", priors.shift_spread)
        s_log_scale = pm.HalfNormal("s_log_scale", priors.log_scale_spread)
        s_mu = pm.HalfNormal("s_mu", priors.mu_spread)
        s_log_sigma = pm.HalfNormal("s_log_sigma", priors.log_sigma_spread)
        s_prev = pm.HalfNormal("s_prevalence", priors.prevalence_spread)
        m_mu = pm.Normal("m_mu", 0.0, priors.mu_sd)
        m_ls = pm.Normal("m_log_sigma", 0.0, priors.log_sigma_sd)
        m_p = pm.Normal("m_logit_prevalence", 0.0, priors.logit_prevalence_sd)
        m_l = pm.Normal("m_log_scale", 0.0, priors.log_scale_sd)
        unit = pt.exp(m_l)
        z = pm.Normal("z", 0.0, 1.0, shape=(5, g))  # row 2 unused: mu is Student-t
        shift = pm.Deterministic("shift", s_shift * unit * z[0], dims="subgroup")
        log_scale = m_l + s_log_scale * z[1]
        t_mu = pm.StudentT("t_mu", nu=priors.mu_df, mu=0.0, sigma=1.0, shape=g)
        mu = pm.Deterministic("mu", m_mu + s_mu * t_mu, dims="subgroup")
        log_sigma = m_ls + s_log_sigma * z[3]
        logit_p = m_p + s_prev * z[4]
        scale = pm.Deterministic("scale", pt.exp(log_scale), dims="subgroup")
        sigma = pm.Deterministic("sigma", pt.exp(log_sigma), dims="subgroup")
        pm.Deterministic("prevalence", pm.math.invlogit(logit_p), dims="subgroup")
        # the cutpoints (CutpointPrior): flat in c e^-lbar, their mean
        # Normal(0, cutpoint_sd e^m_l); parametrized by their mean and log gaps, whose
        # Jacobian (the sum of the log gaps) makes them flat in c
        c0 = initial_cutpoints(data.ordinal.counts, [1.0], [1.0])[0]
        cut_mean = pm.Normal("cutpoint_mean", 0.0, priors.cutpoint_sd * unit, initval=c0.mean())
        if k > 2:
            log_gaps = pm.Flat("log_gaps", shape=k - 2, initval=np.log(np.diff(c0)))
            raw = pt.concatenate([pt.zeros(1), pt.cumsum(pt.exp(log_gaps))])
            raw = raw - raw.mean()
            pm.Potential("cutpoints_jacobian", pt.sum(log_gaps))
        else:
            raw = pt.zeros(1)
        tilt = cutpoint_tilt(k - 1, unit_weights(data))
        pm.Potential("cutpoints_unit", -pt.sum(tilt * log_scale))
        cut = pm.Deterministic("cutpoints", raw + cut_mean, dims="cutpoint")
        pm.Binomial("n_pos", n=data.n, logit_p=logit_p, observed=data.n_pos)
        locs = (shift, shift + scale * mu)
        scales = (scale, scale * sigma)
        for cls in (0, 1):
            probs = normal_bin_probs((cut[None, :] - locs[cls][:, None]) / scales[cls][:, None])
            probs = pt.clip(probs, 1e-300, 1.0)
            pm.Potential(f"counts_{cls}", pt.sum(counts[:, cls] * pt.log(probs)))
    return model
