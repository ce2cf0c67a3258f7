"""PCA estimators: non-private, central Analyze Gauss, DPdisPCA, and the two federated protocols.

Every estimator returns an orthonormal ``d × k`` basis (or a stack ``reps × d × k`` when ``reps`` is given). Input is
either rows ``x`` (n × d, ``‖x‖₂ ≤ 1``) or :class:`SiteData` (the sites' scatters ``X_iᵀX_i`` and sizes ``N_i``).

Privacy (rows in the unit ball after public preprocessing; n public, so replace-one neighbours, ``Δ = √2/n`` on
``A = XᵀX/n``; ``τ = Δ√(2 ln(1.25/δ))/ε``, classical calibration valid for ε < 1 or where the exact profile shows it;
every condition is carried by :func:`privacy_claim`):

- :func:`central_dp_pca` — ``A + E``, ``E`` symmetric with iid ``N(0, τ²)`` upper triangle; (ε, δ)-DP for a trusted
  curator (Analyze Gauss, :cite:`dwork2014analyze`).
- :func:`dpdis_pca` — site ``i`` releases the top-``R`` eigenpairs of ``A_i + E_i``, ``A_i = X_iᵀX_i/N_i``,
  ``τ_i = Δ_i√(2 ln(1.25/δ))/ε`` with ``Δ_i = √2/N_i``; the aggregator takes the top-k eigenvectors of
  ``(1/s) Σ_i P_iP_iᵀ``, ``P_i = V_i Λ_i^{1/2}`` (DPdisPCA, :cite:`imtiaz2018distributed`). (ε, δ)-DP for every
  record, against everybody (each record is in one site; the rest is post-processing).
- :func:`federated_pca` — ``variant="shared-seed"`` is the source's ELFedPCA :cite:`src_fedpca` (not private: a seed
  holder recovers every ``A_i``); ``variant="secure-aggregation"`` is the fix (see :mod:`.protocols`).

What is published after the subspace (:data:`RELEASES`, :func:`release_claim`): the source's step 7 has each site
publish ``Y_i = X_i V′`` — exact projections of raw rows, **not private** at any ε (``Y_i V′ᵀ`` recovers every row's
component in ``V′``; one record changes its own row of ``Y``). The end-to-end private variant
(:func:`noisy_projections`) spends a share of the budget on the subspace, one on Gaussian noise on each projected row
(L2 sensitivity 2 under replace-one: ``‖(x − x′)V′‖₂ ≤ ‖x − x′‖₂ ≤ 2`` for rows in the unit ball) and one on
randomized response for the labels (:data:`END_TO_END_SHARES`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from ...core.mechanisms.gaussian import calibrated_sigma, gaussian_claim
from ...core.mechanisms.randomized_response import grr_privatise
from ...core.messages import Md, message, number, tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_array, check_delta, check_epsilon, check_int, check_rng
from .cape import cape_noise_multiplier, cape_pca, cape_privacy_claim
from .core import (
    Calibration,
    Neighbours,
    _lower_packed,
    _packed_gaussian,
    _unpack_symmetric,
    noise_scale,
    sensitivity,
    symmetric_gaussian,
    top_k_eigh,
    top_k_subspace,
)
from .datasets import bounds_condition
from .power import (
    POWER_ITERS,
    _noisy_power,
    noisy_power_pca,
    power_noise_scale,
    power_privacy_claim,
)
from .protocols import FRAC_BITS, decode, encode, secure_aggregation_protocol, shared_seed_protocol

__all__ = [
    "END_TO_END_SHARES",
    "METHODS",
    "PREPROCESSING",
    "RELEASES",
    "SECURE_AGGREGATION_REAL_SHARES",
    "UTILITY_METHODS",
    "SiteData",
    "central_dp_pca",
    "dpdis_pca",
    "federated_pca",
    "fit_subspace",
    "fit_subspaces",
    "noisy_projections",
    "pca",
    "privacy_claim",
    "release_claim",
]

Variant = Literal["shared-seed", "secure-aggregation"]
#: Method names used in the chapter's tables (``"cape"``: CAPE calibrated so the server's view is (ε, δ)-DP).
METHODS = (
    "non-private", "central", "shared-seed", "secure-aggregation", "dpdispca", "cape", "noisy-power",
)  # fmt: skip
#: The methods of the utility sweeps: the shared-seed protocol's aggregate *is* ``A + E`` with ``E`` central
#: Analyze-Gauss noise (the same draw a central curator makes from the same stream, tested exactly), so its utility
#: is central DP-PCA's by construction; what "the same noise as central" means is tested on the aggregate itself
#: (:func:`~dpcompendium.chapters.federated_pca.noise_level_table`).
UTILITY_METHODS = (
    "non-private",
    "central",
    "secure-aggregation",
    "dpdispca",
    "cape",
    "noisy-power",
)


@dataclass(frozen=True)
class SiteData:
    """Sufficient statistics of a horizontal split: ``scatters[i] = X_iᵀX_i`` (s, d, d) and ``sizes[i] = N_i``."""

    scatters: np.ndarray
    sizes: np.ndarray

    def __post_init__(self) -> None:
        sc = check_array(self.scatters, "scatters", ndim=3)
        sizes = check_array(self.sizes, "sizes", ndim=1, dtype=np.int64)
        if sc.shape[1] != sc.shape[2] or sc.shape[0] != sizes.shape[0]:
            raise ValueError(
                f"scatters must be (s, d, d) with s = len(sizes), got {sc.shape} and {sizes.shape}"
            )
        if np.any(sizes < 1):
            raise ValueError(f"sizes must be >= 1, got {sizes.tolist()!r}")
        object.__setattr__(self, "scatters", sc)
        object.__setattr__(self, "sizes", sizes)

    @classmethod
    def from_rows(cls, parts: Sequence[np.ndarray]) -> SiteData:
        """From the sites' row blocks ``X_i`` (N_i × d)."""
        blocks = [check_array(p, f"parts[{i}]", ndim=2) for i, p in enumerate(parts)]
        if not blocks or len({b.shape[1] for b in blocks}) != 1:
            raise ValueError(
                f"parts must be row blocks with a common width, got {[b.shape for b in blocks]}"
            )
        return cls(np.stack([b.T @ b for b in blocks]), np.array([b.shape[0] for b in blocks]))

    @classmethod
    def from_labels(cls, x: np.ndarray, labels: np.ndarray, s: int) -> SiteData:
        """From rows ``x`` and a site label in ``0..s-1`` per row (a loop over sites, not rows).

        The rows are grouped by site once (a stable sort keeps each site's rows in their order); each scatter is
        ``X_iᵀ X_i`` of one contiguous block, which numpy hands to BLAS ``syrk`` (half the flops of the ``gemm`` of
        ``x[labels == i].T @ x[labels == i]``, equal to rounding; tested)."""
        x = check_array(x, "x", ndim=2)
        labels = check_array(labels, "labels", ndim=1, dtype=np.int64)
        s = check_int(s, "s", minimum=1)
        if labels.shape[0] != x.shape[0] or labels.min() < 0 or labels.max() >= s:
            raise ValueError(f"labels must give a site in 0..{s - 1} for each of {x.shape[0]} rows")
        sizes = np.bincount(labels, minlength=s)
        # a stable sort of small integers is a radix sort; rows gather fastest from a C-ordered x
        order = np.argsort(labels.astype(np.min_scalar_type(s - 1)), kind="stable")
        grouped = np.split(x[order], np.cumsum(sizes)[:-1])
        return cls(np.stack([xi.T @ xi for xi in grouped]), sizes)

    @property
    def s(self) -> int:
        return int(self.sizes.shape[0])

    @property
    def d(self) -> int:
        return int(self.scatters.shape[1])

    @property
    def n(self) -> int:
        return int(self.sizes.sum())

    # computed once per split (the sweeps ask for them at every ε), read-only
    @functools.cached_property
    def second_moment(self) -> np.ndarray:
        """``A = (1/n) Σ_i X_iᵀX_i``."""
        return _frozen(self.scatters.sum(axis=0) / self.n)

    @functools.cached_property
    def shares(self) -> np.ndarray:
        """The sites' shares of ``A``: ``A_i = X_iᵀX_i / n`` (s, d, d)."""
        return _frozen(self.scatters / self.n)

    @functools.cached_property
    def local_moments(self) -> np.ndarray:
        """Each site's own second moment ``X_iᵀX_i / N_i`` (s, d, d)."""
        return _frozen(self.scatters / self.sizes[:, None, None])


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


