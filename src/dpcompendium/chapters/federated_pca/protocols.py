"""The federated protocols: the source's masked mean, its shared-seed noise, the seed attack, and the fix.

All masking is done in fixed point modulo 2⁶⁴ (values ``round(x·2^f)`` as ``uint64``, wrapping arithmetic), so that
masks cancel *exactly* and a uniformly random mask hides a message perfectly (a one-time pad in ℤ_{2⁶⁴}). The source
speaks of random "decimals" that sum to zero; real-valued masks neither cancel exactly in floating point nor hide a
value whose magnitude exceeds theirs, so this is the faithful protocol in the arithmetic where it works.

Protocols (sites ``1..s``, site 1 doubles as the server, ``A_i = X_iᵀX_i / n``, ``A = Σ A_i``,
``τ = Δ√(2 ln(1.25/δ))/ε`` with ``Δ = 1/n``) :cite:`src_fedpca`:

- :func:`masked_sum_count` — step 1 of the source: site 2 draws masks ``a_2..a_s`` (sum 0) and ``b_2..b_s`` (sum 0)
  and sends ``a_i, b_i`` to site ``i``; site ``i ≥ 2`` sends ``sum_i + a_i, N_i + b_i`` to site 1, which adds them.
  Site 1 learns the exact global sum and count (not DP); site 2 knows every mask, so sites 1 and 2 together learn
  every site's sum and count; with ``s = 2`` the only mask is ``a_2 = 0``.
- :func:`shared_seed_protocol` — steps 4–5: every site draws the same ``E ~ N(0, τ²)`` (symmetric) from a shared seed
  and sends ``A_i + E/s``. The sum is ``A + E``, the central Analyze-Gauss release, but anyone holding the seed
  recovers ``A_i = A_i' − E/s`` exactly (:func:`seed_attack`): **not private** against the server or any site.
- :func:`secure_aggregation_protocol` — the fix: site ``i`` draws its own ``E_i ~ N(0, τ²/s)`` (symmetric), so
  ``Σ E_i ~ N(0, τ²)`` is again the central noise, and hides ``A_i + E_i`` under pairwise masks ``m_ij = −m_ji``
  (secure aggregation, :cite:`bonawitz2017practical`). The server learns only ``A + Σ E_i``: (ε, δ)-DP against the
  server and anyone who sees the output. A coalition of the server with ``c`` sites can subtract its members' noise,
  leaving variance ``τ²(s − c)/s`` on the others, i.e. μ-GDP's μ grows by ``√(s/(s − c))`` (ε at fixed δ only to
  first order, not as a bound: ε grows faster than μ once μ is large; ``coalition_epsilon`` gives the
  exact value); with all other sites it unmasks site ``i`` and sees ``A_i + E_i`` (about ε·√s for site i's records). Fixed-point rounding of each site's noisy matrix
  (2^-f) is ignored in the DP accounting (a discrete-Gaussian analysis would close that gap).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.rng import make_rng
from ...core.validation import check_array, check_int, check_rng, check_sensitivity
from .core import symmetric_gaussian

__all__ = [
    "FRAC_BITS",
    "MaskedSumCount",
    "Transcript",
    "decode",
    "encode",
    "masked_sum_count",
    "pairwise_masks",
    "secure_aggregation_protocol",
    "seed_attack",
    "shared_seed_protocol",
    "unmask_attack",
]

#: Fixed-point fractional bits: resolution 2^-40 ≈ 9e-13, range ±2^23 ≈ 8e6 for values and their sums.
FRAC_BITS = 40
_UMAX = np.iinfo(np.uint64).max


def encode(x: np.ndarray, frac_bits: int = FRAC_BITS) -> np.ndarray:
    """Fixed point: ``round(x·2^f)`` as two's-complement ``uint64``; |x|·2^f must stay below 2^62."""
    f = check_int(frac_bits, "frac_bits", minimum=0, maximum=60)
    try:
        x = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        x = check_array(x, "x", allow_empty=True)  # raises its message
    # the sweeps encode (ε, sites, d, d) stacks: one product, rint in place, and the range test from the extremes
    # (max |v| = max(max v, −min v); NaN or ±inf propagate into them), without the temporaries of isfinite and abs
    scaled = x * 2.0**f
    np.rint(scaled, out=scaled)
    if scaled.size:
        hi, lo = scaled.max(), scaled.min()
        if not (np.isfinite(hi) and np.isfinite(lo)) and not np.all(np.isfinite(x)):
            check_array(x, "x", allow_empty=True)  # raises "x must be finite, found ..."
        if not max(hi, -lo) < 2.0**62:
            raise ValueError(
                f"x must satisfy |x| < 2^{62 - f} for frac_bits={f}, got max |x| = {np.max(np.abs(x))!r}"
            )
    return scaled.astype(np.int64).view(np.uint64)


