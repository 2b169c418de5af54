"""The hierarchical subgroup model's sampler: Metropolis-within-Gibbs (numpy only).

Vectorized over chains and subgroups, one iteration runs five steps, each a function of
this module (the proposals they use are in :mod:`._proposals`):

1. :func:`_roc_step`: each subgroup's ``(d, l, mu, log sigma)`` by random-walk
   Metropolis steps whose proposal covariance is learned per subgroup in the warm-up
   (Haario et al. 2001), by independence proposals from the population distribution
   (which let a subgroup with few positives, whose posterior is mostly its prior, jump
   across it), and, once the warm-up has seen the chains, by independence proposals of
   ``(mu, log sigma)`` from a Student-t fitted to each subgroup's warm-up draws
   (Gasemyr 2003: they let a subgroup unlike the others, whose population proposals
   are rejected, cross its posterior in one move);
2. :func:`_cutpoint_step`: the cutpoints by a Langevin-Newton step: the proposal is the
   Gaussian of a step towards the Newton point of their full conditional (tridiagonal
   Hessian; Qi & Minka 2002, the simplified manifold MALA of Girolami & Calderhead
   2011, its step tuned in the warm-up), every other iteration; in the others, every
   subgroup's ``mu`` (or ``log sigma``) and their population mean shift together and
   the cutpoints are redrawn from that proposal given the shift (a ridge move): the
   shared monotone transform can trade the positives' place and spread for its own
   shape, a ridge that one-at-a-time moves cross slowly (docs/benchmarks.md measures
   the effective sample sizes);
3. :func:`_latent_axis_step`: the common translation and scale of the latent axis
   (cutpoints and subgroup locations together, a likelihood-free direction pinned only
   by the priors) by exact generalized Gibbs draws (Liu & Sabatti 2000), and ``m_l``
   given the rest;
4. :func:`_population_step`, :data:`POPULATION_STEPS` times: the population means and
   spreads by their full conditionals (normal; the spread on a fine grid of ``log s``),
   and, for ``mu`` and
   ``log sigma``, by a Metropolis move of the spread and of the mean in the non-centred
   parametrization (the subgroups' standardized effects held fixed), which keeps the
   chain moving when the spread is small (interweaving: Yu & Meng 2011);
5. :func:`_prevalence_step`, after the loop: the prevalences apart from the rest (the
   category counts are conditioned on the class sizes, so nothing else depends on
   them): their population mean and spread on their marginal posterior, then every logit
   prevalence by an exact draw from its conditional, for all kept draws at once
   (:class:`._prevalence.PrevalencePopulation`; a random walk crawled along this funnel).

Checked against PyMC's NUTS on :func:`._pymc.build_subgroup_model` in the tests.

References
----------
.. [1] H. Haario, E. Saksman and J. Tamminen, "An adaptive Metropolis algorithm",
   Bernoulli 7 (2001) 223-242.
.. [2] J. Gasemyr, "On an adaptive version of the Metropolis-Hastings algorithm with
   independent proposal distribution", Scand. J. Stat. 30 (2003) 159-173.
.. [3] Y. Qi and T. P. Minka, "Hessian-based Markov chain Monte-Carlo algorithms",
   First Cape Cod Workshop on Monte Carlo Methods (2002).
.. [4] M. Girolami and B. Calderhead, "Riemann manifold Langevin and Hamiltonian Monte
   Carlo methods", J. R. Stat. Soc. B 73 (2011) 123-214.
.. [5] J. S. Liu and C. Sabatti, "Generalised Gibbs sampler and multigrid Monte Carlo
   for Bayesian computation", Biometrika 87 (2000) 353-369.
.. [6] Y. Yu and X.-L. Meng, "To center or not to center: that is not the question",
   J. Comput. Graph. Stat. 20 (2011) 531-570.
.. [7] D. A. van Dyk and T. Park, "Partially collapsed Gibbs samplers: theory and
   methods", J. Am. Stat. Assoc. 103 (2008) 790-796.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.special import expit

from ..bayes import initial_cutpoints, starting_mu
from ._model import CutpointPrior, Likelihood, cutpoint_tilt, unit_weights
from ._prevalence import PrevalencePopulation
from ._proposals import (
    Spread,
    acceptance,
    cutpoint_forward,
    cutpoint_mode,
    cutpoint_reverse,
    fitted_proposal,
    log_unit_step,
    mean_acceptance,
    norm_logpdf,
    normal_mean,
    rescale,
    t_logpdf,
    translate,
)

__all__ = ["ROC_STEPS", "THETA_NAMES", "sample_subgroups"]

#: Random-walk steps of the subgroups' ROC parameters per iteration of the sampler.
ROC_STEPS = 3
#: Population steps (step 4) per iteration: the spreads and means are the slowest
#: parameters at many subgroups, and a population step costs about a fifth of an
#: iteration; three of them raised the smallest bulk ESS of ``s_mu``, ``s_log_sigma``,
#: ``m_log_sigma`` and the subgroups' ``mu`` about 1.7-2.5 fold at 200 subgroups of 50
#: items (4 seeds) for 40% more sampling time (docs/benchmarks.md).
POPULATION_STEPS = 3
#: Order of the per-subgroup ROC parameters in the sampler's ``theta`` arrays.
THETA_NAMES = ("shift", "log_scale", "mu", "log_sigma")
#: The ROC part's population spreads, in the order of the columns of :attr:`_State.s`.
SPREAD_NAMES = ("s_shift", "s_log_scale", "s_mu", "s_log_sigma")
#: The ROC part's population means, as the result names them.
MEAN_NAMES = ("m_mu", "m_log_sigma", "m_log_scale")


def sample_subgroups(data, priors, *, draws=1000, tune=1000, chains=4, rng, progress=None):
    """Draws from the hierarchical subgroup model by Metropolis-within-Gibbs.

    Parameters
    ----------
    data : SubgroupData
    priors : SubgroupPriors
    draws, tune, chains : int
        Kept draws and warm-up iterations per chain, number of chains.
    rng : numpy.random.Generator
    progress : callable, optional
        Called as ``progress(iterations_done)`` every 50 iterations.

    Returns
    -------
    dict
        ``mu``, ``sigma``, ``shift``, ``scale``, ``prevalence`` of shape
        (chains, draws, G); the population means and spreads (``m_mu``, ``s_mu``, ...)
        and ``cutpoints`` (chains, draws, K - 1); ``acceptance`` (mean acceptance rates
        of the Metropolis steps).
    """
    run = _Run.of(data, priors, tune, chains, rng)
    state = _initial_state(data, run)
    tuning = _Tuning.of(run, state)
    trace = _Trace(chains, draws, data.n_groups, state.c.shape[1])
    # far random-walk proposals overflow and are rejected
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        for it in range(tune + draws):
            _roc_step(run, state, tuning, it, trace.acc)
            _cutpoint_step(run, state, tuning, it, trace.acc)
            _latent_axis_step(run, state)
            for _ in range(POPULATION_STEPS):
                _population_step(run, state, tuning, it, trace.acc)
            if it >= tune:
                trace.record(it - tune, state)
            if progress is not None and (it + 1) % 50 == 0:
                progress(it + 1)
    _prevalence_step(run, trace, draws)
    return trace.result(draws)


# ------------------------------------------------------------------ state and tuning
@dataclass(frozen=True, eq=False)
class _Run:
    """What every step reads and never changes: likelihood, priors, counts, the RNG."""

    lik: Likelihood
    priors: object
    spreads: list
    prevalences: PrevalencePopulation
    n: np.ndarray  # items per subgroup (G,)
    npos: np.ndarray  # positives per subgroup (G,)
    tune: int
    chains: int
    n_groups: int
    rng: np.random.Generator

    @classmethod
    def of(cls, data, priors, tune, chains, rng):
        g = data.n_groups
        scales = (
            priors.shift_spread,
            priors.log_scale_spread,
            priors.mu_spread,
            priors.log_sigma_spread,
        )
        return cls(
            lik=Likelihood(data),
            priors=priors,
            spreads=[Spread(scale, g) for scale in scales],
            prevalences=PrevalencePopulation(
                data.n_pos, data.n, priors.logit_prevalence_sd, priors.prevalence_spread
            ),
            n=data.n.astype(float),
            npos=data.n_pos.astype(float),
            tune=tune,
            chains=chains,
            n_groups=g,
            rng=rng,
        )

    @property
    def nu(self):
        """Degrees of freedom of ``mu``'s Student-t population."""
        return self.priors.mu_df