def _as_sites(data: np.ndarray | SiteData) -> SiteData:
    if isinstance(data, SiteData):
        return data
    x = check_array(data, "x", ndim=2)
    norms = np.linalg.norm(x, axis=1)
    if np.any(norms > 1 + 1e-9):
        raise ValueError(f"x must have rows with ||x||_2 <= 1, found a row of norm {norms.max()!r}")
    return SiteData(np.stack([x.T @ x]), np.array([x.shape[0]]))


def _reps_shape(reps: int | None) -> tuple[int, ...]:
    return () if reps is None else (check_int(reps, "reps", minimum=1),)


def pca(data: np.ndarray | SiteData, k: int) -> np.ndarray:
    """Non-private: the top-k eigenvectors of ``A = XᵀX/n`` (``numpy.linalg.eigh``)."""
    return top_k_subspace(_as_sites(data).second_moment, k)


def central_dp_pca(
    data: np.ndarray | SiteData,
    k: int,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    reps: int | None = None,
    neighbours: Neighbours = "replace-one",
    calibration: Calibration = "classical",
) -> np.ndarray:
    """Analyze Gauss :cite:`dwork2014analyze`: top-k eigenvectors of ``A + E``, ``E`` symmetric ``N(0, τ²)``,
    ``τ = Δ√(2 ln(1.25/δ))/ε``, ``Δ = √2/n`` (replace-one, default) or ``1/n``. (ε, δ)-DP for a trusted curator under
    the conditions of :func:`privacy_claim`."""
    sites = _as_sites(data)
    rng = check_rng(rng)
    tau = noise_scale(epsilon, delta, sites.n, neighbours=neighbours, calibration=calibration)
    noisy = sites.second_moment + symmetric_gaussian(sites.d, tau, rng, size=_reps_shape(reps))
    return top_k_subspace(noisy, k)


