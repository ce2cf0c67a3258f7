"""CAPE (correlated noise across sites), the coalition bounds, and the statistical checks of the federated protocols.

**CAPE** :cite:`fedpca_imtiaz2019cape`. Site ``i`` sends ``A_i + e_i + g_i`` in the clear (no masks), with
``A_i = X_iᵀX_i/n`` its share of ``A``, ``g_i`` symmetric ``N(0, τ_g²)`` of its own and ``e_i`` correlated noise that
sums to zero over the sites: ``e_i = e′_i − ē′`` with ``e′_i`` iid ``N(0, σ′²)`` (the mean ``ē′`` from a secure sum of the
noise, never of the data). CAPE's choice: ``τ_g² = τ²/s`` and ``σ′² = τ²`` (so ``Var e_i = τ²(1 − 1/s)``), ``τ`` the
central noise of :func:`~dpcompendium.chapters.federated_pca.noise_scale`. Then every single message carries variance
``τ²`` (the central calibration for the message's sensitivity ``√2/n``), and the server's sum ``A + Σ g_i`` carries
exactly the central noise ``N(0, τ²)``: central utility without cryptography on the data.

**What the server's view guarantees.** The messages are jointly Gaussian: per matrix entry, the honest sites' noise
has covariance ``Σ = σ′²(I_m − 11ᵀ/m) + τ_g² I_m`` given everything a coalition of ``c`` sites knows (their own
``e′``, ``g`` and hence ``ē′``; ``m = s − c``). Changing one record of site ``i`` moves its message by ``Δ = √2/n``
along ``e_i``, so the view is the Gaussian mechanism with Mahalanobis sensitivity
``Δ_M² = Δ² [ (1/m)/τ_g² + (1 − 1/m)/(σ′² + τ_g²) ]`` (:func:`cape_noise_multiplier`): the exact (ε, δ) follows from
:func:`~dpcompendium.core.mechanisms.gaussian.gaussian_epsilon` at noise 1 and sensitivity ``Δ_M``. At ``c = 0``,
``Δ_M²/ (Δ/τ)² = 2s/(s + 1)``: the per-message guarantee does **not** carry over to the server, which sees all
messages (their contrasts carry the correlated noise that the sum cancels). ``variant="calibrated"`` scales all
noise by ``√(2s/(s+1))`` so that the server's joint view is (ε, δ)-DP; its aggregate noise is then that factor above
central. With ``c = s − 1`` colluders the remaining site is at ``Δ_M = √s·Δ/τ``, as under secure aggregation.

**Coalitions under secure aggregation** (:func:`coalition_table`): the server with ``c`` sites subtracts their noise
shares, leaving variance ``τ²(s − c)/s`` on the others: the exact ε at that noise, about ``ε√(s/(s − c))``.

**Checks** (:func:`noise_level_table`, :func:`equivalence_test`): the protocols' aggregate noise ``A′ − A`` against
the central law ``N(0, τ²)`` (a χ² test of its variance and a z test of its mean, over the upper-triangle entries of
many runs), and a two one-sided test (TOST) that two methods' mean captured energies differ by less than a stated
margin.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

import numpy as np
import pandas as pd
from scipy import stats

from ...core.mechanisms.gaussian import gaussian_claim, gaussian_epsilon
from ...core.messages import Md, message, tex
from ...core.privacy import PrivacyClaim
from ...core.validation import check_delta, check_epsilon, check_int, check_rng
from .core import (
    Calibration,
    aligned_cells,
    noise_scale,
    sensitivity,
    symmetric_gaussian,
    top_k_subspace,
)

__all__ = [
    "CAPE_VARIANTS",
    "EQUIVALENCE_MARGIN",
    "SAME_LAW_Z",
    "cape_epsilon",
    "cape_messages",
    "cape_noise_multiplier",
    "cape_pca",
    "cape_privacy_claim",
    "coalition_epsilon",
    "coalition_sentence",
    "coalition_table",
    "equivalence_test",
    "noise_level_table",
    "pooled_difference",
    "same_law_check",
]

CapeVariant = Literal["as-published", "calibrated"]
#: ``"as-published"``: CAPE's per-message calibration; ``"calibrated"``: noise scaled so the server's joint view is
#: (ε, δ)-DP (:func:`cape_noise_multiplier`).
CAPE_VARIANTS = ("as-published", "calibrated")
#: The equivalence margin of :func:`equivalence_test` on captured energy (one percentage point of the best k-dim
#: subspace's energy): a difference below it is not one a reader of the energy figures could see.
EQUIVALENCE_MARGIN = 0.01


def _mahalanobis_factor(s: int, c: int) -> float:
    """``Δ_M² / (Δ/τ)²`` for CAPE's noise (τ_g² = τ²/s, σ′² = τ²) against a coalition of ``c`` of ``s`` sites."""
    m = s - c
    return s / m + (1.0 - 1.0 / m) * s / (s + 1.0)