@dataclass(eq=False)
class _State:
    """The chains' current values (one row per chain) and their log-likelihoods."""

    c: np.ndarray  # cutpoints (B, K - 1)
    theta: np.ndarray  # (B, G, 4): THETA_NAMES
    s: np.ndarray  # population spreads (B, 4): SPREAD_NAMES
    m_mu: np.ndarray  # population means (B,)
    m_ls: np.ndarray
    m_l: np.ndarray  # population mean of the log scales: the latent axis' log unit
    ll0: np.ndarray = None  # log-likelihood of the negatives per (chain, subgroup)
    ll1: np.ndarray = None  # and of the positives
    tilt: np.ndarray = 0.0  # the cutpoints' prior's weight on each log scale (G,)

    def group_prior(self, th, nu):
        """Population log density of ``th`` (B, G, 4) per (chain, subgroup).

        ``mu``'s Student-t population enters with its mixing weights integrated out (the
        weights are drawn from their conditional just before the population's update,
        step 4: a partially collapsed Gibbs sampler, van Dyk & Park 2008).
        """
        chains = self.m_l.shape[0]
        means = np.stack([np.zeros(chains), self.m_l, self.m_ls], axis=1)
        sds = np.stack([self.s[:, 0] * np.exp(self.m_l), self.s[:, 1], self.s[:, 3]], axis=1)
        normal = norm_logpdf(th[..., [0, 1, 3]], means[:, None, :], sds[:, None, :])
        return (
            normal.sum(axis=2)
            + t_logpdf(th[..., 2], self.m_mu[:, None], self.s[:, 2, None], nu)
            - self.tilt * th[..., 1]  # the cutpoints' prior, in the subgroups' unit
        )

    def tilt_change(self, prop):
        """Change of the cutpoints' prior's factor on the log scales (the part of
        :meth:`group_prior` a population proposal does not cancel) from the current
        ``theta`` to ``prop``, per (chain, subgroup)."""
        return -self.tilt * (prop[..., 1] - self.theta[..., 1])