def dpdis_pca(
    data: SiteData,
    k: int,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    r: int | None = None,
    reps: int | None = None,
    neighbours: Neighbours = "replace-one",
    calibration: Calibration = "classical",
) -> np.ndarray:
    """DPdisPCA :cite:`imtiaz2018distributed`: site i computes ``Â_i = X_iᵀX_i/N_i + E_i`` with ``τ_i`` for
    ``Δ_i = √2/N_i``, sends ``P_i = V_i^R (Λ_i^R)^{1/2}`` (top-R eigenpairs, negative eigenvalues clipped to 0); the
    aggregator returns the top-k eigenvectors of ``(1/s) Σ_i P_iP_iᵀ``. ``r`` defaults to ``k``."""
    if not isinstance(data, SiteData):
        raise ValueError(
            f"data must be a SiteData (the sites' scatters and sizes), got {type(data).__name__}"
        )
    rng = check_rng(rng)
    d, s = data.d, data.s
    k = check_int(k, "k", minimum=1, maximum=d)
    r = k if r is None else check_int(r, "r", minimum=k, maximum=d)
    taus = np.array(
        [
            noise_scale(epsilon, delta, int(m), neighbours=neighbours, calibration=calibration)
            for m in data.sizes
        ]
    )
    shape = _reps_shape(reps)
    local = data.local_moments
    noisy = local + symmetric_gaussian(d, taus, rng, size=(*shape, s))
    return _dpdis_aggregate(noisy, k, r)