def cape_noise_multiplier(s: int, variant: CapeVariant = "as-published") -> float:
    """The factor on CAPE's noise: 1 as published, ``√(2s/(s+1))`` calibrated (the server's view at c = 0)."""
    s = check_int(s, "s", minimum=1)
    if variant not in CAPE_VARIANTS:
        raise ValueError(f"variant must be one of {'|'.join(CAPE_VARIANTS)}, got {variant!r}")
    return 1.0 if variant == "as-published" else math.sqrt(_mahalanobis_factor(s, 0))


def cape_epsilon(
    epsilon: float,
    delta: float,
    n: int,
    s: int,
    c: int = 0,
    *,
    variant: CapeVariant = "as-published",
    calibration: Calibration = "classical",
) -> float:
    """The exact ε at ``delta`` of the view of the server with ``c`` colluding sites (replace-one, n public) for
    CAPE at nominal (ε, δ): the Gaussian mechanism with Mahalanobis sensitivity (module docstring)."""
    s = check_int(s, "s", minimum=1)
    c = check_int(c, "c", minimum=0, maximum=s - 1)
    tau = noise_scale(epsilon, delta, n, calibration=calibration) * cape_noise_multiplier(
        s, variant
    )
    dm = sensitivity(n) / tau * math.sqrt(_mahalanobis_factor(s, c))
    return gaussian_epsilon(1.0, dm, check_delta(delta))


def cape_messages(
    shares: np.ndarray,
    tau: float,
    rng: np.random.Generator,
    *,
    size: tuple[int, ...] = (),
) -> np.ndarray:
    """The s messages ``A_i + e_i + g_i`` (…, s, d, d) of CAPE for the sites' shares ``A_i`` (s, d, d) at noise
    scale ``tau`` (the multiplier already applied): ``g_i`` ~ N(0, τ²/s), ``e_i = e′_i − ē′``, ``e′_i`` ~ N(0, τ²),
    all symmetric."""
    rng = check_rng(rng)
    s, d = shares.shape[0], shares.shape[-1]
    g = symmetric_gaussian(d, tau / math.sqrt(s), rng, size=(*size, s))
    e = symmetric_gaussian(d, tau, rng, size=(*size, s))
    e -= e.mean(axis=-3, keepdims=True)
    return shares + e + g


def cape_pca(
    data,
    k: int,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    variant: CapeVariant = "calibrated",
    messages: bool = False,
    reps: int | None = None,
    calibration: Calibration = "classical",
) -> np.ndarray:
    """CAPE's federated PCA :cite:`fedpca_imtiaz2019cape`: the server sums the messages of :func:`cape_messages`
    (``data`` a :class:`~dpcompendium.chapters.federated_pca.SiteData`) and returns the top-k eigenvectors.
    ``messages=True`` draws every message; without, the sum is drawn directly: the ``e_i`` cancel and ``Σ g_i`` is
    ``N(0, τ²)`` (times the variant's multiplier), the same law (tested)."""
    rng = check_rng(rng)
    k = check_int(k, "k", minimum=1, maximum=data.d)
    tau = noise_scale(epsilon, delta, data.n, calibration=calibration)
    tau *= cape_noise_multiplier(data.s, variant)
    size = () if reps is None else (check_int(reps, "reps", minimum=1),)
    if messages:
        agg = cape_messages(data.shares, tau, rng, size=size).sum(axis=-3)
    else:
        agg = data.second_moment + symmetric_gaussian(data.d, tau, rng, size=size)
    return top_k_subspace(agg, k)