def _initial_state(data, run):
    counts = data.ordinal.counts
    chains, g, rng = run.chains, run.n_groups, run.rng
    mu0 = starting_mu(counts)
    c0 = initial_cutpoints(counts, [mu0], [1.0])[0]
    theta = np.zeros((chains, g, 4))
    theta[..., 2] = mu0
    theta += 0.05 * rng.standard_normal(theta.shape)
    c = np.repeat(c0[None], chains, axis=0)
    c = cutpoint_mode(run.lik, c, theta, CutpointPrior(run.priors.cutpoint_sd, np.ones(chains)))
    s = np.array([[0.3, 0.2, 0.2, 0.1]]) * rng.uniform(0.8, 1.2, (chains, 1))
    state = _State(
        c=c,
        theta=theta,
        s=np.repeat(s, 1, 0),
        m_mu=np.full(chains, mu0),
        m_ls=np.zeros(chains),
        m_l=np.zeros(chains),
        tilt=cutpoint_tilt(run.lik.n_cut, unit_weights(data)),
    )
    state.ll0 = run.lik.class_loglik(0, c, theta)
    state.ll1 = run.lik.class_loglik(1, c, theta)
    return state


@dataclass(eq=False)
class _Tuning:
    """The proposals' scales, adapted in the warm-up."""

    chol: np.ndarray  # per-subgroup random-walk covariance factors (G, 4, 4)
    log_lam: np.ndarray  # and their log scale factors (B, G)
    adapt_at: set  # warm-up iterations that refit the random-walk covariance
    spread_step: np.ndarray = field(default_factory=lambda: np.full(4, 0.5))
    mean_step: np.ndarray = field(default_factory=lambda: np.full(2, 0.1))  # mu, log sigma
    cut_step: np.ndarray = None  # the cutpoints' Langevin step per chain (1: a Newton step)
    ridge_step: np.ndarray = field(default_factory=lambda: np.full(2, 0.05))  # mu, log sigma
    window: list = field(default_factory=list)  # warm-up draws since the last refit
    fitted: object = None  # the warm-up's fit of each subgroup's (mu, log sigma)

    @classmethod
    def of(cls, run, state):
        g, n, npos = run.n_groups, run.n, run.npos
        nn = n - npos + 1.0  # negatives + 1
        n1 = npos + 1.0
        sd0 = np.stack(
            [1.5 / np.sqrt(nn), 1.0 / np.sqrt(nn), 1.5 / np.sqrt(n1), 1.0 / np.sqrt(n1)], 1
        )
        chol = np.zeros((g, 4, 4))
        chol[:, np.arange(4), np.arange(4)] = np.minimum(sd0, 0.5)
        tune = run.tune
        return cls(
            chol=chol,
            log_lam=np.zeros((run.chains, g)),
            adapt_at={int(tune * f) for f in (0.2, 0.4, 0.6)} if tune >= 100 else set(),
            cut_step=np.full(run.chains, 1.0),
        )