def _dpdis_aggregate(noisy: np.ndarray, k: int, r: int) -> np.ndarray:
    """DPdisPCA's aggregator on the sites' noisy matrices (..., s, d, d): top-k eigenvectors of ``(1/s) Σ_i P_iP_iᵀ``,
    ``P_i = V_i^R (Λ_i^R)^{1/2}``; the sum is one BLAS product ``P Pᵀ`` of the sites' ``P_i`` side by side (d × sR)."""
    s, d = noisy.shape[-3], noisy.shape[-1]
    vals, vecs = top_k_eigh(noisy, r)
    p = vecs * np.sqrt(np.clip(vals, 0.0, None))[..., None, :]  # (..., s, d, r)
    wide = np.moveaxis(p, -3, -2).reshape(*p.shape[:-3], d, s * r)  # (..., d, s·r)
    agg = wide @ np.swapaxes(wide, -1, -2) / s
    return top_k_subspace(agg, k)


def federated_pca(
    data: SiteData,
    k: int,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    variant: Variant = "secure-aggregation",
    masks: bool = False,
    reps: int | None = None,
    neighbours: Neighbours = "replace-one",
    calibration: Calibration = "classical",
) -> np.ndarray:
    """Federated PCA with central-level noise: the server's ``A + E`` then its top-k eigenvectors.

    ``variant="shared-seed"`` — the source's ELFedPCA (a seed drawn from ``rng`` by site 1; **not private**, see
    :func:`privacy_claim`); ``variant="secure-aggregation"`` — independent ``N(0, τ²/s)`` per site under pairwise
    masks (``masks=True`` simulates them; the aggregate is bit-identical without, as the tests check).
    """
    if not isinstance(data, SiteData):
        raise ValueError(
            f"data must be a SiteData (the sites' scatters and sizes), got {type(data).__name__}"
        )
    rng = check_rng(rng)
    k = check_int(k, "k", minimum=1, maximum=data.d)
    shape = _reps_shape(reps)
    n_runs = shape[0] if shape else 1
    if variant not in ("shared-seed", "secure-aggregation"):
        raise ValueError(f"variant must be 'shared-seed' or 'secure-aggregation', got {variant!r}")
    tau = noise_scale(epsilon, delta, data.n, neighbours=neighbours, calibration=calibration)
    if variant == "shared-seed":
        seeds = rng.integers(0, 2**63 - 1, size=n_runs)
        aggs = [shared_seed_protocol(data.scatters, data.n, tau, int(sd)).aggregate for sd in seeds]
    elif masks:
        aggs = [
            secure_aggregation_protocol(data.scatters, data.n, tau, rng).aggregate
            for _ in range(n_runs)
        ]
    else:  # the same computation without the (exactly cancelling) masks, batched over reps
        noisy = data.shares + symmetric_gaussian(
            data.d, tau / np.sqrt(data.s), rng, size=(n_runs, data.s)
        )
        aggs = list(decode(encode(noisy, FRAC_BITS).sum(axis=1, dtype=np.uint64), FRAC_BITS))
    v = top_k_subspace(np.stack(aggs), k)
    return v if shape else v[0]


def fit_subspace(
    method: str,
    sites: SiteData,
    k: int,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    neighbours: Neighbours = "replace-one",
    calibration: Calibration = "classical",
    r: int | None = None,
) -> np.ndarray:
    """The d × k subspace of one of :data:`METHODS` on a split."""
    kw = {"neighbours": neighbours, "calibration": calibration}
    if method == "non-private":
        return pca(sites, k)
    if method == "central":
        return central_dp_pca(sites, k, epsilon, delta, rng, **kw)
    if method in ("shared-seed", "secure-aggregation"):
        return federated_pca(sites, k, epsilon, delta, rng, variant=method, **kw)
    if method == "dpdispca":
        return dpdis_pca(sites, k, epsilon, delta, rng, r=r, **kw)
    if method == "cape":
        return cape_pca(sites, k, epsilon, delta, rng, calibration=calibration)
    if method == "noisy-power":
        return noisy_power_pca(sites, k, epsilon, delta, rng, calibration=calibration)
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