def cape_privacy_claim(
    epsilon: float,
    delta: float,
    n: int,
    s: int,
    *,
    variant: CapeVariant = "as-published",
    calibration: Calibration = "classical",
) -> PrivacyClaim:
    """What the server's view of CAPE's messages guarantees (c = 0): (ε, δ)-DP for ``variant="calibrated"``;
    as published, the per-message (ε, δ) of the source paper, and ``private=False`` with the exact joint-view ε when
    that exceeds ε (always for s ≥ 2)."""
    eps, dlt = check_epsilon(epsilon), check_delta(delta)
    s = check_int(s, "s", minimum=1)
    exact = cape_epsilon(eps, dlt, n, s, 0, variant=variant, calibration=calibration)
    sens = message("claims.fedpca.sens_cape")
    claim = PrivacyClaim(
        message("claims.fedpca.mech_cape", variant=message(f"claims.fedpca.cape_{variant}")),
        "replace-one",
        sens,
        eps,
        dlt,
        True,
        "",
        (
            message("claims.fedpca.cond_cape_public"),
            message("claims.fedpca.cond_cape_coalition", s=str(s)),
            message("claims.fedpca.cond_cape_zero_sum"),
        ),
    )
    if exact > eps * (1 + 1e-9):
        return claim.failing(
            message(
                "claims.fedpca.why_cape",
                s=str(s),
                exact=tex(f"{exact:.4g}"),
                delta=tex(f"{dlt:.3g}"),
                factor=tex(f"{math.sqrt(_mahalanobis_factor(s, 0)):.3g}"),
            )
        )
    g = gaussian_claim(sensitivity(n), eps, dlt, calibration)
    return claim if g.private else claim.failing(g.why)


def coalition_epsilon(
    epsilon: float,
    delta: float,
    n: int,
    s: int,
    c: int,
    *,
    calibration: Calibration = "classical",
) -> float:
    """Secure aggregation at nominal (ε, δ): the exact ε at ``delta`` of the server with ``c`` colluding sites,
    who face noise of variance ``τ²(s − c)/s`` on the others (replace-one, Δ = √2/n)."""
    s = check_int(s, "s", minimum=1)
    c = check_int(c, "c", minimum=0, maximum=s - 1)
    tau = noise_scale(epsilon, delta, n, calibration=calibration)
    return gaussian_epsilon(tau * math.sqrt((s - c) / s), sensitivity(n), check_delta(delta))


def coalition_table(
    epsilon: float,
    delta: float,
    n: int,
    sites: Sequence[int],
    *,
    calibration: Calibration = "classical",
) -> pd.DataFrame:
    """One row per (s, c), c = 0..s−1: the exact ε of the server with c colluders under secure aggregation and
    under CAPE (as published and calibrated), and the first-order approximation ``ε√(s/(s − c))`` (``first_order``;
    not a bound: ε grows faster than μ once μ is large, so the exact ε can exceed it)."""
    rows = []
    for s in sites:
        for c in range(check_int(s, "sites", minimum=1)):
            kw = {"calibration": calibration}
            rows.append(
                {
                    "sites": s,
                    "colluders": c,
                    "epsilon": epsilon,
                    "delta": delta,
                    "secure_aggregation": coalition_epsilon(epsilon, delta, n, s, c, **kw),
                    "cape": cape_epsilon(epsilon, delta, n, s, c, **kw),
                    "cape_calibrated": cape_epsilon(
                        epsilon, delta, n, s, c, variant="calibrated", **kw
                    ),
                    "first_order": epsilon * math.sqrt(s / (s - c)),
                }
            )
    return pd.DataFrame(rows)