class _Trace:
    """The kept draws and the acceptance rates of the Metropolis steps."""

    def __init__(self, chains, draws, g, n_cut):
        self.keep = {name: np.empty((chains, draws, g)) for name in THETA_NAMES}
        self.hyper = {name: np.empty((chains, draws)) for name in SPREAD_NAMES + MEAN_NAMES}
        self.cut = np.empty((chains, draws, n_cut))
        self.acc = dict.fromkeys(
            ("prior", "fitted", "roc", "cutpoints", "ridge", "spread", "mean"), 0.0
        )
        self.prevalence_acceptance = float("nan")  # set by _prevalence_step

    def record(self, i, st):
        for k, name in enumerate(THETA_NAMES):
            self.keep[name][:, i] = st.theta[..., k]
        self.cut[:, i] = st.c
        for k, name in enumerate(SPREAD_NAMES):
            self.hyper[name][:, i] = st.s[:, k]
        for name, value in zip(MEAN_NAMES, (st.m_mu, st.m_ls, st.m_l), strict=True):
            self.hyper[name][:, i] = value

    def result(self, draws):
        keep = self.keep
        return {
            "mu": keep["mu"],
            "sigma": np.exp(keep["log_sigma"]),
            "shift": keep["shift"],
            "scale": np.exp(keep["log_scale"]),
            "prevalence": expit(keep["logit_p"]),
            "cutpoints": self.cut,
            **self.hyper,
            "acceptance": {k: v / max(draws, 1) for k, v in self.acc.items()}
            | {"prevalence": self.prevalence_acceptance},
        }


def _metropolis(log_a, rng, size=None):
    """Accept where ``log u < log_a`` (``u`` uniform, one per element of ``log_a`` or
    ``size``)."""
    return np.log(rng.uniform(size=log_a.shape if size is None else size)) < log_a


# --------------------------------------------------------- 1. the subgroups' ROC curves
def _roc_step(run, st, tun, it, acc):
    """Step 1: random walk, population proposals, then the fitted proposals."""
    _roc_random_walk(run, st, tun, it, acc)
    _roc_population_proposals(run, st, it, acc)
    if tun.fitted is not None:
        _roc_fitted_proposal(run, st, tun, it, acc)


def _roc_random_walk(run, st, tun, it, acc):
    """A few random-walk Metropolis steps (cheap beside the cutpoint step)."""
    warm = it < run.tune
    lik, rng, nu = run.lik, run.rng, run.nu
    for _ in range(ROC_STEPS):
        eps = rng.standard_normal((run.chains, run.n_groups, 4))
        step = np.einsum("gij,bgj->bgi", tun.chol, eps) * np.exp(tun.log_lam)[..., None]
        step[..., 0] *= np.exp(st.m_l)[:, None]  # locations move in the latent axis' unit
        prop = st.theta + step
        p0 = lik.class_loglik(0, st.c, prop)
        p1 = lik.class_loglik(1, st.c, prop)
        log_a = p0 + p1 + st.group_prior(prop, nu) - st.ll0 - st.ll1 - st.group_prior(st.theta, nu)
        accept = _metropolis(log_a, rng)
        st.theta = np.where(accept[..., None], prop, st.theta)
        st.ll0 = np.where(accept, p0, st.ll0)
        st.ll1 = np.where(accept, p1, st.ll1)
        rate = acceptance(log_a)
        if warm:
            tun.log_lam += (rate - 0.3) / np.sqrt(1.0 + it / 3.0)
            _adapt_roc_proposal(st, tun, it)
        else:
            acc["roc"] += rate.mean() / ROC_STEPS