def fit_subspaces(
    method: str,
    sites: SiteData,
    k: int,
    epsilons: Sequence[float],
    delta: float,
    rng: np.random.Generator,
    *,
    neighbours: Neighbours = "replace-one",
    calibration: Calibration = "classical",
    r: int | None = None,
) -> np.ndarray:
    """``np.stack([fit_subspace(method, sites, k, e, delta, rng, ...) for e in epsilons])`` (len(ε), d, k), batched
    over ε: every draw the loop makes, in the same order from ``rng``, in one call per method, and the
    eigendecompositions and products on the stack (the loop is the reference; tested). For ``"shared-seed"``, which
    draws a seed per run, it is the loop."""
    eps = [check_epsilon(e, "epsilons") for e in epsilons]
    if not eps:
        raise ValueError("epsilons must hold at least one epsilon, got []")
    rng = check_rng(rng)
    k = check_int(k, "k", minimum=1, maximum=sites.d)
    d, s, n_eps = sites.d, sites.s, len(eps)
    kw = {"neighbours": neighbours, "calibration": calibration}
    if method == "non-private":
        return np.broadcast_to(pca(sites, k), (n_eps, d, k)).copy()
    if method in ("central", "cape"):
        if method == "central":
            taus = np.array([noise_scale(e, delta, sites.n, **kw) for e in eps])
        else:  # CAPE's server-side sum (cape_pca): the central noise times its multiplier
            taus = np.array([noise_scale(e, delta, sites.n, calibration=calibration) for e in eps])
            taus *= cape_noise_multiplier(s, "calibrated")
        noisy = sites.second_moment + symmetric_gaussian(d, taus, rng, size=(n_eps,))
        return top_k_subspace(noisy, k)
    if method == "secure-aggregation":
        taus = np.array([noise_scale(e, delta, sites.n, **kw) for e in eps]) / np.sqrt(s)
        # on the d(d+1)/2 entries of the lower triangles (what the eigensolver reads): the draws of
        # symmetric_gaussian, each added to its matrix entry, encoded, summed and decoded entry by entry, then mirrored
        # once per ε — the same bits in the lower triangle as on the full matrices (the loop is the reference;
        # tested), at half the additions and encodings and one mirror per ε instead of one per site (issue 50).
        # The sum in the noise's own buffer (IEEE addition commutes: the same bits as shares + noise)
        noisy = _packed_gaussian(d, taus[:, None], rng, size=(n_eps, s))
        np.add(_lower_packed(sites.shares), noisy, out=noisy)
        agg = decode(encode(noisy, FRAC_BITS).sum(axis=1, dtype=np.uint64), FRAC_BITS)
        return top_k_subspace(_unpack_symmetric(agg, d), k)
    if method == "dpdispca":
        r = k if r is None else check_int(r, "r", minimum=k, maximum=d)
        taus = np.array([[noise_scale(e, delta, int(m), **kw) for m in sites.sizes] for e in eps])
        # as above: the noise added on the lower triangles' entries, then mirrored (the same bits where read)
        noisy = _packed_gaussian(d, taus, rng, size=(n_eps, s))
        np.add(_lower_packed(sites.local_moments), noisy, out=noisy)
        return _dpdis_aggregate(_unpack_symmetric(noisy, d), k, r)
    if method == "noisy-power":
        sig = np.array([power_noise_scale(e, delta, sites.n, calibration=calibration) for e in eps])
        return _noisy_power(sites.second_moment, k, sig, POWER_ITERS, rng)
    if method == "shared-seed":
        return np.stack([fit_subspace(method, sites, k, e, delta, rng, **kw, r=r) for e in eps])
    raise ValueError(f"method must be one of {METHODS}, got {method!r}")