def noise_level_table(
    data,
    epsilon: float,
    delta: float,
    rng: np.random.Generator,
    *,
    runs: int = 20,
    calibration: Calibration = "classical",
) -> pd.DataFrame:
    """What "the same noise as central DP-PCA" means, tested: for each protocol (shared seed, secure aggregation
    with masks, CAPE as published) ``runs`` aggregates ``A′`` on ``data`` (a
    :class:`~dpcompendium.chapters.federated_pca.SiteData`); the upper-triangle entries of ``(A′ − A)/τ`` should be
    iid N(0, 1). Columns: ``entries``, ``sd_ratio`` (empirical sd / τ) with its 99 % χ² interval, the χ² test's
    two-sided ``p_variance``, the mean's z test ``p_mean``. The power: a variance off by ``power_ratio`` (the ratio
    detected with probability 0.9 at level 0.01) would be found."""
    from .protocols import secure_aggregation_protocol, shared_seed_protocol

    rng = check_rng(rng)
    runs = check_int(runs, "runs", minimum=1)
    tau = noise_scale(epsilon, delta, data.n, calibration=calibration)
    a = data.second_moment
    iu = np.triu_indices(data.d)
    out = []
    cases = {
        "shared-seed": lambda: (
            shared_seed_protocol(data.scatters, data.n, tau, int(rng.integers(2**63 - 1))).aggregate
        ),
        "secure-aggregation": lambda: (
            secure_aggregation_protocol(data.scatters, data.n, tau, rng, masks=True).aggregate
        ),
        # CAPE as published (per-message calibration: not private against the server), not the calibrated
        # variant the sweeps call "cape" (issue 46, m5)
        "cape-as-published": lambda: cape_messages(data.shares, tau, rng).sum(axis=0),
    }
    for name, draw in cases.items():
        z = np.concatenate([((draw() - a) / tau)[iu] for _ in range(runs)])
        m = z.size
        ss = float(np.sum(z**2))
        lo, hi = stats.chi2.ppf([0.995, 0.005], m)
        cdf = stats.chi2.cdf(ss, m)
        # the ratio r of sd's that a two-sided level-0.01 test detects with probability 0.9 (normal approximation
        # of the chi-square: sd of the variance estimate sqrt(2/m))
        power_ratio = math.sqrt(
            1 + (stats.norm.ppf(0.995) + stats.norm.ppf(0.9)) * math.sqrt(2 / m)
        )
        out.append(
            {
                "protocol": name,
                "runs": runs,
                "entries": m,
                "sd_ratio": math.sqrt(ss / m),
                "sd_ratio_lo": math.sqrt(ss / lo),
                "sd_ratio_hi": math.sqrt(ss / hi),
                "p_variance": float(2 * min(cdf, 1 - cdf)),
                "p_mean": float(2 * stats.norm.sf(abs(z.mean()) * math.sqrt(m))),
                "power_ratio": power_ratio,
            }
        )
    return pd.DataFrame(out)


#: The |z| beyond which :func:`same_law_check` flags the simulation (two-sided; a false alarm has probability
#: 6·10⁻⁷ when the two arms are identical in law).
SAME_LAW_Z = 5.0


def same_law_check(
    energy: pd.DataFrame,
    method: str = "secure-aggregation",
    reference: str = "central",
    *,
    z: float = SAME_LAW_Z,
) -> dict:
    """The simulation's check of an identity in law, not a comparison of methods.

    Secure aggregation's aggregate is ``A + Σ_i E_i + R`` with ``E_i`` iid symmetric ``N(0, τ²/s)``, so ``Σ_i E_i`` is
    symmetric ``N(0, τ²)``: the central Analyze-Gauss noise, exactly; ``R`` is the fixed-point rounding, at most
    ``s·2^-(f+1)`` per entry (:data:`~dpcompendium.chapters.federated_pca.FRAC_BITS`). The released subspaces, hence
    the captured energies, have the law of central DP-PCA's (up to ``R``, ~10⁻¹¹): the expected difference is 0 in
    every cell, by the algebra, whatever the number of repetitions. A test of equivalence (TOST) within a margin would
    only restate that; what a simulation can check is that the implementation delivers it: the mean difference over
    the aligned cells of :func:`~dpcompendium.chapters.federated_pca.energy_table` (cells independent) is consistent
    with 0, ``|difference/se| < z``. ``consistent`` False would reveal a bug in the code, not a property of the
    protocol. Returns the difference, its se, its z-score, the interval ``difference ± z·se`` and ``consistent``
    (NaN and False without a standard error: one repetition)."""
    zmax = float(z)
    if not (math.isfinite(zmax) and zmax > 0):
        raise ValueError(f"z must be finite and > 0, got {z!r}")
    out = pooled_difference(energy, method, reference)
    diff, se = out["difference"], out["se"]
    if not (np.isfinite(se) and se > 0):
        nan = float("nan")
        return {"difference": diff, "se": nan, "z": nan, "lo": nan, "hi": nan, "consistent": False}
    return {
        **out,
        "lo": diff - zmax * se,
        "hi": diff + zmax * se,
        "consistent": bool(abs(diff / se) < zmax),
    }


