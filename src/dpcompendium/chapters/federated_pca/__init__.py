"""Differentially private PCA across sites: the source's shared-seed protocol, its flaw, and a fix.

- :mod:`.core` — noise calibration (``τ = Δ√(2 ln(1.25/δ))/ε``, ``Δ = √2/n``, replace-one with n public), symmetric Gaussian noise, subspaces,
  captured energy.
- :mod:`.methods` — :func:`pca`, :func:`central_dp_pca` (Analyze Gauss), :func:`dpdis_pca` (Imtiaz & Sarwate 2018),
  :func:`federated_pca` (``variant="shared-seed" | "secure-aggregation"``), :func:`fit_subspace` (one of
  them by name), :func:`fit_subspaces` (the same at every ε, batched), :func:`privacy_claim`.
- :mod:`.cape` — CAPE (correlated noise, :cite:`fedpca_imtiaz2019cape`), the exact ε of a coalition of the server
  and c sites under secure aggregation and CAPE, and the tests of the protocols' noise level and of equivalence.
- :mod:`.ppca` — PPCA (the exponential mechanism over directions, k = 1; an exact Bingham sampler).
- :mod:`.power` — the DP noisy power method (:cite:`fedpca_hardt2014noisy`), central or under secure aggregation.
- :mod:`.protocols` — the masked mean, the shared-seed protocol and its seed attack, secure aggregation.
- :mod:`.datasets` — the chapter's datasets, the public and the as-written preprocessing, horizontal splits.
- :mod:`.audits` — how the audit chapter audits these methods (raw neighbouring datasets).
- :mod:`.experiments` — the sweeps behind the chapter's tables, what each SVM row releases (:func:`release_claims`)
  and what the published projections reveal (:func:`reconstruction_table`).

References: ``src_fedpca``, ``dwork2014analyze``, ``imtiaz2018distributed``, ``bonawitz2017practical``.
"""

from . import (
    cape,
    core,
    datasets,
    experiments,
    laplace,
    methods,
    power,
    ppca,
    protocols,
    wishart,
)
from .cape import *  # noqa: F403
from .core import *  # noqa: F403
from .datasets import *  # noqa: F403
from .experiments import *  # noqa: F403
from .laplace import *  # noqa: F403
from .methods import *  # noqa: F403
from .power import *  # noqa: F403
from .ppca import *  # noqa: F403
from .protocols import *  # noqa: F403
from .wishart import *  # noqa: F403

# the package's public names: each module's own (its ``__all__``)
__all__ = [
    *cape.__all__,
    *core.__all__,
    *datasets.__all__,
    *experiments.__all__,
    *laplace.__all__,
    *methods.__all__,
    *power.__all__,
    *ppca.__all__,
    *protocols.__all__,
    *wishart.__all__,
]