Preprocessing = Literal["public", "as-written"]
#: The preprocessing paths of :func:`dpcompendium.chapters.federated_pca.prepare`.
PREPROCESSING = ("public", "as-written")


#: the condition of the secure-aggregation claim: its accounting is for real-valued shares (issue 46, m6)
SECURE_AGGREGATION_REAL_SHARES = message("claims.fedpca.real_shares")


def privacy_claim(
    method: str,
    epsilon: float,
    delta: float,
    n: int,
    *,
    dataset: str | None = None,
    preprocessing: Preprocessing = "public",
    s: int = 1,
    neighbours: Neighbours = "replace-one",
    calibration: Calibration = "classical",
) -> PrivacyClaim:
    """The privacy statement of the *subspace* ``V′`` each method in :data:`METHODS` releases (``n`` = total rows,
    ``s`` = number of sites; what the sites publish after it: :func:`release_claim`). With ``dataset`` (a name of
    :data:`~dpcompendium.chapters.federated_pca.DATASETS`) the claim also carries the condition that the dataset's bounds are public,
    with their source (:func:`~dpcompendium.chapters.federated_pca.bounds_condition`: conditional for bounds taken from the data).

    A private claim rests on three conditions, carried in ``conditions``: (1) the rows were preprocessed with public
    statistics only (``preprocessing="public"``: declared domain bounds and centre, then a per-row map into the
    unit ball) — the as-written path (the data's own ranges and exact mean) moves every row when one record changes,
    so it is ``private=False`` with its measured sensitivity (:func:`dpcompendium.chapters.federated_pca.preprocessing_sensitivity`);
    (2) n and the site sizes are public, so the relation is replace-one with Δ = √2/n (every protocol reveals the
    exact n, which add-remove neighbours change: ``neighbours="add-remove"`` is ``private=False``); (3) the Gaussian
    calibration is valid at (ε, δ) (:func:`dpcompendium.core.mechanisms.gaussian_claim`: the classical one is false
    at ε = 10, δ = 1e-5, exact ε 10.39).
    """
    eps, dlt = check_epsilon(epsilon), check_delta(delta)
    n = check_int(n, "n", minimum=1)
    if preprocessing not in PREPROCESSING:
        raise ValueError(
            f"preprocessing must be one of {'|'.join(PREPROCESSING)}, got {preprocessing!r}"
        )
    sens = sensitivity(n, neighbours)
    sens_txt = message(
        "claims.fedpca.sens_cov",
        formula=Md("sqrt(2)/n", "\\sqrt{2}/n") if neighbours == "replace-one" else Md("1/n", "1/n"),
        value=tex(number(sens)),
    )
    if method == "non-private":
        return PrivacyClaim(
            "PCA",
            neighbours,
            message("claims.fedpca.na"),
            float("inf"),
            0.0,
            False,
            message("claims.fedpca.why_no_noise"),
        )
    if method == "central":
        claim = PrivacyClaim(message("claims.fedpca.mech_central"), neighbours, sens_txt, eps, dlt)
    elif method == "dpdispca":
        claim = PrivacyClaim(
            "DPdisPCA", neighbours, message("claims.fedpca.sens_dpdispca"), eps, dlt, True,
            message("claims.fedpca.why_dpdispca"),
        )  # fmt: skip
    elif method == "shared-seed":
        return PrivacyClaim(
            message("claims.fedpca.mech_shared_seed"), neighbours, sens_txt, eps, dlt, False,
            message("claims.fedpca.why_shared_seed"),
        )  # fmt: skip
    elif method == "cape":
        claim = cape_privacy_claim(eps, dlt, n, check_int(s, "s", minimum=1), variant="calibrated")
        claim = PrivacyClaim(
            claim.mechanism, neighbours, claim.sensitivity, eps, dlt, True, "", claim.conditions
        )
    elif method == "noisy-power":
        pc = power_privacy_claim(eps, dlt, n, calibration=calibration)
        claim = PrivacyClaim(
            pc.mechanism, neighbours, pc.sensitivity, eps, dlt, True, "", pc.conditions[:2]
        )
    elif method == "secure-aggregation":
        s = check_int(s, "s", minimum=1)
        claim = PrivacyClaim(
            message("claims.fedpca.mech_secure_aggregation"), neighbours, sens_txt, eps, dlt, True,
            message("claims.fedpca.why_secure_aggregation", s=str(s)),
        )  # fmt: skip
        # the accounting is that of real-valued shares: the implementation's fixed-point encoding and modular
        # sum (rounding R per entry, thm-fedpca-secure-aggregation) are not analysed (issue 46, m6)
        claim = claim.with_conditions(SECURE_AGGREGATION_REAL_SHARES)
    else:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    claim = claim.with_conditions(
        message("claims.fedpca.cond_subspace"),
        message("claims.fedpca.cond_preprocessing"),
        message("claims.fedpca.cond_public_n"),
    )
    if dataset is not None:
        claim = claim.with_conditions(bounds_condition(dataset))
    if preprocessing == "as-written":
        measured, delta_pair = _as_written_sensitivity()
        return claim.failing(
            message(
                "claims.fedpca.why_as_written",
                m=number(measured, 4),
                d=tex(number(delta_pair, 4)),
                r=f"{measured / delta_pair:.1f}",
            )
        )
    if neighbours == "add-remove":
        return claim.failing(message("claims.fedpca.why_add_remove"))
    # the calibration's validity (per site for DPdisPCA: the same (eps, delta), so the same verdict)
    g = gaussian_claim(sens, eps, dlt, calibration)
    if not g.private:
        return claim.failing(g.why)
    return claim.with_conditions(*g.conditions)