def _adapt_roc_proposal(st, tun, it):
    """Record the warm-up draws; at the ``adapt_at`` iterations refit the random walk's
    covariance and the fitted proposal from the second half of the window.

    Locations are recorded in the latent axis' unit (``e^m_l``) and log scales about
    ``m_l``: the unit is redrawn every iteration (step 3), and with it every location
    and log scale, so their raw spread in the window is the unit's, far wider than a
    subgroup's own conditional.
    """
    unit_free = st.theta.copy()
    unit_free[..., 0] /= np.exp(st.m_l)[:, None]
    unit_free[..., 1] -= st.m_l[:, None]
    tun.window.append(unit_free)
    if it + 1 in tun.adapt_at and len(tun.window) > 20:
        w = np.concatenate(tun.window[len(tun.window) // 2 :], axis=0)  # (draws*chains, G, 4)
        centre = w.mean(axis=0)
        w = w - centre
        cov = np.einsum("ngi,ngj->gij", w, w) / max(w.shape[0] - 1, 1)
        tun.fitted = fitted_proposal(centre[:, 2:], cov[:, 2:, 2:])
        cov = 2.38**2 / 4 * cov + 1e-8 * np.eye(4)
        try:
            tun.chol = np.linalg.cholesky(cov)
        except np.linalg.LinAlgError:  # pragma: no cover - keep the last proposal
            pass
        tun.log_lam[:] = 0.0
        tun.window = []


def _roc_population_proposals(run, st, it, acc):
    """Independence proposals from the population distribution, per subgroup: the ROC
    parameters (positives' likelihood only), then (every other iteration) the location
    and scale. Subgroups with few positives (or items) are mostly prior: these moves
    let them jump across it, where a random walk crawls."""
    lik, rng, nu, chains, g = run.lik, run.rng, run.nu, run.chains, run.n_groups
    for cols in ((2, 3), (0, 1)) if it % 2 else ((2, 3),):
        prop = st.theta.copy()
        means = np.stack([np.zeros(chains), st.m_l, st.m_mu, st.m_ls], axis=1)
        for k in cols:
            sd = st.s[:, k, None] * (np.exp(st.m_l)[:, None] if k == 0 else 1.0)
            z = rng.standard_t(nu, (chains, g)) if k == 2 else rng.standard_normal((chains, g))
            prop[..., k] = means[:, k, None] + sd * z
        p1 = lik.class_loglik(1, st.c, prop)
        p0 = st.ll0 if cols == (2, 3) else lik.class_loglik(0, st.c, prop)
        # the population density cancels with the proposal's; the cutpoints' prior's
        # factor on the log scales does not
        log_a = p0 + p1 - st.ll0 - st.ll1 + st.tilt_change(prop)
        accept = _metropolis(log_a, rng)
        st.theta = np.where(accept[..., None], prop, st.theta)
        st.ll0 = np.where(accept, p0, st.ll0)
        st.ll1 = np.where(accept, p1, st.ll1)
        if it >= run.tune:
            acc["prior"] += accept.mean() / 1.5


def _roc_fitted_proposal(run, st, tun, it, acc):
    """Each subgroup's ``(mu, log sigma)`` by an independence proposal from the Student-t
    fitted to its warm-up draws (Gasemyr 2003): one move that can cross the whole
    posterior, where the random walk needs many; it matters for a subgroup unlike the
    others, whose population proposals are rejected."""
    nu = run.nu
    prop = st.theta.copy()
    prop[..., 2:] = tun.fitted.draw(run.rng, run.chains)
    p1 = run.lik.class_loglik(1, st.c, prop)
    log_a = (
        p1
        + st.group_prior(prop, nu)
        + tun.fitted.log_density(st.theta[..., 2:])
        - st.ll1
        - st.group_prior(st.theta, nu)
        - tun.fitted.log_density(prop[..., 2:])
    )
    accept = _metropolis(log_a, run.rng)
    st.theta = np.where(accept[..., None], prop, st.theta)
    st.ll1 = np.where(accept, p1, st.ll1)
    if it >= run.tune:
        acc["fitted"] += accept.mean()


# ------------------------------------------------------------------- 2. the cutpoints
def _cutpoint_step(run, st, tun, it, acc):
    """Step 2: the Langevin-Newton move of the cutpoints on even iterations, the ridge
    move (``mu`` and ``log sigma`` alternately) on odd ones. The cutpoints are pinned
    down by all the data: every other iteration suffices."""
    cut_prior = CutpointPrior(run.priors.cutpoint_sd, np.exp(st.m_l))
    if it % 2 == 0:
        _cutpoint_langevin_move(run, st, tun, cut_prior, it, acc)
    else:
        _ridge_move(run, st, tun, cut_prior, 2 if it % 4 == 1 else 3, it, acc)


def _cutpoint_langevin_move(run, st, tun, cut_prior, it, acc):
    """Langevin-Newton Metropolis: a Gaussian proposal towards the Newton point of the
    cutpoints' full conditional (Qi & Minka 2002; Girolami & Calderhead 2011)."""
    lik, h = run.lik, tun.cut_step[:, None]
    st.ll0, st.ll1, c_prop, log_q_fwd, ok_f = cutpoint_forward(
        lik, st.c, st.theta, cut_prior, h, run.rng
    )
    q0, q1, log_q_rev, ok_r = cutpoint_reverse(lik, c_prop, st.c, st.theta, cut_prior, h)
    log_a = (
        (q0 + q1).sum(1)
        - (st.ll0 + st.ll1).sum(1)
        + cut_prior.log_density(c_prop)
        - cut_prior.log_density(st.c)
        + log_q_rev
        - log_q_fwd
    )
    accept = ok_f & ok_r & _metropolis(log_a, run.rng, run.chains)
    st.c = np.where(accept[:, None], c_prop, st.c)
    st.ll0 = np.where(accept[:, None], q0, st.ll0)
    st.ll1 = np.where(accept[:, None], q1, st.ll1)
    if it < run.tune:
        rate = np.where(ok_f, acceptance(log_a), 0.0)
        tun.cut_step *= np.exp((rate - 0.57) / np.sqrt(1.0 + it / 6.0))
        np.clip(tun.cut_step, 0.05, 1.5, out=tun.cut_step)
    else:
        acc["cutpoints"] += 2 * accept.mean()


def _ridge_move(run, st, tun, cut_prior, k, it, acc):
    """The subgroups' common ``mu`` (``k = 2``) or ``log sigma`` (``k = 3``) and the
    cutpoints together: a monotone transform can trade the positives' place and spread
    for the cutpoints' shape. Every subgroup's value and their population mean shift by
    ``delta``, and the cutpoints are redrawn from their proposal given the shift."""
    lik, rng, h = run.lik, run.rng, tun.cut_step[:, None]
    priors = run.priors
    m, prior_sd = (st.m_mu, priors.mu_sd) if k == 2 else (st.m_ls, priors.log_sigma_sd)
    delta = tun.ridge_step[k - 2] * rng.standard_normal(run.chains)
    prop = st.theta.copy()
    prop[..., k] += delta[:, None]
    _, _, c_prop, log_q_fwd, ok_f = cutpoint_forward(lik, st.c, prop, cut_prior, h, rng)
    _, _, log_q_rev, ok_r = cutpoint_reverse(lik, c_prop, st.c, st.theta, cut_prior, h)
    q0 = lik.class_loglik(0, c_prop, prop)  # c_prop is c where it is unusable
    q1 = lik.class_loglik(1, c_prop, prop)
    log_a = (
        (q0 + q1).sum(1)
        - (st.ll0 + st.ll1).sum(1)
        + cut_prior.log_density(c_prop)
        - cut_prior.log_density(st.c)
        + norm_logpdf(m + delta, 0.0, prior_sd)
        - norm_logpdf(m, 0.0, prior_sd)
        + log_q_rev
        - log_q_fwd
    )
    accept = ok_f & ok_r & _metropolis(log_a, rng, run.chains)
    st.c = np.where(accept[:, None], c_prop, st.c)
    st.theta = np.where(accept[:, None, None], prop, st.theta)
    m[:] = np.where(accept, m + delta, m)  # st.m_mu or st.m_ls, in place
    st.ll0 = np.where(accept[:, None], q0, st.ll0)
    st.ll1 = np.where(accept[:, None], q1, st.ll1)
    if it < run.tune:
        rate = np.where(ok_f, acceptance(log_a), 0.0)
        tun.ridge_step[k - 2] *= np.exp((rate.mean() - 0.4) / np.sqrt(1.0 + it / 12.0))
    else:
        acc["ridge"] += 2 * accept.mean()


# -------------------------------------------------------------------- 3. the latent axis
def _latent_axis_step(run, st):
    """Step 3: translating (or scaling) the cutpoints and every subgroup's location
    together leaves the likelihood unchanged, so only the priors pin these directions
    down; one exact Gibbs draw of the translation, one of the scale factor and a few
    Metropolis steps of ``m_l`` move along them."""
    rng, priors = run.rng, run.priors
    cut_prior = CutpointPrior(priors.cutpoint_sd, np.exp(st.m_l))
    st.c, st.theta = translate(st.c, st.theta, st.s[:, 0] * np.exp(st.m_l), cut_prior, rng)
    st.c, st.theta, st.m_l = rescale(st.c, st.theta, st.m_l, priors.log_scale_sd, rng)
    st.m_l = log_unit_step(st.m_l, st.c, st.theta, st.s, priors, rng)


# ---------------------------------------------------------------------- 4. the population
def _population_step(run, st, tun, it, acc):
    """Step 4: the population means and spreads by their full conditionals (centred
    Gibbs), then non-centred moves of the spreads and of the means."""
    _population_gibbs(run, st)
    _location_spread_move(run, st, tun, it)
    for k in (2, 3):
        _roc_population_moves(run, st, tun, k, it, acc)


def _population_gibbs(run, st):
    """The locations' and log scales' spreads, then ``mu``'s and ``log sigma``'s means and
    spreads (``mu``'s Student-t population as a scale mixture of normals: its weights
    ``w_g`` drawn given the rest first)."""
    rng, priors, spreads, nu = run.rng, run.priors, run.spreads, run.nu
    theta, s, m_l = st.theta, st.s, st.m_l
    s[:, 0] = spreads[0].draw(np.sum((theta[..., 0] / np.exp(m_l)[:, None]) ** 2, 1), rng)
    s[:, 1] = spreads[1].draw(np.sum((theta[..., 1] - m_l[:, None]) ** 2, axis=1), rng)
    dev = (theta[..., 2] - st.m_mu[:, None]) / s[:, 2, None]
    w_mu = rng.gamma((nu + 1) / 2, 2.0 / (nu + dev**2))
    st.m_mu = normal_mean(theta[..., 2], s[:, 2], priors.mu_sd, rng, w_mu)
    st.m_ls = normal_mean(theta[..., 3], s[:, 3], priors.log_sigma_sd, rng)
    s[:, 2] = spreads[2].draw(np.sum(w_mu * (theta[..., 2] - st.m_mu[:, None]) ** 2, axis=1), rng)
    s[:, 3] = spreads[3].draw(np.sum((theta[..., 3] - st.m_ls[:, None]) ** 2, axis=1), rng)


def _location_spread_move(run, st, tun, it):
    """The locations' or (alternately) the log scales' spread, non-centred: the effects
    scaled about their centre (both classes' likelihoods change)."""
    lik, rng, spreads, chains = run.lik, run.rng, run.spreads, run.chains
    k = it % 2
    centre = np.zeros(chains) if k == 0 else st.m_l
    f = np.exp(tun.spread_step[k] * rng.standard_normal(chains))
    prop = st.theta.copy()
    prop[..., k] = centre[:, None] + f[:, None] * (st.theta[..., k] - centre[:, None])
    p0 = lik.class_loglik(0, st.c, prop)
    p1 = lik.class_loglik(1, st.c, prop)
    log_a = (
        (p0 + p1 - st.ll0 - st.ll1).sum(1)
        + spreads[k].log_prior(st.s[:, k] * f)
        - spreads[k].log_prior(st.s[:, k])
        + np.log(f)
        + st.tilt_change(prop).sum(1)  # 0 for the locations
    )
    accept = _metropolis(log_a, rng, chains)
    st.theta = np.where(accept[:, None, None], prop, st.theta)
    st.ll0 = np.where(accept[:, None], p0, st.ll0)
    st.ll1 = np.where(accept[:, None], p1, st.ll1)
    st.s[:, k] = np.where(accept, st.s[:, k] * f, st.s[:, k])
    if it < run.tune:
        rate = mean_acceptance(log_a)
        tun.spread_step[k] *= np.exp((rate - 0.4) / np.sqrt(1.0 + it / 6.0))


def _roc_population_moves(run, st, tun, k, it, acc):
    """``mu``'s (``k = 2``) or ``log sigma``'s (``k = 3``) spread move (the effects scaled
    about their mean, standardized effects fixed) and mean move (every subgroup's
    effect shifted with the mean: with a small spread the data pin the mean far more
    loosely than the centred draw's ``s / sqrt(G)`` steps, so its step is tuned in the
    warm-up)."""
    lik, rng, spreads, chains = run.lik, run.rng, run.spreads, run.chains
    warm = it < run.tune
    m, prior_sd = (st.m_mu, run.priors.mu_sd) if k == 2 else (st.m_ls, run.priors.log_sigma_sd)
    f = np.exp(tun.spread_step[k] * rng.standard_normal(chains))
    prop = st.theta.copy()
    prop[..., k] = m[:, None] + f[:, None] * (st.theta[..., k] - m[:, None])
    p1 = lik.class_loglik(1, st.c, prop)
    log_a = (
        (p1 - st.ll1).sum(1)
        + spreads[k].log_prior(st.s[:, k] * f)
        - spreads[k].log_prior(st.s[:, k])
        + np.log(f)
    )
    accept = _metropolis(log_a, rng, chains)
    st.theta = np.where(accept[:, None, None], prop, st.theta)
    st.ll1 = np.where(accept[:, None], p1, st.ll1)
    st.s[:, k] = np.where(accept, st.s[:, k] * f, st.s[:, k])
    if warm:
        rate = mean_acceptance(log_a)
        tun.spread_step[k] *= np.exp((rate - 0.4) / np.sqrt(1.0 + it / 3.0))
    else:
        acc["spread"] += accept.mean() / (2 * POPULATION_STEPS)
    delta = tun.mean_step[k - 2] * rng.standard_normal(chains)
    prop = st.theta.copy()
    prop[..., k] += delta[:, None]
    p1 = lik.class_loglik(1, st.c, prop)
    new_m = m + delta
    log_a = (p1 - st.ll1).sum(1) + norm_logpdf(new_m, 0.0, prior_sd) - norm_logpdf(m, 0.0, prior_sd)
    accept = _metropolis(log_a, rng, chains)
    st.theta = np.where(accept[:, None, None], prop, st.theta)
    st.ll1 = np.where(accept[:, None], p1, st.ll1)
    m[:] = np.where(accept, new_m, m)  # st.m_mu or st.m_ls, in place
    if warm:
        rate = mean_acceptance(log_a)
        tun.mean_step[k - 2] *= np.exp((rate - 0.4) / np.sqrt(1.0 + it / 3.0))
    else:
        acc["mean"] += accept.mean() / (2 * POPULATION_STEPS)


# --------------------------------------------------------------------- 5. the prevalences
def _prevalence_step(run, trace, draws):
    """Step 5, after the loop: the prevalences, apart from the rest (the category counts
    are conditioned on the class sizes, so no other parameter depends on them): their
    population mean and spread on their marginal posterior, then every logit prevalence
    by an exact draw from its conditional (:class:`._prevalence.PrevalencePopulation`),
    for all kept draws at once."""
    m, s, logit_p, accepted = run.prevalences.sample(run.chains, draws, run.rng)
    trace.hyper["m_logit_prevalence"] = m
    trace.hyper["s_prevalence"] = s
    trace.keep["logit_p"] = logit_p
    trace.prevalence_acceptance = accepted
