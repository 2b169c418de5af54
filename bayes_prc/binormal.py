r"""The analytic binormal model of precision-recall curves.

Model
-----
A classifier's scores are modelled as a two-component normal mixture: a positive item's
score is :math:`X_1 \sim N(\mu_1, \sigma_1)`, a negative item's score is
:math:`X_0 \sim N(\mu_0, \sigma_0)`, and an item is positive with probability
:math:`\pi` (the prevalence). Classifying ``score >= t`` as positive gives

.. math::

    r(t) = P(X_1 \ge t) = \Phi\!\left(\frac{\mu_1 - t}{\sigma_1}\right), \qquad
    f(t) = P(X_0 \ge t) = \Phi\!\left(\frac{\mu_0 - t}{\sigma_0}\right),

    \operatorname{prec}(t) = \frac{\pi\, r(t)}{\pi\, r(t) + (1 - \pi) f(t)}
      = \operatorname{expit}\bigl(\operatorname{logit}\pi + \log r(t) - \log f(t)\bigr),

the recall (true-positive rate), the false-positive rate and the precision
(Brodersen et al., 2010).

Log-space formulation
---------------------
Both tail probabilities underflow double precision far in the right tail (``t`` a few
dozen standard deviations above both means), where the ratio form of the precision
becomes ``0/0``. Everything here is computed from the *log* tail probabilities
``scipy.special.log_ndtr``, which stay finite and accurate for any finite argument, and
the precision is the logistic function of ``logit(pi) + log r - log f``. Only when both
log tails are ``-inf`` (``t = +inf``) is the analytic limit used instead: precision tends
to 1 if :math:`\sigma_1 > \sigma_0`, to 0 if :math:`\sigma_1 < \sigma_0` and, for equal
spreads, to 1 or 0 by the sign of :math:`\mu_1 - \mu_0` (to :math:`\pi` for identical
classes). At ``t = -inf`` (recall 1) the precision is :math:`\pi`.

Most computations use the standardised positive score :math:`u = (t - \mu_1)/\sigma_1`,
for which :math:`r = \Phi(-u)` and :math:`f = \Phi(-(d + s u))` with
:math:`d = (\mu_1 - \mu_0)/\sigma_0` and :math:`s = \sigma_1/\sigma_0`. The precision at
recall :math:`r` uses :math:`u = -\Phi^{-1}(r)` and the exact :math:`\log r`, and the
average precision is

.. math::

    \mathrm{AP} = \int_0^1 \operatorname{prec}(r)\,dr
        = E[\operatorname{prec}(X_1)] = \int_{-\infty}^{\infty} \varphi(u)\,
          \operatorname{prec}(\mu_1 + \sigma_1 u)\,du

(Boyd et al., 2013), evaluated by composite Gauss-Legendre quadrature in :math:`u` when
:math:`s \le 1` and in the standardised negative score :math:`x = d + s u` when
:math:`s > 1`, where the precision's transition is sharp in :math:`u` but smooth in
:math:`x` (see :meth:`Binormal.average_precision`).

Every parameter may be an array (for example posterior draws); the parameters broadcast
to a common ``batch_shape`` and every method that takes an evaluation argument ``x``
returns an array of shape ``batch_shape + np.shape(x)``: each draw evaluated on the
whole grid.

References
----------
.. [1] K. H. Brodersen, C. S. Ong, K. E. Stephan and J. M. Buhmann, "The binormal
   assumption on precision-recall curves", Proc. 20th International Conference on
   Pattern Recognition (ICPR), 2010, pp. 4263-4266.
.. [2] K. Boyd, K. H. Eng and C. D. Page, "Area under the precision-recall curve: point
   estimates and confidence intervals", ECML PKDD 2013, LNCS 8190, pp. 451-466.
"""

from __future__ import annotations

from .models import Binormal, BinormalFBetaResult

__all__ = ["Binormal", "BinormalFBetaResult"]