@functools.cache
def _as_written_sensitivity() -> tuple[float, float]:
    """Measured ``‖A(D′) − A(D)‖`` after the as-written preprocessing on the audit's raw replace-one pair, and the
    ``Δ = √2/n`` the noise is calibrated to (the numbers the chapter prints)."""
    from .datasets import audit_rows, preprocessing_sensitivity

    d, d2 = audit_rows()
    return preprocessing_sensitivity(d, d2, preprocessing="as-written"), sensitivity(d.shape[0])


#: What the sites publish: the subspace only, the source's step 7 (exact projections ``Y_i = X_i V′``, with the
#: labels), or the end-to-end private variant (noisy projections and randomized-response labels).
RELEASES = ("subspace", "exact-projections", "noisy-projections")
#: The end-to-end variant's split of (ε, δ): subspace (ε/2, δ/2), projections (ε/4, δ/2), labels (ε/4, 0).
END_TO_END_SHARES = {"subspace": (0.5, 0.5), "projections": (0.25, 0.5), "labels": (0.25, 0.0)}
#: L2 sensitivity of ``Y = XV′`` under replace-one for rows in the unit ball: one row moves by ≤ ‖x − x′‖₂ ≤ 2.
PROJECTION_SENSITIVITY = 2.0


def noisy_projections(
    x: np.ndarray,
    v: np.ndarray,
    labels: np.ndarray,
    n_classes: int,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    calibration: Calibration = "auto",
) -> tuple[np.ndarray, np.ndarray]:
    """The end-to-end private release of a site's rows given a private subspace ``v`` (d × k): ``x v + N(0, σ²)``
    per entry, σ calibrated to L2 sensitivity 2 (replace-one, rows in the unit ball) at the projections' share of
    (ε, δ), and the labels by GRR over ``n_classes`` classes at the labels' share (:data:`END_TO_END_SHARES`;
    ``epsilon``, ``delta`` are the totals, the subspace's share included). Rows of norm > 1 are refused."""
    x = check_array(x, "x", ndim=2)
    v = check_array(v, "v", ndim=2)
    rng = check_rng(rng)
    eps, dlt = check_epsilon(epsilon), check_delta(delta)
    if np.any(np.linalg.norm(x, axis=1) > 1 + 1e-9):
        raise ValueError(
            f"x must have rows with ||x||_2 <= 1, found a row of norm {np.linalg.norm(x, axis=1).max()!r}"
        )
    pe, pd_ = END_TO_END_SHARES["projections"]
    sigma = calibrated_sigma(PROJECTION_SENSITIVITY, pe * eps, pd_ * dlt, calibration)
    y = x @ v + sigma * rng.standard_normal((x.shape[0], v.shape[1]))
    k = check_int(n_classes, "n_classes", minimum=2)
    return y, grr_privatise(labels, k, END_TO_END_SHARES["labels"][0] * eps, rng)