def decode(u: np.ndarray, frac_bits: int = FRAC_BITS) -> np.ndarray:
    """Inverse of :func:`encode` (read the ``uint64`` as signed, divide by 2^f)."""
    f = check_int(frac_bits, "frac_bits", minimum=0, maximum=60)
    return np.asarray(u, dtype=np.uint64).view(np.int64).astype(float) / 2.0**f


def _uniform_u64(rng: np.random.Generator, size: tuple[int, ...]) -> np.ndarray:
    return rng.integers(0, _UMAX, size=size, dtype=np.uint64, endpoint=True)


def _zero_sum_masks(m: int, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """``m`` uniform masks in ℤ_{2⁶⁴} whose sum is 0: the first ``m − 1`` uniform, the last minus their sum."""
    if m == 0:
        return np.zeros((0, *shape), dtype=np.uint64)
    masks = np.empty((m, *shape), dtype=np.uint64)
    masks[:-1] = _uniform_u64(rng, (m - 1, *shape))
    masks[-1:] = np.negative(
        masks[:-1].sum(axis=0, dtype=np.uint64, keepdims=True)
    )  # array ops wrap silently
    return masks


@dataclass(frozen=True)
class MaskedSumCount:
    """Transcript of the source's masked mean: masks (drawn by site 2), messages (sent to site 1), totals."""

    sum_masks: np.ndarray  # (s, d) uint64, row 0 (site 1) is zero
    count_masks: np.ndarray  # (s,) uint64, entry 0 is zero
    sum_messages: np.ndarray  # (s, d) uint64
    count_messages: np.ndarray  # (s,) uint64
    total_sum: np.ndarray  # (d,) float, decoded
    total_count: int
    frac_bits: int

    @property
    def mean(self) -> np.ndarray:
        return self.total_sum / self.total_count


def masked_sum_count(
    sums: np.ndarray, counts: np.ndarray, rng: np.random.Generator, *, frac_bits: int = FRAC_BITS
) -> MaskedSumCount:
    """The source's step 1: zero-sum masks ``a_i`` (sums) and ``b_i`` (counts) for sites 2..s, drawn by site 2;
    site 1 adds ``sum_1 + Σ_{i≥2}(sum_i + a_i)`` and ``N_1 + Σ_{i≥2}(N_i + b_i)``; the masks cancel exactly.

    Not differentially private: site 1 learns the exact global sum and count; site 1 and site 2 together learn every
    site's. ``sums`` is (s, d), ``counts`` (s,) non-negative integers.
    """
    rng = check_rng(rng)
    sums = check_array(sums, "sums", ndim=2)
    counts = check_array(counts, "counts", ndim=1, dtype=np.int64)
    if counts.shape[0] != sums.shape[0] or np.any(counts < 0):
        raise ValueError(
            f"counts must be {sums.shape[0]} non-negative integers, got {counts.tolist()!r}"
        )
    s, d = sums.shape
    a = np.zeros((s, d), dtype=np.uint64)
    b = np.zeros(s, dtype=np.uint64)
    a[1:] = _zero_sum_masks(s - 1, (d,), rng)
    b[1:] = _zero_sum_masks(s - 1, (), rng)
    sum_msg = encode(sums, frac_bits) + a  # wraps modulo 2^64
    count_msg = counts.view(np.uint64) + b
    total = decode(sum_msg.sum(axis=0, dtype=np.uint64), frac_bits)
    total_count = int(count_msg.sum(dtype=np.uint64, keepdims=True).view(np.int64)[0])
    return MaskedSumCount(a, b, sum_msg, count_msg, total, total_count, frac_bits)


def pairwise_masks(s: int, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    """Net masks of secure aggregation: for every pair ``i < j`` a uniform ``m_ij`` that site ``i`` adds and site
    ``j`` subtracts (in a deployment, derived from a key shared by ``i`` and ``j`` only). Returns ``(s, *shape)`` uint64
    summing to 0 modulo 2⁶⁴; a loop over sites, not records."""
    s = check_int(s, "s", minimum=1)
    rng = check_rng(rng)
    net = np.zeros((s, *shape), dtype=np.uint64)
    for i in range(s - 1):
        m = _uniform_u64(rng, (s - i - 1, *shape))
        net[i : i + 1] += m.sum(axis=0, dtype=np.uint64, keepdims=True)
        net[i + 1 :] -= m
    return net


@dataclass(frozen=True)
class Transcript:
    """What the sites send and what the server computes. ``messages`` are float matrices (shared-seed) or masked
    fixed-point ``uint64`` matrices (secure aggregation); ``masks`` are the net pairwise masks (known, for site i, to
    the coalition of all other sites); ``seed`` is the shared seed (known to every site)."""

    protocol: str
    messages: np.ndarray
    aggregate: np.ndarray
    tau: float
    seed: int | None = None
    masks: np.ndarray | None = None
    frac_bits: int = FRAC_BITS


def _local_matrices(scatters: np.ndarray, n: int) -> np.ndarray:
    scatters = check_array(scatters, "scatters", ndim=3)
    if scatters.shape[1] != scatters.shape[2]:
        raise ValueError(f"scatters must have shape (s, d, d), got {scatters.shape}")
    return scatters / check_int(n, "n", minimum=1)


def shared_seed_protocol(scatters: np.ndarray, n: int, tau: float, seed: int) -> Transcript:
    """The source's ELFedPCA noise (steps 4–5): ``E`` (noise scale ``tau``, from
    :func:`~dpcompendium.chapters.federated_pca.noise_scale`) from the shared ``seed``, site ``i`` sends
    ``A_i + E/s``, the server sums to ``A + E``. **Not private**: every site knows ``E/s`` (see :func:`seed_attack`)."""
    local = _local_matrices(scatters, n)
    s, d, _ = local.shape
    tau = check_sensitivity(tau, "tau")
    e = symmetric_gaussian(d, tau, make_rng(check_int(seed, "seed", minimum=0)))
    messages = local + e / s
    return Transcript("shared-seed", messages, messages.sum(axis=0), tau, seed=seed)


def seed_attack(transcript: Transcript, site: int) -> np.ndarray:
    """A seed holder regenerates ``E`` and returns ``A_i' − E/s`` — site ``i``'s exact local matrix."""
    s, d, _ = transcript.messages.shape
    site = check_int(site, "site", minimum=0, maximum=s - 1)
    if transcript.seed is None:
        raise ValueError(
            f"transcript must carry a shared seed, got protocol {transcript.protocol!r}"
        )
    e = symmetric_gaussian(d, transcript.tau, make_rng(transcript.seed))
    return transcript.messages[site] - e / s


def secure_aggregation_protocol(
    scatters: np.ndarray,
    n: int,
    tau: float,
    rng: np.random.Generator,
    *,
    masks: bool = True,
    frac_bits: int = FRAC_BITS,
) -> Transcript:
    """The corrected protocol: site ``i`` sends ``encode(A_i + E_i) + Σ_j ±m_ij`` with independent
    ``E_i ~ N(0, τ²/s)`` (``τ`` = ``tau``, from :func:`~dpcompendium.chapters.federated_pca.noise_scale`); the
    server decodes the sum ``A + Σ E_i`` (same law as ``A + E``). The masks cancel exactly, so ``masks=False`` gives a
    bit-identical aggregate (used in sweeps to save time)."""
    rng = check_rng(rng)
    local = _local_matrices(scatters, n)
    s, d, _ = local.shape
    tau = check_sensitivity(tau, "tau")
    noisy = local + symmetric_gaussian(d, tau / np.sqrt(s), rng, size=(s,))
    enc = encode(noisy, frac_bits)
    net = pairwise_masks(s, (d, d), rng) if masks else None
    messages = enc + net if net is not None else enc
    aggregate = decode(messages.sum(axis=0, dtype=np.uint64), frac_bits)
    return Transcript(
        "secure-aggregation", messages, aggregate, tau, masks=net, frac_bits=frac_bits
    )


def unmask_attack(
    transcript: Transcript, site: int, *, colluders_know_masks: bool = False
) -> np.ndarray:
    """What an attacker makes of site ``i``'s secure-aggregation message: the server alone decodes the masked value
    (uniform noise); with every other site colluding it removes the pairwise masks and gets ``A_i + E_i``."""
    s = transcript.messages.shape[0]
    site = check_int(site, "site", minimum=0, maximum=s - 1)
    msg = transcript.messages[site]
    if colluders_know_masks:
        if transcript.masks is None:
            raise ValueError(
                "transcript must carry masks when colluders_know_masks=True, got masks=None"
            )
        msg = msg - transcript.masks[site]
    return decode(msg, transcript.frac_bits)