def pooled_difference(energy: pd.DataFrame, method: str, reference: str = "central") -> dict:
    """The mean captured-energy difference ``method − reference`` over the aligned cells of
    :func:`~dpcompendium.chapters.federated_pca.energy_table` (a quantity, no verdict): ``difference``, its standard
    error ``se`` from the cells' standard errors (independent cells; NaN with one repetition) and ``z``."""
    a, b = aligned_cells(energy, method, reference)
    diff = float((a.captured_energy - b.captured_energy).mean())
    se = float(np.sqrt((a.captured_energy_se**2 + b.captured_energy_se**2).sum()) / len(a))
    if not (np.isfinite(se) and se > 0):
        return {"difference": diff, "se": float("nan"), "z": float("nan")}
    return {"difference": diff, "se": se, "z": diff / se}


def equivalence_test(
    energy: pd.DataFrame,
    method: str,
    reference: str = "central",
    *,
    margin: float = EQUIVALENCE_MARGIN,
    alpha: float = 0.05,
) -> dict:
    """TOST of the mean captured-energy difference ``method − reference`` over the aligned cells of
    ``energy_table`` (mean over cells, standard error from the cells' standard errors, independent cells): the
    methods are declared equivalent when the ``1 − 2α`` interval of the difference lies inside ``(−margin,
    margin)``. Pooled over cells, it says nothing of any one cell (a per-cell claim needs a test per cell and a
    multiplicity correction); between arms identical in law it only restates the algebra: the chapter uses
    :func:`same_law_check` there. Returns the difference, its se, the interval, ``p`` (the larger one-sided p-value) and
    ``equivalent``; NaN (and not equivalent) without a standard error (one repetition)."""
    out = pooled_difference(energy, method, reference)
    diff, se = out["difference"], out["se"]
    if not (np.isfinite(se) and se > 0):
        nan = float("nan")
        return {"difference": diff, "se": nan, "lo": nan, "hi": nan, "p": nan, "equivalent": False}
    q = stats.norm.ppf(1 - alpha)
    p = max(stats.norm.sf((diff + margin) / se), stats.norm.cdf((diff - margin) / se))
    return {
        "difference": diff,
        "se": se,
        "lo": diff - q * se,
        "hi": diff + q * se,
        "p": float(p),
        "equivalent": bool(p < alpha),
        "margin": margin,
    }


def coalition_sentence(
    sites: int,
    eps: str,
    nominal: str,
    exact0: str,
    first: str,
    one: str,
    cape: str,
    delta: str | None = None,
) -> Md:
    """The exact ε of the remaining site when the server and ``sites − 1`` sites collude (``eps``, formatted), at a
    nominal ``nominal``; its value with no colluder (``exact0``), the first-order approximation ε√s (``first``), with
    one colluder (``one``) and CAPE's with none (``cape``). ``delta``: Adult's δ, said in brackets; ``None`` where the
    lead before the sentence has already given the nominal ε and δ (native review 8, C6)."""
    check_int(sites, "sites", minimum=1)
    where = "" if delta is None else message("fedpca.coalition_where", delta=delta)
    return message(
        "fedpca.coalition",
        s=str(sites),
        c=str(sites - 1),
        eps=eps,
        nominal=nominal,
        where=where,
        exact0=exact0,
        first=first,
        one=one,
        cape=cape,
    )