def release_claim(
    method: str,
    epsilon: float,
    delta: float,
    n: int,
    *,
    release: str,
    dataset: str | None = None,
    s: int = 1,
    calibration: Calibration = "classical",
) -> PrivacyClaim:
    """What a row of the SVM experiment releases (``release``, one of :data:`RELEASES`; named by every caller, as a
    subspace and the source's step 7 after it differ in kind), as a claim.

    ``"subspace"``: :func:`privacy_claim`. ``"exact-projections"``: the source's step 7, ``Y_i = X_i V′`` with the
    labels — ``private=False`` whatever the subspace's claim (stated in ``why``). ``"noisy-projections"``: the
    end-to-end variant of :func:`noisy_projections` on top of ``method``'s subspace at its share of (ε, δ); (ε, δ)-DP
    by basic composition when the subspace's claim and the projections' Gaussian calibration hold.
    """
    if release not in RELEASES:
        raise ValueError(f"release must be one of {'|'.join(RELEASES)}, got {release!r}")
    eps, dlt = check_epsilon(epsilon), check_delta(delta)
    kw = {"dataset": dataset, "s": s, "calibration": calibration}
    if release == "subspace":
        return privacy_claim(method, eps, dlt, n, **kw)
    if release == "exact-projections":
        sub = privacy_claim(method, eps, dlt, n, **kw)
        verdict = (
            f"the subspace V' alone is {sub.guarantee}"
            if sub.private
            else "the subspace V' is not private either"
        )
        return PrivacyClaim(
            f"{sub.mechanism}, then exact projections Y_i = X_i V' (source step 7)",
            "replace-one",
            "none: Y_i is a deterministic function of the raw rows",
            eps,
            dlt,
            False,
            "trained on exact projections: not private — each site publishes Y_i = X_i V' and the labels without "
            "noise; Y_i V'^T recovers every row's component in V' exactly and one record changes its own row of Y, "
            f"so no (eps, delta) holds ({verdict})",
            sub.conditions,
        )
    fs, fd = END_TO_END_SHARES["subspace"]
    sub = privacy_claim(method, fs * eps, fd * dlt, n, **kw)
    pe, pd_ = END_TO_END_SHARES["projections"]
    g = gaussian_claim(PROJECTION_SENSITIVITY, pe * eps, pd_ * dlt, calibration)
    claim = PrivacyClaim(
        message("claims.fedpca.e2e_mech", sub=sub.mechanism),
        "replace-one",
        message("claims.fedpca.e2e_sens", s=f"{PROJECTION_SENSITIVITY:g}"),
        eps,
        dlt,
        True,
        message("claims.fedpca.e2e_why"),
        tuple(dict.fromkeys((*sub.conditions, *g.conditions))),
    )
    if not sub.private:
        return claim.failing(f"its subspace is not private: {sub.why}")
    if not g.private:
        return claim.failing(g.why)
    return claim
